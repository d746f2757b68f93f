import Foundation
import XCTest

/// A Message's `name` is a field of its own (output only: FCM fills it in the response), and a
/// plugin's test messages carry one to tell them apart (`"name": "my_data"`). It is no evidence
/// either way: it does not make a sample foreign, nor a message.
extension CLITests {
  static let namedMessagesPage = """
    # Cloud messaging

    In a data message, specify the `notification_ios_badge` key in the `data` section:

    ```json
    {
        "name": "my_data",
        "data": {
            "notification_foreground": "true",
            "notification_ios_badge": 1
        }
    }
    ```

    Then reference it from your message payload:

    ```json
    {
        "name": "my_notification",
        "notification": {
            "body": "Notification body",
            "title": "Notification title"
        },
        "android": {
            "notification": {
                "channel_id": "my_channel_id",
                "notification_priority": "PRIORITY_HIGHEST"
            }
        }
    }
    ```

    """

  func testSamplesNamedByTheirAuthorAreMessages() throws {
    let root = try temporaryDirectory()
    try write(Self.namedMessagesPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 10, column: 35, pointer: "/data/notification_ios_badge"),
      Found(rule: "enum-value", line: 27, column: 38, pointer: "/android/notification/notification_priority"),
    ])
  }

  /// The fix lands in the page, its `name` kept.
  func testSamplesNamedByTheirAuthorAreFixedInThePage() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.namedMessagesPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    let fixed = try String(contentsOf: page, encoding: .utf8)
    XCTAssertTrue(fixed.contains(#"        "notification_ios_badge": "1""#), fixed)
    XCTAssertTrue(fixed.contains(#""name": "my_data","#), fixed)
  }

  /// Other APIs' JSON with a `name` stays skipped: a `name` beside keys of no Message, beside a
  /// `data` that holds objects (an event's payload, not FCM's string map), or beside a `to` that
  /// holds an object (a workflow trigger's subscriber; the legacy API's `to` was a string).
  func testANameMakesNoMessageOfOtherJSON() throws {
    let page = """
      # Events

      ```json
      {"name": "order.created", "data": {"order": {"id": 1}}}
      ```

      ```json
      {"name": "my-event", "channel": "orders", "data": {"id": "1"}}
      ```

      ```json
      {"name": "welcome", "to": {"subscriberId": "s1"}, "payload": {"a": 1}}
      ```

      ```json
      {"name": "projects/p/messages/0:1500415314455276%31bd1c9631bd1c96"}
      ```

      ```json
      {"to": {"subscriberId": "s1"}, "payload": {"a": 1}}
      ```

      """
    let run = try fcmlint(["--docs", "--verbose", "--format", "json", "--stdin-filename", "events.md", "-"], input: .bytes(Data(page.utf8)))
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try found(run), [])
    XCTAssertTrue(run.stderr.contains("events.md: not an FCM document: none of its 5 code samples are an FCM document"), run.stderr)
    XCTAssertTrue(run.stderr.contains(#"its only key, "name", is the one FCM fills in: a send's response, not a message"#), run.stderr)
  }
}
