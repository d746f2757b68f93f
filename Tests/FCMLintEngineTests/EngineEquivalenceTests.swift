import FCMLintBuiltinRules
@testable import FCMLintEngine
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// The engine's shortcuts must change nothing but speed: the trie of `given` paths selects what
/// each path selects alone, and a function's `passes` answers what `check(...).isEmpty` answers.
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
                // The linter does not ask such a function where the field is missing.
                if type(of: check.function).ignoresMissing, case .missing = target {
                  XCTAssertTrue(check.function.passes(target, in: context), "\(rule.id): \(check.functionName) on \(target) in \(name)")
                }
                if type(of: check.function).failsWhereMissing, case .missing = target {
                  XCTAssertFalse(check.function.passes(target, in: context), "\(rule.id): \(check.functionName) on \(target) in \(name)")
                }
                compared += 1
              }
            }
          }
        }
      }
    }
    XCTAssertGreaterThan(compared, 10_000)
  }

  /// A check several rules make runs once per node (`LintMemo`), and a rule alike another (a
  /// copy under a new id) takes what the other found: each must report what it reports alone.
  func testRulesCopiedUnderNewIdsReportWhatTheOriginalsReport() throws {
    let builtin = builtinRules()
    var doubled = builtin
    let files = try Repository.files(under: "rules", suffixes: [".yml"]).filter { !$0.hasSuffix("/" + Aliases.fileName) }.map { file in
      let lines = String(decoding: try Repository.bytes(atPath: file), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let text = lines.map { $0.hasPrefix("id: ") ? $0 + "-copy" : $0 }.joined(separator: "\n")
      return (path: "copies/" + String(file.split(separator: "/").last!), text: text)
    }
    // A rule fcmlint reports itself finds nothing in a document, and only its own id may be one.
    let copied = files.filter { !$0.text.contains("function: reportedByFcmlint") }
    try doubled.addFolder("copies", files: copied.sorted { $0.path < $1.path })
    XCTAssertEqual(doubled.rules.count, 2 * builtin.rules.count - builtin.rules.filter(\.isReportedByFcmlint).count)
    let original = Linter(rules: builtin), both = Linter(rules: doubled)
    var texts: [(String, [UInt8])] = try Repository.files(under: "corpus", suffixes: [".json"]).map { ($0, try Repository.bytes(atPath: $0)) }
    for rule in builtin.rules {
      for example in rule.examples.valid + rule.examples.invalid { texts.append(("\(rule.id) example", Array(example.json.utf8))) }
    }
    var reported = 0
    for (name, bytes) in texts {
      let alone = original.lint(bytes: bytes, file: name), together = both.lint(bytes: bytes, file: name)
      XCTAssertEqual(together.filter { !$0.rule.hasSuffix("-copy") }, alone, name)
      // The copies report the same, under their own ids (but for the syntax rule: one per run).
      let copies = together.filter { $0.rule.hasSuffix("-copy") }.map { d -> Diagnostic in
        var d = d
        d.rule = String(d.rule.dropLast("-copy".count))
        return d
      }
      XCTAssertEqual(copies.sorted(by: Diagnostic.ordered), alone.filter { $0.rule != "json-syntax" }, name)
      reported += alone.count
    }
    XCTAssertGreaterThan(reported, 200)
  }
}
