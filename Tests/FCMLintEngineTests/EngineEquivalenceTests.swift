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

  /// The linter evaluates `when` from a flattened copy of the condition tree; it must answer what
  /// the tree answers, evaluated directly, for the pack's conditions and for deeper nestings of
  /// `anyOf` and `not` built from the pack's checks.
  func testFlattenedConditionsAgreeWithTheTree() throws {
    let rules = builtinRules()
    let linter = Linter(rules: rules)
    func holds(_ condition: Rule.Condition, _ context: FunctionContext) -> Bool {
      switch condition {
      case .check(let check):
        let targets = check.field?.resolve(in: context.document, from: context.given) ?? [.found(context.given)]
        return targets.allSatisfy { check.function.passes($0, in: context) }
      case .anyOf(let conditions): return conditions.contains { holds($0, context) }
      case .not(let inner): return !holds(inner, context)
      }
    }
    let checks = rules.rules.flatMap { $0.when + $0.then.map { .check($0) } }
    var nested: [Rule.Condition] = []
    for (i, check) in checks.enumerated() {
      let other = checks[(i * 7 + 3) % checks.count], third = checks[(i * 5 + 1) % checks.count]
      nested.append(.anyOf([.not(.anyOf([check, .not(other)])), .anyOf([]), .not(.not(third))]))
      nested.append(.not(.anyOf([.anyOf([other, .not(check)]), third])))
    }
    var compared = 0, held = 0
    for (name, document) in try documents(rules).prefix(400) {
      for rule in rules.rules where !rule.reportsSyntax {
        var variants = [rule]
        for k in 0..<3 {
          var variant = rule
          variant.when = rule.when + [nested[(rule.id.utf8.count * 3 + k) % nested.count]]
          variants.append(variant)
        }
        for variant in variants {
          let entry = Linter.CompiledRule(variant)
          for path in variant.given {
            for node in path.select(in: document) {
              let context = FunctionContext(document: document, given: node)
              let expected = variant.when.allSatisfy { holds($0, context) }
              XCTAssertEqual(linter.whenHolds(entry, context), expected, "\(variant.id) at \(document.pointer(node)) in \(name)")
              compared += 1
              if expected { held += 1 }
            }
          }
        }
      }
    }
    XCTAssertGreaterThan(compared, 1_000)
    XCTAssertGreaterThan(held, 0)
    XCTAssertGreaterThan(compared - held, 0)
  }
}
