import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// Every fix, on the same document written in five layouts: the fixed file must be exactly the
/// expected document in that same layout (compact, 2 spaces, 4 spaces, tabs, CRLF line endings).
final class FixLayoutTests: XCTestCase {
  enum Layout: CaseIterable {
    case compact, twoSpaces, fourSpaces, tabs, crlf

    var indent: String? {
      switch self {
      case .compact: return nil
      case .twoSpaces, .crlf: return "  "
      case .fourSpaces: return "    "
      case .tabs: return "\t"
      }
    }
    var newline: String { self == .crlf ? "\r\n" : "\n" }
  }

  /// Writes a parsed document in a layout, keeping key order and scalar texts.
  func render(_ document: JSONDocument, _ layout: Layout) -> String {
    func value(_ id: NodeID, _ depth: Int) -> String {
      let kind = document.kind(id)
      guard kind == .object || kind == .array else { return document.rawText(id) }
      let children = Array(document.children(id))
      let (open, close) = kind == .object ? ("{", "}") : ("[", "]")
      if children.isEmpty { return open + close }
      let items = children.map { child in
        (kind == .object ? JSONText.quote(document.key(child)!) + (layout.indent == nil ? ":" : ": ") : "") + value(child, depth + 1)
      }
      guard let indent = layout.indent else { return open + items.joined(separator: ",") + close }
      let inner = String(repeating: indent, count: depth + 1)
      return open + layout.newline + items.map { inner + $0 }.joined(separator: "," + layout.newline) + layout.newline
        + String(repeating: indent, count: depth) + close
    }
    return value(JSONDocument.root, 0) + (layout.indent == nil ? "" : layout.newline)
  }

  func testEveryFixKeepsEveryLayout() throws {
    let rules = try repositoryRules(resources: builtinRules().resources)
    var checked = 0
    // The syntax rule's examples are not JSON: its fixes are what make them JSON.
    for rule in rules.rules where !rule.reportsSyntax {
      for example in rule.examples.invalid {
        guard let fixed = example.fixed else { continue }
        guard case .success(let before) = JSONParser.parse(Array(example.json.utf8)),
          case .success(let after) = JSONParser.parse(Array(fixed.utf8))
        else { return XCTFail("\(rule.source):\(example.line): example does not parse") }
        var only = RuleSet(resources: rules.resources)
        try only.add(rule)
        var options = Linter.Options()
        options.input = example.input
        options.fragment = example.fragment
        let fixer = Fixer(linter: Linter(rules: only, options: options))
        for layout in Layout.allCases {
          let input = render(before, layout)
          let output = String(decoding: fixer.fix(bytes: Array(input.utf8), file: "t.json").bytes, as: UTF8.self)
          XCTAssertEqual(output, render(after, layout), "\(rule.source):\(example.line) in layout \(layout)")
          // The fixed file re-lints clean of what the rule can fix.
          let remaining = Linter(rules: only, options: options).lint(bytes: Array(output.utf8), file: "t.json")
          XCTAssertFalse(remaining.contains { $0.fix != nil }, "\(rule.source):\(example.line): still fixable after fixing")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 8 * Layout.allCases.count, "every fixable rule shows a fixed example")
  }
}
