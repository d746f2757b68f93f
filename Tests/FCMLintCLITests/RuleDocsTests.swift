import FCMLintCLI
import FCMLintEngine
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// The README's rule list is generated from rules/; this keeps it current.
final class RuleDocsTests: XCTestCase {
  static let start = "<!-- rules:start (generated: swift run fcmlint rules --format markdown) -->\n"
  static let end = "<!-- rules:end -->"

  func testReadmeRuleTableIsCurrent() throws {
    let readme = try Repository.read("README.md")
    guard let startRange = readme.range(of: Self.start), let endRange = readme.range(of: Self.end) else {
      return XCTFail("README.md needs the rule table markers")
    }
    let table = RuleDocs.markdownTable(builtinRules().rules)
    if Repository.updatingGoldens {
      try Repository.write("README.md", readme.replacingCharacters(in: startRange.upperBound..<endRange.lowerBound, with: table))
      return
    }
    XCTAssertEqual(String(readme[startRange.upperBound..<endRange.lowerBound]), table,
      "README rule table is stale: run FCMLINT_UPDATE_GOLDEN=1 swift test --filter RuleDocsTests")
  }
}
