import Yams

/// Reads YAML (user rule files and configs) into a `DataValue` tree. This is the only place
/// fcmlint touches Yams.
extension DataValue {
  /// Parses one YAML document. Anchors and aliases are refused: rule and config files do not need
  /// them, and refusing them rules out "billion laughs" expansion.
  static func parse(yaml text: String, file: String) throws(ConfigurationError) -> DataValue {
    // Before Yams sees the text: its composer recurses (deep nesting could overflow the stack)
    // and its duplicate-key check hashes whole nodes (aliases could make that exponential).
    try YAMLPrescan.check(text, file: file)
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

/// A cheap, linear look at YAML text that refuses what could make parsing it expensive: nesting
/// deeper than `maxDepth` (block indentation levels plus open `[` / `{`), and anchors (`&name`)
/// and aliases (`*name`), which let a small file expand into a huge document ("billion
/// laughs"). It knows just enough YAML to skip quoted scalars, comments, block scalars (`|`, `>`)
/// and the continuation lines of plain scalars, so `*` or `[` inside text is never mistaken for
/// syntax. Anything it lets through is still parsed and checked in full by Yams.
enum YAMLPrescan {
  static let maxDepth = 64

  static func check(_ text: String, file: String) throws(ConfigurationError) {
    var scanner = Scanner(bytes: Array(text.utf8), file: file)
    try scanner.run()
  }

  private struct Scanner {
    let bytes: [UInt8]
    let file: String
    var line = 1
    /// Byte offset where the current line starts.
    var lineStart = 0
    /// Columns (0-based) of the open block levels.
    var levels: [Int] = []
    var flowDepth = 0
    /// Lines indented more than this column belong to a block scalar or a plain scalar's
    /// continuation: text, not structure.
    var textAbove: Int? = nil

    init(bytes: [UInt8], file: String) {
      self.bytes = bytes
      self.file = file
    }

    func fail(_ at: Int, _ message: String) -> ConfigurationError {
      // Columns count characters, as Yams' marks do.
      let column = String(decoding: bytes[lineStart..<at], as: UTF8.self).count + 1
      return ConfigurationError(file: file, line: line, column: column, message: message)
    }

    func depthError(_ at: Int) -> ConfigurationError {
      fail(at, "nesting is deeper than \(YAMLPrescan.maxDepth) levels")
    }

    mutating func newLine(at next: Int) {
      line += 1
      lineStart = next
    }

    mutating func run() throws(ConfigurationError) {
      var i = 0
      let n = bytes.count
      while i < n {
        // At the start of a line.
        var indent = 0
        while i + indent < n, bytes[i + indent] == UInt8(ascii: " ") { indent += 1 }
        let contentStart = i + indent
        let end = lineEnd(from: contentStart)
        let blank = contentStart >= end || bytes[contentStart] == UInt8(ascii: "#") || onlySpace(contentStart, end)
        if flowDepth == 0 {
          if let limit = textAbove {
            if blank || indent > limit {
              i = nextLine(end)
              continue
            }
            textAbove = nil
          }
          if blank {
            i = nextLine(end)
            continue
          }
          if bytes[contentStart] == UInt8(ascii: "%") {  // a directive
            i = nextLine(end)
            continue
          }
          while let top = levels.last, top > indent { levels.removeLast() }
          if levels.last != indent { levels.append(indent) }
          if levels.count + flowDepth > YAMLPrescan.maxDepth { throw depthError(contentStart) }
        }
        i = try scanLine(from: contentStart, end: end, indent: indent)
      }
    }

    func lineEnd(from i: Int) -> Int {
      var j = i
      while j < bytes.count, bytes[j] != 0x0A, bytes[j] != 0x0D { j += 1 }
      return j
    }

    func onlySpace(_ from: Int, _ to: Int) -> Bool {
      var j = from
      while j < to {
        let b = bytes[j]
        if b == UInt8(ascii: "#") { return true }
        if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") { return false }
        j += 1
      }
      return true
    }

    /// The offset after the line break at `end` (CRLF, LF or CR), counting the line.
    mutating func nextLine(_ end: Int) -> Int {
      guard end < bytes.count else { return end }
      var next = end + 1
      if bytes[end] == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
      newLine(at: next)
      return next
    }

    static func isSpace(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
    static func isBreak(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }
    static func isFlowIndicator(_ b: UInt8) -> Bool {
      b == UInt8(ascii: ",") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: "{") || b == UInt8(ascii: "}")
    }

    /// Scans one line from its first non-space byte (continuing onto further lines inside a
    /// quoted scalar or a flow collection); returns the offset of the next line to look at.
    mutating func scanLine(from start: Int, end lineEndOffset: Int, indent: Int) throws(ConfigurationError) -> Int {
      var i = start
      let n = bytes.count
      // Whether a node may begin here (where '&', '*', '[', '{', '|', '>' are syntax).
      var nodeStart = true
      // The column of the innermost block entry on this line (a '-' or a key), for the
      // indentation that ends a block scalar or a plain scalar's continuation.
      var entryColumn = indent
      // Whether the line's last node is a plain scalar (so more-indented lines continue it).
      var endsInPlainScalar = false
      while i < n {
        let b = bytes[i]
        if Self.isBreak(b) {
          if flowDepth > 0 {
            // A flow collection goes on over lines; indentation means nothing inside it.
            i = nextLine(i)
            continue
          }
          if endsInPlainScalar { textAbove = entryColumn }
          return nextLine(i)
        }
        if Self.isSpace(b) {
          i += 1
          continue
        }
        if b == UInt8(ascii: "#"), i == 0 || Self.isSpace(bytes[i - 1]) || Self.isBreak(bytes[i - 1]) {
          while i < n, !Self.isBreak(bytes[i]) { i += 1 }
          continue
        }
        if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {
          let tokenLine = line, tokenColumn = i - lineStart
          i = try skipQuoted(from: i)
          if flowDepth == 0, tokenLine == line, isKeyEnd(i) { entryColumn = tokenColumn }
          nodeStart = false
          endsInPlainScalar = false
          continue
        }
        if i == lineStart, i + 2 < n, (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: ".")),
          bytes[i + 1] == bytes[i], bytes[i + 2] == bytes[i], i + 3 >= n || Self.isSpace(bytes[i + 3]) || Self.isBreak(bytes[i + 3])
        {
          // A document marker: '---' (a node may follow) or '...'.
          levels.removeAll()
          i += 3
          nodeStart = true
          continue
        }
        if nodeStart {
          switch b {
          case UInt8(ascii: "&"), UInt8(ascii: "*"):
            if i + 1 < n, !Self.isSpace(bytes[i + 1]), !Self.isBreak(bytes[i + 1]) {
              let what = b == UInt8(ascii: "&") ? "anchors" : "aliases"
              throw fail(i, "YAML \(what) are not supported here (anchors and aliases can expand a small file into a huge one)")
            }
          case UInt8(ascii: "!"):
            // A tag: skip it; a node still starts after it.
            while i < n, !Self.isSpace(bytes[i]), !Self.isBreak(bytes[i]) { i += 1 }
            continue
          case UInt8(ascii: "-"), UInt8(ascii: "?"):
            if flowDepth == 0, i + 1 >= n || Self.isSpace(bytes[i + 1]) || Self.isBreak(bytes[i + 1]) {
              // A block sequence entry (or explicit key): a level of its own, and so is the node
              // after it on the same line.
              let column = i - lineStart
              if i != start, levels.last != column { levels.append(column) }
              entryColumn = column
              i += 1
              var j = i
              while j < n, Self.isSpace(bytes[j]) { j += 1 }
              if j < n, !Self.isBreak(bytes[j]), bytes[j] != UInt8(ascii: "#") {
                let content = j - lineStart
                if levels.last != content { levels.append(content) }
              }
              if levels.count + flowDepth > YAMLPrescan.maxDepth { throw depthError(i - 1) }
              continue
            }
          case UInt8(ascii: "|"), UInt8(ascii: ">"):
            if flowDepth == 0 {
              // A block scalar: the lines indented more than its entry are its text.
              textAbove = entryColumn
              while i < n, !Self.isBreak(bytes[i]) { i += 1 }
              endsInPlainScalar = false
              if i < n { return nextLine(i) }
              return i
            }
          default:
            break
          }
        }
        switch b {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          if nodeStart || flowDepth > 0 {
            flowDepth += 1
            if levels.count + flowDepth > YAMLPrescan.maxDepth { throw depthError(i) }
            nodeStart = true
            endsInPlainScalar = false
            i += 1
            continue
          }
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          if flowDepth > 0 {
            flowDepth -= 1
            nodeStart = false
            endsInPlainScalar = false
            i += 1
            continue
          }
        case UInt8(ascii: ","):
          if flowDepth > 0 {
            nodeStart = true
            endsInPlainScalar = false
            i += 1
            continue
          }
        case UInt8(ascii: ":"):
          // A value indicator: ':' before a space or line end (or anywhere in a flow collection
          // after a quoted key, as in JSON).
          if i + 1 >= n || Self.isSpace(bytes[i + 1]) || Self.isBreak(bytes[i + 1]) || (flowDepth > 0 && !nodeStart) {
            nodeStart = true
            endsInPlainScalar = false
            i += 1
            continue
          }
        default:
          break
        }
        // A plain scalar (or a key): skip to where it can end.
        let tokenColumn = i - lineStart
        i = skipPlain(from: i)
        if flowDepth == 0, isKeyEnd(i) { entryColumn = tokenColumn }
        nodeStart = false
        endsInPlainScalar = true
      }
      if endsInPlainScalar, flowDepth == 0 { textAbove = entryColumn }
      return i
    }

    /// Whether a mapping value indicator (': ' or ':' at the line end) follows, after spaces.
    func isKeyEnd(_ from: Int) -> Bool {
      var i = from
      while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
      return i + 1 >= bytes.count || Self.isSpace(bytes[i + 1]) || Self.isBreak(bytes[i + 1])
    }

    /// Skips a plain scalar on this line: it ends before ': ', ' #', a line break, or (inside a
    /// flow collection) a flow indicator.
    func skipPlain(from start: Int) -> Int {
      var i = start + 1
      let n = bytes.count
      while i < n {
        let b = bytes[i]
        if Self.isBreak(b) { return i }
        if b == UInt8(ascii: ":"), i + 1 >= n || Self.isSpace(bytes[i + 1]) || Self.isBreak(bytes[i + 1]) || (flowDepth > 0 && Self.isFlowIndicator(bytes[i + 1])) { return i }
        if b == UInt8(ascii: "#"), Self.isSpace(bytes[i - 1]) { return i }
        if flowDepth > 0, Self.isFlowIndicator(b) { return i }
        i += 1
      }
      return i
    }

    /// Skips a quoted scalar (which may span lines); returns the offset after its closing quote.
    mutating func skipQuoted(from start: Int) throws(ConfigurationError) -> Int {
      let quote = bytes[start]
      var i = start + 1
      let n = bytes.count
      while i < n {
        let b = bytes[i]
        if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\"), i + 1 < n, !Self.isBreak(bytes[i + 1]) {
          i += 2
          continue
        }
        if b == quote {
          if quote == UInt8(ascii: "'"), i + 1 < n, bytes[i + 1] == UInt8(ascii: "'") {
            i += 2
            continue
          }
          return i + 1
        }
        if Self.isBreak(b) {
          i = nextLine(i)
          continue
        }
        i += 1
      }
      return n  // unterminated: Yams reports it
    }
  }
}
