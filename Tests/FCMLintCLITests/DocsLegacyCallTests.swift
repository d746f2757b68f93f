import Foundation
import XCTest

/// The Admin SDK's legacy calls (`sendToDevice(tokens, payload, options)`, `sendToTopic`...)
/// posted the legacy API's flat body: the payload, inline or assigned above the call, is read as
/// that body (target and snake-case options beside it) and reported as legacy with what v1 wants.
extension CLITests {
  static let legacyCallsPage = #"""
    # Send

    ```js
    admin.messaging().sendToDevice(
      [], // device fcm tokens...
      {
        data: {
          owner: JSON.stringify(owner),
          count: 3,
        },
      },
      {
        // Required for background/quit data-only messages on iOS
        contentAvailable: true,
        priority: 'high',
      },
    );
    ```

    ```js
    const payload = {
      notification: {title: 'Hi', body: 'There'},
    };
    const options = {timeToLive: 3600};
    admin.messaging().sendToTopic('news', payload, options);
    ```

    """#

  func testLegacySendCallsAreReportedAsLegacy() throws {
    let root = try temporaryDirectory()
    try write(Self.legacyCallsPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "legacy-http-body", line: 6, column: 3, pointer: ""),
      Found(rule: "data-string-values", line: 9, column: 14, pointer: "/data/count"),
      Found(rule: "legacy-http-body", line: 21, column: 17, pointer: ""),
    ])
    XCTAssertTrue(run.stdout.contains("migrate-v1"), run.stdout)
  }

  /// A legacy call has no mechanical fix (v1 is another call and another shape), and its literals
  /// are JavaScript: `--fix` leaves the page as it was and reports them.
  func testLegacySendCallsAreNotFixed() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.legacyCallsPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertTrue(run.stdout.contains("[legacy-http-body]"), run.stdout)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), Self.legacyCallsPage)
  }
}
