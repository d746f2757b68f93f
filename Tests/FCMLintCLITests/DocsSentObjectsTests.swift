import Foundation
import XCTest

/// JavaScript message objects a page sends: a REST body (`{message: {...}}`) assigned to a name
/// that a `fetch` gives to `JSON.stringify`, or given to it inline in a `fetch` or `axios` call,
/// is read as JavaScript writes it (no Admin SDK renames or conversions); an Admin SDK message
/// assigned and then given to `send` is read as the SDK sends it.
extension CLITests {
  static let sentObjectsPage = #"""
    # Send

    ```js
    const messageBody = {
      message: {
        topic: 'news',
        data: {count: 3},
      },
    };
    await fetch('https://fcm.googleapis.com/v1/projects/p/messages:send', {
      method: 'POST',
      headers: {Authorization: `Bearer ${token}`},
      body: JSON.stringify(messageBody),
    });
    ```

    ```js
    const payload = {
      token: t,
      notification: {title: 'Hi', imageUrl: 'https://example.com/a'},
      data: {n: 2},
    };
    await admin.messaging().send(payload);
    ```

    ```ts
    await axios.post(url, JSON.stringify({message: {topic: 'b', android: {ttl: 60}}}));
    await fetch(url, {method: 'POST', body: JSON.stringify({"message": {"topic": "c", "data": {"n": 1}}})});
    ```

    """#

  func testObjectsAssignedOrStringifiedAndSentAreRead() throws {
    let root = try temporaryDirectory()
    try write(Self.sentObjectsPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 7, column: 19, pointer: "/message/data/count"),
      Found(rule: "data-string-values", line: 21, column: 13, pointer: "/data/n"),
      // A REST body's ttl is sent as written: the SDK's milliseconds-to-Duration is not applied.
      Found(rule: "android-ttl", line: 27, column: 76, pointer: "/message/android/ttl"),
      Found(rule: "data-string-values", line: 28, column: 97, pointer: "/message/data/n"),
    ])
  }

  /// JavaScript literals are reported, not fixed (their JSON is not the page's text); JSON given to
  /// `JSON.stringify` is the page's text and is fixed in place.
  func testStringifiedJSONIsFixedAndLiteralsAreLeftAsWritten() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.sentObjectsPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    let expected = Self.sentObjectsPage.replacingOccurrences(of: #"{"n": 1}"#, with: #"{"n": "1"}"#)
    XCTAssertNotEqual(expected, Self.sentObjectsPage)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), expected)
  }
}
