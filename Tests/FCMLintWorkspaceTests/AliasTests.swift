import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
@testable import FCMLintEngine
import XCTest

/// Aliases (`aliases.yml`): named paths and definitions, and where a mistake in them is reported.
final class AliasTests: XCTestCase {
  let aliasesText = """
    aliases:
      V2: $.message.android_v2
      Notifications: [$.message.android.notification, '#V2.remote_notification.notification']
    definitions:
      Https: '^https://'
      Keys: [a, b]
      Renames: {x: a}

    """

  func aliases(_ text: String? = nil) throws -> Aliases {
    try Aliases().adding(DataValue(yaml: text ?? aliasesText, file: "aliases.yml"))
  }

  func rule(given: String, then: String = "function: present") -> String {
    "id: r\nseverity: error\nsummary: s\ndescription: d\ndocs: https://example.com\ngiven: \(given)\nthen: {\(then)}\n"
  }

  func load(_ text: String) throws -> Rule {
    try RuleLoader.load(text: text, file: "r.yml", aliases: aliases())
  }

  func error(_ body: () throws -> Void) -> ConfigurationError? {
    do { try body() } catch let error as ConfigurationError { return error } catch { XCTFail("\(error)") }
    return nil
  }

  func testAliasStandsForItsPathsWithTheRestAppended() throws {
    let rule = try load(rule(given: "'#Notifications.image'"))
    XCTAssertEqual(rule.given.map(\.description), ["$.message.android.notification.image", "$.message.android_v2.remote_notification.notification.image"])
  }

  func testDefinitionsFillOptions() throws {
    let patternRule = try load(rule(given: "$.message", then: "field: '@.link', function: pattern, options: {match: '#Https'}"))
    XCTAssertEqual((patternRule.then[0].function as? Pattern)?.match?.source, "^https://")
    let keys = try load(rule(given: "$.message", then: "function: keyName, options: {allowed: ['#Keys', c, '#Renames'], renames: '#Renames'}"))
    XCTAssertEqual((keys.then[0].function as? KeyName)?.allowed, ["a", "b", "c", "x"])
  }

  func testUnknownAliasIsReportedWhereItIsUsed() {
    let e = error { _ = try load(rule(given: "'#Notification.image'")) }
    XCTAssertEqual([e?.line, e?.column], [6, 8], "\(String(describing: e))")
    XCTAssertTrue(e?.message.contains("unknown alias '#Notification'; did you mean 'Notifications'") == true, "\(String(describing: e))")
  }

  func testBadRestOfAPathPointsIntoIt() {
    let e = error { _ = try load(rule(given: "'#V2..data'")) }
    XCTAssertEqual([e?.line, e?.column], [6, 13], "\(String(describing: e))")  // the second '.'
  }

  func linter(_ rule: Rule) throws -> Linter {
    var rules = RuleSet()
    try rules.add(rule)
    return Linter(rules: rules)
  }

  func testFieldOfSeveralPathsChecksEach() throws {
    let rule = try load(rule(given: "$.message", then: "field: '#Notifications.color', function: present, message: 'm'"))
    XCTAssertEqual(rule.then.map { $0.field?.description }, ["$.message.android.notification.color", "$.message.android_v2.remote_notification.notification.color"])
    XCTAssertEqual(rule.then.map { $0.message?.source }, ["m", "m"])
    let both = #"{"message": {"topic": "t", "android": {"notification": {}}, "android_v2": {"remote_notification": {"notification": {}}}}}"#
    XCTAssertEqual(
      try linter(rule).lint(bytes: Array(both.utf8), file: "a.json").map(\.pointer),
      ["/message/android/notification", "/message/android_v2/remote_notification/notification"])
  }

  func testConditionFieldOfSeveralPathsHoldsAtEach() throws {
    let text = rule(given: "$.message", then: "field: '@.topic', function: absent") + "when: {field: '#Notifications.color', function: present}\n"
    let linter = try linter(try load(text))
    func pointers(_ json: String) -> [String] { linter.lint(bytes: Array(json.utf8), file: "a.json").map(\.pointer) }
    let one = ##"{"message": {"topic": "t", "android": {"notification": {"color": "#ffffff"}}}}"##
    let both = ##"{"message": {"topic": "t", "android": {"notification": {"color": "#ffffff"}}, "android_v2": {"remote_notification": {"notification": {"color": "#ffffff"}}}}}"##
    XCTAssertEqual(pointers(one), [])
    XCTAssertEqual(pointers(both), ["/message/topic"])
  }

  func testFixAndReferenceTakeOnePath() {
    let set = error { _ = try load(rule(given: "$.message", then: "function: present") + "fix: {set: '#Notifications.color', value: 1}\n") }
    XCTAssertTrue(set?.message.contains("set takes one path") == true, "\(String(describing: set))")
    let reference = error { _ = try load(rule(given: "$.message", then: "function: consistent, options: {reference: '#Notifications', paths: ['@.a']}")) }
    XCTAssertTrue(reference?.message.contains("takes one path") == true, "\(String(describing: reference))")
  }

  func testCycleUnknownAndBadPathInTheAliasesFile() {
    let cycle = error { _ = try aliases("aliases:\n  A: '#B.x'\n  B: ['$.y', '#A']\n") }
    XCTAssertEqual([cycle?.file, "\(cycle?.line ?? 0):\(cycle?.column ?? 0)"], ["aliases.yml", "3:14"], "\(String(describing: cycle))")
    XCTAssertTrue(cycle?.message.contains("uses itself") == true)
    let unknown = error { _ = try aliases("aliases:\n  A: '#Nope'\n") }
    XCTAssertEqual([unknown?.line, unknown?.column], [2, 6])
    let bad = error { _ = try aliases("aliases:\n  A: $.a..b\n") }
    XCTAssertEqual([bad?.line, bad?.column], [2, 10])  // the second "."
    let redefined = error { _ = try aliases().adding(DataValue(yaml: "aliases:\n  V2: $.x\n", file: "mine.yml")) }
    XCTAssertTrue(redefined?.message.contains("already defined in aliases.yml") == true, "\(String(describing: redefined))")
  }

  func testUserFolderUsesBuiltinAndItsOwnAliases() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-aliases-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "aliases:\n  MyImages: ['#AndroidNotifications.image', '#ApnsImage']\n".write(toFile: folder + "/aliases.yml", atomically: true, encoding: .utf8)
    try rule(given: "'#MyImages'").replacingOccurrences(of: "id: r", with: "id: my-images").write(toFile: folder + "/my.yml", atomically: true, encoding: .utf8)
    var rules = builtinRules()
    try rules.addDirectory(folder)
    XCTAssertEqual(rules.rule("my-images")?.given.count, 3)
  }
}
