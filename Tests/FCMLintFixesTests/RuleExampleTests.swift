import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// Every rule's examples are its tests: valid ones must not trigger it, invalid ones must trigger
/// it at exactly the pointers they list. Each rule file has its own test method, generated at
/// build time (`RuleExamples`, by the RuleExampleTests plugin), so one rule runs alone with
/// `swift test --filter RuleExamples/test_image_url`.
final class RuleExampleTests: XCTestCase {
  func testEveryBuiltinRuleHasDocsAndExamples() {
    let rules = builtinRules().rules
    XCTAssertFalse(rules.isEmpty)
    for rule in rules {
      XCTAssertFalse(rule.examples.valid.isEmpty, "\(rule.source): needs a valid example")
      XCTAssertFalse(rule.examples.invalid.isEmpty, "\(rule.source): needs an invalid example")
      // A web page, or a page of this repository (the rules fcmlint reports itself have their own).
      if !Rule.isWebAddress(rule.docs) {
        let page = String(rule.docs.split(separator: "#", maxSplits: 1)[0])
        XCTAssertTrue(FileManager.default.fileExists(atPath: Repository.path(page)), "\(rule.source): docs names \(rule.docs), which this repository does not hold")
      }
      XCTAssertTrue(rule.source.hasSuffix("/\(rule.id).yml"), "\(rule.source): the file must be named after the rule id")
      XCTAssertTrue(rule.source.hasPrefix("rules/"), "\(rule.source): built-in rules live under rules/")
    }
  }

  func testEmbeddedPackMatchesRuleFiles() throws {
    XCTAssertEqual(try repositoryRules(resources: builtinRules().resources).ids, builtinRules().ids)
  }

  /// Examples other than the syntax rule's must be valid JSON themselves (or templates the
  /// linter reads: an unquoted placeholder, a block around members), or they test nothing.
  func testExamplesParse() {
    let linter = Linter(rules: RuleSet())
    for rule in builtinRules().rules where !rule.reportsSyntax {
      for example in rule.examples.valid + rule.examples.invalid where example.page == nil {
        if case .failure(let error) = linter.parse(Array(example.json.utf8)) {
          XCTFail("\(rule.source):\(example.line): example is not JSON: \(error.message)")
        }
      }
    }
  }
}

/// `text` without `{{...}}` and `${...}` (a template's placeholders, as rule examples write them).
private func withoutTemplatePlaceholders(_ text: String) -> String {
  var out = "", rest = Substring(text)
  while let open = rest.firstRange(of: "{{") ?? rest.firstRange(of: "${") {
    out += rest[..<open.lowerBound]
    guard let close = rest[open.upperBound...].firstIndex(of: "}") else { return out + rest }
    rest = rest[rest.index(after: close)...].drop { $0 == "}" }
  }
  return out + rest
}

extension XCTestCase {
  /// Checks the examples of one rule file as written (`relative` to the repository, such as
  /// `rules/images/image-url.yml`): what each generated `RuleExamples` method calls.
  func checkRuleExamples(_ relative: String) throws {
    // The schemas (fcm-v1) come with the built-in pack; rule files that use `schema` need them.
    let rule = try repositoryRule(Repository.path(relative), resources: builtinRules().resources)
    for failure in ExampleCheck.check(rule, resources: builtinRules().resources) { XCTFail(failure.description) }
    // A rule fcmlint reports itself is found by the command line, where its examples run
    // (ReportedRuleTests in FCMLintCLITests): here they need one of those to be run there.
    if rule.isReportedByFcmlint {
      XCTAssertTrue(rule.examples.invalid.contains(where: \.needsCommandLine), "\(relative): an invalid example needs a 'page' or a 'config'")
    }
    var only = RuleSet()
    try only.add(rule)
    for example in rule.examples.invalid where !example.needsCommandLine {
      var options = Linter.Options()
      options.input = example.input
      options.fragment = example.fragment
      let found = Linter(rules: only, options: options).lint(bytes: Array(example.json.utf8), file: "example.json")
      for diagnostic in found {
        XCTAssertEqual(diagnostic.rule, rule.id)
        XCTAssertFalse(diagnostic.message.isEmpty)
        // A template example's own placeholders ({{id}}) may be quoted; a message's may not.
        XCTAssertFalse(withoutTemplatePlaceholders(diagnostic.message).contains("{"), "\(rule.source): unrendered placeholder in '\(diagnostic.message)'")
      }
    }
  }
}
