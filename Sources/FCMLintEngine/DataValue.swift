import FCMLintJSON

/// A problem in a rule file or config file, with its position. The CLI prints it and exits 2.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int
  public var message: String

  public init(file: String, line: Int, column: Int, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// A rule or config document as a plain tree with positions. User files arrive as YAML (see
/// `YAMLReader`); the built-in pack arrives as Swift code that embed-rules writes from the same
/// trees, so starting fcmlint parses no YAML. Public for that generated code.
public enum DataNode: Sendable {
  public enum ScalarKind: Sendable { case string, int, float, bool, null }
  case scalar(String, ScalarKind, quoted: Bool)
  case mapping([(key: DataValue, value: DataValue)])
  case sequence([DataValue])
}

/// A node with the file and position it came from, and typed accessors that fail with that
/// position. Rule and config files are read only through this, so every mistake in them is
/// reported the same way.
public struct DataValue: Sendable {
  public let node: DataNode
  public let file: String
  public let line: Int
  public let column: Int

  public init(node: DataNode, file: String, line: Int, column: Int) {
    self.node = node
    self.file = file
    self.line = line
    self.column = column
  }

  /// Reads one YAML document (see `YAMLReader`).
  public init(yaml text: String, file: String) throws(ConfigurationError) {
    self = try Self.parse(yaml: text, file: file)
  }

  package func fail(_ message: String) -> ConfigurationError {
    ConfigurationError(file: file, line: line, column: column, message: message)
  }

  package var scalarKind: DataNode.ScalarKind? {
    if case .scalar(_, let kind, _) = node { return kind }
    return nil
  }

  var isQuoted: Bool {
    if case .scalar(_, _, let quoted) = node { return quoted }
    return false
  }

  package var isNull: Bool { scalarKind == .null }

  /// The members of a mapping, checked against the allowed names.
  package func mapping(allowed: [String]? = nil, what: @autoclosure () -> String) throws(ConfigurationError) -> [(key: String, keyValue: DataValue, value: DataValue)] {
    guard case .mapping(let members) = node else { throw fail("\(what()) must be a mapping") }
    // Declared with the labels of the result: an unlabelled array would be converted element by
    // element through a runtime cast on return.
    var out: [(key: String, keyValue: DataValue, value: DataValue)] = []
    for (k, v) in members {
      guard case .scalar(let name, _, _) = k.node else { throw k.fail("keys in \(what()) must be plain strings") }
      if let allowed, !allowed.contains(name) {
        throw k.fail("unknown key '\(name)' in \(what())\(Self.suggestion(name, allowed)) (allowed: \(allowed.joined(separator: ", ")))")
      }
      out.append((name, k, v))
    }
    return out
  }

  package func sequence(what: @autoclosure () -> String) throws(ConfigurationError) -> [DataValue] {
    guard case .sequence(let items) = node else { throw fail("\(what()) must be a list") }
    return items
  }

  /// A single item or a list of them, as a list.
  package func oneOrMany(what: @autoclosure () -> String) -> [DataValue] {
    if case .sequence(let items) = node { return items }
    return [self]
  }

  /// A string: quoted, or plain text YAML does not read as a number, boolean or null.
  func string(what: @autoclosure () -> String) throws(ConfigurationError) -> String {
    guard case .scalar(let s, .string, _) = node else { throw fail("\(what()) must be a string") }
    return s
  }

  package func nonEmptyString(what: @autoclosure () -> String) throws(ConfigurationError) -> String {
    let s = try string(what: what())
    if s.isEmpty { throw fail("\(what()) must not be empty") }
    return s
  }

  package func bool(what: @autoclosure () -> String) throws(ConfigurationError) -> Bool {
    guard case .scalar(let s, .bool, _) = node else { throw fail("\(what()) must be true or false") }
    return ["true", "yes", "on", "y"].contains(s.lowercased())
  }

  func number(what: @autoclosure () -> String) throws(ConfigurationError) -> Double {
    guard case .scalar(let s, let kind, _) = node, kind == .int || kind == .float, let d = Self.parseNumber(s) else {
      throw fail("\(what()) must be a number")
    }
    return d
  }

  package func integer(what: @autoclosure () -> String) throws(ConfigurationError) -> Int {
    guard case .scalar(let s, .int, _) = node, let d = Self.parseNumber(s), let i = Int(exactly: d) else {
      throw fail("\(what()) must be a whole number")
    }
    return i
  }

  static func parseNumber(_ s: String) -> Double? {
    let cleaned = s.filter { $0 != "_" }
    if let d = Double(cleaned) { return d }
    if cleaned.hasPrefix("0x"), let i = Int(cleaned.dropFirst(2), radix: 16) { return Double(i) }
    if cleaned.hasPrefix("0o"), let i = Int(cleaned.dropFirst(2), radix: 8) { return Double(i) }
    return nil
  }

  func strings(what: @autoclosure () -> String) throws(ConfigurationError) -> [String] {
    var out: [String] = []
    for item in try sequence(what: what()) { out.append(try item.string(what: "each item of \(what())")) }
    return out
  }

  /// The node as a JSON value (for options such as `equals.value`).
  func literal() throws(ConfigurationError) -> LiteralValue {
    switch node {
    case .scalar(let s, let kind, _):
      switch kind {
      case .null: return .null
      case .bool: return .bool(try bool(what: "a value"))
      case .int, .float:
        guard let d = Self.parseNumber(s) else { throw fail("'\(s)' is not a number JSON can hold") }
        return .number(d)
      case .string: return .string(s)
      }
    case .sequence(let items):
      var out: [LiteralValue] = []
      for item in items { out.append(try item.literal()) }
      return .array(out)
    case .mapping:
      var out: [(String, LiteralValue)] = []
      for (key, _, value) in try mapping(what: "a value") { out.append((key, try value.literal())) }
      return .object(out)
    }
  }

  package static func suggestion(_ name: String, _ candidates: [String]) -> String {
    guard let best = closest(to: name, in: candidates) else { return "" }
    return "; did you mean '\(best)'?"
  }
}

/// The candidate nearest to `name` by edit distance, if it is near enough to be a likely typo.
public func closest(to name: String, in candidates: [String]) -> String? {
  let a = Array(name.lowercased().unicodeScalars)
  var best: (String, Int)? = nil
  for candidate in candidates {
    let b = Array(candidate.lowercased().unicodeScalars)
    let d = editDistance(a, b)
    if d <= max(1, min(a.count, b.count) / 3), best == nil || d < best!.1 { best = (candidate, d) }
  }
  return best?.0
}

func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
