import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import FCMLintRuleTestSupport
import XCTest

/// The fixer's promise never to turn a parseable file into an unparseable one is kept by parsing
/// each pass's result, so it holds when a config turns the syntax rule off.
final class FixerSyntaxGuardTests: XCTestCase {
  func testFixingWithJSONSyntaxOffGivesTheSameParseableResult() throws {
    let rules = builtinRules()
    XCTAssertNotNil(rules.rule("json-syntax"))
    let withSyntax = Fixer(linter: Linter(rules: rules))
    let withoutSyntax = Fixer(linter: Linter(rules: rules, severities: ["json-syntax": Severity?.none]))
    var checked = 0
    for rule in rules.rules {
      for example in rule.examples.invalid where example.fixed != nil {
        let bytes = Array(example.json.utf8)
        guard case .success = JSONParser.parse(bytes) else { continue }
        let off = withoutSyntax.fix(bytes: bytes, file: "example.json")
        XCTAssertEqual(off.bytes, withSyntax.fix(bytes: bytes, file: "example.json").bytes, "\(rule.source):\(example.line)")
        guard case .success = JSONParser.parse(off.bytes) else {
          XCTFail("\(rule.source):\(example.line): the fixed text does not parse")
          continue
        }
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 0)
  }

  func testAnUnparseableFileIsLeftAsItIsWithJSONSyntaxOff() {
    let linter = Linter(rules: builtinRules(), severities: ["json-syntax": Severity?.none])
    let broken = Array(#"{"message": {"token": "t", "android": {"priority": "high"}"#.utf8)
    let result = Fixer(linter: linter).fix(bytes: broken, file: "broken.json")
    XCTAssertEqual(result.bytes, broken)
    XCTAssertEqual(result.fixed, 0)
  }
}
