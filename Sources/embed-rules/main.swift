// Build tool: loads the built-in rule files (and their aliases file) with the loader that loads a
// user's, so a broken rule fails the build at its line and column, then writes a Swift file
// embedding the pack compiled (`CompiledPack`: rules read, paths parsed, patterns compiled), so
// the fcmlint executable carries its rule pack, works when copied anywhere and compiles nothing
// at start. Nothing here knows a rule key. Each rule's description and examples are kept apart,
// read only when asked for.
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

/// The top-level members of a rule's tree whose key is (or is not) one of `keys`.
func members(of root: DataValue, _ keys: [String], keep: Bool) -> DataValue {
  guard case .mapping(let members) = root.node else { return root }
  let kept = members.filter { member in
    guard case .scalar(let key, _, _) = member.key.node else { return !keep }
    return keys.contains(key) == keep
  }
  return DataValue(node: .mapping(kept), file: root.file, line: root.line, column: root.column)
}

/// A Swift string literal holding exactly `bytes` (valid UTF-8), in ASCII: every other scalar
/// written as `\u{...}`, which the compiler stores as the same UTF-8 bytes.
func staticLiteral(_ bytes: [UInt8]) -> String {
  guard let text = String(validating: bytes, as: UTF8.self) else { fail("embed-rules: the compiled pack is not valid UTF-8") }
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    default:
      if scalar.value < 0x20 || scalar.value >= 0x7F {
        out += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
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

func fail(_ error: ConfigurationError) -> Never {
  fail("\(error.file):\(error.line):\(error.column): error: \(error.message)")
}

/// A file's tree as the binary knows it: named by its path in the repository.
func tree(_ file: String) throws(ConfigurationError) -> DataValue {
  try DataValue(yaml: read(file), file: relative(file))
}

let aliasesPath = root + Aliases.fileName
var aliases = Aliases()
if ruleFiles.contains(aliasesPath) {
  do {
    // Read as the file first, so a mistake is reported at its path.
    _ = try Aliases().adding(DataValue(yaml: read(aliasesPath), file: aliasesPath))
    aliases = try Aliases().adding(tree(aliasesPath))
  } catch {
    fail(error)
  }
}

var ids: [String: String] = [:]
var rules: [Rule] = []
var documentation: [DataValue] = []
for file in ruleFiles where file != aliasesPath {
  let path = relative(file)
  do {
    // The whole file, checked as a user's rule file is: a broken built-in rule fails the build.
    let rule = try RuleLoader.load(DataValue(yaml: read(file), file: file), isBuiltin: true, resources: resources, aliases: aliases)
    if let other = ids[rule.id] { fail("\(file):\(rule.idLine):\(rule.idColumn): error: duplicate rule id '\(rule.id)' (also in \(other))") }
    ids[rule.id] = path
    // The same, named by its path in the repository, as the binary carries it.
    let embedded = try tree(file)
    rules.append(try RuleLoader.load(embedded, isBuiltin: true, resources: resources, aliases: aliases))
    let documentationTree = members(of: embedded, RuleLoader.documentationKeys, keep: true)
    _ = try RuleLoader.documentation(documentationTree)
    documentation.append(documentationTree)
  } catch {
    fail(error)
  }
}

// In id order, the order a linter applies them in: a start then finds them sorted, and sorts nothing.
let byID = rules.indices.sorted { rules[$0].id < rules[$1].id }
let pack = CompiledPack.write(
  rules: byID.map { rules[$0] }, documentation: byID.map { documentation[$0] }, aliases: aliases, resources: resources)
if let problem = CompiledPack.checkRoundTrip(pack) { fail("embed-rules: the compiled pack does not read back as written: \(problem)") }

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

    /// The rule files compiled (`CompiledPack`): \(rules.count) rules, the aliases file and the schemas.
    public static let pack: StaticString = \(staticLiteral(pack.bytes))

    /// The strings `pack` refers to by number, each once.
    public static let strings: [String] = [

  """
for string in pack.strings { source += "    " + stringLiteral(string) + ",\n" }
source += """
    ]

    /// The schemas' walks and the linter's tables for the whole pack (`PackNumbers`): an array
    /// literal of numbers, which the compiler lays out as the array itself in the binary's data.
    public static let numbers: [Int32] = [

  """
for start in stride(from: 0, to: pack.numbers.count, by: 24) {
  source += "    " + pack.numbers[start..<min(start + 24, pack.numbers.count)].map { String($0) }.joined(separator: ", ") + ",\n"
}
source += """
    ]
  }

  """

switch FileSystem.write(source, to: output) {
case .success: break
case .failure(let error): fail("embed-rules: cannot write \(output): \(error.message)")
}
