import Yams

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

/// A YAML node with the file it came from, and typed accessors that fail with a position.
/// Rule files and config files are read only through this, so every mistake in them is reported
/// the same way.
struct YAMLValue {
  let node: Node
  let file: String

  /// Parses one YAML document. Anchors and aliases are refused: rule and config files do not need
  /// them, and refusing them rules out "billion laughs" expansion.
  static func parse(_ text: String, file: String) throws(ConfigurationError) -> YAMLValue {
    let node: Node?
    let parser: Parser
    do {
      parser = try Parser(yaml: text)
      node = try parser.singleRoot()
    } catch let error as YamlError {
      throw Self.error(from: error, file: file)
    } catch {
      throw ConfigurationError(file: file, line: 1, column: 1, message: "cannot read YAML: \(error)")
    }
    guard let node else { throw ConfigurationError(file: file, line: 1, column: 1, message: "the file is empty") }
    let value = YAMLValue(node: node, file: file)
    // Nodes hold their anchors weakly; the parser keeps them alive until this check is done.
    try withExtendedLifetime(parser) { () throws(ConfigurationError) in try value.rejectAnchors(depth: 0) }
    return value
  }

  private static func error(from error: YamlError, file: String) -> ConfigurationError {
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let text = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
      return ConfigurationError(file: file, line: mark.line, column: mark.column, message: "invalid YAML: \(text)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return ConfigurationError(
        file: file, line: context.mark.line, column: context.mark.column,
        message: "duplicate key\(duplicates.count > 1 ? "s" : "") \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping")
    case .reader(let problem, _, _, _):
      return ConfigurationError(file: file, line: 1, column: 1, message: "invalid YAML: \(problem)")
    default:
      return ConfigurationError(file: file, line: 1, column: 1, message: "invalid YAML: \(error)")
    }
  }

  private func rejectAnchors(depth: Int) throws(ConfigurationError) {
    if depth > 64 { throw fail("nesting is deeper than 64 levels") }
    switch node {
    case .alias:
      throw fail("YAML aliases are not supported here")
    case .scalar(let s):
      if s.anchor != nil { throw fail("YAML anchors are not supported here") }
    case .mapping(let m):
      if m.anchor != nil { throw fail("YAML anchors are not supported here") }
      for (k, v) in m {
        try YAMLValue(node: k, file: file).rejectAnchors(depth: depth + 1)
        try YAMLValue(node: v, file: file).rejectAnchors(depth: depth + 1)
      }
    case .sequence(let s):
      if s.anchor != nil { throw fail("YAML anchors are not supported here") }
      for item in s { try YAMLValue(node: item, file: file).rejectAnchors(depth: depth + 1) }
    }
  }

  /// The resolved YAML tag (str, int, bool, null...).
  var tagName: Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

  var line: Int { node.mark?.line ?? 1 }
  var column: Int { node.mark?.column ?? 1 }

  func fail(_ message: String) -> ConfigurationError {
    ConfigurationError(file: file, line: line, column: column, message: message)
  }

  /// The members of a mapping, keyed by their string keys, checked against the allowed names.
  func mapping(allowed: [String]? = nil, what: String) throws(ConfigurationError) -> [(key: String, keyValue: YAMLValue, value: YAMLValue)] {
    guard case .mapping(let m) = node else { throw fail("\(what) must be a mapping") }
    var out: [(String, YAMLValue, YAMLValue)] = []
    for (k, v) in m {
      let keyValue = YAMLValue(node: k, file: file)
      guard case .scalar(let s) = k else { throw keyValue.fail("keys in \(what) must be plain strings") }
      if let allowed, !allowed.contains(s.string) {
        throw keyValue.fail("unknown key '\(s.string)' in \(what)\(Self.suggestion(s.string, allowed)) (allowed: \(allowed.joined(separator: ", ")))")
      }
      out.append((s.string, keyValue, YAMLValue(node: v, file: file)))
    }
    return out
  }

  func sequence(what: String) throws(ConfigurationError) -> [YAMLValue] {
    guard case .sequence(let s) = node else { throw fail("\(what) must be a list") }
    return s.map { YAMLValue(node: $0, file: file) }
  }

  /// A single item or a list of them, as a list.
  func oneOrMany(what: String) -> [YAMLValue] {
    if case .sequence(let s) = node { return s.map { YAMLValue(node: $0, file: file) } }
    return [self]
  }

  func string(what: String) throws(ConfigurationError) -> String {
    // Quoted scalars and plain ones YAML does not read as a number, boolean or null.
    guard case .scalar(let s) = node, tagName == .str else { throw fail("\(what) must be a string") }
    return s.string
  }

  func nonEmptyString(what: String) throws(ConfigurationError) -> String {
    let s = try string(what: what)
    if s.isEmpty { throw fail("\(what) must not be empty") }
    return s
  }

  func bool(what: String) throws(ConfigurationError) -> Bool {
    guard case .scalar = node, tagName == .bool, let b = node.bool else { throw fail("\(what) must be true or false") }
    return b
  }

  func number(what: String) throws(ConfigurationError) -> Double {
    guard case .scalar(let s) = node, tagName == .int || tagName == .float, let d = Double(s.string.replacingUnderscores()) ?? node.float else {
      throw fail("\(what) must be a number")
    }
    return d
  }

  func integer(what: String) throws(ConfigurationError) -> Int {
    guard case .scalar = node, tagName == .int, let i = node.int else { throw fail("\(what) must be a whole number") }
    return i
  }

  func strings(what: String) throws(ConfigurationError) -> [String] {
    var out: [String] = []
    for item in try sequence(what: what) { out.append(try item.string(what: "each item of \(what)")) }
    return out
  }

  /// The node as a JSON value (for options such as `equals.value`).
  func literal() throws(ConfigurationError) -> LiteralValue {
    switch node {
    case .scalar(let s):
      switch tagName {
      case .null: return .null
      case .bool: return .bool(node.bool ?? false)
      case .int, .float:
        guard let d = node.float ?? Double(s.string) else { throw fail("'\(s.string)' is not a number JSON can hold") }
        return .number(d)
      default: return .string(s.string)
      }
    case .sequence(let items):
      var out: [LiteralValue] = []
      for item in items { out.append(try YAMLValue(node: item, file: file).literal()) }
      return .array(out)
    case .mapping(let m):
      var out: [(String, LiteralValue)] = []
      for (k, v) in m {
        let key = try YAMLValue(node: k, file: file).string(what: "a key")
        out.append((key, try YAMLValue(node: v, file: file).literal()))
      }
      return .object(out)
    case .alias:
      throw fail("YAML aliases are not supported here")
    }
  }

  static func suggestion(_ name: String, _ candidates: [String]) -> String {
    guard let best = closest(to: name, in: candidates) else { return "" }
    return "; did you mean '\(best)'?"
  }
}

extension String {
  fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
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
