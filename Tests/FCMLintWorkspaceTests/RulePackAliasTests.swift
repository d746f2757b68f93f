import FCMLintTestSupport
@testable import FCMLintEngine
import Foundation
import XCTest

/// The built-in rules name what `rules/aliases.yml` names by its alias, never by its path: a path
/// written out in a rule file would not follow a change of the alias.
final class RulePackAliasTests: XCTestCase {
  /// One path a rule file writes, where it is written and the absolute paths it stands for.
  struct Written {
    var text: String
    var line: Int
    /// Each absolute path the written one reaches (a relative path, from each `given` path), and
    /// how many of its segments the rule's `given` path gave (0 for an absolute path).
    var reaches: [(segments: [JSONPath.Segment], base: Int)]
    var isAlias: Bool { text.hasPrefix("#") }
  }

  let aliases: Aliases = {
    try! Aliases().adding(DataValue(yaml: try! Repository.read("rules/aliases.yml"), file: "rules/aliases.yml"))
  }()

  func testNoRuleWritesOutAnAliasedPath() throws {
    var problems: [String] = []
    let files = Repository.files(under: "rules", suffixes: [".yml"]).filter { !$0.hasSuffix("/" + Aliases.fileName) }
    XCTAssertGreaterThan(files.count, 50)
    for file in files {
      let name = String(file.dropFirst(Repository.root.count + 1))
      problems += try self.problems(in: DataValue(yaml: String(contentsOfFile: file, encoding: .utf8), file: name))
    }
    XCTAssertEqual(problems, [], "\n" + problems.joined(separator: "\n"))
  }

  /// The detector itself, on rules written to trip it and rules that must not.
  func testTheCheckFindsWhatItShould() throws {
    func check(_ given: String, _ then: String, when: String = "") throws -> [String] {
      let text = "id: r\nseverity: error\nsummary: s\ndocs: https://example.com\ngiven: \(given)\n\(when)then: \(then)\n"
      return try problems(in: DataValue(yaml: text, file: "r.yml")).map { String($0.split(separator: ": ", maxSplits: 1)[1]) }
    }
    // One path: written out, reached through a relative path, extended.
    XCTAssertEqual(try check("$.message.apns.payload", "{function: present}"), ["'$.message.apns.payload' is '#ApnsPayload'"])
    XCTAssertEqual(try check("'#ApnsPayload'", "{field: '@.aps.alert', function: present}"), ["'@.aps.alert' is '#Aps.alert'"])
    XCTAssertEqual(try check("$.message", "{field: '@.apns.fcm_options.image', function: present}"), ["'@.apns.fcm_options.image' is '#ApnsImage'"])
    // Every path of a list alias in one place.
    XCTAssertEqual(
      try check("[$.message.android.notification, $.message.android_v2.remote_notification.notification]", "{function: present}"),
      ["'$.message.android_v2.remote_notification.notification' is '#AndroidV2Notification'", "the paths of '#AndroidNotifications' are written out"])
    XCTAssertEqual(
      try check("$.message", "[{field: '@.android.notification.color', function: present}, {field: '#AndroidV2Notification.color', function: present}]"),
      ["the paths of '#AndroidNotifications.color' are written out"])
    XCTAssertEqual(
      try check("$.message", "{function: present}", when: "when: {anyOf: [{field: '$.message.android.data', function: present}, {field: '$.message.data', function: present}, {field: '$.message.android_v2.data', function: present}, {field: '$.message.webpush.data', function: present}]}\n"),
      ["the paths of '#DataObjects' are written out"])
    // Not a problem: the alias itself, a path an alias only starts, one item of a list alias, a
    // relative path that stays inside its given alias, and a path under a given alias.
    XCTAssertEqual(try check("'#Aps'", "{field: '@.alert', function: present}"), [])
    XCTAssertEqual(try check("$.message.apns", "{field: \"@.headers['apns-priority']\", function: present}"), [])
    XCTAssertEqual(try check("$.message", "{field: '@.android_v2.remote_notification', function: present}"), [])
    XCTAssertEqual(try check("$.message", "{function: contentSize, options: {max: 1, paths: ['@.data', '@.notification']}}"), [])
    XCTAssertEqual(try check("['#AndroidNotifications']", "{field: '@.image', function: present}"), [])
  }

  /// What `rule` writes out that an alias names, one line each.
  func problems(in rule: DataValue) throws -> [String] {
    var fields: [String: DataValue] = [:]
    for (key, _, value) in try rule.mapping(what: "a rule") { fields[key] = value }
    guard let givenValue = fields["given"] else { return ["\(rule.file): no given"] }
    var givens: [[JSONPath.Segment]] = []
    for item in givenValue.oneOrMany(what: "given") { givens += try absolute(item).map(\.segments) }

    func written(_ value: DataValue) throws -> Written {
      let text = try value.string(what: "a path")
      if text.hasPrefix("#") {
        return Written(text: text, line: value.line, reaches: try absolute(value).map { ($0.segments, 0) })
      }
      let path = try JSONPath(text)
      if path.anchor == .root { return Written(text: text, line: value.line, reaches: [(path.segments, 0)]) }
      return Written(text: text, line: value.line, reaches: givens.map { ($0 + path.segments, $0.count) })
    }
    // The places a rule writes paths, each a list whose paths belong together.
    var places: [[Written]] = [try givenValue.oneOrMany(what: "given").map(written)]
    func options(_ check: DataValue) throws {
      guard case .mapping = check.node else { return }
      var function: (any RuleFunction.Type)? = nil
      var optionsValue: DataValue? = nil
      for (key, _, value) in try check.mapping(what: "a check") {
        if key == "function" { function = FunctionRegistry.function(named: try value.string(what: "function")) }
        if key == "options" { optionsValue = value }
      }
      guard let function, let optionsValue else { return }
      for (key, _, value) in try optionsValue.mapping(what: "options") {
        guard let spec = function.options.first(where: { $0.name == key }), spec.kind == .path || spec.kind == .paths else { continue }
        places.append(try value.oneOrMany(what: key).map(written))
      }
    }
    // A list of conditions (the `when` list, an `anyOf`) is one place for the fields it checks.
    func conditions(_ list: [DataValue]) throws {
      var fieldsHere: [Written] = []
      for condition in list {
        guard case .mapping(let members) = condition.node else { continue }
        if members.count == 1, case .scalar(let key, _, _) = members[0].key.node, key == "anyOf" || key == "not" {
          try conditions(key == "not" ? [members[0].value] : members[0].value.oneOrMany(what: key))
          continue
        }
        for (key, _, value) in try condition.mapping(what: "a condition") where key == "field" { fieldsHere.append(try written(value)) }
        try options(condition)
      }
      places.append(fieldsHere)
    }
    if let when = fields["when"] { try conditions(when.oneOrMany(what: "when")) }
    var thenFields: [Written] = []
    for check in fields["then"]?.oneOrMany(what: "then") ?? [] {
      guard case .mapping = check.node else { continue }
      for (key, _, value) in try check.mapping(what: "a check") where key == "field" { thenFields.append(try written(value)) }
      try options(check)
    }
    places.append(thenFields)
    if let fix = fields["fix"], case .mapping = fix.node {
      for (key, _, value) in try fix.mapping(what: "fix") where key == "set" || key == "moveInto" { places.append([try written(value)]) }
    }

    var problems: [String] = []
    let named = aliases.paths.sorted { $0.key < $1.key }.map { (name: $0.key, paths: $0.value.map { try! JSONPath($0).segments }) }
    for place in places {
      // A path written out that is an alias of one path, or starts with one (past its given).
      for item in place where !item.isAlias {
        var found: [String] = []
        for alias in named where alias.paths.count == 1 {
          let path = alias.paths[0]
          for reach in item.reaches where path.count > reach.base && reach.segments.starts(with: path) {
            found.append("#" + alias.name + JSONPath.text(reach.segments.dropFirst(path.count)))
          }
        }
        // The longest alias says it best ('#Aps.alert', not '#ApnsPayload.aps.alert').
        if let best = found.min(by: { $0.count < $1.count }) {
          problems.append("\(rule.file):\(item.line): '\(item.text)' is '\(best)'")
        }
      }
      // Every path of an alias of several, with the same rest, written in one place by more
      // than one item (one item that is an alias is how it should be written).
      for alias in named where alias.paths.count > 1 {
        var rests: [String: Set<Int>] = [:]
        for (index, item) in place.enumerated() {
          for reach in item.reaches {
            for path in alias.paths where path.count > reach.base && reach.segments.starts(with: path) {
              rests[JSONPath.text(reach.segments.dropFirst(path.count)), default: []].insert(index)
            }
          }
        }
        for (rest, items) in rests.sorted(by: { $0.key < $1.key }) where items.count > 1 {
          let covered = Set(items.flatMap { place[$0].reaches.map { JSONPath.text($0.segments) } })
          if alias.paths.allSatisfy({ covered.contains(JSONPath.text($0) + rest) }) {
            problems.append("\(rule.file): the paths of '#\(alias.name)\(rest)' are written out")
          }
        }
      }
    }
    return problems
  }

  /// The absolute paths a written path stands for (an alias's paths, or itself).
  func absolute(_ value: DataValue) throws -> [JSONPath] {
    try aliases.expand(value, what: "a path").map { try JSONPath($0) }
  }
}

extension JSONPath {
  /// The text of segments after a path (`.image`, `['mutable-content']`).
  fileprivate static func text<S: Sequence>(_ segments: S) -> String where S.Element == Segment {
    segments.map { segment in
      switch segment {
      case .member(let name, _):
        return name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) ? "." + name : "['\(name)']"
      case .wildcard: return ".*"
      case .index(let i): return "[\(i)]"
      }
    }.joined()
  }
}
