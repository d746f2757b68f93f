import Foundation
import XCTest

/// A web push payload for a service worker (Angular's `{"notification": {"title": ..., "data":
/// {"onActionClick": ...}}}`) is written like a Message's notification alone, but its
/// `notification` holds `data` and `actions`, which FCM's never did: it is skipped with that
/// reason. An FCM notification alone with the legacy API's keys in it (`sound`, `click_action`)
/// is still read and its misplaced keys reported.
extension CLITests {
  static let webPushPayloadPage = #"""
    # Push in an Angular app

    The service worker shows this payload:

    ```json
    {
      "notification": {
        "title": "New Notification",
        "body": "Hello",
        "data": {"onActionClick": {"default": {"operation": "openWindow", "url": "/"}}}
      }
    }
    ```

    A notification with a sound:

    ```json
    {"notification": {"title": "Hi", "sound": "default"}}
    ```

    """#

  func testServiceWorkerPayloadsAreNotFCMNotifications() throws {
    let run = try fcmlint(["--docs", "--verbose", "--format", "json", "--stdin-filename", "push.md", "-"], input: .bytes(Data(Self.webPushPayloadPage.utf8)))
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try found(run).map(\.pointer), ["/notification/sound"])
    XCTAssertTrue(run.stderr.contains(#"skipped sample push.md:6: its one key "notification" holds "data", which no FCM notification has"#), run.stderr)
  }
}
