@testable import FCMLintEngine
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// The three schema rules share one walk of a document (recorded by whichever runs first, in a
/// per-document scratch): each must report what it reports when it walks alone, whatever ran
/// before it, and the walk must stay bounded on hostile input.
final class SchemaWalkTests: XCTestCase {
  /// The schema checks of the built-in pack, with their rule ids.
  func schemaChecks(_ rules: RuleSet) -> [(id: String, check: Rule.Check)] {
    var out: [(String, Rule.Check)] = []
    for rule in rules.rules {
      for check in rule.then where check.function is SchemaCheck { out.append((rule.id, check)) }
    }
    return out
  }

  func documents(_ rules: RuleSet) -> [(name: String, document: JSONDocument)] { corpusAndExampleDocuments(rules) }

  func describe(_ findings: [Finding]) -> [String] {
    findings.map { "\($0.node) \($0.atKey) \($0.values.sorted { $0.key < $1.key })" }
  }

  func testSharedWalkReportsWhatEachCheckFindsAlone() {
    let rules = builtinRules()
    let checks = schemaChecks(rules)
    XCTAssertEqual(Set(checks.map(\.id)), ["unknown-field", "field-type", "enum-value"])
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    var reported = 0
    for (name, document) in documents(rules) {
      // Every object of the document as a start too: a rule may be given any node.
      var starts: [NodeID] = [JSONDocument.root]
      for id in 1..<NodeID(document.nodeCount) where document.kind(id) == .object { starts.append(id) }
      for start in starts.prefix(8) {
        let alone = checks.map { describe($0.check.function.check(.found(start), in: FunctionContext(document: document, given: start))) }
        reported += alone.reduce(0) { $0 + $1.count }
        for order in orders {
          let scratch = LintScratch()
          for i in order {
            let context = FunctionContext(document: document, given: start, isFragment: false, scratch: scratch)
            // Twice: the second reads the walk the first (or another check) recorded.
            XCTAssertEqual(describe(checks[i].check.function.check(.found(start), in: context)), alone[i], "\(checks[i].id) from \(start) in \(name)")
            XCTAssertEqual(describe(checks[i].check.function.check(.found(start), in: context)), alone[i], "\(checks[i].id) from \(start) in \(name)")
          }
          XCTAssertLessThanOrEqual(scratch.schemaTraces.count, 1)
        }
      }
    }
    XCTAssertGreaterThan(reported, 50)
  }

  func testEveryFieldNameIsFound() throws {
    let rules = builtinRules()
    let schema = try XCTUnwrap(rules.resources.schemas["fcm-v1"])
    for (typeIndex, type) in schema.messageTypes.enumerated() {
      let typeName = type.name
      var names: [(String, Int)] = []
      for (i, field) in type.fields.enumerated() { names += [(field.json, i), (field.proto, i)] }
      // Unknown names, some close to real ones, and keys with escapes (decoded, then looked up).
      let unknown = ["", "x", "zz", "tokenn", "Token", "title_", "_title", "notification ", "priority_", "android_v3"]
      var text = "{"
      for (name, _) in names { text += "\"\(name)\": 1, " }
      for name in unknown { text += "\"\(name)\": 1, " }
      if let first = names.first { text += "\"\\u00\(String(first.0.utf8.first!, radix: 16))\(first.0.dropFirst())\": 1, " }
      text += "\"end-of-members\": 1}"
      guard case .success(let document) = JSONParser.parse(Array(text.utf8)) else { return XCTFail("\(typeName): \(text)") }
      var found: [Int?] = []
      for member in document.children(JSONDocument.root) {
        let walked = schema.walk.field(for: member, in: document, of: Int32(typeIndex))
        XCTAssertEqual(walked, document.key(member).flatMap { type.byName[$0] }, "\(typeName): \(document.key(member) ?? "")")
        found.append(walked)
      }
      let expected: [Int?] = names.map { $0.1 } + unknown.map { _ in nil } + (names.first.map { [$0.1] } ?? []) + [nil]
      XCTAssertEqual(found, expected, typeName)
    }
  }

  /// A schema whose type contains itself: the walk stops at depth 64, silently, and deeper
  /// documents neither crash nor change what is found above the cap.
  func testDeepNestingStopsAtTheCap() throws {
    let schemaText = #"{"name": "nest", "root": "Node", "types": {"Node": {"fields": [{"json": "child", "proto": "child", "type": "message", "ref": "Node"}, {"json": "list", "proto": "list", "type": "message", "ref": "Node", "repeated": true}, {"json": "n", "proto": "n", "type": "int32"}]}}}"#
    var resources = RuleResources()
    resources.schemas["nest"] = try Schema(json: Array(schemaText.utf8), file: "nest.json")
    func check(_ kind: String) throws -> SchemaCheck {
      try SchemaCheck(options: FunctionOptions(["schema": .string("nest"), "check": .string(kind)], resources: resources))
    }
    let unknownFields = try check("unknownFields"), types = try check("types")
    for depth in [1, 63, 64, 65, 200, 5000] {
      // Each level holds an unknown key and a wrong type, then the next level (alternately a
      // member and a list element).
      var text = ""
      for level in 0..<depth { text += level % 2 == 0 ? #"{"x": 1, "n": "a", "child": "# : #"{"x": 1, "n": "a", "list": ["# }
      text += "{}"
      for level in (0..<depth).reversed() { text += level % 2 == 0 ? "}" : "]}" }
      guard case .success(let document) = JSONParser.parse(Array(text.utf8), options: JSONParser.Options(maxDepth: 20_000)) else {
        return XCTFail("depth \(depth)")
      }
      let scratch = LintScratch()
      let context = FunctionContext(document: document, given: JSONDocument.root, isFragment: false, scratch: scratch)
      let reported = min(depth, 64)
      XCTAssertEqual(unknownFields.check(.found(JSONDocument.root), in: context).count, reported, "depth \(depth)")
      XCTAssertEqual(types.check(.found(JSONDocument.root), in: context).count, reported, "depth \(depth)")
      XCTAssertEqual(scratch.schemaTraces.count, 1)
    }
  }

  /// A large message: one walk, linear in the document.
  func testLargeListsAndManyMembers() throws {
    let rules = builtinRules()
    let checks = schemaChecks(rules)
    var text = #"{"message": {"topic": "t", "android": {"notification": {"vibrate_timings": ["#
    text += (0..<50_000).map { $0 % 1000 == 0 ? "1" : "\"1s\"" }.joined(separator: ", ")
    text += "]"
    for i in 0..<2_000 { text += ", \"unknown\(i)\": \(i)" }
    text += "}}}}"
    guard case .success(let document) = JSONParser.parse(Array(text.utf8)) else { return XCTFail("parse") }
    let scratch = LintScratch()
    var counts: [String: Int] = [:]
    for (id, check) in checks {
      let context = FunctionContext(document: document, given: JSONDocument.root, isFragment: false, scratch: scratch)
      counts[id] = check.function.check(.found(JSONDocument.root), in: context).count
    }
    XCTAssertEqual(counts, ["unknown-field": 2_000, "field-type": 50, "enum-value": 0])
  }
}
