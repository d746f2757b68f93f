import Foundation
import XCTest

/// Notification services wrap their own bodies in a `message` too (Courier:
/// `{"message": {"to": {"user_id": ...}, "content": {...}, "data": {...}}}`). The legacy FCM API's
/// `to` was a token or a topic, a string; a `to` that holds an object is a service's recipient, no
/// Message field, so such a body is skipped. A v1 request that keeps the legacy `"to": "TOKEN"` is
/// still reported.
extension CLITests {
  static let recipientPage = #"""
    # Send

    ```json
    {
      "message": {
        "to": {
          "email": "email@example.com"
        },
        "content": {
          "title": "Welcome!",
          "body": "Thanks for signing up, {{name}}"
        },
        "data": {
          "name": "Peter Parker"
        }
      }
    }
    ```

    A request migrated by half:

    ```json
    {"message": {"to": "bk3RNwTe3H0:CI2k_HHwgIpoDKCIZvvDMExUdFQ3P1", "notification": {"title": "Hi"}}}
    ```

    """#

  func testServicesRecipientsAreNotLegacyTargets() throws {
    let root = try temporaryDirectory()
    try write(Self.recipientPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try found(run).map(\.pointer), ["/message/to"])
    XCTAssertEqual(try found(run).first?.line, 23)
    let verbose = try fcmlint(["--docs", "--verbose", "page.md"], in: root)
    XCTAssertTrue(
      verbose.stderr.contains(#"skipped sample page.md:4: its "message" ("to", "content", "data") is not an FCM Message: "to", "content" are no Message fields"#),
      verbose.stderr)
    // --fix changes nothing in the service's body.
    let page = root.appendingPathComponent("page.md")
    _ = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).hasPrefix(Self.recipientPage.components(separatedBy: "A request").first!))
  }
}
