import CYaml  // libyaml, which Yams bundles: its event stream, composed into a tree below
import Yams  // its resolver: which plain scalars are numbers, booleans or null

/// Reads YAML (user rule files and configs) into a `DataValue` tree. This is the only place
/// fcmlint touches Yams.
extension DataValue {
  /// Parses one YAML document. Anchors and aliases are refused: rule and config files do not need
  /// them, and refusing them rules out "billion laughs" expansion. A key that repeats one earlier
  /// in the same mapping is an error at the repetition.
  package static func parse(yaml text: String, file: String) throws(ConfigurationError) -> DataValue {
    // Before libyaml sees the text: a cheap refusal of deep nesting and of anchors and aliases.
    try YAMLPrescan.check(text, file: file)
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { (input) throws(ConfigurationError) -> DataValue in
      let composer = YAMLComposer(input: input, file: file)
      return try composer.document()
    }
  }
}

/// Builds the `DataValue` tree from libyaml's events. Yams' own composer is not used: it refuses
/// a duplicate key before handing over any node, naming the first occurrence instead of the
/// repetition, and it compares keys by hashing whole nodes. Here each mapping checks its keys as
/// they arrive, by their text, in one pass: linear however the file is built (there are no
/// aliases to expand, and `<<` is an ordinary key).
private final class YAMLComposer {
  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let file: String

  /// `input` must outlive the composer: libyaml reads it in place.
  init(input: UnsafeBufferPointer<UInt8>, file: String) {
    self.file = file
    // Allocated, not a stored struct: libyaml keeps a pointer to the parser inside it.
    parser = .allocate(capacity: 1)
    parser.initialize(to: yaml_parser_t())
    yaml_parser_initialize(parser)
    yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    yaml_parser_set_input_string(parser, input.baseAddress, input.count)
  }

  deinit {
    yaml_parser_delete(parser)
    parser.deallocate()
  }

  /// One event, copied out of libyaml's structure (which is freed at once).
  struct Event {
    enum Kind {
      case streamStart, streamEnd, documentStart, documentEnd, alias, scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd
    }
    var kind: Kind
    /// 1-based; columns count characters.
    var line: Int
    var column: Int
    var hasAnchor = false
    /// A scalar's text, its explicit tag (quoted scalars: `str`), and whether it is quoted.
    var value = ""
    var tag: String? = nil
    var quoted = false
  }

  func fail(_ event: Event, _ message: String) -> ConfigurationError {
    ConfigurationError(file: file, line: event.line, column: event.column, message: message)
  }

  /// The single document of the stream (a null scalar for an empty stream).
  func document() throws(ConfigurationError) -> DataValue {
    _ = try next()  // the stream start
    let start = try next()
    if start.kind == .streamEnd { return DataValue(node: .scalar("", .null, quoted: false), file: file, line: 1, column: 1) }
    let root = try node(try next(), depth: 0)
    _ = try next()  // the document end
    let after = try next()
    if after.kind != .streamEnd {
      throw fail(after, "invalid YAML: expected a single document in the stream, but found another document")
    }
    return root
  }

  func node(_ event: Event, depth: Int) throws(ConfigurationError) -> DataValue {
    if depth > YAMLPrescan.maxDepth { throw fail(event, "nesting is deeper than \(YAMLPrescan.maxDepth) levels") }
    if event.kind == .alias { throw fail(event, "YAML aliases are not supported here") }
    if event.hasAnchor { throw fail(event, "YAML anchors are not supported here") }
    let data: DataNode
    switch event.kind {
    case .scalar:
      data = .scalar(event.value, Self.kind(of: event), quoted: event.quoted)
    case .sequenceStart:
      var items: [DataValue] = []
      while true {
        let item = try next()
        if item.kind == .sequenceEnd { break }
        items.append(try node(item, depth: depth + 1))
      }
      data = .sequence(items)
    case .mappingStart:
      data = .mapping(try members(depth: depth))
    default:
      throw fail(event, "invalid YAML: unexpected \(event.kind)")  // libyaml never sends one here
    }
    return DataValue(node: data, file: file, line: event.line, column: event.column)
  }

  /// A mapping's members up to its end. A scalar key equal (as text, which is how fcmlint reads
  /// keys) to an earlier one is reported where it repeats; other keys are refused by the readers.
  func members(depth: Int) throws(ConfigurationError) -> [(key: DataValue, value: DataValue)] {
    var members: [(key: DataValue, value: DataValue)] = []
    var firstLines: [String: Int] = [:]
    while true {
      let keyEvent = try next()
      if keyEvent.kind == .mappingEnd { break }
      let key = try node(keyEvent, depth: depth + 1)
      if case .scalar(let name, _, _) = key.node {
        if let first = firstLines[name] { throw key.fail("duplicate key '\(name)' (first at line \(first))") }
        firstLines[name] = key.line
      }
      members.append((key, try node(try next(), depth: depth + 1)))
    }
    return members
  }

  /// The type YAML gives a scalar: an explicit tag, or for plain text what it looks like (Yams'
  /// resolver, YAML 1.1 rules: `off` is a boolean, `0x1f` an integer).
  static func kind(of event: Event) -> DataNode.ScalarKind {
    let tag = Tag(event.tag.map(Tag.Name.init(rawValue:)) ?? .implicit)
    switch Tag.Name(rawValue: Node.scalar(Node.Scalar(event.value, tag)).tag.rawValue) {
    case .str: return .string
    case .int: return .int
    case .float: return .float
    case .bool: return .bool
    case .null: return .null
    default: return .string
    }
  }

  func next() throws(ConfigurationError) -> Event {
    var raw = yaml_event_t()
    guard yaml_parser_parse(parser, &raw) == 1 else { throw parserError() }
    defer { yaml_event_delete(&raw) }
    return Self.event(raw)
  }

  static func event(_ raw: yaml_event_t) -> Event {
    let line = Int(raw.start_mark.line) + 1, column = Int(raw.start_mark.column) + 1
    switch raw.type {
    case YAML_STREAM_START_EVENT: return Event(kind: .streamStart, line: line, column: column)
    case YAML_DOCUMENT_START_EVENT: return Event(kind: .documentStart, line: line, column: column)
    case YAML_DOCUMENT_END_EVENT: return Event(kind: .documentEnd, line: line, column: column)
    case YAML_ALIAS_EVENT: return Event(kind: .alias, line: line, column: column)
    case YAML_SCALAR_EVENT:
      let scalar = raw.data.scalar
      let style = scalar.style
      return Event(
        kind: .scalar, line: line, column: column, hasAnchor: scalar.anchor != nil,
        value: String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self),
        tag: scalar.quoted_implicit == 1 ? Tag.Name.str.rawValue : scalar.tag.map { String(cString: $0) },
        quoted: style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
    case YAML_SEQUENCE_START_EVENT:
      return Event(kind: .sequenceStart, line: line, column: column, hasAnchor: raw.data.sequence_start.anchor != nil)
    case YAML_SEQUENCE_END_EVENT: return Event(kind: .sequenceEnd, line: line, column: column)
    case YAML_MAPPING_START_EVENT:
      return Event(kind: .mappingStart, line: line, column: column, hasAnchor: raw.data.mapping_start.anchor != nil)
    case YAML_MAPPING_END_EVENT: return Event(kind: .mappingEnd, line: line, column: column)
    default: return Event(kind: .streamEnd, line: line, column: column)  // the stream end (or nothing after it)
    }
  }

  /// libyaml's error, in the words it gives: "invalid YAML: CONTEXT, PROBLEM" at the problem.
  func parserError() -> ConfigurationError {
    let state = parser.pointee
    let problem = state.problem.map { String(cString: $0) } ?? "unknown error"
    switch state.error {
    case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
      let context = state.context.map { String(cString: $0) }
      let text = [context, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
      return ConfigurationError(
        file: file, line: Int(state.problem_mark.line) + 1, column: Int(state.problem_mark.column) + 1, message: "invalid YAML: \(text)")
    case YAML_MEMORY_ERROR:
      return ConfigurationError(file: file, line: 1, column: 1, message: "invalid YAML: out of memory")
    default:
      return ConfigurationError(file: file, line: 1, column: 1, message: "invalid YAML: \(problem)")
    }
  }
}

/// A cheap, linear look at YAML text that refuses what could make parsing it expensive: nesting
/// deeper than `maxDepth` (block indentation levels plus open `[` / `{`), and anchors (`&name`)
/// and aliases (`*name`), which let a small file expand into a huge document ("billion
/// laughs"). It knows just enough YAML to skip quoted scalars, comments, block scalars (`|`, `>`)
/// and the continuation lines of plain scalars, so `*` or `[` inside text is never mistaken for
/// syntax. Anything it lets through is still parsed and checked in full (libyaml, `YAMLComposer`).
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
      // Columns count characters, as libyaml's marks do.
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
      return n  // unterminated: libyaml reports it
    }
  }
}
