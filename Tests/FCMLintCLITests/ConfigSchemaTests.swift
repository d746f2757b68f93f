import FCMLintBuiltinRules
import FCMLintCLI
import FCMLintEngine
import FCMLintTestSupport
import FCMLintWorkspace
import Foundation
import XCTest

/// `schemas/fcmlint-config.schema.json` describes `.fcmlint.yml` as fcmlint reads it: every config
/// fcmlint accepts in these tests is valid against it (the CLI tests check each config their runs
/// accepted, see `CLITests.checkConfigsAgainstSchema`), the broken ones here are refused by both,
/// and its keys are the loader's keys.
final class ConfigSchemaTests: XCTestCase {
  static let schemaPath = Repository.path("schemas/fcmlint-config.schema.json")

  static func validator() throws -> JSONSchemaValidator { try JSONSchemaValidator(schemaFile: schemaPath) }

  /// A YAML document as the JSON value the schema judges.
  static func value(yaml text: String) throws -> JSONSchemaValidator.Value {
    func convert(_ value: DataValue) -> JSONSchemaValidator.Value {
      switch value.node {
      case .scalar(let s, .string, _): return .string(s)
      case .scalar(let s, .int, _), .scalar(let s, .float, _): return Double(s).map { .number($0) } ?? .string(s)
      case .scalar(let s, .bool, _): return .bool(["true", "yes", "on", "y"].contains(s.lowercased()))
      case .scalar(_, .null, _): return .null
      case .sequence(let items): return .array(items.map(convert))
      case .mapping(let pairs):
        var object: [String: JSONSchemaValidator.Value] = [:]
        for (key, item) in pairs {
          if case .scalar(let name, _, _) = key.node { object[name] = convert(item) }
        }
        return .object(object)
      }
    }
    let parsed = try DataValue(yaml: text, file: "config.yml")
    if case .scalar(_, .null, _) = parsed.node { return .object([:]) }
    return convert(parsed)
  }

  static let valid: [String] = [
    "",
    "rules: {image-consistency: warning, topic-name: off, data-string-values: info}\n",
    "root: true\nextends: [a.yml, b.yml]\nignore: fixtures/**\nrespect-gitignore: false\nfragment: true\n",
    "limits: {max-depth: 64, max-file-size: 1M, max-string-length: 65536}\n",
    "placeholders: ['\\{\\{[^{}]*\\}\\}']\nextend-placeholders: '%[A-Z_]+%'\n",
    """
    overrides:
      - files: ["legacy/**", "*.fragment.json"]
        rules: {image-url-https: off}
        input: message
        fragment: true
        placeholders: []
        limits: {max-depth: 8}
    suppress:
      - files: legacy/old.json
        rule: image-extension
        pointer: /message/apns/fcm_options/image
        reason: our CDN sends image/png
      - {rule: topic-name, pointer: "", reason: whole document}

    """,
    InitSettingsStarter.uncommented,
  ]

  static let invalid: [String] = [
    "rule: {}\n",
    "rules: {image-consistency: loud}\n",
    "fragment: maybe\n",
    "limits: {max-depth: 0}\n",
    "limits: {max-file-size: lots}\n",
    "overrides:\n  - rules: {image-url-https: off}\n",
    "overrides:\n  - files: [a]\n    input: xml\n",
    "suppress:\n  - rule: topic-name\n",
    "suppress:\n  - {rule: topic-name, reason: x, pointer: message}\n",
    "suppress:\n  - {rule: topic-name, reason: x, why: y}\n",
  ]

  func testTheConfigsFcmlintAcceptsAreValid() throws {
    let validator = try Self.validator()
    var configs = Self.valid.map { ($0, "example") }
    // And every config kept in the repository.
    for path in try Self.repositoryConfigs() { configs.append((try String(contentsOfFile: path, encoding: .utf8), path)) }
    for (text, name) in configs {
      XCTAssertNoThrow(try Config.load(text: text, file: "config.yml"), "\(name): \(text)")
      XCTAssertEqual(validator.validate(value: try Self.value(yaml: text)), [], "\(name): \(text)")
    }
  }

  func testTheConfigsFcmlintRefusesAreInvalid() throws {
    let validator = try Self.validator()
    let rules = try BuiltinPack.load()
    for text in Self.invalid {
      var refused = false
      do {
        try Config.load(text: text, file: "config.yml").validate(against: rules)
      } catch {
        refused = true
      }
      XCTAssertTrue(refused, "fcmlint accepts: \(text)")
      XCTAssertNotEqual(validator.validate(value: try Self.value(yaml: text)), [], "the schema accepts: \(text)")
    }
  }

  func testTheSchemaHasTheLoadersKeys() throws {
    guard case .object(let schema) = try Self.validator().schema, case .object(let properties)? = schema["properties"] else {
      return XCTFail("the schema has no properties")
    }
    XCTAssertEqual(properties.keys.sorted(), Config.keys.sorted())
  }

  static func repositoryConfigs() throws -> [String] {
    let root = URL(fileURLWithPath: Repository.path("."))
    var found: [String] = []
    for folder in ["corpus", "Tests/Fixtures", "docs"] {
      guard let walker = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil) else { continue }
      for case let url as URL in walker where url.lastPathComponent == ".fcmlint.yml" && !url.path.contains("/hostile/") { found.append(url.path) }
    }
    return found
  }
}

/// The `fcmlint init` starter with every setting uncommented: what a user gets by removing the
/// `# ` of each example (the test suite checks it loads and is valid).
enum InitSettingsStarter {
  static var uncommented: String {
    FCMLintCommand.initStarter.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      guard line.hasPrefix("# "), !line.hasPrefix("# fcmlint"), !line.hasPrefix("# Every") else { return String(line) }
      let body = line.dropFirst(2)
      // The comment after each key (`key:   # what it does`) goes too.
      if let hash = body.range(of: "  #") { return String(body[..<hash.lowerBound]) }
      return String(body)
    }.joined(separator: "\n")
  }
}
