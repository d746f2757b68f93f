import Yams

/// Reads YAML (user rule files and configs) into a `DataValue` tree. This is the only place
/// fcmlint touches Yams.
extension DataValue {
  /// Parses one YAML document. Anchors and aliases are refused: rule and config files do not need
  /// them, and refusing them rules out "billion laughs" expansion.
  static func parse(yaml text: String, file: String) throws(ConfigurationError) -> DataValue {
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
    guard let node else { return DataValue(node: .scalar("", .null, quoted: false), file: file, line: 1, column: 1) }
    // Nodes hold their anchors weakly; the parser keeps them alive until the conversion is done.
    return try withExtendedLifetime(parser) { () throws(ConfigurationError) in try convert(node, file: file, depth: 0) }
  }

  private static func convert(_ node: Node, file: String, depth: Int) throws(ConfigurationError) -> DataValue {
    let line = node.mark?.line ?? 1, column = node.mark?.column ?? 1
    func fail(_ message: String) -> ConfigurationError { ConfigurationError(file: file, line: line, column: column, message: message) }
    if depth > 64 { throw fail("nesting is deeper than 64 levels") }
    let data: DataNode
    switch node {
    case .alias:
      throw fail("YAML aliases are not supported here")
    case .scalar(let s):
      if s.anchor != nil { throw fail("YAML anchors are not supported here") }
      let kind: DataNode.ScalarKind
      switch Tag.Name(rawValue: node.tag.rawValue) {
      case .str: kind = .string
      case .int: kind = .int
      case .float: kind = .float
      case .bool: kind = .bool
      case .null: kind = .null
      default: kind = .string
      }
      data = .scalar(s.string, kind, quoted: s.style == .singleQuoted || s.style == .doubleQuoted)
    case .mapping(let m):
      if m.anchor != nil { throw fail("YAML anchors are not supported here") }
      var members: [(key: DataValue, value: DataValue)] = []
      for (k, v) in m {
        members.append((try convert(k, file: file, depth: depth + 1), try convert(v, file: file, depth: depth + 1)))
      }
      data = .mapping(members)
    case .sequence(let s):
      if s.anchor != nil { throw fail("YAML anchors are not supported here") }
      var items: [DataValue] = []
      for item in s { items.append(try convert(item, file: file, depth: depth + 1)) }
      data = .sequence(items)
    }
    return DataValue(node: data, file: file, line: line, column: column)
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
}
