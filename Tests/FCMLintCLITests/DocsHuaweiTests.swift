import Foundation
import XCTest

/// Huawei Push Kit's messages look like FCM's (`{"message": {...}}`, with
/// `android.notification.click_action` an object and `token` a list): a sample sent to Push Kit's
/// endpoint, or introduced as Push Kit's, is skipped with that reason, and FCM's beside it is read.
extension CLITests {
  static let huaweiPage = #"""
    # Push Kit

    Send a message through HMS Push Kit:

    ```http
    POST https://push-api.cloud.huawei.com/v1/123/messages:send HTTP/1.1
    Content-Type: application/json

    {
      "validate_only": false,
      "message": {
        "android": {
          "notification": {
            "title": "Hi",
            "click_action": {"type": 1, "intent": "#Intent;end"}
          }
        },
        "token": ["pushtoken1"]
      }
    }
    ```

    The same with FCM:

    ```http
    POST https://fcm.googleapis.com/v1/projects/p/messages:send HTTP/1.1

    {"message": {"token": "t", "data": {"n": 1}}}
    ```

    """#

  func testHuaweiPushKitSamplesAreSkippedWithTheirReason() throws {
    let root = try temporaryDirectory()
    try write(Self.huaweiPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try found(run), [Found(rule: "data-string-values", line: 28, column: 42, pointer: "/message/data/n")])
    let verbose = try fcmlint(["--docs", "--verbose", "page.md"], in: root)
    XCTAssertTrue(verbose.stderr.contains("skipped sample page.md:9: it is sent to Huawei Push Kit (HMS)"), verbose.stderr)
    // Named in the text before it, without the endpoint, Push Kit's sample is skipped too.
    let prose = "Send it with Huawei Push Kit:\n\n```json\n{\"message\": {\"token\": [\"a\"], \"android\": {\"notification\": {\"click_action\": {\"type\": 1}}}}}\n```\n"
    try write(prose, to: root.appendingPathComponent("kit.md"))
    let kit = try fcmlint(["--docs", "--verbose", "kit.md"], in: root)
    XCTAssertEqual(kit.status, 0, kit.stdout + kit.stderr)
    XCTAssertTrue(kit.stderr.contains("skipped sample kit.md:4: it is sent to Huawei Push Kit (HMS)"), kit.stderr)
    // On a page that sends only to Push Kit's endpoint, a sample far from it is Push Kit's too.
    let far = "POST https://push-api.cloud.huawei.com/v1/1/messages:send\n\n" + String(repeating: "Text.\n", count: 200)
      + "```json\n{\"message\": {\"token\": [\"a\"], \"data\": {\"n\": 1}}}\n```\n"
    try write(far, to: root.appendingPathComponent("far.md"))
    let farRun = try fcmlint(["--docs", "--verbose", "far.md"], in: root)
    XCTAssertEqual(farRun.status, 0, farRun.stdout + farRun.stderr)
    XCTAssertTrue(farRun.stderr.contains("skipped sample far.md:204: it is sent to Huawei Push Kit (HMS)"), farRun.stderr)
  }

  /// `--fix` leaves Push Kit's sample as it is and fixes FCM's.
  func testHuaweiPushKitSamplesAreNotFixed() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.huaweiPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    let expected = Self.huaweiPage.replacingOccurrences(of: #"{"n": 1}"#, with: #"{"n": "1"}"#)
    XCTAssertNotEqual(expected, Self.huaweiPage)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), expected)
  }
}
