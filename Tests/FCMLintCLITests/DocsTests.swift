import Foundation
import XCTest

/// Message samples inside documentation pages (issue 19), through the real binary.
extension CLITests {
  struct Found: Decodable, Equatable {
    var rule: String
    var line: Int
    var column: Int
    var pointer: String
  }

  /// The rule, line, column and pointer of every finding of a JSON report, in output order.
  func found(_ run: Run) throws -> [Found] {
    struct Report: Decodable {
      struct D: Decodable {
        var rule: String
        var pointer: String
        var line: Int
        var column: Int
      }
      var diagnostics: [D]
    }
    return try JSONDecoder().decode(Report.self, from: run.stdoutData).diagnostics.map { Found(rule: $0.rule, line: $0.line, column: $0.column, pointer: $0.pointer) }
  }

  /// `corpus/docs/` (the seed pages and pages of every format) as `fcmlint --docs corpus/docs`
  /// reports it: `corpus/docs-expected.txt`. Regenerate with FCMLINT_UPDATE_GOLDEN=1.
  func testDocsCorpusMatchesItsGoldenOutput() throws {
    let run = try fcmlint(["--docs", "corpus/docs"], in: Self.repository)
    XCTAssertEqual(run.status, 1, run.stderr)
    let golden = Self.repository.appendingPathComponent("corpus/docs-expected.txt")
    if ProcessInfo.processInfo.environment["FCMLINT_UPDATE_GOLDEN"] != nil {
      try Data(run.stdout.utf8).write(to: golden)
      return
    }
    XCTAssertEqual(run.stdout, try String(contentsOf: golden, encoding: .utf8), "docs corpus output changed; if intended, run FCMLINT_UPDATE_GOLDEN=1 swift test --filter testDocsCorpus and review the diff")
  }

  /// `corpus/docs/real/` (documentation pages from public repositories, every finding judged in
  /// its JUDGED.md) as `fcmlint --docs corpus/docs/real` reports it: `corpus/docs/real/expected.txt`.
  /// A new finding on these pages fails here; regenerate with FCMLINT_UPDATE_GOLDEN=1 only once it
  /// is judged.
  func testRealPagesMatchTheirGoldenOutput() throws {
    let run = try fcmlint(["--docs", "corpus/docs/real"], in: Self.repository)
    XCTAssertEqual(run.status, 1, run.stderr)
    let golden = Self.repository.appendingPathComponent("corpus/docs/real/expected.txt")
    if ProcessInfo.processInfo.environment["FCMLINT_UPDATE_GOLDEN"] != nil {
      try Data(run.stdout.utf8).write(to: golden)
      return
    }
    XCTAssertEqual(run.stdout, try String(contentsOf: golden, encoding: .utf8), "real pages' output changed; judge each new finding in corpus/docs/real/JUDGED.md, then run FCMLINT_UPDATE_GOLDEN=1 swift test --filter testRealPages and review the diff")
  }

  /// The issue's acceptance check: the seed pages' four mistakes, each at the page's own line and
  /// column (the REST sample of the pt page starts at line 90).
  func testSeedPagesReportTheCopiedMistakesAtThePagesOwnPlaces() throws {
    let pt = try found(fcmlint(["--docs", "--format", "json", Self.repo("corpus/docs/send-image-pt.txt")]))
    XCTAssertTrue(pt.contains(Found(rule: "json-syntax", line: 94, column: 36, pointer: "")), "\(pt)")
    XCTAssertTrue(pt.contains(Found(rule: "webpush-image-header", line: 113, column: 10, pointer: "/message/webpush/headers/image")), "\(pt)")
    // Its Node.js sample, read as the SDK sends it: the ".png" in the host name, at the literal's value.
    XCTAssertTrue(pt.contains(Found(rule: "image-extension", line: 64, column: 14, pointer: "/apns/fcm_options/image")), "\(pt)")
    XCTAssertTrue(pt.contains(Found(rule: "image-extension-android", line: 54, column: 17, pointer: "/android/notification/image")), "\(pt)")
    XCTAssertTrue(pt.contains(Found(rule: "webpush-image-header", line: 69, column: 7, pointer: "/webpush/headers/image")), "\(pt)")
    let ja = try found(fcmlint(["--docs", "--format", "json", Self.repo("corpus/docs/send-image-ja.txt")]))
    XCTAssertTrue(ja.contains(Found(rule: "image-url", line: 61, column: 23, pointer: "/message/apns/fcm_options/image")), "\(ja)")
    XCTAssertTrue(ja.contains(Found(rule: "json-syntax", line: 52, column: 35, pointer: "")), "\(ja)")
    // The es page keeps the REST sample inside a JSON string of its data blob: still the page's place.
    let es = try found(fcmlint(["--docs", "--format", "json", Self.repo("corpus/docs/send-image-es.txt")]))
    XCTAssertTrue(es.contains(Found(rule: "json-syntax", line: 33, column: 4471, pointer: "")), "\(es)")
    let html = try found(fcmlint(["--format", "json", Self.repo("corpus/docs/send-image.html")]))
    XCTAssertTrue(html.contains(Found(rule: "image-extension", line: 21, column: 52, pointer: "/message/apns/fcm_options/image")), "\(html)")
  }

  func testOrdinaryMarkdownGetsNoDiagnostics() throws {
    let run = try fcmlint(["--docs", "--verbose", Self.repo("corpus/docs/ordinary.md")])
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertTrue(run.stdout.contains("no problems"), run.stdout)
    XCTAssertTrue(run.stderr.contains("ordinary.md: not an FCM document: none of its"), run.stderr)
  }

  func testFolderWalksReadPagesOnlyWithDocsOrTheConfigSetting() throws {
    let root = try temporaryDirectory()
    try write("```json\n{\"message\": {\"topic\": \"a b\"}}\n```\n", to: root.appendingPathComponent("docs/guide.md"))
    try write("{\"message\": {\"topic\": \"a b\"}}\n", to: root.appendingPathComponent("docs/notes.txt"))
    try write("{\"message\": {\"topic\": \"ok\"}}\n", to: root.appendingPathComponent("msg.json"))
    XCTAssertEqual(try fcmlint(["."], in: root).status, 0)
    let withDocs = try fcmlint(["--docs", "--format", "json", "."], in: root)
    XCTAssertEqual(withDocs.status, 1)
    XCTAssertEqual(try found(withDocs).map(\.rule), ["topic-name", "topic-name"])
    try write("docs: true\n", to: root.appendingPathComponent(".fcmlint.yml"))
    XCTAssertEqual(try found(fcmlint(["--format", "json", "."], in: root)).count, 2)
    // A page named on the command line is read as one.
    try write("docs: false\n", to: root.appendingPathComponent(".fcmlint.yml"))
    XCTAssertEqual(try found(fcmlint(["--format", "json", "docs/guide.md"], in: root)).map(\.line), [2])
  }

  func testFixEditsOnlyTheSamplesBytes() throws {
    let root = try temporaryDirectory()
    let page = """
      # Guide

      Text before, with a trailing comma in prose: a, b,

      > ```json
      > {"message": {"topic": "news",
      >   "notification": {"title": "Hi",},
      > }}
      > ```

      <pre><code>{&quot;message&quot;: {&quot;topic&quot;: &quot;/topics/news&quot;,}}</code></pre>

      ```json
      {"message": {"topic": "a", ... }}
      ```

      """
    try write(page, to: root.appendingPathComponent("guide.md"))
    let run = try fcmlint(["--fix", "guide.md"], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    let fixed = try String(contentsOf: root.appendingPathComponent("guide.md"), encoding: .utf8)
    XCTAssertEqual(
      fixed,
      """
      # Guide

      Text before, with a trailing comma in prose: a, b,

      > ```json
      > {"message": {"topic": "news",
      >   "notification": {"title": "Hi"}
      > }}
      > ```

      <pre><code>{&quot;message&quot;: {&quot;topic&quot;: &quot;news&quot;}}</code></pre>

      ```json
      {"message": {"topic": "a", ... }}
      ```

      """)
    // A dry run of the original shows the same edits and writes nothing.
    try write(page, to: root.appendingPathComponent("guide.md"))
    let dry = try fcmlint(["--fix-dry-run", "guide.md"], in: root)
    XCTAssertTrue(dry.stdout.contains("->   \"notification\": {\"title\": \"Hi\",},\n+>   \"notification\": {\"title\": \"Hi\"}\n"), dry.stdout)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("guide.md"), encoding: .utf8), page)
  }

  /// A part of a message is checked for what it shows: what it needs from the parts the page
  /// does not show (an alert in the message's notification) is not reported missing.
  func testPartsAreNotFaultedForWhatThePageDoesNotShow() throws {
    let page = """
      Set the Apple options:

      ```json
      "apns": {
        "payload": {"aps": {"mutable-content": 1}},
        "fcm_options": {"image": "https://foo.bar/pizza-monster.png"}
      }
      ```

      ```json
      {"headers": {"apns-priority": "10"}, "payload": {"aps": {"mutable-content": 1}}}
      ```

      ```json
      {"mutable-content": 1, "badge": "one"}
      ```
      """
    let run = try fcmlint(["--format", "json", "--stdin-filename", "page.md", "-"], input: .bytes(Data(page.utf8)))
    XCTAssertEqual(try found(run), [Found(rule: "apns-aps-value", line: 15, column: 33, pointer: "/badge")])
    // As files, the same parts: --input apns-config reads an ApnsConfig alone the same way.
    let root = try temporaryDirectory()
    try write(#"{"headers": {"apns-priority": "10"}, "payload": {"aps": {"mutable-content": 1}}}"#, to: root.appendingPathComponent("apns.json"))
    XCTAssertEqual(try fcmlint(["--input", "apns-config", "apns.json"], in: root).status, 0)
  }

  func testElisionsMarkersAndPartsOfMessages() throws {
    let page = """
      ```json
      {"message": {"token": "t", "android": {"priority": "urgent"}, ... }}
      ```

      <!-- fcmlint-disable-next-block -->
      ```json
      {"message": {"topic": "/topics/x"}}
      ```

      <!-- fcmlint-disable -->
      ```json
      {"message": {"topic": "/topics/y"}}
      ```
      <!-- fcmlint-enable -->

      ```json
      {"payload": {"aps": {"alert": "Hi", "badge": "2"}}}
      ```

      ```json
      "webpush": {"headers": {"image": "https://example.com/a.png"}}
      ```

      ```json
      {"alert": {"title": "Hi"}, "sound": {"critical": true}}
      ```

      """
    let run = try fcmlint(["--format", "json", "--stdin-filename", "page.md", "-"], input: .bytes(Data(page.utf8)))
    XCTAssertEqual(
      try found(run),
      [
        Found(rule: "enum-value", line: 2, column: 52, pointer: "/message/android/priority"),
        Found(rule: "elided-sample", line: 2, column: 63, pointer: ""),
        // Pointers are the sample's own, as a file's are: an ApnsConfig alone starts at /payload.
        Found(rule: "apns-aps-value", line: 17, column: 46, pointer: "/payload/aps/badge"),
        Found(rule: "webpush-image-header", line: 21, column: 25, pointer: "/webpush/headers/image"),
        Found(rule: "apns-critical-sound", line: 25, column: 37, pointer: "/sound"),
        Found(rule: "apns-aps-value", line: 25, column: 50, pointer: "/sound/critical"),
      ])
  }
}
