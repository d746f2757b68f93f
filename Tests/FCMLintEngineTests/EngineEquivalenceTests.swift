import FCMLintBuiltinRules
@testable import FCMLintEngine
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// The engine's shortcuts must change nothing but speed: the trie of `given` paths selects what
/// each path selects alone, a function's `passes` answers what `check(...).isEmpty` answers, and
/// the built-in pack compiled from its generated specs (no descriptions or examples) reports what
/// the pack loaded from its full JSON form reports.
final class EngineEquivalenceTests: XCTestCase {
  func documents(_ rules: RuleSet) throws -> [(name: String, document: JSONDocument)] { corpusAndExampleDocuments(rules) }

  func testGivenTrieSelectsWhatEachPathSelects() throws {
    let rules = builtinRules()
    // The pack's paths, and some the pack does not use: wildcards, indexes, `$` alone, a member
    // of the mount's own name at another depth.
    var paths = rules.rules.flatMap(\.given)
    for text in ["$", "$.*", "$.message.*", "$.message.*.notification", "$['message']['data'][*]", "$.message.apns.payload.aps.alert",
                 "$.message.webpush.notification.actions[0]", "$.message.message", "$.aps"] {
      paths.append(try JSONPath(text))
    }
    let trie = GivenTrie(paths: paths)
    for (name, document) in try documents(rules) {
      var found = [[NodeID]](repeating: [], count: paths.count)
      trie.walk(document) { slot, node in found[Int(slot)].append(node) }
      for (slot, path) in paths.enumerated() {
        XCTAssertEqual(found[slot], path.select(in: document), "\(path.description) in \(name)")
      }
    }
  }

  func testPassesAgreesWithCheck() throws {
    let rules = builtinRules()
    func checks(_ condition: Rule.Condition) -> [Rule.Check] {
      switch condition {
      case .check(let check): return [check]
      case .anyOf(let conditions): return conditions.flatMap(checks)
      case .not(let inner): return checks(inner)
      }
    }
    var compared = 0
    for (name, document) in try documents(rules) {
      for rule in rules.rules where !rule.reportsSyntax {
        for path in rule.given {
          for node in path.select(in: document) {
            let context = FunctionContext(document: document, given: node)
            for check in rule.then + rule.when.flatMap(checks) {
              let targets = check.field?.resolve(in: document, from: node) ?? [.found(node)]
              for target in targets {
                XCTAssertEqual(
                  check.function.passes(target, in: context), check.function.check(target, in: context).isEmpty,
                  "\(rule.id): \(check.functionName) on \(target) in \(name)")
                compared += 1
              }
            }
          }
        }
      }
    }
    XCTAssertGreaterThan(compared, 10_000)
  }

  func testPackFromSpecsReportsWhatTheFullPackReports() throws {
    let full = builtinRules()
    let fromSpecs = try BuiltinPack.load(documented: false)
    XCTAssertEqual(fromSpecs.ids, full.ids)
    for (a, b) in zip(fromSpecs.rules, full.rules) {
      XCTAssertEqual(a.severity, b.severity, a.id)
      XCTAssertEqual(a.summary, b.summary, a.id)
      XCTAssertEqual(a.docs, b.docs, a.id)
      XCTAssertEqual(a.message?.source, b.message?.source, a.id)
      XCTAssertEqual(a.given, b.given, a.id)
      XCTAssertTrue(a.examples.valid.isEmpty && a.examples.invalid.isEmpty && a.description.isEmpty, a.id)
    }
    let files = Repository.files(under: "corpus", suffixes: [".json"])
    let specLinter = Linter(rules: fromSpecs), fullLinter = Linter(rules: full)
    for file in files {
      guard let bytes = try? Repository.bytes(atPath: file) else { continue }
      XCTAssertEqual(specLinter.lint(bytes: bytes, file: file), fullLinter.lint(bytes: bytes, file: file), file)
    }
  }
}
