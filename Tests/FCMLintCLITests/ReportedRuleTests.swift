import FCMLintEngine
import FCMLintRuleTestSupport
import FCMLintTestSupport
import Foundation
import XCTest

/// Every id fcmlint can print is a rule of the pack: `elided-sample` (a page's sample with an
/// elision) and `unused-suppression` (a `suppress:` entry that hid nothing) are reported by fcmlint
/// itself, not found in a document's walk, and are listed, explained, configured and declared
/// as every other rule is.
extension CLITests {
  static let reportedRules = [("elided-sample", "info"), ("unused-suppression", "warning")]

  static let pageWithAnElision = """
    # Sending

    ```json
    {"message": {"topic": "news", "notification": {"title": "Sale"}, ...}}
    ```

    """

  /// A config with one suppression that matches nothing in `a.json` (its topic is fine).
  static func unusedSuppressionConfig(_ extra: String = "") -> String {
    "suppress:\n  - {rule: topic-name, reason: kept from 2019}\n" + extra
  }

  /// The rule, severity and docs of each diagnostic of a JSON report.
  func reported(_ run: Run, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
    XCTAssertNotEqual(run.status, 2, run.stderr, file: file, line: line)
    return try decode(run, file: file, line: line).diagnostics.map { "\($0.rule) \($0.severity)" }
  }

  func testReportedIdsAreListedAndExplained() throws {
    let text = try fcmlint(["rules"])
    XCTAssertEqual(text.status, 0, text.stderr)
    let json = try fcmlint(["rules", "--format", "json"])
    let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
    let markdown = try fcmlint(["rules", "--format", "markdown"]).stdout
    for (id, severity) in Self.reportedRules {
      XCTAssertTrue(text.stdout.split(separator: "\n").contains { $0.hasPrefix(id + " ") && $0.contains(" \(severity) ") }, text.stdout)
      let entry = try XCTUnwrap(listed.first { $0["id"] as? String == id }, "\(id) not in rules --format json")
      XCTAssertEqual(entry["severity"] as? String, severity)
      XCTAssertEqual(entry["docs"] as? String, "docs/rules/\(id).md")
      XCTAssertTrue(markdown.contains("| [`\(id)`]("), markdown)
      XCTAssertTrue(FileManager.default.fileExists(atPath: Self.repo("docs/rules/\(id).md")), "docs/rules/\(id).md")

      let explain = try fcmlint(["explain", id])
      XCTAssertEqual(explain.status, 0, explain.stderr)
      XCTAssertTrue(explain.stdout.hasPrefix("\(id) (\(severity)): "), explain.stdout)
      XCTAssertTrue(explain.stdout.contains("Docs: docs/rules/\(id).md\n"), explain.stdout)
      XCTAssertTrue(explain.stdout.contains("Triggers on:"), explain.stdout)
      XCTAssertTrue(explain.stdout.contains("Does not trigger on:"), explain.stdout)
    }
  }

  /// The examples of the rules fcmlint reports itself are pages and configs, which only the
  /// command line reads: each runs through it, in a folder of its own, as its rule file says.
  func testReportedRulesExamplesRunThroughTheCommandLine() throws {
    let rules = builtinRules().rules.filter(\.isReportedByFcmlint)
    XCTAssertEqual(rules.map(\.id).sorted(), ReportedRules.all.sorted())
    // The image URL rules' examples fetch from a local server: URLCheckTests runs them.
    for rule in rules where !ReportedRules.imageURLRules.contains(rule.id) {
      for (invalid, example) in rule.examples.valid.map({ (false, $0) }) + rule.examples.invalid.map({ (true, $0) }) {
        let place = "\(rule.source):\(example.line)"
        let root = try temporaryDirectory()
        if let config = example.config { try write(config, to: root.appendingPathComponent(".fcmlint.yml")) }
        let name = example.page != nil ? "example.md" : "example.json"
        try write(example.page ?? example.json, to: root.appendingPathComponent(name))
        var arguments = ["--format", "json", name]
        if let input = example.input { arguments += ["--input", input.rawValue] }
        if example.fragment { arguments.append("--fragment") }
        let run = try fcmlint(arguments, in: root)
        XCTAssertNotEqual(run.status, 2, "\(place): \(run.stderr)")
        let found = try decode(run).diagnostics.filter { $0.rule == rule.id }
        if invalid {
          XCTAssertEqual(found.map(\.pointer), example.pointers, "\(place): \(run.stdout)")
          for diagnostic in found { XCTAssertEqual(diagnostic.docs, rule.docs, place) }
        } else {
          XCTAssertEqual(found.count, 0, "\(place): a valid example triggers \(rule.id): \(run.stdout)")
        }
      }
    }
  }

  func testConfigSetsTheSeverityOfUnusedSuppression() throws {
    let root = try temporaryDirectory()
    try write(#"{"message": {"topic": "news"}}"#, to: root.appendingPathComponent("a.json"))
    let config = root.appendingPathComponent(".fcmlint.yml")

    try write(Self.unusedSuppressionConfig(), to: config)
    let plain = try fcmlint(["--format", "json", "a.json"], in: root)
    XCTAssertEqual(try reported(plain), ["unused-suppression warning"])
    XCTAssertEqual(try decode(plain).diagnostics.first?.docs, "docs/rules/unused-suppression.md")
    try assertMatchesSchema(plain)

    try write(Self.unusedSuppressionConfig("rules: {unused-suppression: off}\n"), to: config)
    let off = try fcmlint(["--format", "json", "a.json"], in: root)
    XCTAssertEqual(try reported(off), [])
    XCTAssertEqual(off.status, 0)

    try write(Self.unusedSuppressionConfig("rules: {unused-suppression: error}\n"), to: config)
    let error = try fcmlint(["--format", "json", "a.json"], in: root)
    XCTAssertEqual(try reported(error), ["unused-suppression error"])
    XCTAssertEqual(error.status, 1)

    // An override for the files a suppression covers sets it for that suppression.
    try write(
      """
      suppress:
        - {files: ["legacy/**"], rule: topic-name, reason: kept from 2019}
        - {files: ["new/**"], rule: topic-name, reason: not needed any more}
      overrides:
        - files: ["legacy/**"]
          rules: {unused-suppression: off}
        - files: ["new/**"]
          rules: {unused-suppression: info}

      """, to: config)
    try write(#"{"message": {"topic": "news"}}"#, to: root.appendingPathComponent("legacy/a.json"))
    try write(#"{"message": {"topic": "news"}}"#, to: root.appendingPathComponent("new/a.json"))
    let overridden = try fcmlint(["--format", "json", "legacy", "new"], in: root)
    XCTAssertEqual(try decode(overridden).diagnostics.map { "\($0.rule) \($0.severity) \($0.line)" }, ["unused-suppression info 3"])
  }

  func testConfigSetsTheSeverityOfElidedSample() throws {
    let root = try temporaryDirectory()
    try write(Self.pageWithAnElision, to: root.appendingPathComponent("docs/send.md"))
    let config = root.appendingPathComponent(".fcmlint.yml")
    let plain = try fcmlint(["--format", "json", "docs/send.md"], in: root)
    XCTAssertEqual(try reported(plain), ["elided-sample info"])
    XCTAssertEqual(try decode(plain).diagnostics.first?.docs, "docs/rules/elided-sample.md")
    try assertMatchesSchema(plain)

    try write("rules: {elided-sample: off}\n", to: config)
    XCTAssertEqual(try reported(try fcmlint(["--format", "json", "docs/send.md"], in: root)), [])
    try write("rules: {elided-sample: warning}\n", to: config)
    XCTAssertEqual(try reported(try fcmlint(["--format", "json", "docs/send.md"], in: root)), ["elided-sample warning"])
    try write("overrides:\n  - files: [\"docs/**\"]\n    rules: {elided-sample: error}\n", to: config)
    let overridden = try fcmlint(["--format", "json", "docs/send.md"], in: root)
    XCTAssertEqual(try reported(overridden), ["elided-sample error"])
    XCTAssertEqual(overridden.status, 1)
  }

  func testSARIFDeclaresTheReportedRules() throws {
    let root = try temporaryDirectory()
    try write(Self.pageWithAnElision, to: root.appendingPathComponent("send.md"))
    try write(#"{"message": {"topic": "news"}}"#, to: root.appendingPathComponent("a.json"))
    try write(Self.unusedSuppressionConfig(), to: root.appendingPathComponent(".fcmlint.yml"))
    let run = try fcmlint(["--format", "sarif", "a.json", "send.md"], in: root)
    XCTAssertNotEqual(run.status, 2, run.stderr)
    let log = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
    let sarifRun = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
    let driver = try XCTUnwrap((sarifRun["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
    let results = try XCTUnwrap(sarifRun["results"] as? [[String: Any]])
    for (id, severity) in Self.reportedRules {
      let index = try XCTUnwrap(rules.firstIndex { $0["id"] as? String == id }, "\(id) is not declared")
      let rule = rules[index]
      XCTAssertEqual((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String, severity == "info" ? "note" : severity)
      // A page of this repository is not an absolute URI, which helpUri must be: it is named in help.
      XCTAssertNil(rule["helpUri"])
      XCTAssertTrue(((rule["help"] as? [String: Any])?["text"] as? String)?.contains("docs/rules/\(id).md") == true, "\(rule)")
      let result = try XCTUnwrap(results.first { $0["ruleId"] as? String == id }, "no \(id) result")
      XCTAssertEqual(result["ruleIndex"] as? Int, index)
    }
    // The other rules keep their web pages.
    XCTAssertTrue((rules.first { $0["id"] as? String == "topic-name" }?["helpUri"] as? String)?.hasPrefix("https://firebase.google.com/") == true)
  }

  /// SARIF declares every rule any file was linted with, also when it is not the first report and a
  /// rule is on only for some files (the rules are gathered only for formats that list them).
  func testSARIFReportFileDeclaresRulesOfEveryFilesConfig() throws {
    let root = try temporaryDirectory()
    try FileManager.default.createDirectory(at: root.appendingPathComponent("b"), withIntermediateDirectories: true)
    try write(#"{"message": {"topic": "bad topic!"}}"#, to: root.appendingPathComponent("a.json"))
    try write(#"{"message": {"topic": "bad topic!"}}"#, to: root.appendingPathComponent("b/c.json"))
    try write("rules: {topic-name: off}\noverrides:\n  - files: [\"b/**\"]\n    rules: {topic-name: error}\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let run = try fcmlint(["--format", "text", "--format", "sarif", "--output", "-", "--output", "r.sarif", "a.json", "b/c.json"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    let data = try Data(contentsOf: root.appendingPathComponent("r.sarif"))
    let log = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    let sarifRun = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
    let driver = try XCTUnwrap((sarifRun["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let ids = try XCTUnwrap(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    XCTAssertEqual(ids, ids.sorted())
    XCTAssertEqual(Set(ids).count, ids.count)
    let index = try XCTUnwrap(ids.firstIndex(of: "topic-name"), "topic-name is not declared")
    let results = try XCTUnwrap(sarifRun["results"] as? [[String: Any]]).filter { $0["ruleId"] as? String == "topic-name" }
    XCTAssertEqual(results.count, 1)
    XCTAssertEqual(results.first?["ruleIndex"] as? Int, index)
  }

  /// A suppression of unused-suppression could never match (it is reported about configs, not
  /// linted files): the config says so rather than warning that it is unused.
  func testUnusedSuppressionCannotBeSuppressed() throws {
    let root = try temporaryDirectory()
    try write(#"{"message": {"topic": "news"}}"#, to: root.appendingPathComponent("a.json"))
    try write("suppress:\n  - {rule: unused-suppression, reason: noisy}\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let run = try fcmlint(["a.json"], in: root)
    XCTAssertEqual(run.status, 2, run.stdout)
    XCTAssertTrue(run.stderr.contains(".fcmlint.yml:2:5: unused-suppression cannot be suppressed"), run.stderr)
  }

  /// The stream reads the same configs: the reported rules are known there too.
  func testNDJSONReadsTheReportedRulesSettings() throws {
    let root = try temporaryDirectory()
    try write("rules: {unused-suppression: off, elided-sample: error}\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let run = try fcmlint(["--ndjson", "-"], in: root, input: .bytes(Data(#"{"message": {"topic": "news"}}"#.utf8 + [10])))
    XCTAssertEqual(run.status, 0, run.stderr)
  }
}

extension LanguageServerTests {
  /// The diagnostics the server publishes for `page` opened as `send.md` under the config
  /// `config` (none: no config), collected up to the answer to a hover, so a server that
  /// publishes nothing fails the test rather than blocking it.
  func published(_ page: String, config: String?) throws -> [[String: Any]] {
    let configURL = root.appendingPathComponent(".fcmlint.yml")
    if let config { try Data(config.utf8).write(to: configURL) } else { try? FileManager.default.removeItem(at: configURL) }
    let session = try start()
    let uri = root.appendingPathComponent("send.md").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "markdown", "version": 1, "text": page]])
    // A hover lints the buffer first: its diagnostics are published before the answer.
    var notifications: [[String: Any]] = []
    _ = try session.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 3, "character": 3]], notifications: &notifications)
    _ = try session.request("shutdown")
    try session.notify("exit", [:])
    session.process.waitUntilExit()
    let published = notifications.last { message in
      message["method"] as? String == "textDocument/publishDiagnostics" && (message["params"] as? [String: Any])?["uri"] as? String == uri
    }
    let params = try XCTUnwrap(published?["params"] as? [String: Any], "nothing published for \(uri)")
    return params["diagnostics"] as? [[String: Any]] ?? []
  }

  /// The server's config settings reach the rules fcmlint reports itself, as the command line's do.
  func testConfigSetsTheSeverityOfElidedSampleInTheEditor() throws {
    let page = """
      # Sending

      ```json
      {"message": {"topic": "news", "notification": {"title": "Sale"}, ...}}
      ```

      """
    let plain = try published(page, config: nil)
    XCTAssertEqual(plain.map { $0["code"] as? String }, ["elided-sample"])
    XCTAssertEqual(plain.first?["severity"] as? Int, 3)
    // Not a web page: no code link (LSP's href is a URI); the hover names the page.
    XCTAssertNil(plain.first?["codeDescription"])
    let warned = try published(page, config: "rules: {elided-sample: warning}\n")
    XCTAssertEqual(warned.map { $0["code"] as? String }, ["elided-sample"])
    XCTAssertEqual(warned.first?["severity"] as? Int, 2)
    XCTAssertEqual(try published(page, config: "rules: {elided-sample: off}\n").count, 0)
  }
}
