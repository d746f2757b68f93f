import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintRuleTestSupport
import XCTest

/// A rule set refuses a second rule with an id it has, at the id of the second, saying where
/// the first is from; the set is unchanged by the refusal.
final class RuleSetTests: XCTestCase {
  static func rule(_ id: String) -> String {
    """
    id: \(id)
    severity: warning
    summary: A topic is set
    description: The message names a topic.
    docs: https://firebase.google.com/docs/reference/fcm/rest/v1/projects.messages
    given: $.message
    then:
      field: "@.topic"
      function: present
    """
  }

  func testADuplicateIdIsRefusedWhereItIsWritten() throws {
    var rules = RuleSet()
    try rules.addFolder("mine", files: [(path: "mine/a.yml", text: Self.rule("topic-set"))])
    XCTAssertThrowsError(try rules.addFolder("more", files: [(path: "more/b.yml", text: Self.rule("topic-set"))])) { error in
      let error = error as? ConfigurationError
      XCTAssertEqual(error?.file, "more/b.yml")
      XCTAssertEqual(error?.line, 1)
      XCTAssertEqual(error?.message, "duplicate rule id 'topic-set': it is already defined in mine/a.yml")
    }
    XCTAssertEqual(rules.rules.map(\.id), ["topic-set"])
    XCTAssertEqual(rules.rule("topic-set")?.source, "mine/a.yml")
  }

  func testABuiltInIdIsRefusedForAUsersRule() throws {
    var rules = try BuiltinPack.load()
    let count = rules.rules.count
    XCTAssertThrowsError(try rules.addFolder("mine", files: [(path: "mine/t.yml", text: Self.rule("topic-name"))])) { error in
      XCTAssertEqual((error as? ConfigurationError)?.message.hasPrefix("duplicate rule id 'topic-name': it is a built-in rule's id"), true, "\(error)")
    }
    XCTAssertEqual(rules.rules.count, count)
    XCTAssertEqual(rules.rule("topic-name")?.isBuiltin, true)
    try rules.addFolder("mine", files: [(path: "mine/t.yml", text: Self.rule("topic-set"))])
    XCTAssertEqual(rules.rule("topic-set")?.source, "mine/t.yml")
    XCTAssertEqual(rules.rules.count, count + 1)
  }

  /// The built-in pack's rules are found by id without a table of their ids (the build wrote
  /// them in id order): every id, the first and the last, and ids between or around them.
  func testEveryBuiltInRuleIsFoundByItsId() throws {
    let rules = try BuiltinPack.load()
    XCTAssertGreaterThan(rules.rules.count, 50)
    for rule in rules.rules { XCTAssertEqual(rules.rule(rule.id)?.id, rule.id) }
    let ids = rules.rules.map(\.id)
    XCTAssertEqual(ids, ids.sorted())
    for id in ["", "a", "zzzz", ids[0] + "-", String(ids[0].dropLast()), ids[ids.count - 1] + "x"] where !ids.contains(id) {
      XCTAssertNil(rules.rule(id), id)
    }
  }
}
