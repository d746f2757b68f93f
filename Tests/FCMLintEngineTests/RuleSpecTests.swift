import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// The built-in pack lints from specs the build writes as Swift code (embed-rules), not from
/// rule text. These tests keep that code equal to what the rule files say.
final class RuleSpecTests: XCTestCase {
  /// The rule files in the order embed-rules takes them (sorted paths).
  func ruleFiles() throws -> [String] {
    let files = Repository.files(under: "rules", suffixes: [".yml", ".yaml"])
    XCTAssertFalse(files.isEmpty)
    return files.sorted()
  }

  func testGeneratedSpecsEqualTheRuleFiles() throws {
    let files = try ruleFiles()
    let generated = BuiltinRules.lintSpecs()
    XCTAssertEqual(generated.count, files.count)
    for (file, spec) in zip(files, generated) {
      var expected = try RuleLoader.spec(yaml: Repository.read(String(file.dropFirst(Repository.root.count + 1))), file: file, isBuiltin: true)
      expected.description = ""
      expected.examples = Rule.Examples()
      expected.source = "rules/" + file.dropFirst(Repository.path("rules/").count)
      XCTAssertEqual(spec, expected, file)
    }
  }

  func testSpecsKeepWhereCompiledValuesAreWritten() throws {
    // Positions point into the YAML file, so a spec that fails to compile says where.
    let text = """
      id: bad-pattern
      severity: error
      summary: s
      description: d
      docs: https://example.com
      given: $.message
      then:
        field: '@.topic'
        function: pattern
        options: { match: 'a(b' }

      """
    let spec = try RuleLoader.spec(yaml: text, file: "r.yml")
    guard case .pattern(let pattern)? = spec.then.first?.options["match"] else { return XCTFail("no pattern option") }
    XCTAssertEqual(pattern, Located("a(b", line: 10, column: 21, quoted: true))
    XCTAssertThrowsError(try spec.compile(resources: RuleResources())) { error in
      guard let error = error as? ConfigurationError else { return XCTFail("\(error)") }
      XCTAssertEqual([error.line, error.column], [10, 23], error.description)  // the unclosed "("
      XCTAssertTrue(error.message.contains("not a supported regular expression"), error.message)
    }
  }

  func testEveryBuiltinSpecCompiles() throws {
    let pack = try RuleSet(builtin: BuiltinRules.lintSpecs(), schemas: BuiltinRules.schemas)
    XCTAssertEqual(pack.ids, builtinRules().ids)
  }
}
