import Foundation
import XCTest

/// `sendEach` and `sendAll` take a list of messages: the object literals of an array given to
/// them (inline, or assigned and given by name) are read as Messages, as the SDK sends each.
/// An array of objects with no such call near it (routes, chart data) is not read.
extension CLITests {
  static let sendEachPage = #"""
    # Send a batch

    ```ts
    const messages: Message[] = [
      { token: 'a', data: { n: 1 } },
      { token: 'b', notification: { title: 'Hi' } },
    ];
    await getMessaging().sendEach(messages);
    ```

    ```js
    getMessaging().sendEach([{ topic: 'news', data: { n: 2 } }, { topic: 'sport' }]);
    ```

    ```js
    const routes = [
      { path: 'home', data: { n: 3 } },
      { data: { id: 4 } },
    ];
    ```

    """#

  func testSendEachArraysAreMessages() throws {
    let root = try temporaryDirectory()
    try write(Self.sendEachPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 5, column: 28, pointer: "/data/n"),
      Found(rule: "data-string-values", line: 12, column: 54, pointer: "/data/n"),
    ])
    // Node.js literals are reported, not fixed.
    let page = root.appendingPathComponent("page.md")
    _ = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), Self.sendEachPage)
  }
}
