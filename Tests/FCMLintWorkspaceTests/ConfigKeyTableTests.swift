import FCMLintEngine
import FCMLintJSON
import FCMLintTestSupport
@testable import FCMLintWorkspace
import Foundation
import XCTest

/// `Config.table` declares every key of `.fcmlint.yml`: each key is read into its own field and
/// nowhere else, and the JSON Schema and the README's table of keys are written from it
/// (`FCMLINT_UPDATE_GOLDEN=1 swift test --filter ConfigKeyTableTests` writes them again).
final class ConfigKeyTableTests: XCTestCase {
  static let schemaFile = "schemas/fcmlint-config.schema.json"
  static let readmeBegin = "<!-- config-keys: written from Config.table; FCMLINT_UPDATE_GOLDEN=1 swift test --filter ConfigKeyTableTests -->"
  static let readmeEnd = "<!-- config-keys: end -->"

  /// A value of each type, as YAML.
  static func sample(_ type: Config.Key.ValueType) -> String {
    switch type {
    case .bool: return "true"
    case .paths: return "[sub]"
    case .globs: return "['*.draft.json']"
    case .severities: return "{image-extension: off}"
    case .limits: return "{max-depth: 8}"
    case .placeholderPatterns: return "['%[a-z]+%']"
    case .inputKind: return "apns"
    case .overrides: return "[{files: a, fragment: true}]"
    case .suppressions: return "[{rule: topic-name, reason: why}]"
    }
  }

  func testEachKeyIsReadIntoItsOwnFieldOnly() throws {
    XCTAssertEqual(Set(Config.table.map(\.name)).count, Config.table.count, "a key declared twice")
    for key in Config.table {
      let written = "\(key.name): \(Self.sample(key.type))"
      if key.inConfig {
        let settings = try Config.load(text: written + "\n", file: "/base/.fcmlint.yml").settings
        XCTAssertEqual(Config.table.filter { $0.isSet(settings) }.map(\.name), [key.name], written)
      }
      if key.inOverrides {
        let config = try Config.load(text: "overrides:\n  - files: a\n    \(written)\n", file: "/base/.fcmlint.yml")
        XCTAssertEqual(Config.table.filter { $0.isSet(config.overrides[0].settings) }.map(\.name), [key.name], written)
      }
    }
  }

  /// A key is refused where the table does not allow it, at its own line and column.
  func testAKeyOutsideItsScopeIsAnErrorWhereItIsWritten() {
    for key in Config.table {
      let written = "\(key.name): \(Self.sample(key.type))"
      if !key.inConfig {
        XCTAssertEqual(loadError("rules: {}\n" + written + "\n")?.description.hasPrefix("c.yml:2:1: unknown key '\(key.name)' in the config"), true, written)
      }
      if !key.inOverrides {
        XCTAssertEqual(
          loadError("overrides:\n  - files: a\n    \(written)\n")?.description.hasPrefix("c.yml:3:5: unknown key '\(key.name)' in an override"), true, written)
      }
    }
    XCTAssertEqual(
      loadError("suppress:\n  - {rule: topic-name, reason: x, why: y}\n")?.description,
      "c.yml:2:35: unknown key 'why' in a suppression (allowed: files, rule, pointer, reason)")
  }

  func testMergeRules() throws {
    let base = try Config.load(
      text: "rules: {a: off, b: warning}\nextend-placeholders: ['%b%']\nignore: [x]\nfragment: true\nroot: true\nlimits: {max-depth: 9}\n", file: "/base/b.yml")
    let own = try Config.load(text: "rules: {b: info}\nextend-placeholders: ['%o%']\nignore: [y]\nlimits: {max-file-size: 1K}\n", file: "/base/o.yml")
    let merged = own.merged(over: base)
    XCTAssertEqual(merged.severities, ["a": Severity?.none, "b": .info])
    XCTAssertEqual(merged.placeholders.patterns, PlaceholderSyntax.defaultPatterns + ["%b%", "%o%"])
    XCTAssertEqual(merged.ignoreLists.map(\.globs.count), [1, 1])
    XCTAssertTrue(merged.fragment)
    XCTAssertFalse(merged.root)
    XCTAssertEqual([merged.limits.maxDepth, merged.limits.maxFileSize], [9, 1024])
    // `placeholders:` replaces the defaults and what was added to them.
    let replacing = try Config.load(text: "placeholders: ['%r%']\nextend-placeholders: ['%e%']\n", file: "/base/r.yml")
    XCTAssertEqual(replacing.merged(over: base).placeholders.patterns, ["%r%", "%e%"])
    XCTAssertEqual(base.merged(over: replacing).placeholders.patterns, ["%r%", "%e%", "%b%"])
  }

  /// Overrides combine by the same rules, later ones over earlier ones.
  func testOverridesCombineByTheTable() throws {
    let config = try Config.load(
      text: """
        rules: {a: warning}
        extend-placeholders: ['%c%']
        overrides:
          - {files: "*.json", rules: {b: off}, extend-placeholders: ['%o%'], limits: {max-depth: 4}}
          - {files: "p/*.json", placeholders: ['%p%'], input: apns, fragment: true}
          - {files: "p/x.json", fragment: false, rules: {a: info}}

        """, file: "/base/.fcmlint.yml")
    let plain = config.settings(for: "/base/q.json")
    XCTAssertEqual(plain.overrides, [0])
    XCTAssertEqual(plain.severities, ["a": .warning, "b": Severity?.none])
    XCTAssertEqual(plain.placeholders.patterns, PlaceholderSyntax.defaultPatterns + ["%c%", "%o%"])
    XCTAssertEqual(plain.limits.maxDepth, 4)
    XCTAssertNil(plain.input)
    let x = config.settings(for: "/base/p/x.json")
    XCTAssertEqual(x.overrides, [0, 1, 2])
    XCTAssertEqual(x.severities, ["a": .info, "b": Severity?.none])
    XCTAssertEqual(x.placeholders.patterns, ["%p%"])
    XCTAssertEqual(x.input, .apns)
    XCTAssertFalse(x.fragment)
    XCTAssertTrue(config.settings(for: "/base/p/y.json").fragment)
    XCTAssertEqual(config.settings(for: "/base/q.txt").overrides, [])
  }

  func loadError(_ text: String) -> ConfigurationError? {
    do {
      _ = try Config.load(text: text, file: "c.yml")
      return nil
    } catch {
      return error
    }
  }

  // MARK: - The schema and the README, written from the table

  func testTheSchemaIsWrittenFromTheTable() throws {
    try compare(Self.schema().text() + "\n", with: Self.schemaFile)
  }

  func testTheREADMEsTableOfKeysIsWrittenFromTheTable() throws {
    let readme = try Repository.read("README.md")
    guard let begin = readme.range(of: Self.readmeBegin + "\n"), let end = readme.range(of: Self.readmeEnd, range: begin.upperBound..<readme.endIndex) else {
      return XCTFail("README.md lacks the lines\n\(Self.readmeBegin)\n\(Self.readmeEnd)")
    }
    let written = readme.replacingCharacters(in: begin.upperBound..<end.lowerBound, with: Self.readmeTable())
    try compare(written, with: "README.md")
    // The example config above the table shows every key.
    let example = readme[..<begin.lowerBound].components(separatedBy: "\n## Config: `.fcmlint.yml`").last ?? ""
    for key in Config.table {
      XCTAssertTrue(example.contains("\n\(key.name):") || example.contains(" \(key.name):"), "the README's example config lacks \(key.name)")
    }
  }

  func compare(_ expected: String, with relative: String, file: StaticString = #filePath, line: UInt = #line) throws {
    if Repository.updatingGoldens {
      try Repository.write(relative, expected)
      return
    }
    let actual = try Repository.read(relative)
    if actual != expected {
      let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
      let first = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
      XCTFail(
        """
        \(relative) differs from Config.table at line \(first + 1):
          has:    \(first < a.count ? a[first] : "(end)")
          wanted: \(first < e.count ? e[first] : "(end)")
        FCMLINT_UPDATE_GOLDEN=1 swift test --filter ConfigKeyTableTests writes it again.
        """, file: file, line: line)
    }
  }

  static func readmeTable() -> String {
    func code(_ names: [String], _ last: String) -> String {
      let quoted = names.map { "`\($0)`" }
      return quoted.count < 2 ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " \(last) " + quoted.last!
    }
    func value(_ type: Config.Key.ValueType) -> String {
      switch type {
      case .bool: return "`true` or `false`"
      case .paths: return "a path or a list of paths"
      case .globs: return "a pattern or a list of patterns"
      case .severities: return "a mapping of rule ids to \(code(Severity.allCases.map(\.rawValue) + ["off"], "or"))"
      case .limits: return "a mapping of \(code(Limits.Setting.allCases.map(\.rawValue), "and")) to their values"
      case .placeholderPatterns: return "a regular expression or a list of them"
      case .inputKind: return code(InputKind.allCases.map(\.rawValue), "or")
      case .overrides: return "a list of: `files` and the keys marked *yes* on the right"
      case .suppressions: return "a list of: `files`, `rule`, `pointer`, `reason`"
      }
    }
    func merge(_ rule: Config.Key.Merge) -> String {
      switch rule {
      case .notInherited: return "not inherited"
      case .ownWins: return "its own wins"
      case .replaces(let dropped): return "its own wins and drops the inherited \(code(dropped, "and"))"
      case .append: return "appended to the inherited"
      case .mergeKeys: return "merged key by key, its own winning"
      }
    }
    var lines = ["| key | value | with `extends:` | in `overrides:` | what it does |", "|---|---|---|---|---|"]
    for key in Config.table {
      let scope: String
      switch key.scope {
      case .config: scope = "no"
      case .configAndOverrides: scope = "yes"
      case .overridesOnly: scope = "only there"
      }
      lines.append("| `\(key.name)` | \(value(key.type)) | \(merge(key.merge)) | \(scope) | \(key.description) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A JSON value whose objects keep their members' order, written as the schema files are.
  indirect enum JSON {
    case string(String), int(Int), bool(Bool)
    case array([JSON])
    case object([(String, JSON)])

    func text(_ indent: String = "") -> String {
      switch self {
      case .string(let s): return Self.quoted(s)
      case .int(let i): return String(i)
      case .bool(let b): return b ? "true" : "false"
      case .array(let items):
        if items.allSatisfy({ if case .object = $0 { return false } else if case .array = $0 { return false } else { return true } }) {
          return "[" + items.map { $0.text() }.joined(separator: ", ") + "]"
        }
        let inner = indent + "  "
        return "[\n" + items.map { inner + $0.text(inner) }.joined(separator: ",\n") + "\n" + indent + "]"
      case .object(let members):
        if members.isEmpty { return "{}" }
        let inner = indent + "  "
        return "{\n" + members.map { inner + Self.quoted($0.0) + ": " + $0.1.text(inner) }.joined(separator: ",\n") + "\n" + indent + "}"
      }
    }

    static func quoted(_ s: String) -> String { JSONText.quote(s) }
  }

  static func schema() -> JSON {
    func ref(_ name: String) -> (String, JSON) { ("$ref", .string("#/$defs/\(name)")) }
    func strings(_ items: [String]) -> JSON { .array(items.map(JSON.string)) }
    let oneOrMany: JSON = .object([
      ("type", strings(["string", "array"])), ("pattern", .string("^.+$")), ("items", .object([("type", .string("string")), ("pattern", .string("^.+$"))])),
    ])
    func property(_ key: Config.Key) -> JSON {
      var members: [(String, JSON)] = [("description", .string(key.description))]
      switch key.type {
      case .bool: members.append(("type", .string("boolean")))
      case .paths: members.append(ref("pathOrPaths"))
      case .globs: members.append(ref("globs"))
      case .severities: members.append(ref("severities"))
      case .limits: members.append(ref("limits"))
      case .placeholderPatterns: members.append(ref("patterns"))
      case .inputKind: members.append(("enum", strings(InputKind.allCases.map(\.rawValue))))
      case .overrides:
        let files: (String, JSON) = ("files", .object([("description", .string("The files it applies to.")), ref("globs")]))
        members += [
          ("type", strings(["array", "null"])),
          (
            "items",
            .object([
              ("type", .string("object")), ("required", strings(["files"])), ("additionalProperties", .bool(false)),
              ("properties", .object([files] + Config.table.filter(\.inOverrides).map { ($0.name, property($0)) })),
            ])
          ),
        ]
      case .suppressions:
        let fields: [(String, JSON)] = [
          ("files", .object([("description", .string("The files it applies to (default: every file this config governs).")), ref("globs")])),
          ("rule", .object([("description", .string("The rule id.")), ("type", .string("string")), ("pattern", .string("^[a-z0-9]+(-[a-z0-9]+)*$"))])),
          (
            "pointer",
            .object([
              ("description", .string("A JSON Pointer: the finding there and those below it. Without it, the rule's findings anywhere in the files.")),
              ("type", .string("string")), ("pattern", .string("^(/.*)?$")),
            ])
          ),
          ("reason", .object([("description", .string("Why the finding is accepted.")), ("type", .string("string")), ("pattern", .string("\\S"))])),
        ]
        members += [
          ("type", strings(["array", "null"])),
          (
            "items",
            .object([
              ("type", .string("object")), ("required", strings(["rule", "reason"])), ("additionalProperties", .bool(false)),
              ("properties", .object(fields)),
            ])
          ),
        ]
      }
      return .object(members)
    }
    let limits: [(String, JSON)] = Limits.Setting.allCases.map { setting in
      switch setting {
      case .maxDepth: return (setting.rawValue, .object([("type", .string("integer")), ("minimum", .int(1))]))
      case .maxFileSize, .maxStringLength: return (setting.rawValue, .object([ref("size")]))
      }
    }
    return .object([
      ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
      ("title", .string("fcmlint configuration (.fcmlint.yml)")),
      (
        "description",
        .string(
          "Settings for the files in the config's folder and below (the nearest .fcmlint.yml wins). Paths and globs are relative to the file that writes them. Editors: with the YAML language server, add '# yaml-language-server: $schema=<path to this file>' as the first line. Written from the table of keys in Sources/FCMLintWorkspace/ConfigKeys.swift."
        )
      ),
      ("type", .string("object")),
      ("additionalProperties", .bool(false)),
      ("properties", .object(Config.table.filter(\.inConfig).map { ($0.name, property($0)) })),
      (
        "$defs",
        .object([
          ("pathOrPaths", oneOrMany),
          ("globs", oneOrMany),
          ("patterns", oneOrMany),
          (
            "severities",
            .object([
              ("description", .string("Rule id: error, warning, info or off.")), ("type", strings(["object", "null"])),
              ("additionalProperties", .object([("enum", .array(Severity.allCases.map { .string($0.rawValue) } + [.string("off"), .bool(false)]))])),
            ])
          ),
          (
            "limits",
            .object([
              ("description", .string("Bounds on the work one input can cause.")), ("type", strings(["object", "null"])),
              ("additionalProperties", .bool(false)), ("properties", .object(limits)),
            ])
          ),
          (
            "size",
            .object([
              ("description", .string("Bytes, as a number or with a suffix: 512K, 64M, 1G (powers of 1024).")),
              ("type", strings(["integer", "string"])), ("minimum", .int(1)), ("pattern", .string("^ *[0-9]+ *([kKmMgG]([iI]?[bB])?|[bB])? *$")),
            ])
          ),
        ])
      ),
    ])
  }
}
