import Foundation
import XCTest

/// Pages write the values a reader fills in as `<Your topic>`, `<DEVICE_TOKEN>`, `<image-url>`:
/// in a page's sample such a value is not known yet, as a template's `{{topic}}` is, and is not
/// reported as a malformed topic or image URL. The rest of the sample is still checked.
extension CLITests {
  static let anglePlaceholderPage = #"""
    # Send to a topic

    POST https://fcm.googleapis.com/v1/projects/myproject-b5ae1/messages:send

    ```json
    {
      "message": {
        "topic": "<Your topic>",
        "notification": {"title": "FCM Message", "image": "<image-url>"},
        "data": {"count": 1}
      }
    }
    ```

    ```json
    {"message": {"token": <DEVICE_TOKEN>, "topic": "/topics/news"}}
    ```

    """#

  func testAngleBracketPlaceholdersInPagesAreValuesNotKnownYet() throws {
    let root = try temporaryDirectory()
    try write(Self.anglePlaceholderPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try found(run).map(\.rule), ["data-string-values", "target-exactly-one", "topic-name"])
  }

  /// `--fix` fixes the rest and keeps the placeholders as the page writes them.
  func testAngleBracketPlaceholdersAreKeptByFixes() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.anglePlaceholderPage, to: page)
    _ = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(
      try String(contentsOf: page, encoding: .utf8),
      Self.anglePlaceholderPage.replacingOccurrences(of: #"{"count": 1}"#, with: #"{"count": "1"}"#)
        .replacingOccurrences(of: #""topic": "/topics/news""#, with: #""topic": "news""#))
  }

  /// A JSON file is read as it is: there `<...>` is text, as FCM gets it.
  func testAngleBracketsInAJSONFileAreText() throws {
    let root = try temporaryDirectory()
    try write(#"{"message": {"topic": "<Your topic>"}}"#, to: root.appendingPathComponent("m.json"))
    let run = try fcmlint(["--format", "json", "m.json"], in: root)
    XCTAssertEqual(try found(run).map(\.rule), ["topic-name"])
  }
}
