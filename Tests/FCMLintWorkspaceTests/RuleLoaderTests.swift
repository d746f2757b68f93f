import FCMLintEngine
import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import Foundation
import XCTest

/// A broken rule file is an error naming the file, line and column, never a silent skip.
final class RuleLoaderTests: XCTestCase {
  let valid = """
    id: android-priority-high
    severity: warning
    summary: Use high priority
    description: Our app needs high priority.
    docs: https://firebase.google.com/docs/cloud-messaging/android/message-priority
    given: $.message.android
    then:
      field: '@.priority'
      function: equals
      options: { value: HIGH }
    examples:
      valid: ['{"message": {"android": {"priority": "HIGH"}}}']
      invalid:
        - json: '{"message": {"android": {"priority": "NORMAL"}}}'
          pointer: /message/android/priority

    """

  func loadError(_ text: String) -> ConfigurationError? {
    do {
      _ = try RuleLoader.load(text: text, file: "r.yml")
      return nil
    } catch {
      return error
    }
  }

  func assertError(_ text: String, line: Int, column: Int? = nil, contains phrase: String, file: StaticString = #filePath, l: UInt = #line) {
    guard let error = loadError(text) else { return XCTFail("loaded without error", file: file, line: l) }
    XCTAssertEqual(error.line, line, "\(error)", file: file, line: l)
    if let column { XCTAssertEqual(error.column, column, "\(error)", file: file, line: l) }
    XCTAssertTrue(error.message.contains(phrase), "'\(error.message)' lacks '\(phrase)'", file: file, line: l)
    XCTAssertEqual(error.file, "r.yml")
  }

  func testValidRuleLoads() throws {
    let rule = try RuleLoader.load(text: valid, file: "r.yml")
    XCTAssertEqual(rule.id, "android-priority-high")
    XCTAssertEqual(rule.severity, .warning)
    XCTAssertEqual(rule.examples.invalid.first?.pointers, ["/message/android/priority"])
  }

  func testUnknownKeySuggestsTheRightOne() {
    assertError(valid.replacingOccurrences(of: "summary:", with: "sumary:"), line: 3, column: 1, contains: "did you mean 'summary'")
  }

  func testUnknownFunction() {
    assertError(valid.replacingOccurrences(of: "function: equals", with: "function: equal"), line: 9, contains: "unknown function 'equal'; did you mean 'equals'")
  }

  func testBadPathPointsIntoThePath() {
    assertError(valid.replacingOccurrences(of: "field: '@.priority'", with: "field: '@.mutable-content'"), line: 8, column: 20, contains: "invalid path")
  }

  func testGivenMustStartAtRoot() {
    assertError(valid.replacingOccurrences(of: "given: $.message.android", with: "given: '@.android'"), line: 6, contains: "'$'")
  }

  func testMissingRequiredOption() {
    assertError(valid.replacingOccurrences(of: "options: { value: HIGH }", with: ""), line: 9, contains: "needs the option 'value'")
  }

  func testUnknownOption() {
    assertError(valid.replacingOccurrences(of: "options: { value: HIGH }", with: "options: { value: HIGH, strict: true }"), line: 10, contains: "unknown key 'strict'")
  }

  func testOptionOfWrongType() {
    let text = valid.replacingOccurrences(of: "function: equals\n  options: { value: HIGH }", with: "function: length\n  options: { max: ten }")
    assertError(text, line: 10, contains: "must be a whole number")
  }

  func testInvalidRegularExpression() {
    let text = valid.replacingOccurrences(of: "function: equals\n  options: { value: HIGH }", with: "function: pattern\n  options: { match: '(unclosed' }")
    assertError(text, line: 10, contains: "not a supported regular expression")
  }

  func testUnknownPlaceholder() {
    assertError(valid + "message: 'found {valu}'\n", line: 16, contains: "unknown placeholder '{valu}'")
  }

  func testUnclosedPlaceholder() {
    assertError(valid + "message: 'found {detail} and {value'\n", line: 16, contains: "unclosed '{' in message")
    // The first problem in the text is the one reported.
    assertError(valid + "message: 'found {valu} and {value'\n", line: 16, contains: "unknown placeholder '{valu}'")
  }

  /// A message is rendered from its text: doubled braces are literal ones, a lone `}` is itself,
  /// and each placeholder takes the finding's value.
  func testMessageRendersBracesAndPlaceholders() throws {
    let rule = try RuleLoader.load(text: valid + "message: '{{x}} at {pointer}: {detail} }'\n", file: "r.yml")
    let diagnostics = Linter(rules: try set(rule)).lint(bytes: Array(#"{"message": {"android": {"priority": "NORMAL"}}}"#.utf8), file: "t.json")
    XCTAssertEqual(diagnostics.count, 1)
    XCTAssertTrue(diagnostics.first?.message.hasPrefix("{x} at /message/android/priority: ") == true, diagnostics.first?.message ?? "")
    XCTAssertTrue(diagnostics.first?.message.hasSuffix(" }") == true, diagnostics.first?.message ?? "")
  }

  /// `templates:` (for the rule, or one check) is `value` or `structure`, and says how the
  /// checks read a template's placeholders.
  func testTemplatesKey() throws {
    assertError(valid.replacingOccurrences(of: "severity: warning", with: "severity: warning\ntemplates: values"), line: 3, column: 12, contains: "templates must be value or structure, not 'values'")
    assertError(valid.replacingOccurrences(of: "  function: equals", with: "  function: equals\n  templates: values"), line: 10, column: 14, contains: "templates must be value or structure")
    let placeholder = #"{"message": {"android": {"priority": "{{priority}}"}}}"#
    let structure = try RuleLoader.load(text: valid, file: "r.yml")
    XCTAssertEqual(structure.then[0].templates, .structure)
    XCTAssertEqual(Linter(rules: try set(structure)).lint(bytes: Array(placeholder.utf8), file: "t.json").count, 1)
    let value = try RuleLoader.load(text: valid.replacingOccurrences(of: "  function: equals", with: "  function: equals\n  templates: value"), file: "r.yml")
    XCTAssertEqual(value.then[0].templates, .value)
    XCTAssertEqual(Linter(rules: try set(value)).lint(bytes: Array(placeholder.utf8), file: "t.json").count, 0)
    let ruleLevel = try RuleLoader.load(text: valid.replacingOccurrences(of: "severity: warning", with: "severity: warning\ntemplates: value"), file: "r.yml")
    XCTAssertEqual(ruleLevel.then[0].templates, .value)
  }

  private func set(_ rule: Rule) throws -> RuleSet {
    var set = RuleSet()
    try set.add(rule)
    return set
  }

  func testBadSeverityAndId() {
    assertError(valid.replacingOccurrences(of: "severity: warning", with: "severity: fatal"), line: 2, contains: "error, warning or info")
    assertError(valid.replacingOccurrences(of: "id: android-priority-high", with: "id: Android_Priority"), line: 1, contains: "lower-case")
  }

  func testInvalidYAMLHasAPosition() {
    assertError("id: x\nsummary: a: b\n", line: 2, contains: "invalid YAML")
  }

  func testDuplicateYAMLKeys() {
    assertError(valid + "id: again\n", line: 16, column: 1, contains: "duplicate key 'id' (first at line 1)")
  }

  func testAnchorsAndAliasesAreRefused() {
    let bomb = """
      id: x
      severity: error
      summary: &a [lol, lol, lol]
      description: *a

      """
    guard let error = loadError(bomb) else { return XCTFail("aliases accepted") }
    XCTAssertTrue(error.message.contains("not supported"), error.message)
  }

  func testInvalidExampleNeedsPointer() {
    assertError(valid.replacingOccurrences(of: "      pointer: /message/android/priority\n", with: ""), line: 14, contains: "'pointer'")
  }

  func testUserRuleMayNotReuseABuiltinId() throws {
    var rules = builtinRules()
    var rule = try RuleLoader.load(text: valid, file: "r.yml")
    rule.id = "image-extension"
    XCTAssertThrowsError(try rules.add(rule)) { error in
      XCTAssertTrue("\(error)".contains("built-in"), "\(error)")
    }
  }

  func testUserRuleRuns() throws {
    var rules = RuleSet()
    try rules.add(try RuleLoader.load(text: valid, file: "r.yml"))
    let found = Linter(rules: rules).lint(bytes: Array(#"{"message": {"android": {"priority": "NORMAL"}}}"#.utf8), file: "m.json")
    XCTAssertEqual(found.map(\.pointer), ["/message/android/priority"])
    XCTAssertEqual(found.first?.message, "expected \"HIGH\", found \"NORMAL\"")
  }

  /// docs is a web page, or a page of the rule's repository by its path; nothing else.
  func testDocsIsAWebPageOrAPageOfTheRepository() throws {
    let docs = "docs: https://firebase.google.com/docs/cloud-messaging/android/message-priority"
    XCTAssertEqual(try RuleLoader.load(text: valid.replacingOccurrences(of: docs, with: "docs: docs/push-rules.md#priority"), file: "r.yml").docs, "docs/push-rules.md#priority")
    for bad in ["http://example.com/a", "/etc/passwd", "docs/../../secret.md", "file:docs/a.md", "'docs/a b.md'"] {
      assertError(valid.replacingOccurrences(of: docs, with: "docs: \(bad)"), line: 5, column: 7, contains: "docs must be an https:// URL")
    }
  }

  /// Only the ids fcmlint reports itself may be marked so, with nothing else to check; only they
  /// have examples that are pages or configs.
  func testReportedByFcmlintIsForTheRulesFcmlintReports() throws {
    let reported = """
      id: elided-sample
      severity: info
      summary: s
      description: d
      docs: docs/rules/elided-sample.md
      given: $
      then: {function: reportedByFcmlint}
      message: '{detail}'
      examples:
        invalid:
          - page: "```json\\n{\\"message\\": {...}}\\n```\\n"
            pointer: ""

      """
    let rule = try RuleLoader.load(text: reported, file: "r.yml")
    XCTAssertTrue(rule.isReportedByFcmlint)
    XCTAssertEqual(rule.examples.invalid.first?.json, "")
    XCTAssertEqual(rule.examples.invalid.first?.needsCommandLine, true)
    XCTAssertEqual(Linter(rules: try { var set = RuleSet(); try set.add(rule); return set }()).reportedRule("elided-sample")?.severity, .info)
    assertError(reported.replacingOccurrences(of: "id: elided-sample", with: "id: my-rule"), line: 1, column: 5, contains: "fcmlint reports only elided-sample, unused-suppression, image-url-unreachable")
    assertError(
      reported.replacingOccurrences(of: "then: {function: reportedByFcmlint}", with: "then: [{function: reportedByFcmlint}, {function: present}]"),
      line: 1, contains: "has no other check")
    assertError(
      valid.replacingOccurrences(of: "    - json: '{\"message\": {\"android\": {\"priority\": \"NORMAL\"}}}'", with: "    - config: 'rules: {}'\n      json: '{}'"),
      line: 14, column: 7, contains: "'page' and 'config' examples are for the rules fcmlint reports itself")
  }
}

final class ConfigTests: XCTestCase {
  func testSeveritiesAndOff() throws {
    let config = try Config.load(text: "rules:\n  image-consistency: off\n  image-extension: warning\n", file: "/tmp/x/.fcmlint.yml")
    XCTAssertEqual(config.severities["image-consistency"], .some(nil))
    XCTAssertEqual(config.severities["image-extension"], .some(.warning))
    try config.validate(against: builtinRules())
  }

  func testUnknownRuleIdHasPositionAndSuggestion() throws {
    let config = try Config.load(text: "rules:\n  image-extention: off\n", file: "c.yml")
    XCTAssertThrowsError(try config.validate(against: builtinRules())) { error in
      let e = error as! ConfigurationError
      XCTAssertEqual(e.line, 2)
      XCTAssertEqual(e.column, 3)
      XCTAssertTrue(e.message.contains("did you mean 'image-extension'"), e.message)
    }
  }

  func testBadValuesAndKeys() {
    XCTAssertThrowsError(try Config.load(text: "rules:\n  image-extension: loud\n", file: "c.yml")) { error in
      XCTAssertEqual((error as! ConfigurationError).line, 2)
    }
    XCTAssertThrowsError(try Config.load(text: "rulez: {}\n", file: "c.yml")) { error in
      XCTAssertTrue((error as! ConfigurationError).message.contains("did you mean 'rules'"))
    }
  }

  func testRuleDirectoriesStayInsideTheConfigFolder() throws {
    XCTAssertNoThrow(try Config.load(text: "rule-directories: [fcm-rules, ./more]\n", file: "/base/.fcmlint.yml"))
    for outside in ["../elsewhere", "/etc", "fcm-rules/../../x"] {
      XCTAssertThrowsError(try Config.load(text: "rule-directories: [\(outside)]\n", file: "/base/.fcmlint.yml"), outside) { error in
        XCTAssertTrue("\(error)".contains("inside the config file's folder"), "\(error)")
      }
    }
  }

  func testIgnoreGlobs() throws {
    let config = try Config.load(text: "ignore: ['fixtures/**', '*.draft.json']\n", file: "/base/.fcmlint.yml")
    XCTAssertTrue(config.isIgnored("/base/fixtures/a/b.json"))
    XCTAssertTrue(config.isIgnored("/base/x/y.draft.json"))
    XCTAssertFalse(config.isIgnored("/base/src/fixtures.json"))
    XCTAssertFalse(config.isIgnored("/base/x/y.json"))
  }
}

final class PathTests: XCTestCase {
  func testPathSyntax() throws {
    let path = try JSONPath("$.message.apns.payload.aps['mutable-content']")
    XCTAssertEqual(path.segments.count, 5)
    XCTAssertEqual(try JSONPath("$.a[*].b[0]").segments.count, 4)
    XCTAssertEqual(try JSONPath("@").anchor, .current)
    for bad in ["message", "$..a", "$.a-b", "$['a", "$[x]", "$.", "$a"] {
      XCTAssertThrowsError(try JSONPath(bad), bad)
    }
  }

  /// Protocol Buffers' JSON names: an underscore goes, an ASCII lowercase letter after it is
  /// upper-cased, and every other character stays as written.
  func testLowerCamelCaseIsTheProtobufJSONName() {
    let cases = [
      "fcm_options": "fcmOptions", "mutable_content": "mutableContent", "a__b": "aB", "_a": "A", "a_": "a",
      "a_1b": "a1b", "a_Bc": "aBc", "a_ßx": "aßx", "é_é": "éé", "plain": "plain", "": "",
    ]
    for (name, expected) in cases { XCTAssertEqual(JSONPath.lowerCamelCase(name), expected, name) }
  }

  /// A path written twice in a pack is compiled once; a path that fails still names where it is
  /// written each time.
  func testCompileCacheSharesPathsAndKeepsErrorPositions() throws {
    let cache = CompileCache()
    func load(_ id: String, _ path: String) throws -> Rule {
      try RuleLoader.load(
        DataValue(
          yaml: "id: \(id)\nseverity: error\nsummary: s\ndescription: d\ndocs: https://example.com\ngiven: \"\(path)\"\nthen:\n  function: present\n",
          file: "\(id).yml"),
        isBuiltin: false, resources: RuleResources(), aliases: Aliases(), cache: cache)
    }
    let first = try load("one", "$.message.apns.fcm_options")
    let second = try load("two", "$.message.apns.fcm_options")
    XCTAssertEqual(first.given, second.given)
    for id in ["three", "four"] {
      XCTAssertThrowsError(try load(id, "$.message..x")) { error in
        guard let error = error as? ConfigurationError else { return XCTFail("\(error)") }
        XCTAssertEqual([error.line, error.column], [6, 19], error.description)  // the second "."
        XCTAssertEqual(error.file, "\(id).yml")
      }
    }
  }
}
