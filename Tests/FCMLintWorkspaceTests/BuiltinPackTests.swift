import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import FCMLintBuiltinRules
import FCMLintEngine
import XCTest

/// The built-in pack lints from the trees the build writes as code (embed-rules), loaded by the
/// same loader as a user's YAML. These tests keep it equal to what the rule files say.
final class BuiltinPackTests: XCTestCase {
  /// The pack loaded from the files under rules/, as a user's rule folder would be.
  func packFromFiles() throws -> RuleSet {
    var pack = try RuleSet(builtin: [], aliases: nil, schemas: BuiltinRules.schemas)
    try pack.addDirectory(Repository.path("rules"))
    return pack
  }

  func testEmbeddedPackEqualsTheRuleFiles() throws {
    let embedded = builtinRules(), files = try packFromFiles()
    XCTAssertEqual(embedded.ids, files.ids)
    for rule in embedded.rules {
      let file = try XCTUnwrap(files.rule(rule.id))
      XCTAssertEqual(Repository.path(rule.source), file.source, rule.id)
      XCTAssertEqual(rule.severity, file.severity, rule.id)
      XCTAssertEqual(rule.summary, file.summary, rule.id)
      XCTAssertEqual(rule.docs, file.docs, rule.id)
      XCTAssertEqual(rule.documentation, file.documentation, rule.id)
      XCTAssertEqual(rule.message?.source, file.message?.source, rule.id)
      XCTAssertEqual(rule.given, file.given, rule.id)
      XCTAssertEqual(rule.then.map(\.functionName), file.then.map(\.functionName), rule.id)
      XCTAssertEqual(rule.then.map(\.field), file.then.map(\.field), rule.id)
      XCTAssertEqual([rule.idLine, rule.idColumn], [file.idLine, file.idColumn], rule.id)
    }
  }

  func testEmbeddedPackReportsWhatTheRuleFilesReport() throws {
    let embedded = Linter(rules: builtinRules()), files = Linter(rules: try packFromFiles())
    let (paths, _) = FileSystem.files(under: Repository.path("corpus")) { $0.hasSuffix(".json") }
    XCTAssertGreaterThan(paths.count, 10)
    for path in paths {
      guard case .success(let bytes) = FileSystem.read(path) else { continue }
      XCTAssertEqual(embedded.lint(bytes: bytes, file: path), files.lint(bytes: bytes, file: path), path)
    }
  }

  func testRuleTreesLeaveOutTheDocumentation() throws {
    // What a run that only lints builds: no description or examples.
    for rule in BuiltinRules.rules() {
      guard case .mapping(let members) = rule.tree.node else { return XCTFail("\(rule.tree.file): not a mapping") }
      for (key, _) in members {
        guard case .scalar(let name, _, _) = key.node else { continue }
        XCTAssertFalse(RuleLoader.documentationKeys.contains(name), "\(rule.tree.file): \(name)")
      }
    }
  }

  func testRuleKeepsWhereCompiledValuesAreWritten() throws {
    // A pattern that does not compile is reported inside the pattern, in the YAML file.
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
    XCTAssertThrowsError(try RuleLoader.load(text: text, file: "r.yml")) { error in
      guard let error = error as? ConfigurationError else { return XCTFail("\(error)") }
      XCTAssertEqual([error.line, error.column], [10, 23], error.description)  // the unclosed "("
      XCTAssertTrue(error.message.contains("not a supported regular expression"), error.message)
    }
  }
}
