import Foundation
import XCTest

/// A v1 body written as a string literal given straight to a call in Java, Kotlin, C#, Go or
/// JavaScript (`setBody("{\"message\": ...}")`, `new FcmV1Notification("{...}")`): read as the
/// string the program holds (`\"`, `\\`, `\n`, `\t`, `\r` decoded), fixed with the same escapes.
/// A string the program concatenates (`"{\"to\":\"" + token + "\"}"`) is no whole body and is
/// not read. A raw literal (a Go raw string, a JavaScript template literal without `${...}`) is
/// read as it is written.
extension CLITests {
  static let codeStringPage = #"""
    # Send from Java

    ```java
    HttpRequest request = HttpRequest.newBuilder(URI.create("https://fcm.googleapis.com/v1/projects/p/messages:send"))
        .POST(BodyPublishers.ofString("{\"message\": {\"token\": \"t\", \"data\": {\"count\": 3}}}"))
        .build();
    ```

    ```csharp
    var response = await client.PostAsync(url, new StringContent("{\"message\":{\"topic\":\"news\",\n\"data\":{\"n\":1},\"apns\":{\"headers\":{\"apns-priority\":10}}}}", Encoding.UTF8, "application/json"));
    ```

    ```java
    String pushMessage = "{\"data\":{\"title\":\"" + title + "\"},\"to\":\"" + token + "\"}";
    conn.getOutputStream().write(("{\"data\":{\"title\":\"" + title + "\"}}").getBytes());
    ```

    ```javascript
    const messageBody = `{
      "message": {
        "topic": "news",
        "data": {"count": 2}
      }
    }`;
    const withToken = `{"message": {"token": "${token}", "data": {"n": 1}}}`;
    ```

    ```go
    notification.Payload = []byte(`{"aps":{"alert":"Hello!","sound":{"name":"default","volume":2}}}`)
    ```

    """#

  func testJSONStringsGivenToCallsAreRead() throws {
    let root = try temporaryDirectory()
    try write(Self.codeStringPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 5, column: 91, pointer: "/message/data/count"),
      Found(rule: "data-string-values", line: 10, column: 114, pointer: "/message/data/n"),
      Found(rule: "apns-header-value", line: 10, column: 158, pointer: "/message/apns/headers/apns-priority"),
      Found(rule: "data-string-values", line: 22, column: 23, pointer: "/message/data/count"),
      // The template literal with `${token}` is not read whole; its inner object, after a `:`, is.
      Found(rule: "data-string-values", line: 25, column: 68, pointer: "/data/n"),
      Found(rule: "apns-aps-value", line: 29, column: 92, pointer: "/aps/sound/volume"),
    ])
  }

  /// The fix is written in the string's own escapes.
  func testJSONStringsGivenToCallsAreFixedInTheirEscapes() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.codeStringPage, to: page)
    _ = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    let fixed = try String(contentsOf: page, encoding: .utf8)
    XCTAssertTrue(fixed.contains(#".POST(BodyPublishers.ofString("{\"message\": {\"token\": \"t\", \"data\": {\"count\": \"3\"}}}"))"#), fixed)
    XCTAssertTrue(fixed.contains(#"{\"topic\":\"news\",\n\"data\":{\"n\":\"1\"},\"apns\""#), fixed)
    XCTAssertTrue(fixed.contains("    \"data\": {\"count\": \"2\"}\n"), fixed)
    // The concatenated literals are left as they are.
    for line in Self.codeStringPage.split(separator: "\n") where line.contains("\" + title + \"") {
      XCTAssertTrue(fixed.contains(line), fixed)
    }
  }
}
