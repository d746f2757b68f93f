import Foundation
import XCTest

/// Which JSON in a page is an FCM message (issue 28): read by its shape, not by one key that
/// resembles a Message field; the rest skipped and listed with the reason under `--verbose`.
extension CLITests {
  static let otherAPIsPage = """
    # Push gateway

    Send a notification through the gateway:

    ```json
    {
      "notifications": [
        {
          "tokens": ["abc", "def"],
          "platform": 2,
          "message": "Hello World Android!",
          "title": "Hi"
        }
      ]
    }
    ```

    The Matrix push gateway receives:

    ```json
    {
      "notification": {
        "event_id": "$3957tyerfgewrf384",
        "room_id": "!slw48wfj34rtnrf:example.com",
        "devices": [{"app_id": "org.matrix.console", "pushkey": "V2h5"}]
      }
    }
    ```

    The plugin hands your handler:

    ```json
    {
      // the text shown
      "message": "Hello",
      "title": "Greeting",
      "count": 1,
      "additionalData": {"foreground": true}
    }
    ```

    """

  func testOtherAPIsJSONInPagesIsSkippedWithTheReason() throws {
    let run = try fcmlint(["--docs", "--verbose", "--format", "json", "--stdin-filename", "gateway.md", "-"], input: .bytes(Data(Self.otherAPIsPage.utf8)))
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try found(run), [])
    XCTAssertTrue(run.stderr.contains("gateway.md: not an FCM document: none of its 3 code samples are an FCM document"), run.stderr)
    XCTAssertTrue(
      run.stderr.contains("skipped sample gateway.md:6: its keys (\"notifications\") only resemble an FCM message's, and nothing near it says it is sent to FCM"),
      run.stderr)
    XCTAssertTrue(
      run.stderr.contains("skipped sample gateway.md:21: its one key \"notification\" holds \"event_id\", \"room_id\", \"devices\", which no FCM notification has"),
      run.stderr)
    XCTAssertTrue(
      run.stderr.contains("skipped sample gateway.md:33: its keys (\"message\", \"title\", \"count\", ...) are not those of an FCM message"), run.stderr)
  }

  func testMessagesBesideOtherAPIsJSONAreStillReportedMisspellingsToo() throws {
    let page = Self.otherAPIsPage + """
      A request:

      ```json
      {"message": {"notifcation": {"title": "x"}, "token": "t"}}
      ```

      A Message with a misspelt field:

      ```json
      {"token": "t", "notifcation": {"title": "x"}}
      ```

      A notification alone, as the Firebase guides show one:

      ```json
      {"notification": {"title": "Sale", "image": "https://example.com/a"}}
      ```

      After a request line, one misspelt key is enough:

      ```http
      POST https://fcm.googleapis.com/v1/projects/p/messages:send HTTP/1.1

      {"notifications": {"title": "x"}}
      ```

      Sent with `admin.messaging().send(message)`:

      ```json
      {"notificaton": {"title": "x"}}
      ```

      """
    let run = try fcmlint(["--docs", "--verbose", "--format", "json", "--stdin-filename", "gateway.md", "-"], input: .bytes(Data(page.utf8)))
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(
      try found(run).filter { $0.rule != "image-extension-missing" },
      [
        Found(rule: "unknown-field", line: 44, column: 14, pointer: "/message/notifcation"),
        Found(rule: "unknown-field", line: 50, column: 16, pointer: "/notifcation"),
        Found(rule: "unknown-field", line: 64, column: 2, pointer: "/notifications"),
        Found(rule: "unknown-field", line: 70, column: 2, pointer: "/notificaton"),
      ])
    XCTAssertTrue(run.stderr.contains("skipped sample gateway.md:6: "), run.stderr)
    XCTAssertTrue(run.stderr.contains("skipped sample gateway.md:21: "), run.stderr)
  }
}

/// Elisions are holes (issue 28): what they leave out is not known, and the rest of the sample
/// is still checked; an elided sample is reported once and never fixed.
extension CLITests {
  static let elidedPage = """
    ```json
    {
      "message": {
        "token": "t",
        "data": { ... },
        "apns": {"headers": {"apns-priority": "10"}, "payload": {"aps": {"content-available": 1}}}
      }
    }
    ```

    ```json
    {"message": {"topic": "news", "notification": {"title": "Hi", … }, "android": {"ttl": 3600}}}
    ```

    ```json
    {
      "message": {
        "topic": "news",
        // ...
        "android": {"priority": "urgent"},
        "webpush": {"headers": { ... }},
        "apns": {"payload": {"aps": {"badge": "3"}}},
      }
    }
    ```

    ```json
    {"message": {"token": ..., "data": {"a": "b"}, ..., "fcm_options": {"analytics_label": "a b"}}}
    ```

    """

  func testElisionsAreHolesAndTheRestIsChecked() throws {
    let run = try fcmlint(["--docs", "--format", "json", "--stdin-filename", "page.md", "-"], input: .bytes(Data(Self.elidedPage.utf8)))
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(
      try found(run).map { "\($0.line):\($0.column) \($0.rule) \($0.pointer)" },
      [
        // After `"data": { ... }`: the background push sent with apns-priority 10.
        "5:15 elided-sample ",
        "6:25 apns-background-headers /message/apns/headers",
        "6:43 apns-background-push /message/apns/headers/apns-priority",
        "12:63 elided-sample ",
        "12:87 android-ttl /message/android/ttl",
        // After a `// ...` line; `"webpush": {"headers": { ... }}` is not known, so not reported.
        "19:5 elided-sample ",
        "20:29 enum-value /message/android/priority",
        "22:43 apns-aps-value /message/apns/payload/aps/badge",
        "22:49 json-syntax ",
        // `"token": ...` is a target the page does not show: not a missing one.
        "28:23 elided-sample ",
        "28:88 analytics-label /message/fcm_options/analytics_label",
      ])
  }

  func testElidedSamplesAreNeverFixed() throws {
    let root = try temporaryDirectory()
    try write(Self.elidedPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("page.md"), encoding: .utf8), Self.elidedPage)
  }
}

/// Comments in a page's JSON samples are the page's annotations (issue 28): not errors, and
/// fixes keep them byte for byte; a `.json` file's comments stay errors.
extension CLITests {
  static let commentedPage = """
    ```jsonc
    {
      "message": {
        "topic": "/topics/news", // the topic, without a prefix
        /* Android only */
        "android": {"ttl": "3600s",},
      }
    }
    ```

    ```json5
    {
      // a data message
      "message": {"token": "t", "data": {"a": "b"}},
    }
    ```

    ```json
    {"message": {"topic": "news", "android": {"priority": "high"}}} // sent as is
    ```

    """

  func testCommentsInSamplesAreNotErrorsAndFixesKeepThem() throws {
    let run = try fcmlint(["--docs", "--format", "json", "--stdin-filename", "page.md", "-"], input: .bytes(Data(Self.commentedPage.utf8)))
    XCTAssertEqual(
      try found(run).map { "\($0.line):\($0.column) \($0.rule) \($0.pointer)" },
      ["4:14 topic-name /message/topic", "6:31 json-syntax ", "6:33 json-syntax ", "14:48 json-syntax "])
    let root = try temporaryDirectory()
    try write(Self.commentedPage, to: root.appendingPathComponent("page.md"))
    let fix = try fcmlint(["--fix", "page.md"], in: root)
    XCTAssertEqual(fix.status, 0, fix.stdout + fix.stderr)
    XCTAssertEqual(
      try String(contentsOf: root.appendingPathComponent("page.md"), encoding: .utf8),
      Self.commentedPage
        .replacingOccurrences(of: "\"/topics/news\", // the", with: "\"news\", // the")
        .replacingOccurrences(of: "\"3600s\",},\n  }", with: "\"3600s\"}\n  }")
        .replacingOccurrences(of: "{\"a\": \"b\"}},\n}", with: "{\"a\": \"b\"}}\n}"))
  }

  func testCommentsInAJSONFileStayErrors() throws {
    let root = try temporaryDirectory()
    try write("{\"message\": {\"topic\": \"news\"}} // sent as is\n", to: root.appendingPathComponent("m.json"))
    let run = try fcmlint(["--format", "json", "m.json"], in: root)
    XCTAssertEqual(try found(run).map(\.rule), ["json-syntax"])
  }
}

/// The Node.js Admin SDK's multicast calls take a MulticastMessage (issue 28): `tokens` is its
/// field, and the rest is checked as a Message.
extension CLITests {
  static let multicastPage = """
    ```js
    const response = await getMessaging().sendMulticast({
      tokens: registrationTokens,
      notification: { title: 'Sale', imageUrl: 'https://foo.bar.pizza.png' },
      android: { priority: 'urgent' },
    });

    const message = {
      tokens: ['a', 'b'],
      data: { score: 850 },
    };
    await getMessaging().sendEachForMulticast(message);

    await getMessaging().send({ tokens: ['a'], topic: 'news' });
    ```

    """

  func testMulticastLiteralsAreMulticastMessages() throws {
    let run = try fcmlint(["--docs", "--format", "json", "--stdin-filename", "page.md", "-"], input: .bytes(Data(Self.multicastPage.utf8)))
    let found = try found(run).map { "\($0.line):\($0.rule) \($0.pointer)" }
    XCTAssertFalse(found.contains { $0.hasPrefix("3:") || $0.hasPrefix("9:") }, "\(found)")
    XCTAssertTrue(found.contains("4:image-extension-android /notification/image"), "\(found)")
    XCTAssertTrue(found.contains("5:enum-value /android/priority"), "\(found)")
    XCTAssertTrue(found.contains("10:data-string-values /data/score"), "\(found)")
    // `send` takes a Message, where `tokens` is no field.
    XCTAssertTrue(found.contains("14:unknown-field /tokens"), "\(found)")
  }
}

/// A `message` member makes a send request only when what it holds is an FCM Message: push
/// servers and chat APIs document bodies of their own with a `message` object (found on a push
/// server's REST sender page in corpus/docs/real).
extension CLITests {
  static let otherMessageObjectsPage = """
    The sender takes:

    ```JSON
    "message" : {
      "alert": "Hello!",
      "sound": "default",
      "badge": 7,
      "priority": "NORMAL",
      "user-data": {
          "someKey": "some value"
          },
        },
    ```

    A chat API answers:

    ```json
    {"message": {"id": 1, "body": "Hello", "user": {}}}
    ```

    A notification service's send API:

    ```json
    {"message": {"to": {"user_id": "u1"}, "content": {"title": "Hi"}, "data": {"k": "v"}, "routing": {"method": "single"}}}
    ```

    Broadcast:

    ```json
    {"message": {"alert": "Hello from the HTTP sender!", "sound": "default"}}
    ```

    """

  func testOtherAPIsMessageObjectsAreSkippedWithTheReason() throws {
    let run = try fcmlint(["--docs", "--verbose", "--format", "json", "--stdin-filename", "sender.md", "-"], input: .bytes(Data(Self.otherMessageObjectsPage.utf8)))
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try found(run), [])
    for expected in [
      #"skipped sample sender.md:4: its "message" ("alert", "sound", "badge", ...) is not an FCM Message: "user-data" is no Message field"#,
      #"skipped sample sender.md:18: its "message" ("id", "body", "user") is not an FCM Message: "user" is no Message field"#,
      #"skipped sample sender.md:24: its "message" ("to", "content", "data", ...) is not an FCM Message: "to", "content", "routing" are no Message fields"#,
      #"skipped sample sender.md:30: its "message" holds only keys that resemble a Message's ("alert", "sound"), and nothing near it says it is sent to FCM"#,
    ] {
      XCTAssertTrue(run.stderr.contains(expected), "\(expected)\n\(run.stderr)")
    }
    // Nor is another API's sample fixed: its trailing commas are its page's business.
    let root = try temporaryDirectory()
    try write(Self.otherMessageObjectsPage, to: root.appendingPathComponent("sender.md"))
    let fix = try fcmlint(["--docs", "--fix", "sender.md"], in: root)
    XCTAssertEqual(fix.status, 0, fix.stdout + fix.stderr)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("sender.md"), encoding: .utf8), Self.otherMessageObjectsPage)
  }

  /// FCM requests with a stray key are still checked, and so is any `message` the page sends to
  /// FCM's endpoint.
  func testRequestsWithAStrayKeyOrSentToFCMAreStillReported() throws {
    let page = """
      ```json
      {"message": {"token": "t", "notification": {"title": "x"}, "custom_key": "v"}}
      ```

      ```json
      {"message": {"topic": "news", "priority": "high", "data": {"a": "b"}}}
      ```

      ```http
      POST https://fcm.googleapis.com/v1/projects/p/messages:send HTTP/1.1

      {"message": {"topic": "news", "alert": "Hi", "sound": "default"}}
      ```

      """
    let run = try fcmlint(["--docs", "--format", "json", "--stdin-filename", "page.md", "-"], input: .bytes(Data(page.utf8)))
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertEqual(
      try found(run).map { "\($0.line):\($0.column) \($0.rule) \($0.pointer)" },
      [
        "2:60 unknown-field /message/custom_key",
        "6:31 unknown-field /message/priority",
        "12:31 unknown-field /message/alert",
        "12:46 unknown-field /message/sound",
      ])
  }
}

/// A request on a page that never sends to FCM's endpoint goes through a service that adds the
/// target (Azure Notification Hubs, a template): no target is fine there, two are still an error
/// (found on a Notification Hubs migration guide in corpus/docs/real).
extension CLITests {
  static let hubRequest = #"{"message": {"notification": {"title": "Breaking News"}, "android": {"data": {"count": "3"}}}}"#

  func testRequestsSentThroughAServiceNeedNoTarget() throws {
    let hub = """
      # Send through the hub

      Set `ServiceBusNotification-Format` to `fcmV1`. For example, in the request body:

      ```json
      \(Self.hubRequest)
      ```

      Two targets are still two:

      ```json
      {"message": {"topic": "news", "token": "t", "notification": {"title": "Hi"}}}
      ```

      """
    let run = try fcmlint(["--docs", "--format", "json", "--stdin-filename", "hub.md", "-"], input: .bytes(Data(hub.utf8)))
    XCTAssertEqual(try found(run).map { "\($0.line) \($0.rule) \($0.pointer)" }, ["12 target-exactly-one /message/token"])
    // A page that sends to FCM's endpoint, anywhere on it, sends the request as it is.
    let direct = """
      # Send with the REST API

      Requests go to https://fcm.googleapis.com/v1/projects/PROJECT_ID/messages:send with an OAuth 2.0 token.
      \(String(repeating: "Get the token from a service account, as the Admin SDK does. ", count: 10))

      ```json
      \(Self.hubRequest)
      ```

      """
    let directRun = try fcmlint(["--docs", "--format", "json", "--stdin-filename", "direct.md", "-"], input: .bytes(Data(direct.utf8)))
    XCTAssertEqual(try found(directRun).map { "\($0.line) \($0.rule) \($0.pointer)" }, ["7 target-exactly-one /message"])
  }
}

/// Fixes keep the page's spelling (issue 28): an HTML block that writes its quotes as `&quot;` or
/// `&#34;` gets renamed keys, inserted members and quoted values in that spelling, `&`, `<`
/// and `>` as entities; comments in a JSON-with-comments block stay; an elided sample is only
/// reported. `--fix-dry-run` shows the same edits and writes nothing.
extension CLITests {
  static let spelledPage = """
    <h2>Send an image</h2>
    <pre class="language-json">{
      &quot;message&quot;: {
        &quot;topic&quot;: &quot;news&quot;,
        &quot;notification&quot;: {&quot;title&quot;: &quot;Caf&#233; &amp; bar&quot;, &quot;image&quot;: &quot;https://example.com/a.png&quot;},
        &quot;data&quot;: {&quot;count&quot;: 3},
        &quot;apns&quot;: {&quot;payload&quot;: {&quot;aps&quot;: {&quot;mutable_content&quot;: 1}}}
      }
    }</pre>
    <pre><code class="lang-json">{&#34;message&#34;: {&#34;topic&#34;: &#34;news&#34;, &#34;notification&#34;: {&#34;title&#34;: &#34;Sale&#34;, &#34;image&#34;: &#34;https://example.com/b.png&#34;}, &#34;apns&#34;: {&#34;headers&#34;: {&#34;apns-priority&#34;: &#34;10&#34;}}}}</code></pre>

    """

  func testFixesKeepAnHTMLPagesEntities() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("send.html")
    try write(Self.spelledPage, to: page)
    let dry = try fcmlint(["--fix-dry-run", "send.html"], in: root)
    XCTAssertTrue(dry.stdout.contains(#"+    &quot;data&quot;: {&quot;count&quot;: &quot;3&quot;},"#), dry.stdout)
    XCTAssertTrue(dry.stdout.contains(#"{&quot;aps&quot;: {&quot;mutable-content&quot;: 1}}}"#), dry.stdout)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), Self.spelledPage)
    let fix = try fcmlint(["--fix", "send.html"], in: root)
    XCTAssertEqual(fix.status, 0, fix.stdout + fix.stderr)
    let fixed = try String(contentsOf: page, encoding: .utf8)
    XCTAssertEqual(
      fixed,
      Self.spelledPage
        .replacingOccurrences(of: "&quot;count&quot;: 3}", with: "&quot;count&quot;: &quot;3&quot;}")
        .replacingOccurrences(of: "&quot;mutable_content&quot;", with: "&quot;mutable-content&quot;")
        .replacingOccurrences(
          of: "&#34;apns-priority&#34;: &#34;10&#34;}}}}",
          with: "&#34;apns-priority&#34;: &#34;10&#34;}, &#34;payload&#34;: {&#34;aps&#34;: {&#34;mutable-content&#34;: 1}}}}}"))
    // Written back in its own spelling, the page reads as fixed: nothing is left to report.
    let again = try fcmlint(["--format", "json", "send.html"], in: root)
    XCTAssertEqual(try found(again).filter { $0.rule != "image-extension-missing" }, [])
  }

  func testFixesKeepCommentsAndLeaveElidedSamplesInADryRun() throws {
    let root = try temporaryDirectory()
    try write(Self.commentedPage + Self.elidedPage, to: root.appendingPathComponent("page.md"))
    let dry = try fcmlint(["--fix-dry-run", "page.md"], in: root)
    // The comments' lines are context, never removed; no elided sample's line is changed.
    XCTAssertTrue(dry.stdout.contains("-    \"topic\": \"/topics/news\", // the topic, without a prefix\n+    \"topic\": \"news\", // the topic, without a prefix\n"), dry.stdout)
    XCTAssertFalse(dry.stdout.contains("-    /* Android only */"), dry.stdout)
    XCTAssertFalse(dry.stdout.contains("-  // a data message"), dry.stdout)
    for line in Self.elidedPage.split(separator: "\n") where line.contains("...") || line.contains("…") {
      XCTAssertFalse(dry.stdout.contains("-" + line + "\n"), "\(line)\n\(dry.stdout)")
    }
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("page.md"), encoding: .utf8), Self.commentedPage + Self.elidedPage)
  }
}
