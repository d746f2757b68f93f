/// Why a document is not JSON: a message a person understands, at the first offending byte.
public struct JSONSyntaxError: Error, Sendable, Equatable {
  /// Byte offset of the first offending character (the length of the input for a premature end).
  public var offset: Int
  public var message: String
  /// What kind of mistake, for `SyntaxRecovery`: the common ones it repairs in place.
  public var kind: Kind = .other

  public enum Kind: Sendable, Equatable {
    /// A ',' (at `offset`) right before a closing '}' or ']'.
    case trailingComma
    /// A `//` or `/*` comment starting at `offset`.
    case comment
    /// Two members or elements with no ',' between them; `offset` is the second's start.
    case missingComma
    /// A limit (depth, size, string length) or an encoding: nothing past it is read.
    case fatal
    case other
  }

  public init(offset: Int, message: String, kind: Kind = .other) {
    self.offset = offset
    self.message = message
    self.kind = kind
  }
}

/// Strict RFC 8259 parsing into a `JSONDocument`.
///
/// Decisions where the RFC leaves room (documented in docs/hostile-input.md):
/// - A UTF-8 byte-order mark at the start is skipped (RFC 8259 §8.1 lets parsers ignore it).
/// - Lone surrogate escapes such as `"\ud800"` are valid syntax and accepted; they decode to U+FFFD.
/// - Numbers of any size or precision are accepted and kept as written; `number(_:)` gives a Double.
/// - Nesting is limited (`maxDepth`, default 512) and so is the length of a string or number
///   literal (`maxStringLength`, default 1 MiB), so a hostile file cannot exhaust memory or time.
public struct JSONParser {
  public struct Options: Sendable {
    /// The deepest allowed nesting of arrays and objects.
    public var maxDepth: Int
    /// The longest allowed string (a value or a key) or number literal, in bytes as written in the
    /// file (escapes count as written, quotes not).
    public var maxStringLength: Int

    /// Template tags to accept (see `TemplateTags`); nil reads strict JSON.
    public var templateTags: TemplateTags?

    public static let defaultMaxDepth = 512
    public static let defaultMaxStringLength = 1 << 20

    public init(maxDepth: Int = Options.defaultMaxDepth, maxStringLength: Int = Options.defaultMaxStringLength, templateTags: TemplateTags? = nil) {
      self.maxDepth = maxDepth
      self.maxStringLength = maxStringLength
      self.templateTags = templateTags
    }
  }

  public static func parse(_ bytes: [UInt8], options: Options = Options()) -> Result<JSONDocument, JSONSyntaxError> {
    // Offsets are stored as Int32: a larger document could not be described (and is far beyond
    // any limit the command line allows).
    if bytes.count >= Int(Int32.max) {
      return .failure(JSONSyntaxError(offset: 0, message: "the document is \(bytes.count) bytes; documents of 2 GiB or more are not supported", kind: .fatal))
    }
    var parser = JSONParser(bytes: bytes, options: options)
    var failure: JSONSyntaxError? = nil
    bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONSyntaxError) {
        if options.templateTags != nil { try parser.run(buffer, TemplateJSON.self) } else { try parser.run(buffer, StrictJSON.self) }
      } catch {
        failure = error
      }
    }
    if var failure {
      parser.nodeBuffer.deallocate()
      if let tags = options.templateTags { failure = templateFailure(failure, bytes, tags) }
      return .failure(failure)
    }
    // The member table finds the duplicate keys as it is built; only a document whose table is
    // abandoned (a hostile one) needs the separate search. The document takes over the nodes'
    // buffer (no copy) and deallocates it.
    var document = JSONDocument(
      bytes: bytes, nodeBuffer: parser.nodeBuffer, nodeCount: parser.nodeCount, memberCount: parser.memberCount,
      findDuplicateKeys: { parser.findDuplicateKeys() })
    document.controlTags = parser.controlTags
    return .success(document)
  }

  private let bytes: [UInt8]
  private let options: Options
  /// The nodes so far, in pre-order: `nodeCount` initialized nodes at the start of a buffer that
  /// doubles when full. Not an array: appending to one checks its uniqueness (twice) per node.
  /// In bounds by construction: a node is only written at `nodeCount` right after `appendNode`
  /// made room, or at an id the parser handed out earlier (so below `nodeCount`). `parse` hands
  /// the buffer to the document, or deallocates it after a syntax error.
  private var nodeBuffer: UnsafeMutableBufferPointer<JSONNode>
  private var nodeCount = 0
  /// How many nodes are object members (have a key).
  private var memberCount = 0
  /// The template control tags skipped, once the parse is done.
  private var controlTags: [TemplateControlTag] = []

  private init(bytes: [UInt8], options: Options) {
    self.bytes = bytes
    self.options = options
    nodeBuffer = .allocate(capacity: max(16, bytes.count / 16))
  }

  // MARK: - The parse loop

  /// Appends a node, making room first when the buffer is full; returns its id.
  @inline(__always)
  private mutating func appendNode(_ node: JSONNode) -> NodeID {
    if nodeCount == nodeBuffer.count { growNodes() }
    (nodeBuffer.baseAddress.unsafelyUnwrapped + nodeCount).initialize(to: node)
    let id = NodeID(truncatingIfNeeded: nodeCount)
    nodeCount += 1
    return id
  }

  @inline(never)
  private mutating func growNodes() {
    let bigger = UnsafeMutableBufferPointer<JSONNode>.allocate(capacity: nodeBuffer.count * 2)
    bigger.baseAddress.unsafelyUnwrapped.moveInitialize(from: nodeBuffer.baseAddress.unsafelyUnwrapped, count: nodeCount)
    nodeBuffer.deallocate()
    nodeBuffer = bigger
  }

  private struct OpenContainer {
    var node: NodeID
    var lastChild: NodeID
    var isObject: Bool
  }

  /// The parse loop, compiled twice (see `ParseMode`): strict JSON pays nothing for templates.
  private mutating func run<Mode: ParseMode>(_ buf: UnsafeBufferPointer<UInt8>, _: Mode.Type) throws(JSONSyntaxError) {
    var pos = 0
    let n = buf.count
    if n >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { pos = 3 }
    try rejectUTF16(buf)

    var stack: [OpenContainer] = []
    // Room for the usual depth up front, rather than growing the array in the first few opens.
    stack.reserveCapacity(min(options.maxDepth, 16) + 1)
    var pendingKey: (start: Int32, end: Int32, escaped: Bool, ascii: Bool)? = nil
    var controlTags: [TemplateControlTag] = []
    defer { if Mode.templates { self.controlTags = controlTags } }

    skipWhitespace(buf, &pos)
    // A template may open with comments or blocks around the whole document.
    if Mode.templates { skipControlTags(buf, &pos, in: -1, &controlTags) }
    if pos == n { throw JSONSyntaxError(offset: pos, message: "the document is empty: expected a JSON value") }

    // Each turn of this loop parses one value, then consumes what may follow it: ',' and the
    // next key, or closing brackets.
    valueLoop: while true {
      skipWhitespace(buf, &pos)
      // Only reached after ':' or ',' (an opening '[' is handled below), so only a value will do.
      guard pos < n else { throw endOfInput(stack, pos, expectingValue: true, only: "a value") }
      let parent: NodeID = stack.last?.node ?? -1
      let start = pos
      let c = buf[pos]
      var kind: JSONKind
      var escaped = false
      var opensContainer = false
      switch c {
      case UInt8(ascii: "{"):
        if Mode.templates, let tag = options.templateTags?.scan(bytes, pos) {
          guard tag.kind == .value else { throw JSONSyntaxError(offset: pos, message: "a template block in place of a value") }
          kind = .placeholder
          pos = tag.end
          break
        }
        kind = .object
        opensContainer = true
        pos += 1
      case UInt8(ascii: "["):
        kind = .array
        opensContainer = true
        pos += 1
      case UInt8(ascii: "\""):
        kind = .string
        escaped = try scanString(buf, &pos) & StringFlags.escaped != 0
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        kind = .number
        try scanNumber(buf, &pos)
        if pos - start > options.maxStringLength {
          throw JSONSyntaxError(offset: start, message: "a number literal of \(pos - start) bytes is longer than the limit of \(options.maxStringLength) bytes (--max-string-length)", kind: .fatal)
        }
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        kind = try scanLiteral(buf, &pos)
      default:
        if Mode.templates, let tag = options.templateTags?.scan(bytes, pos) {
          guard tag.kind == .value else { throw JSONSyntaxError(offset: pos, message: "a template block in place of a value") }
          kind = .placeholder
          pos = tag.end
          break
        }
        throw unexpectedValueStart(buf, pos, inArray: stack.last.map { !$0.isObject } ?? false)
      }

      // Offsets fit in Int32: `parse` rejects documents of 2 GiB or more, and there are no more
      // nodes than bytes (each takes at least one).
      let id = appendNode(JSONNode(
        kind: kind, valueHasEscapes: escaped, keyHasEscapes: pendingKey?.escaped ?? false, keyIsASCII: pendingKey?.ascii ?? false,
        start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: pos),
        keyStart: pendingKey?.start ?? -1, keyEnd: pendingKey?.end ?? -1,
        parent: parent, firstChild: -1, nextSibling: -1, childCount: 0))
      if pendingKey != nil { memberCount += 1 }
      pendingKey = nil
      if !stack.isEmpty {
        let top = stack.count - 1
        if stack[top].lastChild >= 0 {
          nodeBuffer[Int(stack[top].lastChild)].nextSibling = id
        } else {
          nodeBuffer[Int(stack[top].node)].firstChild = id
        }
        stack[top].lastChild = id
        nodeBuffer[Int(stack[top].node)].childCount &+= 1
      }

      if opensContainer {
        if stack.count >= options.maxDepth {
          throw JSONSyntaxError(offset: start, message: "nesting is deeper than \(options.maxDepth) levels (--max-depth)", kind: .fatal)
        }
        stack.append(OpenContainer(node: id, lastChild: -1, isObject: kind == .object))
        skipWhitespace(buf, &pos)
        if Mode.templates { skipControlTags(buf, &pos, in: id, &controlTags) }
        guard pos < n else { throw endOfInput(stack, pos, expectingValue: kind == .array) }
        if kind == .object {
          if buf[pos] != UInt8(ascii: "}") {
            pendingKey = try scanKey(buf, &pos, afterComma: false)
            continue valueLoop
          }
        } else if buf[pos] != UInt8(ascii: "]") {
          continue valueLoop
        }
        // An empty container closes at once, below.
      }

      // After a value: close containers or move on to the next member or element.
      while true {
        skipWhitespace(buf, &pos)
        guard let top = stack.last else {
          if Mode.templates, skipControlTags(buf, &pos, in: -1, &controlTags) { continue }
          if pos < n {
            if isCommentStart(buf, pos) { throw commentError(pos) }
            throw JSONSyntaxError(offset: pos, message: "found \(describe(buf, pos)) after the end of the document (a file holds one JSON value)")
          }
          return
        }
        guard pos < n else { throw endOfInput(stack, pos, expectingValue: false) }
        let closer = top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let b = buf[pos]
        if b == closer {
          nodeBuffer[Int(top.node)].end = Int32(truncatingIfNeeded: pos + 1)
          stack.removeLast()
          pos += 1
          continue
        }
        if b == UInt8(ascii: ",") {
          let comma = pos
          pos += 1
          skipWhitespace(buf, &pos)
          // A block that wraps the last members may leave their comma before the closer.
          if Mode.templates, skipControlTags(buf, &pos, in: top.node, &controlTags), pos < n, buf[pos] == closer { continue }
          if pos < n, buf[pos] == closer {
            throw JSONSyntaxError(offset: comma, message: "trailing comma before '\(Character(UnicodeScalar(closer)))'", kind: .trailingComma)
          }
          if top.isObject {
            guard pos < n else { throw endOfInput(stack, pos, expectingValue: false, only: "an object key") }
            pendingKey = try scanKey(buf, &pos, afterComma: true)
          }
          continue valueLoop
        }
        if Mode.templates, skipControlTags(buf, &pos, in: top.node, &controlTags) { continue }
        if isCommentStart(buf, pos) { throw commentError(pos) }
        let what = top.isObject ? "after an object member" : "after an array element"
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
          throw JSONSyntaxError(offset: pos, message: "missing ',' \(what)", kind: .missingComma)
        }
        if isValueStart(b) {
          throw JSONSyntaxError(offset: pos, message: "missing ',' \(what), before \(describe(buf, pos))", kind: .missingComma)
        }
        throw JSONSyntaxError(offset: pos, message: "expected ',' or '\(Character(UnicodeScalar(closer)))' \(what), found \(describe(buf, pos))")
      }
    }
  }

  /// Skips control tags (and the white space after each) at `pos`; returns whether there were any.
  @discardableResult
  private func skipControlTags(
    _ buf: UnsafeBufferPointer<UInt8>, _ pos: inout Int, in container: NodeID, _ controlTags: inout [TemplateControlTag]
  ) -> Bool {
    guard let tags = options.templateTags else { return false }
    var skipped = false
    while pos < buf.count, buf[pos] == UInt8(ascii: "{"), let tag = tags.scan(bytes, pos), tag.kind != .value {
      controlTags.append(TemplateControlTag(range: pos..<tag.end, container: container, includes: tag.kind == .include))
      pos = tag.end
      skipWhitespace(buf, &pos)
      skipped = true
    }
    return skipped
  }

  /// A syntax error at a template tag, said plainly: only blocks around whole members or
  /// elements can be read without the template's values.
  private static func templateFailure(_ failure: JSONSyntaxError, _ bytes: [UInt8], _ tags: TemplateTags) -> JSONSyntaxError {
    guard failure.offset < bytes.count, let found = tags.scan(bytes, failure.offset) else { return failure }
    let tag = String(decoding: bytes[failure.offset..<min(found.end, failure.offset + 60)], as: UTF8.self)
    let what = found.kind == .value ? "placeholder \(tag)" : "template block \(tag)"
    return JSONSyntaxError(
      offset: failure.offset,
      message: "\(what) is not around whole members or elements, so the template cannot be read without its values: lint the rendered output with --vars FILE")
  }

  /// Parses `"key"` and the `:` after it; `pos` ends after the colon.
  private func scanKey(_ buf: UnsafeBufferPointer<UInt8>, _ pos: inout Int, afterComma: Bool) throws(JSONSyntaxError) -> (start: Int32, end: Int32, escaped: Bool, ascii: Bool) {
    let b = buf[pos]
    guard b == UInt8(ascii: "\"") else {
      if b == UInt8(ascii: "'") {
        throw JSONSyntaxError(offset: pos, message: "object keys must be in double quotes, not single quotes")
      }
      if b == UInt8(ascii: "/") { throw commentError(pos) }
      if b == UInt8(ascii: ",") {
        throw JSONSyntaxError(offset: pos, message: "expected an object key, found ','")
      }
      if isIdentifierByte(b) {
        throw JSONSyntaxError(offset: pos, message: "object keys must be strings in double quotes, found \(describe(buf, pos))")
      }
      throw JSONSyntaxError(offset: pos, message: "expected an object key in double quotes, found \(describe(buf, pos))")
    }
    let start = pos
    let flags = try scanString(buf, &pos)
    let end = pos
    skipWhitespace(buf, &pos)
    guard pos < buf.count else { throw JSONSyntaxError(offset: pos, message: "unexpected end of input: expected ':' after the object key") }
    guard buf[pos] == UInt8(ascii: ":") else {
      throw JSONSyntaxError(offset: pos, message: "expected ':' after the object key, found \(describe(buf, pos))")
    }
    pos += 1
    return (Int32(start), Int32(end), flags & StringFlags.escaped != 0, flags == 0)
  }

  // MARK: - Scalars

  /// What a string literal holds besides plain ASCII (`scanString`).
  enum StringFlags {
    static let escaped: UInt8 = 1
    static let nonASCII: UInt8 = 2
  }

  /// Scans a string literal starting at its opening quote; returns what it holds besides plain
  /// ASCII (`StringFlags`: escapes, bytes of 0x80 and above).
  private func scanString(_ buf: UnsafeBufferPointer<UInt8>, _ pos: inout Int) throws(JSONSyntaxError) -> UInt8 {
    let n = buf.count
    var i = pos + 1
    var flags: UInt8 = 0
    // The contents may take `maxLength` bytes: the byte at `limitEnd` must be the closing quote.
    let maxLength = max(0, min(options.maxStringLength, n))
    let limitEnd = i + maxLength
    // The buffer holds at least the opening quote.
    let base = UnsafeRawPointer(buf.baseAddress.unsafelyUnwrapped)
    while true {
      // Fast path: plain ASCII, never past the length limit. Eight bytes at a time while a whole
      // word fits before `stop`, then byte by byte (from the word's stopping byte, if it has one).
      let stop = min(n, limitEnd)
      while i &+ 8 <= stop {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        let stops = stringStopBytes(word)
        if stops != 0 {
          i &+= stops.trailingZeroBitCount &>> 3
          break
        }
        i &+= 8
      }
      while i < stop {
        let b = buf[i]
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
        i += 1
      }
      if i > limitEnd || (i == limitEnd && i < n && buf[i] != UInt8(ascii: "\"")) {
        throw JSONSyntaxError(offset: pos, message: "a string longer than the limit of \(options.maxStringLength) bytes (--max-string-length)", kind: .fatal)
      }
      guard i < n else {
        throw JSONSyntaxError(offset: n, message: "unexpected end of input inside a string (missing closing '\"')")
      }
      let b = buf[i]
      if b == UInt8(ascii: "\"") {
        pos = i + 1
        return flags
      }
      if b == UInt8(ascii: "\\") {
        flags |= StringFlags.escaped
        guard i + 1 < n else { throw JSONSyntaxError(offset: n, message: "unexpected end of input inside a string escape") }
        let e = buf[i + 1]
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          i += 2
        case UInt8(ascii: "u"):
          for k in 2..<6 {
            guard i + k < n else { throw JSONSyntaxError(offset: n, message: "unexpected end of input inside a \\u escape") }
            if !isHexDigit(buf[i + k]) {
              throw JSONSyntaxError(offset: i + k, message: "a \\u escape needs four hexadecimal digits, found \(describe(buf, i + k))")
            }
          }
          i += 6
        default:
          let escape = e >= 0x20 && e < 0x7F ? "'\\\(printable(buf, i + 1))'" : "'\\' followed by \(describe(buf, i + 1))"
          throw JSONSyntaxError(offset: i, message: "invalid escape \(escape) in string (valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
        continue
      }
      if b < 0x20 {
        if b == 0x0A || b == 0x0D {
          throw JSONSyntaxError(offset: i, message: "line break inside a string: JSON strings cannot span lines (write \\n), or the closing '\"' is missing")
        }
        if b == 0x09 {
          throw JSONSyntaxError(offset: i, message: "unescaped tab inside a string (write \\t)")
        }
        throw JSONSyntaxError(offset: i, message: "unescaped control character \(hexByte(b)) inside a string (write \\u00\(hexDigits(b)))")
      }
      // Non-ASCII: validate one UTF-8 sequence.
      flags |= StringFlags.nonASCII
      let length = utf8SequenceLength(buf, i)
      if length == 0 {
        throw JSONSyntaxError(offset: i, message: "invalid UTF-8 byte \(hexByte(buf[i])) inside a string (JSON text must be UTF-8)")
      }
      i += length
    }
  }

  private func scanNumber(_ buf: UnsafeBufferPointer<UInt8>, _ pos: inout Int) throws(JSONSyntaxError) {
    let n = buf.count
    var i = pos
    if buf[i] == UInt8(ascii: "-") {
      i += 1
      guard i < n, isDigit(buf[i]) else {
        if i < n, buf[i] == UInt8(ascii: "I") {
          throw JSONSyntaxError(offset: pos, message: "-Infinity is not valid JSON (JSON has no infinite numbers)")
        }
        throw JSONSyntaxError(offset: i, message: "expected a digit after '-'")
      }
    }
    if buf[i] == UInt8(ascii: "0") {
      i += 1
      if i < n, isDigit(buf[i]) {
        throw JSONSyntaxError(offset: i - 1, message: "numbers cannot have leading zeros")
      }
      if i < n, buf[i] == UInt8(ascii: "x") || buf[i] == UInt8(ascii: "X") {
        throw JSONSyntaxError(offset: pos, message: "hexadecimal numbers are not valid JSON")
      }
    } else {
      while i < n, isDigit(buf[i]) { i += 1 }
    }
    if i < n, buf[i] == UInt8(ascii: ".") {
      i += 1
      guard i < n, isDigit(buf[i]) else {
        throw JSONSyntaxError(offset: i, message: "expected a digit after the decimal point")
      }
      while i < n, isDigit(buf[i]) { i += 1 }
    }
    if i < n, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
      i += 1
      if i < n, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
      guard i < n, isDigit(buf[i]) else {
        throw JSONSyntaxError(offset: i, message: "expected a digit in the exponent")
      }
      while i < n, isDigit(buf[i]) { i += 1 }
    }
    pos = i
  }

  private func scanLiteral(_ buf: UnsafeBufferPointer<UInt8>, _ pos: inout Int) throws(JSONSyntaxError) -> JSONKind {
    for (text, kind) in [("true", JSONKind.true), ("false", .false), ("null", .null)] where buf[pos] == text.utf8.first! {
      let word = text.utf8
      if pos + word.count <= buf.count, zip(word, buf[pos..<(pos + word.count)]).allSatisfy({ $0 == $1 }),
        pos + word.count == buf.count || !isIdentifierByte(buf[pos + word.count])
      {
        pos += word.count
        return kind
      }
    }
    throw unexpectedValueStart(buf, pos, inArray: false)
  }

  // MARK: - Messages

  private func unexpectedValueStart(_ buf: UnsafeBufferPointer<UInt8>, _ pos: Int, inArray: Bool) -> JSONSyntaxError {
    let b = buf[pos]
    switch b {
    case UInt8(ascii: "'"):
      return JSONSyntaxError(offset: pos, message: "strings must be in double quotes, not single quotes")
    case UInt8(ascii: "/"):
      return commentError(pos)
    case UInt8(ascii: ","):
      return JSONSyntaxError(offset: pos, message: inArray ? "expected an array element, found ',' (empty elements are not allowed)" : "expected a value, found ','")
    case UInt8(ascii: "]"), UInt8(ascii: "}"):
      return JSONSyntaxError(offset: pos, message: "expected a value, found '\(Character(UnicodeScalar(b)))'")
    case UInt8(ascii: "+"):
      return JSONSyntaxError(offset: pos, message: "numbers cannot start with '+'")
    case UInt8(ascii: "."):
      return JSONSyntaxError(offset: pos, message: "numbers must start with a digit (write 0.5, not .5)")
    default:
      break
    }
    if isIdentifierByte(b) {
      var end = pos
      while end < buf.count, isIdentifierByte(buf[end]), end - pos < 32 { end += 1 }
      let word = String(decoding: UnsafeBufferPointer(rebasing: buf[pos..<end]), as: UTF8.self)
      switch word {
      case "NaN": return JSONSyntaxError(offset: pos, message: "NaN is not valid JSON (JSON has no NaN; use null or a string)")
      case "Infinity": return JSONSyntaxError(offset: pos, message: "Infinity is not valid JSON (JSON has no infinite numbers)")
      case "True", "TRUE", "False", "FALSE", "Null", "NULL", "None", "nil", "undefined":
        return JSONSyntaxError(offset: pos, message: "'\(word)' is not a JSON literal (the literals are true, false and null, in lower case)")
      default:
        return JSONSyntaxError(offset: pos, message: "expected a value, found '\(word)' (strings must be in double quotes)")
      }
    }
    return JSONSyntaxError(offset: pos, message: "expected a value, found \(describe(buf, pos))")
  }

  private func commentError(_ pos: Int) -> JSONSyntaxError {
    JSONSyntaxError(offset: pos, message: "comments are not allowed in JSON", kind: .comment)
  }

  /// `only` names the one thing that may come next when closing the container is not allowed
  /// there (after ':' or ',').
  private func endOfInput(_ stack: [OpenContainer], _ pos: Int, expectingValue: Bool, only: String? = nil) -> JSONSyntaxError {
    guard let top = stack.last else {
      return JSONSyntaxError(offset: pos, message: "unexpected end of input: expected a value")
    }
    let opened = SourceLocator(bytes: bytes).position(of: Int(nodeBuffer[Int(top.node)].start))
    if let only {
      let container = top.isObject ? "object" : "array"
      return JSONSyntaxError(offset: pos, message: "unexpected end of input: expected \(only) in the \(container) opened at line \(opened.line), column \(opened.column)")
    }
    let what = top.isObject ? "'}' to close the object" : "']' to close the array"
    let expected = expectingValue ? "a value, or \(what)" : what
    return JSONSyntaxError(offset: pos, message: "unexpected end of input: expected \(expected) opened at line \(opened.line), column \(opened.column)")
  }

  private func rejectUTF16(_ buf: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
    let n = buf.count
    if n >= 2, (buf[0] == 0xFF && buf[1] == 0xFE) || (buf[0] == 0xFE && buf[1] == 0xFF) || (buf[0] != 0 && buf[1] == 0 && n % 2 == 0) || (buf[0] == 0 && buf[1] != 0) {
      throw JSONSyntaxError(offset: 0, message: "the file looks UTF-16 encoded; JSON text must be UTF-8 (RFC 8259 §8.1)", kind: .fatal)
    }
  }

  /// A readable name for the character at `pos`: `'x'`, `'“' (U+201C)`, `byte 0xFF (invalid UTF-8)`.
  private func describe(_ buf: UnsafeBufferPointer<UInt8>, _ pos: Int) -> String {
    let b = buf[pos]
    if b < 0x20 || b == 0x7F {
      switch b {
      case 0x00: return "a NUL byte"
      default: return "control character \(hexByte(b))"
      }
    }
    if b < 0x80 { return "'\(Character(UnicodeScalar(b)))'" }
    let length = utf8SequenceLength(buf, pos)
    guard length > 0 else { return "byte \(hexByte(b)) (invalid UTF-8; JSON text must be UTF-8)" }
    let text = String(decoding: UnsafeBufferPointer(rebasing: buf[pos..<(pos + length)]), as: UTF8.self)
    let scalar = text.unicodeScalars.first!.value
    let hex = String(scalar, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    switch scalar {
    case 0x201C, 0x201D, 0x2018, 0x2019:
      return "'\(text)' (\(code), a typographic quote; JSON needs the straight quote \")"
    case 0xFEFF:
      return "a byte-order mark (\(code)), allowed only at the very start"
    case 0xA0, 0x2000...0x200B, 0x3000:
      return "a non-JSON space (\(code)); JSON whitespace is space, tab, CR and LF"
    default:
      return "'\(text)' (\(code))"
    }
  }

  private func printable(_ buf: UnsafeBufferPointer<UInt8>, _ pos: Int) -> String {
    guard pos < buf.count else { return "" }
    let b = buf[pos]
    if b >= 0x20 && b < 0x7F { return String(Character(UnicodeScalar(b))) }
    return hexByte(b)
  }

  // MARK: - Duplicate keys

  /// Finds members whose key repeats an earlier one in the same object. Objects are usually
  /// small, so a quadratic scan of raw keys wins; large objects switch to a set of decoded keys.
  private func findDuplicateKeys() -> [NodeID] {
    var duplicates: [NodeID] = []
    var members: [NodeID] = []
    for index in 0..<nodeCount where nodeBuffer[index].kind == .object && nodeBuffer[index].childCount > 1 {
      members.removeAll(keepingCapacity: true)
      var child = nodeBuffer[index].firstChild
      while child >= 0 {
        members.append(child)
        child = nodeBuffer[Int(child)].nextSibling
      }
      if members.count <= 16 {
        for i in 1..<members.count where (0..<i).contains(where: { sameKey(members[$0], members[i]) }) {
          duplicates.append(members[i])
        }
      } else {
        // Sorted by key, then position: a member whose key equals the one before it in that order
        // repeats an earlier key. Bytes, not String: String equality treats canonically equivalent
        // keys ("é", "e\u{301}") as equal.
        let sorted = members.map { (key: keyBytes($0), id: $0) }.sorted {
          $0.key.lexicographicallyPrecedes($1.key) || ($0.key == $1.key && $0.id < $1.id)
        }
        for i in 1..<sorted.count where sorted[i].key == sorted[i - 1].key { duplicates.append(sorted[i].id) }
      }
    }
    return duplicates.sorted()
  }

  /// The decoded UTF-8 bytes of a member's key.
  private func keyBytes(_ id: NodeID) -> [UInt8] {
    let node = nodeBuffer[Int(id)]
    let inside = bytes[(Int(node.keyStart) + 1)..<(Int(node.keyEnd) - 1)]
    return node.keyHasEscapes ? Array(JSONStringDecoder.decode(inside).utf8) : Array(inside)
  }

  /// Whether two members have the same key: their bytes as written when neither has an escape
  /// (every document is checked, so no decoding in the usual case), else their decoded bytes.
  private func sameKey(_ a: NodeID, _ b: NodeID) -> Bool {
    let x = nodeBuffer[Int(a)], y = nodeBuffer[Int(b)]
    if x.keyHasEscapes || y.keyHasEscapes { return keyBytes(a) == keyBytes(b) }
    let length = Int(x.keyEnd - x.keyStart)
    guard length == Int(y.keyEnd - y.keyStart) else { return false }
    var i = 0
    while i < length {
      if bytes[Int(x.keyStart) + i] != bytes[Int(y.keyStart) + i] { return false }
      i += 1
    }
    return true
  }
}

/// Whether a parse accepts template tags: `run` is specialized for each, so the strict parse has
/// none of the template branches.
private protocol ParseMode { static var templates: Bool { get } }
private enum StrictJSON: ParseMode { static var templates: Bool { false } }
private enum TemplateJSON: ParseMode { static var templates: Bool { true } }

// MARK: - Byte classes

/// The bytes of a little-endian word that end the plain-ASCII run of a string: '"', '\\', a
/// control character (< 0x20) or a non-ASCII byte (>= 0x80). The lowest set bit of the result is
/// the high bit of the first such byte, and no bit is set below it (later bytes may be marked
/// wrongly by a borrow, and are never looked at): before the first stopping byte, no subtraction
/// borrows, and each of its bytes is in 0x20...0x7F, neither '"' nor '\\'.
@inline(__always) private func stringStopBytes(_ word: UInt64) -> UInt64 {
  let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
  let quote = word ^ 0x2222_2222_2222_2222, backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
  // x - 0x20 sets the high bit of a byte below 0x20; y - 1 that of a zero byte (a byte equal to
  // the one xored in); `word` itself that of a non-ASCII byte.
  return ((word &- 0x2020_2020_2020_2020) | (quote &- ones) | (backslash &- ones) | word) & highs
}

@inline(__always) private func skipWhitespace(_ buf: UnsafeBufferPointer<UInt8>, _ pos: inout Int) {
  while pos < buf.count {
    switch buf[pos] {
    case 0x20, 0x0D, 0x09: pos += 1
    case 0x0A:
      pos += 1
      skipSpaces(buf, &pos)
    default: return
    }
  }
}

/// Skips the spaces of an indentation eight bytes at a time, while eight bytes remain (what is
/// left, `skipWhitespace` takes byte by byte).
@inline(__always) private func skipSpaces(_ buf: UnsafeBufferPointer<UInt8>, _ pos: inout Int) {
  while pos &+ 8 <= buf.count {
    let word = UInt64(littleEndian: UnsafeRawPointer(buf.baseAddress.unsafelyUnwrapped).loadUnaligned(fromByteOffset: pos, as: UInt64.self))
    // The first byte that differs from a space is the lowest nonzero byte.
    let other = word ^ 0x2020_2020_2020_2020
    if other != 0 {
      pos &+= other.trailingZeroBitCount &>> 3
      return
    }
    pos &+= 8
  }
}

/// `//` or `/*` at `pos`.
/// The first byte of a number or a literal.
private func isValueStart(_ b: UInt8) -> Bool {
  isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "t") || b == UInt8(ascii: "f") || b == UInt8(ascii: "n")
}

private func isCommentStart(_ buf: UnsafeBufferPointer<UInt8>, _ pos: Int) -> Bool {
  pos + 1 < buf.count && buf[pos] == UInt8(ascii: "/") && (buf[pos + 1] == UInt8(ascii: "/") || buf[pos + 1] == UInt8(ascii: "*"))
}

@inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

@inline(__always) private func isHexDigit(_ b: UInt8) -> Bool {
  isDigit(b) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F"))
}

@inline(__always) private func isIdentifierByte(_ b: UInt8) -> Bool {
  (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || isDigit(b) || b == UInt8(ascii: "_")
}

private func hexDigits(_ b: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
}

private func hexByte(_ b: UInt8) -> String { "0x" + hexDigits(b) }

/// The length of the valid UTF-8 sequence at `i`, or 0 when it is invalid (overlong forms,
/// UTF-16 surrogates and code points above U+10FFFF are invalid).
private func utf8SequenceLength(_ buf: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
  let n = buf.count
  let b0 = buf[i]
  func cont(_ k: Int) -> Bool { i + k < n && buf[i + k] & 0xC0 == 0x80 }
  switch b0 {
  case 0x00..<0x80: return 1
  case 0xC2...0xDF: return cont(1) ? 2 : 0
  case 0xE0:
    return cont(1) && buf[i + 1] >= 0xA0 && cont(2) ? 3 : 0
  case 0xED:
    return cont(1) && buf[i + 1] < 0xA0 && cont(2) ? 3 : 0
  case 0xE1...0xEF:
    return cont(1) && cont(2) ? 3 : 0
  case 0xF0:
    return cont(1) && buf[i + 1] >= 0x90 && cont(2) && cont(3) ? 4 : 0
  case 0xF1...0xF3:
    return cont(1) && cont(2) && cont(3) ? 4 : 0
  case 0xF4:
    return cont(1) && buf[i + 1] < 0x90 && cont(2) && cont(3) ? 4 : 0
  default:
    return 0
  }
}
