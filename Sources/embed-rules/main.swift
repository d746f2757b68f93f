// Build tool: checks the built-in rule files (and their aliases file) as the loader checks a
// user's, then writes a Swift file embedding them, so the fcmlint executable carries its rule
// pack and works when copied anywhere. Each file is written as the code that builds its tree
// (`DataValue`), which the one rule loader reads like a user's YAML: nothing here knows a rule
// key. The description and examples are written apart, built only when asked for.
//
// Usage: embed-rules OUTPUT.swift RULES-ROOT FILE...
import FCMLintEngine
import FCMLintJSON
import FCMLintSystem
import FCMLintWorkspace

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func fail(_ message: String) -> Never {
  _ = POSIX.write(message + "\n", to: 2)
  exit(1)
}

/// A raw string literal delimiter long enough that the text cannot close it early.
func delimiter(for text: String) -> String {
  var hashes = "#"
  while text.contains("\"" + hashes) { hashes += "#" }
  return hashes
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: embed-rules OUTPUT.swift RULES-ROOT FILE...") }
let output = arguments[1]
let root = arguments[2].hasSuffix("/") ? arguments[2] : arguments[2] + "/"
let files = arguments.dropFirst(3).sorted()
// Schemas (rules/schema/*.json) first: rule files name them. A schema's descriptions
// (`*.descriptions.json`, for the language server) are embedded apart: a lint never reads them.
let descriptionFiles = files.filter { $0.hasSuffix(".descriptions.json") }
let schemaFiles = files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".descriptions.json") }
let ruleFiles = files.filter { !$0.hasSuffix(".json") }

func read(_ file: String) -> String {
  switch FileSystem.read(file, limit: 4 << 20) {
  case .success(let bytes):
    guard let text = String(validating: bytes, as: UTF8.self) else { fail("\(file):1:1: error: not UTF-8 text") }
    return text
  case .failure(let error):
    fail("\(file):1:1: error: \(error.message)")
  }
}

func relative(_ file: String) -> String {
  guard file.hasPrefix(root) else { fail("embed-rules: \(file) is not under \(root)") }
  return "rules/" + file.dropFirst(root.count)
}

/// A raw multi-line string literal holding `text` exactly.
func literal(_ text: String) -> String {
  let hashes = delimiter(for: text)
  return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

let schemas = schemaFiles.map { (path: relative($0), json: read($0)) }
let resources: RuleResources
do {
  resources = try RuleSet.loadSchemas(schemas)
} catch {
  fail("\(root)\(error.file.dropFirst("rules/".count)):\(error.line):\(error.column): error: \(error.message)")
}

// A descriptions file must be JSON and name a schema embedded here.
let descriptions = descriptionFiles.map { (path: relative($0), json: read($0)) }
for (file, description) in zip(descriptionFiles, descriptions) {
  switch JSONParser.parse(Array(description.json.utf8), options: JSONParser.Options(maxStringLength: .max)) {
  case .failure(let error):
    fail("\(file):1:\(error.offset + 1): error: \(error.message)")
  case .success(let document):
    let name = document.member(JSONDocument.root, "schema").flatMap(document.string) ?? ""
    guard resources.schemas[name] != nil, document.member(JSONDocument.root, "types").map(document.kind) == .object else {
      fail("\(file):1:1: error: a descriptions file needs \"schema\", the name of a schema here, and \"types\", an object")
    }
  }
}

/// Swift code that builds `value`, every node with its position, so the rules the binary carries
/// fail and report exactly as the files would. `file` is written once per function, as `f`.
func code(_ value: DataValue, indent: String) -> String {
  let position = "f, \(value.line), \(value.column)"
  switch value.node {
  case .scalar(let text, let kind, let quoted):
    return "s(\(position), \(stringLiteral(text)), .\(kind), \(quoted))"
  case .sequence(let items):
    if items.isEmpty { return "q(\(position), [])" }
    let inner = indent + "  "
    return "q(\(position), [\n" + items.map { inner + code($0, indent: inner) + ",\n" }.joined() + indent + "])"
  case .mapping(let members):
    if members.isEmpty { return "m(\(position), [])" }
    let inner = indent + "  "
    return "m(\(position), [\n"
      + members.map { inner + "(" + code($0.key, indent: inner) + ", " + code($0.value, indent: inner) + "),\n" }.joined() + indent + "])"
  }
}

/// A Swift string literal: quotes, backslashes and control characters escaped.
func stringLiteral(_ s: String) -> String {
  var out = "\""
  for scalar in s.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default:
      if scalar.value < 0x20 || scalar.value == 0x7F {
        out += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

/// The top-level members of a rule's tree whose key is (or is not) one of `keys`.
func members(of root: DataValue, _ keys: [String], keep: Bool) -> DataValue {
  guard case .mapping(let members) = root.node else { return root }
  let kept = members.filter { member in
    guard case .scalar(let key, _, _) = member.key.node else { return !keep }
    return keys.contains(key) == keep
  }
  return DataValue(node: .mapping(kept), file: root.file, line: root.line, column: root.column)
}

/// A function returning the tree, with the file it was read from.
func function(_ name: String, _ tree: DataValue, path: String) -> String {
  "\n  /// \(path)\n  static func \(name)() -> DataValue {\n    let f = \(stringLiteral(path))\n    return \(code(tree, indent: "    "))\n  }\n"
}

func fail(_ error: ConfigurationError) -> Never {
  fail("\(error.file):\(error.line):\(error.column): error: \(error.message)")
}

let aliasesPath = root + Aliases.fileName
var aliases = Aliases()
var aliasesFunction = ""
if ruleFiles.contains(aliasesPath) {
  do {
    let tree = try DataValue(yaml: read(aliasesPath), file: aliasesPath)
    aliases = try aliases.adding(tree)
    aliasesFunction = function("aliasesTree", tree, path: relative(aliasesPath))
  } catch {
    fail(error)
  }
}

var source = """
  // Generated by embed-rules from the rules/ folder at build time. Do not edit.

  import FCMLintEngine

  public enum BuiltinRules {
    /// The schemas rule files may name: their path in the repository and their JSON.
    public static let schemas: [(path: String, json: String)] = [

  """
for schema in schemas {
  source += "    (\(literal(schema.path)), \(literal(schema.json))),\n"
}
source += """
    ]

    /// The schemas' descriptions of their types, fields and enum values (`*.descriptions.json`),
    /// which the language server shows: their path in the repository and their JSON.
    public static let schemaDescriptions: [(path: String, json: String)] = [

  """
for description in descriptions {
  source += "    (\(literal(description.path)), \(literal(description.json))),\n"
}
source += """
    ]

    /// The aliases file (`rules/aliases.yml`) as a tree.
    public static func aliases() -> DataValue? {
      \(aliasesFunction.isEmpty ? "nil" : "aliasesTree()")
    }

    /// The rule files as trees without their description and examples, which their
    /// `documentation` builds when `rules`, `explain` or a test asks for them.
    public static func rules() -> [EmbeddedRule] {
      [

  """
var ids: [String: String] = [:]
var functions = aliasesFunction
for (index, file) in ruleFiles.enumerated() where file != aliasesPath {
  let path = relative(file)
  let tree: DataValue
  do {
    tree = try DataValue(yaml: read(file), file: file)
    // The whole file, checked as a user's rule file is: a broken built-in rule fails the build.
    let rule = try RuleLoader.load(tree, isBuiltin: true, resources: resources, aliases: aliases)
    if let other = ids[rule.id] { fail("\(file):\(rule.idLine):\(rule.idColumn): error: duplicate rule id '\(rule.id)' (also in \(other))") }
    ids[rule.id] = path
  } catch {
    fail(error)
  }
  let lintTree = members(of: tree, RuleLoader.documentationKeys, keep: false)
  let documentationTree = members(of: tree, RuleLoader.documentationKeys, keep: true)
  do {
    // The two parts as the binary loads them.
    _ = try RuleLoader.load(lintTree, documentation: { documentationTree }, isBuiltin: true, resources: resources, aliases: aliases)
    _ = try RuleLoader.documentation(documentationTree)
  } catch {
    fail(error)
  }
  source += "      EmbeddedRule(tree: rule\(index)(), documentation: { documentation\(index)() }),\n"
  functions += function("rule\(index)", lintTree, path: path)
  functions += function("documentation\(index)", documentationTree, path: path)
}
source += "    ]\n  }\n"
source += functions
source += """
  }

  private func s(_ file: String, _ line: Int, _ column: Int, _ text: String, _ kind: DataNode.ScalarKind, _ quoted: Bool) -> DataValue {
    DataValue(node: .scalar(text, kind, quoted: quoted), file: file, line: line, column: column)
  }

  private func q(_ file: String, _ line: Int, _ column: Int, _ items: [DataValue]) -> DataValue {
    DataValue(node: .sequence(items), file: file, line: line, column: column)
  }

  private func m(_ file: String, _ line: Int, _ column: Int, _ members: [(key: DataValue, value: DataValue)]) -> DataValue {
    DataValue(node: .mapping(members), file: file, line: line, column: column)
  }

  """

switch FileSystem.write(source, to: output) {
case .success: break
case .failure(let error): fail("embed-rules: cannot write \(output): \(error.message)")
}
