import Foundation
import XCTest

/// Adopting fcmlint on a repository that has findings already: a baseline, suppressions in the
/// config, configs that extend others, and overrides for placeholders and limits (issue 16).
extension CLITests {
  struct Totals: Decodable {
    struct Summary: Decodable { var errors, warnings, baselined, baselineUnmatched, suppressed: Int }
    var summary: Summary
  }

  func totals(_ run: Run) throws -> Totals.Summary { try JSONDecoder().decode(Totals.self, from: run.stdoutData).summary }

  static let numberInData = #"{"message": {"topic": "t", "data": {"n": 1}}}"#

  func testABaselineHidesWhatItRecordedEvenWhenLinesMove() throws {
    let root = try temporaryDirectory()
    try write(Self.numberInData, to: root.appendingPathComponent("app/a.json"))
    try write(#"{"message": {"topic": "t", "data": {"x": true, "y": 2}}}"#, to: root.appendingPathComponent("app/b.json"))
    XCTAssertEqual(try fcmlint(["app"], in: root).status, 1)
    let write1 = try fcmlint(["--write-baseline", "fcmlint-baseline.json", "app"], in: root)
    XCTAssertEqual(write1.status, 0, write1.stderr)
    XCTAssertTrue(write1.stdout.contains("3 hidden by the baseline"), write1.stdout)
    let text = try String(contentsOf: root.appendingPathComponent("fcmlint-baseline.json"), encoding: .utf8)
    XCTAssertEqual(
      text,
      """
      {
        "fcmlint-baseline": 1,
        "findings": [
          {"file": "app/a.json", "rule": "data-string-values", "pointer": "/message/data/n"},
          {"file": "app/b.json", "rule": "data-string-values", "pointer": "/message/data/x"},
          {"file": "app/b.json", "rule": "data-string-values", "pointer": "/message/data/y"}
        ]
      }

      """)
    // Written again from another folder, the same bytes: paths are relative to the baseline.
    XCTAssertEqual(try fcmlint(["--write-baseline", "../fcmlint-baseline.json", "."], in: root.appendingPathComponent("app")).status, 0)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("fcmlint-baseline.json"), encoding: .utf8), text)

    // Lines move and a new finding appears: only the new one is reported.
    try write("\n\n\n" + #"{"message": {"topic": "t", "data": {"n": 1, "m": 2}}}"#, to: root.appendingPathComponent("app/a.json"))
    let run = try fcmlint(["--baseline", "fcmlint-baseline.json", "--format", "json", "app"], in: root)
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(try decode(run).diagnostics.map(\.pointer), ["/message/data/m"])
    XCTAssertEqual(try totals(run).baselined, 3)
    try assertMatchesSchema(run)

    // Fixed findings and deleted files leave entries that match nothing: counted, and listed
    // with --verbose.
    try write(#"{"message": {"topic": "t", "data": {"x": "true", "y": 2}}}"#, to: root.appendingPathComponent("app/b.json"))
    try FileManager.default.removeItem(at: root.appendingPathComponent("app/a.json"))
    let stale = try fcmlint(["--baseline", "fcmlint-baseline.json", "--verbose", "app"], in: root)
    XCTAssertEqual(stale.status, 0, stale.stdout)
    XCTAssertTrue(stale.stdout.contains("1 hidden by the baseline; 2 baseline entries match nothing any more"), stale.stdout)
    XCTAssertTrue(stale.stderr.contains("baseline entry matches nothing any more: app/a.json: data-string-values at /message/data/n"), stale.stderr)
    XCTAssertTrue(stale.stderr.contains("app/b.json: data-string-values at /message/data/x"), stale.stderr)
    // A run over one file judges only that file's entries (a pre-commit hook).
    try write(Self.numberInData, to: root.appendingPathComponent("app/a.json"))
    let one = try fcmlint(["--baseline", "fcmlint-baseline.json", "--format", "json", "app/a.json"], in: root)
    XCTAssertEqual(try totals(one).baselineUnmatched, 0)
    XCTAssertEqual(one.status, 0)
  }

  func testABrokenBaselineIsAnErrorWithItsPlace() throws {
    let root = try temporaryDirectory()
    try write(Self.numberInData, to: root.appendingPathComponent("a.json"))
    try write("{\"findings\": [{\"file\": \"a.json\", \"rule\": 3}]}", to: root.appendingPathComponent("b.json.baseline"))
    let run = try fcmlint(["--baseline", "b.json.baseline", "a.json"], in: root)
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.stderr.contains("b.json.baseline:1:15: this finding has no \"rule\" string"), run.stderr)
    let missing = try fcmlint(["--baseline", "nope.json", "a.json"], in: root)
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("cannot read the baseline"), missing.stderr)
  }

  func testSuppressionsHideTheirFindingsAndWarnWhenUnused() throws {
    let root = try temporaryDirectory()
    try write(
      """
      suppress:
        - files: ["legacy/**"]
          rule: data-string-values
          pointer: /message/data
          reason: the old Android app reads numbers
        - files: ["legacy/**"]
          rule: topic-name
          reason: kept from 2019
        - files: ["elsewhere/*.json"]
          rule: topic-name
          reason: not linted in this run
      """, to: root.appendingPathComponent(".fcmlint.yml"))
    try write(Self.numberInData, to: root.appendingPathComponent("legacy/a.json"))
    try write(Self.numberInData, to: root.appendingPathComponent("new/a.json"))
    let run = try fcmlint(["--format", "json", "legacy", "new"], in: root)
    let output = try decode(run)
    XCTAssertEqual(output.diagnostics.map { "\($0.file) \($0.rule) \($0.line):\($0.column)" }, [
      "new/a.json data-string-values 1:42",
      ".fcmlint.yml unused-suppression 6:5",
    ])
    XCTAssertTrue(output.diagnostics[1].message.contains("kept from 2019"), output.diagnostics[1].message)
    XCTAssertEqual(try totals(run).suppressed, 1)
    try assertMatchesSchema(run)
    // Only the suppressed file: no error, one unused-suppression warning.
    let text = try fcmlint(["legacy/a.json"], in: root)
    XCTAssertEqual(text.status, 0)
    XCTAssertTrue(text.stdout.contains(".fcmlint.yml:6:5: warning: this suppression of topic-name matched no finding"), text.stdout)
    XCTAssertTrue(text.stdout.contains("1 suppressed by the config"), text.stdout)
    XCTAssertEqual(try fcmlint(["--max-warnings", "0", "legacy/a.json"], in: root).status, 1)

    for (config, message) in [
      ("suppress:\n  - rule: data-string-values\n", ".fcmlint.yml:2:5: a suppression needs 'reason'"),
      ("suppress:\n  - {rule: data-strin-values, reason: x}\n", "unknown rule 'data-strin-values'; did you mean 'data-string-values'?"),
      ("suppress:\n  - {rule: topic-name, reason: x, pointer: message}\n", "pointer must be a JSON Pointer"),
    ] {
      try write(config, to: root.appendingPathComponent(".fcmlint.yml"))
      let broken = try fcmlint(["legacy"], in: root)
      XCTAssertEqual(broken.status, 2, config)
      XCTAssertTrue(broken.stderr.contains(message), broken.stderr)
    }
  }

  func testAConfigExtendsOthersAndItsOwnSettingsWin() throws {
    let root = try temporaryDirectory()
    try write(
      """
      rules: {data-string-values: warning, topic-name: off}
      ignore: ["generated/**"]
      suppress:
        - {files: ["shared-only/**"], rule: topic-name, reason: shared}
      """, to: root.appendingPathComponent("shared/base.yml"))
    try write("rules: {data-string-values: info}\nextends: base.yml\n", to: root.appendingPathComponent("shared/mid.yml"))
    try write(
      """
      extends: [../shared/mid.yml]
      rules: {data-string-values: error}
      ignore: ["drafts/**"]
      """, to: root.appendingPathComponent("app/.fcmlint.yml"))
    try write(Self.numberInData, to: root.appendingPathComponent("app/a.json"))
    try write(Self.numberInData, to: root.appendingPathComponent("app/drafts/a.json"))
    try write(Self.numberInData, to: root.appendingPathComponent("app/generated/a.json"))
    let run = try fcmlint(["--format", "json", "app"], in: root)
    // The app's own severity wins; its ignore list adds to the base's, whose patterns stay
    // relative to the base's folder (shared/), so they match nothing in app/.
    XCTAssertEqual(try decode(run).diagnostics.map { "\($0.file) \($0.severity)" }, ["app/a.json error", "app/generated/a.json error"])
    // Without its own severity, the nearer extended config's wins.
    try write("extends: ../shared/mid.yml\n", to: root.appendingPathComponent("app/.fcmlint.yml"))
    XCTAssertEqual(try decode(try fcmlint(["--format", "json", "app/a.json"], in: root)).diagnostics.map(\.severity), ["info"])
    // A loop, and a missing file, are errors where the extends is written.
    try write("extends: mid.yml\n", to: root.appendingPathComponent("shared/base.yml"))
    let loop = try fcmlint(["app"], in: root)
    XCTAssertEqual(loop.status, 2)
    XCTAssertTrue(loop.stderr.contains("base.yml:1:10: 'mid.yml' extends itself"), loop.stderr)
    try write("extends: nothing.yml\n", to: root.appendingPathComponent("app/.fcmlint.yml"))
    let missing = try fcmlint(["app"], in: root)
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains(".fcmlint.yml:1:10: cannot extend 'nothing.yml': no such file"), missing.stderr)
  }

  func testOverridesSetPlaceholdersAndLimits() throws {
    let root = try temporaryDirectory()
    try write(
      """
      overrides:
        - files: ["php/**"]
          placeholders: ['%[a-z_]+%']
        - files: ["small/**"]
          limits: {max-depth: 2}
      """, to: root.appendingPathComponent(".fcmlint.yml"))
    // %count% is a placeholder under php/ only: a value there, a syntax error elsewhere.
    let template = #"{"message": {"topic": "t", "data": {"n": %count%}}}"#
    try write(template, to: root.appendingPathComponent("php/a.json"))
    try write(template, to: root.appendingPathComponent("other/a.json"))
    try write(#"{"message": {"topic": "t", "data": {"a": "b"}}}"#, to: root.appendingPathComponent("small/deep.json"))
    let run = try fcmlint(["--format", "json", "."], in: root)
    XCTAssertEqual(try decode(run).diagnostics.map { "\($0.file) \($0.rule)" }, ["./other/a.json json-syntax", "./small/deep.json json-syntax"])
    // The command line still wins over the config.
    XCTAssertEqual(try fcmlint(["--max-depth", "10", "small"], in: root).status, 0)
  }
}

/// `fcmlint test` for rule authors and `fcmlint init` (issue 16, items 5-6).
extension CLITests {
  func testTestRunsTheExamplesOfTheUsersRules() throws {
    let root = try temporaryDirectory()
    let rule = """
      id: android-priority-high
      severity: warning
      summary: Android messages should use high priority
      description: Our chat app needs messages delivered at once.
      docs: https://firebase.google.com/docs/cloud-messaging/android/message-priority
      given: $.message.android
      then:
        field: '@.priority'
        function: equals
        options: { value: HIGH }
      message: 'set android.priority to "HIGH" ({detail})'
      examples:
        valid:
          - '{"message": {"topic": "t", "android": {"priority": "HIGH"}}}'
        invalid:
          - json: '{"message": {"topic": "t", "android": {"priority": "NORMAL"}}}'
            pointer: /message/android/priority

      """
    try write(rule, to: root.appendingPathComponent("rules/prio.yml"))
    let pass = try fcmlint(["test", "rules"], in: root)
    XCTAssertEqual(pass.status, 0, pass.stdout + pass.stderr)
    XCTAssertEqual(pass.stdout, "1 rule, 2 examples: all pass\n")
    // A wrong pointer and a valid example that triggers: each reported where it is written.
    let broken = rule.replacingOccurrences(of: "pointer: /message/android/priority", with: "pointer: /message/android")
      .replacingOccurrences(of: "- '{\"message\": {\"topic\": \"t\", \"android\": {\"priority\": \"HIGH\"}}}'", with: "- '{\"message\": {\"topic\": \"t\", \"android\": {\"priority\": \"LOW\"}}}'")
    try write(broken, to: root.appendingPathComponent("rules/prio.yml"))
    let fail = try fcmlint(["test", "rules"], in: root)
    XCTAssertEqual(fail.status, 1)
    let lines = fail.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 3, fail.stdout)
    XCTAssertTrue(lines[0].hasPrefix("rules/prio.yml:14:7: error: valid example triggers android-priority-high at /message/android/priority"), lines[0])
    XCTAssertTrue(lines[1].hasPrefix("rules/prio.yml:16:7: error: invalid example triggers android-priority-high at /message/android/priority"), lines[1])
    XCTAssertTrue(lines[1].hasSuffix("expected at /message/android"), lines[1])
    XCTAssertEqual(lines[2], "1 rule, 2 examples: 2 failed")
    // A rule that does not load is exit 2 with its place.
    try write("id: x\n", to: root.appendingPathComponent("rules/prio.yml"))
    XCTAssertEqual(try fcmlint(["test", "rules"], in: root).status, 2)
    XCTAssertEqual(try fcmlint(["test"], in: root).status, 2)
  }

  func testInitWritesAStarterConfigThatLoadsAndNeverOverwrites() throws {
    let root = try temporaryDirectory()
    let run = try fcmlint(["init"], in: root)
    XCTAssertEqual(run.status, 0, run.stderr)
    let written = try String(contentsOf: root.appendingPathComponent(".fcmlint.yml"), encoding: .utf8)
    XCTAssertTrue(written.contains("# suppress:"), written)
    try write(Self.numberInData, to: root.appendingPathComponent("a.json"))
    XCTAssertEqual(try fcmlint(["a.json"], in: root).status, 1)
    try write("rules: {}\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let again = try fcmlint(["init"], in: root)
    XCTAssertEqual(again.status, 2)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent(".fcmlint.yml"), encoding: .utf8), "rules: {}\n")
  }
}

/// Editors lint buffers through standard input and name them with --stdin-filename.
extension CLITests {
  func testIgnoreAppliesToTheStdinFilenameAndFixAlwaysEchoesTheBuffer() throws {
    let root = try temporaryDirectory()
    try write("ignore: [\"fixtures/\"]\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let broken = #"{"message": {"token": "a", "topic": "b", "data": {"n": 1}}}"# + "\n"
    let ignored = try fcmlint(["--stdin-filename", "fixtures/x.json", "-"], in: root, input: .bytes(Data(broken.utf8)))
    XCTAssertEqual(ignored.status, 0, ignored.stdout)
    XCTAssertEqual(ignored.stdout, "no problems in 0 files\n")
    let linted = try fcmlint(["--stdin-filename", "src/x.json", "-"], in: root, input: .bytes(Data(broken.utf8)))
    XCTAssertEqual(linted.status, 1, linted.stdout)
    // With --fix, standard output is the buffer, whatever happens to it: an ignored file, a
    // file that is not an FCM document, and one that is fixed.
    let echoed = try fcmlint(["--fix", "--stdin-filename", "fixtures/x.json", "-"], in: root, input: .bytes(Data(broken.utf8)))
    XCTAssertEqual(echoed.stdout, broken)
    let package = #"{"name": "app", "version": "1.0.0", "dependencies": {}}"# + "\n"
    XCTAssertEqual(try fcmlint(["--fix", "-"], in: root, input: .bytes(Data(package.utf8))).stdout, package)
    XCTAssertEqual(try fcmlint(["--fix-only", "-"], in: root, input: .bytes(Data(package.utf8))).stdout, package)
    let fixed = try fcmlint(["--fix-only", "--stdin-filename", "src/x.json", "-"], in: root, input: .bytes(Data(broken.utf8)))
    XCTAssertEqual(fixed.stdout, #"{"message": {"token": "a", "topic": "b", "data": {"n": "1"}}}"# + "\n")
    XCTAssertEqual(fixed.status, 0)
  }
}
