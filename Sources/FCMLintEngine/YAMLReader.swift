import CLibYAML  // the system libyaml: its event stream, composed into a tree below

/// Reads YAML (user rule files and configs) into a `DataValue` tree. This is the only place
/// fcmlint touches libyaml.
extension DataValue {
  /// Collections nested deeper than this (the document's top collection is level 1) are refused
  /// where the first too deep one starts.
  static let maxYAMLDepth = 64

  /// Parses one YAML document. Anchors and aliases are refused: rule and config files do not need
  /// them, and refusing them rules out "billion laughs" expansion. A key that repeats one earlier
  /// in the same mapping is an error at the repetition.
  ///
  /// Each limit is checked as the composer meets the event that breaks it, and libyaml hands out
  /// events as it reads, so a hostile file costs no more than the text up to that event (libyaml
  /// looks ahead at most one line, or 1,024 characters, for a possible key).
  package static func parse(yaml text: String, file: String) throws(ConfigurationError) -> DataValue {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { (input) throws(ConfigurationError) -> DataValue in
      let composer = YAMLComposer(input: input, file: file)
      return try composer.document()
    }
  }
}

/// Builds the `DataValue` tree from libyaml's events. Each mapping checks its keys as they arrive,
/// by their text, in one pass, and reports a repeated key where it repeats: linear however the
/// file is built (there are no aliases to expand, and `<<` is an ordinary key).
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
    // Collections nest; a scalar is a leaf and adds no level.
    if depth >= DataValue.maxYAMLDepth, event.kind == .sequenceStart || event.kind == .mappingStart {
      throw fail(event, "nesting is deeper than \(DataValue.maxYAMLDepth) levels")
    }
    if event.kind == .alias { throw fail(event, "YAML aliases \(Self.noExpansion)") }
    if event.hasAnchor { throw fail(event, "YAML anchors \(Self.noExpansion)") }
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

  static let noExpansion = "are not supported here (anchors and aliases can expand a small file into a huge one)"

  /// The type YAML gives a scalar: an explicit tag (`!!int`; a quoted scalar is a string), or for
  /// a plain one what its text looks like (`YAMLScalar.kind`).
  static func kind(of event: Event) -> DataNode.ScalarKind {
    guard let tag = event.tag else { return YAMLScalar.kind(Array(event.value.utf8)) }
    switch tag {
    case "tag:yaml.org,2002:int": return .int
    case "tag:yaml.org,2002:float": return .float
    case "tag:yaml.org,2002:bool": return .bool
    case "tag:yaml.org,2002:null": return .null
    default: return .string  // !!str, the non-specific `!`, and tags of the file's own
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
        tag: scalar.quoted_implicit == 1 ? "tag:yaml.org,2002:str" : scalar.tag.map { String(cString: $0) },
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
      // A key with no ':' (a stray line) and an unclosed quote are found where the scanner gives
      // up, lines later, after blank lines and comments, or at the end of the file: the mistake is
      // where the key or the quote starts, libyaml's context mark.
      let atStart = state.error == YAML_SCANNER_ERROR
        && (context == "while scanning a simple key" || context == "while scanning a quoted scalar")
      let mark = atStart ? state.context_mark : state.problem_mark
      return ConfigurationError(
        file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: "invalid YAML: \(text)")
    case YAML_MEMORY_ERROR:
      return ConfigurationError(file: file, line: 1, column: 1, message: "invalid YAML: out of memory")
    default:
      return ConfigurationError(file: file, line: 1, column: 1, message: "invalid YAML: \(problem)")
    }
  }
}
