import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
@testable import FCMLintEngine
import FCMLintJSON
import XCTest

/// FCM reads proto3 JSON, which accepts both spellings of every field (`android_v2` and
/// `androidV2`). Every rule example and corpus payload, with each field key rewritten to its other
/// spelling, must give the same diagnostics: the same rules at the same places (pointers and
/// messages compared with field names in one spelling).
final class SpellingEquivalenceTests: XCTestCase {
  func testBothSpellingsGiveTheSameDiagnostics() throws {
    let rules = builtinRules()
    let schema = try XCTUnwrap(rules.resources.schemas["fcm-v1"])
    // Every field name with two spellings, each to the one compared (the proto name).
    var protoName: [String: String] = [:]
    for type in schema.types.values {
      for field in type.fields where field.json != field.proto { protoName[field.json] = field.proto }
    }
    func normalized(_ text: String) -> String {
      var out = "", word = ""
      func flush() {
        out += protoName[word] ?? word
        word = ""
      }
      for character in text {
        if character.isLetter || character.isNumber || character == "_" { word.append(character) } else {
          flush()
          out.append(character)
        }
      }
      flush()
      return out
    }
    func summary(_ diagnostics: [Diagnostic]) -> [String] {
      diagnostics.map { "\($0.rule) \(normalized($0.pointer)) \(normalized($0.message))" }.sorted()
    }

    var documents: [(name: String, json: String, input: InputKind?)] = []
    let (files, _) = FileSystem.files(under: Repository.path("corpus")) { $0.hasSuffix(".json") }
    for file in files { documents.append((file, try Repository.read(String(file.dropFirst(Repository.root.count + 1))), nil)) }
    for rule in rules.rules {
      for example in rule.examples.valid + rule.examples.invalid {
        documents.append(("\(rule.source):\(example.line)", example.json, example.input))
      }
    }
    var rewritten = 0
    for document in documents {
      guard let other = Self.otherSpelling(document.json, input: document.input, schema: schema) else { continue }
      rewritten += 1
      var options = Linter.Options()
      options.input = document.input
      let linter = Linter(rules: rules, options: options)
      let before = linter.lint(bytes: Array(document.json.utf8), file: "a.json")
      let after = linter.lint(bytes: Array(other.utf8), file: "a.json")
      XCTAssertEqual(summary(before), summary(after), "\(document.name)\n\(other)")
    }
    XCTAssertGreaterThan(rewritten, 100)
  }

  /// `json` with every field key in its other spelling (snake_case ↔ lowerCamelCase), found by
  /// walking the document along the schema; nil when nothing changes, the JSON does not parse, or
  /// an object already holds both spellings of a field.
  static func otherSpelling(_ json: String, input: InputKind?, schema: Schema) -> String? {
    let bytes = Array(json.utf8)
    guard case .success(let document) = JSONParser.parse(bytes) else { return nil }
    var type = schema.types[schema.root]
    let root = JSONDocument.root
    let isRequest = document.kind(root) == .object && document.children(root).contains { ["message", "validate_only", "validateOnly"].contains(document.key($0)) }
    for name in input?.mount ?? (isRequest ? [] : ["message"]) {
      type = type?.byName[name].flatMap { type?.fields[$0].refType }
    }
    var edits: [(range: Range<Int>, key: String)] = []
    var clash = false
    func walk(_ node: NodeID, _ type: Schema.MessageType?) {
      guard let type, document.kind(node) == .object else { return }
      let keys = Set(document.children(node).compactMap { document.key($0) })
      for child in document.children(node) {
        guard let key = document.key(child), let index = type.byName[key] else { continue }
        let field = type.fields[index]
        if field.json != field.proto {
          let other = key == field.json ? field.proto : field.json
          if keys.contains(other) { clash = true }
          edits.append((Int(document[child].keyStart)..<Int(document[child].keyEnd), other))
        }
        guard field.kind == .message else { continue }
        if document.kind(child) == .array {
          for element in document.children(child) { walk(element, field.refType) }
        } else {
          walk(child, field.refType)
        }
      }
    }
    walk(root, type)
    guard !edits.isEmpty, !clash else { return nil }
    var out = bytes
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      out.replaceSubrange(edit.range, with: Array(JSONText.quote(edit.key).utf8))
    }
    return String(decoding: out, as: UTF8.self)
  }
}
