import Foundation
import XCTest

/// A migration guide shows the legacy body and the v1 request in one block, each under a `//`
/// comment, or two objects one after the other: each is a sample of its own, checked and fixed
/// as such, not one file with a second value after its end. A legacy body the comment before it
/// labels as the form the page migrates from (`// Before (Legacy)`) is skipped with that reason.
extension CLITests {
  static let severalObjectsPage = #"""
    # Migration

    ```json
    // Before (Legacy)
    {
      "to": "token",
      "notification": { "title": "Hi", "body": "There" }
    }

    // After (FCM v1)
    {
      "message": {
        "token": "token",
        "notification": { "title": "Hi", "body": "There" },
        "data": { "count": 1 }
      }
    }
    ```

    ```json
    {"to": "token", "notification": {"title": "Hi"}}
    {"message": {"token": "token", "data": {"count": 2}}}
    ```

    """#

  func testSeveralObjectsInABlockAreSeveralSamples() throws {
    let root = try temporaryDirectory()
    try write(Self.severalObjectsPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    // The legacy body labelled "Before (Legacy)" is what the page migrates from; the unlabelled
    // one is reported.
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 15, column: 24, pointer: "/message/data/count"),
      Found(rule: "legacy-http-body", line: 21, column: 1, pointer: ""),
      Found(rule: "data-string-values", line: 22, column: 50, pointer: "/message/data/count"),
    ])
    let verbose = try fcmlint(["--docs", "--verbose", "page.md"], in: root)
    XCTAssertTrue(verbose.stderr.contains("skipped sample page.md:5: it is the legacy API's body, labelled as the form the page migrates from"), verbose.stderr)
  }

  func testSeveralObjectsInABlockAreFixedEachInPlace() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.severalObjectsPage, to: page)
    _ = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(
      try String(contentsOf: page, encoding: .utf8),
      Self.severalObjectsPage.replacingOccurrences(of: #""count": 1 }"#, with: #""count": "1" }"#)
        .replacingOccurrences(of: #"{"count": 2}"#, with: #"{"count": "2"}"#))
  }
}
