import Foundation
import XCTest

/// An Amazon SNS message keeps each platform's payload as JSON in a JSON string: `GCM`'s
/// `fcmV1Message` is read as a v1 request body (SNS adds the target), `APNS` as an APNs payload,
/// SNS's legacy FCM form is skipped with its reason; positions and fixes go through the escapes.
extension CLITests {
  static let snsPage = #"""
    # Publish to SNS

    ```json
    {
      "default": "hello",
      "GCM": "{ \"fcmV1Message\": { \"validate_only\": false, \"message\": { \"notification\": { \"title\": \"Hi\" }, \"android\": { \"ttl\": 60 }, \"data\": {\"n\": 1} } } }",
      "APNS": "{\"aps\": {\"alert\": \"Hi\", \"badge\": \"1\"}}"
    }
    ```

    The legacy form:

    ```json
    {"GCM": "{\"notification\": {\"title\": \"Hi\", \"sound\": \"default\"}, \"time_to_live\": 60}"}
    ```

    """#

  func testSNSPlatformPayloadsInStringsAreRead() throws {
    let root = try temporaryDirectory()
    try write(Self.snsPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "android-ttl", line: 6, column: 139, pointer: "/message/android/ttl"),
      Found(rule: "data-string-values", line: 6, column: 163, pointer: "/message/data/n"),
      Found(rule: "apns-aps-value", line: 7, column: 53, pointer: "/aps/badge"),
    ])
    let verbose = try fcmlint(["--docs", "--verbose", "page.md"], in: root)
    XCTAssertTrue(verbose.stderr.contains("skipped sample page.md:14: it is Amazon SNS's FCM payload in its legacy form"), verbose.stderr)
  }

  func testSNSPlatformPayloadsAreFixedWithTheStringsEscapes() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.snsPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)  // the badge string has no mechanical fix
    let expected = Self.snsPage
      .replacingOccurrences(of: #"\"ttl\": 60 }"#, with: #"\"ttl\": \"60s\" }"#)
      .replacingOccurrences(of: #"{\"n\": 1}"#, with: #"{\"n\": \"1\"}"#)
    XCTAssertNotEqual(expected, Self.snsPage)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), expected)
  }
}
