import Foundation
import XCTest

/// Expo's push service takes messages of its own (`{"to": "ExponentPushToken[...]", "title": ...,
/// "body": ..., "sound": ..., "data": ...}`), whose `to` and `data` look like the legacy FCM API's:
/// a sample whose `to` is an Expo push token, or that the text just before sends to Expo's
/// endpoint, is skipped with that reason; FCM's beside it is still read.
extension CLITests {
  static let expoPage = #"""
    # Sending notifications

    The message format:

    ```json
    {
      "to": "ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]",
      "sound": "default",
      "body": "Hello world!",
      "data": { "withSome": "data" }
    }
    ```

    Send it to `https://exp.host/--/api/v2/push/send`:

    ```json
    {
      "to": "<your device's push token>",
      "sound": "default",
      "data": { "count": "1" }
    }
    ```

    With FCM itself (POST https://fcm.googleapis.com/v1/projects/p/messages:send):

    ```json
    {"message": {"token": "t", "data": {"count": 1}}}
    ```

    A legacy FCM body is still one:

    ```json
    {"to": "/topics/news", "data": {"count": "1"}, "notification": {"title": "Hi"}}
    ```

    """#

  func testExpoPushMessagesAreSkippedWithTheirReason() throws {
    let root = try temporaryDirectory()
    try write(Self.expoPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 27, column: 46, pointer: "/message/data/count"),
      Found(rule: "legacy-http-body", line: 33, column: 1, pointer: ""),
    ])
    let verbose = try fcmlint(["--docs", "--verbose", "page.md"], in: root)
    XCTAssertTrue(verbose.stderr.contains("skipped sample page.md:6: it is sent to Expo's push service"), verbose.stderr)
    XCTAssertTrue(verbose.stderr.contains("skipped sample page.md:17: it is sent to Expo's push service"), verbose.stderr)
  }

  /// `--fix` leaves Expo's messages as they are and fixes FCM's beside them, in the page's spelling.
  func testExpoPushMessagesAreNotFixed() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.expoPage, to: page)
    _ = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    let fixed = try String(contentsOf: page, encoding: .utf8)
    XCTAssertEqual(fixed, Self.expoPage.replacingOccurrences(of: #"{"count": 1}"#, with: #"{"count": "1"}"#))
  }
}
