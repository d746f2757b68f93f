import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import XCTest

/// Every rule's examples are its tests: valid ones must not trigger it, invalid ones must trigger
/// it at exactly the pointers they list.
final class RuleExampleTests: XCTestCase {
  func testEveryBuiltinRuleHasDocsAndExamples() {
    let rules = builtinRules().rules
    XCTAssertFalse(rules.isEmpty)
    for rule in rules {
      XCTAssertFalse(rule.examples.valid.isEmpty, "\(rule.source): needs a valid example")
      XCTAssertFalse(rule.examples.invalid.isEmpty, "\(rule.source): needs an invalid example")
      XCTAssertTrue(rule.docs.hasPrefix("https://"), "\(rule.source): docs must be an https URL")
      XCTAssertTrue(rule.source.hasSuffix("/\(rule.id).yml"), "\(rule.source): the file must be named after the rule id")
      XCTAssertTrue(rule.source.hasPrefix("rules/"), "\(rule.source): built-in rules live under rules/")
    }
  }

  /// The rule files as written (YAML, with their line numbers for failure messages).
  func sourceRules() throws -> [Rule] {
    // The schemas (fcm-v1) come with the built-in pack; rule files that use `schema` need them.
    var rules = RuleSet(resources: builtinRules().resources)
    try rules.addDirectory(Repository.path("rules"))
    return rules.rules
  }

  func testEmbeddedPackMatchesRuleFiles() throws {
    XCTAssertEqual(try sourceRules().map(\.id).sorted(), builtinRules().ids)
  }

  func testBuiltinRuleExamples() throws {
    for rule in try sourceRules() {
      var only = RuleSet()
      try only.add(rule)
      func lint(_ example: Rule.Example) -> [Diagnostic] {
        var options = Linter.Options()
        options.input = example.input
        return Linter(rules: only, options: options).lint(bytes: Array(example.json.utf8), file: "example.json")
      }
      for example in rule.examples.valid {
        let found = lint(example)
        XCTAssertEqual(found.map(\.pointer), [], "\(rule.source):\(example.line): valid example triggers the rule: \(found.map(\.message))")
      }
      for example in rule.examples.invalid {
        let found = lint(example)
        XCTAssertEqual(found.map(\.pointer), example.pointers, "\(rule.source):\(example.line): invalid example: \(found.map(\.message))")
        if let expected = example.fixed {
          var options = Linter.Options()
          options.input = example.input
          let fixer = Fixer(linter: Linter(rules: only, options: options))
          let output = fixer.fix(bytes: Array(example.json.utf8), file: "example.json").bytes
          XCTAssertEqual(String(decoding: output, as: UTF8.self), expected, "\(rule.source):\(example.line): fixed output")
          let again = fixer.fix(bytes: output, file: "example.json").bytes
          XCTAssertEqual(again, output, "\(rule.source):\(example.line): fixing is not idempotent")
        }
        for diagnostic in found {
          XCTAssertEqual(diagnostic.rule, rule.id)
          XCTAssertFalse(diagnostic.message.isEmpty)
          XCTAssertFalse(diagnostic.message.contains("{"), "\(rule.source): unrendered placeholder in '\(diagnostic.message)'")
        }
      }
    }
  }

  /// Examples other than the syntax rule's must be valid JSON themselves, or they test nothing.
  func testExamplesParse() {
    for rule in builtinRules().rules where !rule.reportsSyntax {
      for example in rule.examples.valid + rule.examples.invalid {
        if case .failure(let error) = JSONParser.parse(Array(example.json.utf8)) {
          XCTFail("\(rule.source):\(example.line): example is not JSON: \(error.message)")
        }
      }
    }
  }
}
