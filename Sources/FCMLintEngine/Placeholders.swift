import FCMLintJSON
import LinearRegex

/// The placeholder syntaxes of message templates (`{{name}}`, `${NAME}`...), as regular
/// expressions (LinearRegex syntax; `.fcmlint.yml`'s `placeholders:` replaces them). A document
/// whose text has one is linted as a template: see `TemplateMarks` and the rules' `templates:` key.
public struct PlaceholderSyntax: Sendable {
  /// Mustache and Handlebars (`{{name}}`, `{{{name}}}`, `{{ name.path }}`, `{{#if x}}`), Go
  /// templates (`{{.Name}}`), Jinja (`{{ name }}`, `{% if %}`), shell and CI variables (`${NAME}`,
  /// `$(name)`).
  public static let defaultPatterns = [
    #"\{\{\{[^{}]*\}\}\}"#,
    #"\{\{[^{}]*\}\}"#,
    #"\{%[^%]*%\}"#,
    #"\$\{[^{}]*\}"#,
    #"\$\([^()]*\)"#,
  ]
  public static let `default` = try! PlaceholderSyntax(patterns: defaultPatterns)

  /// A pattern of the list that is not a supported regular expression.
  public struct PatternError: Error, Sendable {
    public var index: Int
    public var error: LinearRegex.SyntaxError
  }

  public let patterns: [String]
  /// Every pattern, anchored: does a placeholder start here?
  private let anchored: LinearRegex?
  /// Bytes a placeholder may start with (every pattern starts with a literal), or nil for any.
  private let firstBytes: [UInt8]?
  /// The default list is found by its openers (`{{`, `{%`, `${`, `$(`) without the regex.
  private let defaultOpeners: Bool
  /// A template's placeholders are in short values; longer strings are read as written, so a
  /// hostile file cannot make the search long.
  static let longestSearchedString = 4096
  /// How far a placeholder may reach.
  static let longestPlaceholder = 512

  public init(patterns: [String]) throws(PatternError) {
    self.patterns = patterns
    // The defaults are matched without their regular expressions (`defaultMatch`; a test
    // compiles them and checks the two agree), so every run does not compile them.
    if patterns == Self.defaultPatterns {
      anchored = nil
      firstBytes = nil
      defaultOpeners = true
      return
    }
    for (index, pattern) in patterns.enumerated() {
      do { _ = try LinearRegex(pattern) } catch { throw PatternError(index: index, error: error) }
    }
    anchored = patterns.isEmpty ? nil : try? LinearRegex("^(?:" + patterns.map { "(?:\($0))" }.joined(separator: "|") + ")")
    var first: [UInt8] = []
    for pattern in patterns {
      guard let byte = Self.literalFirstByte(pattern) else {
        first = []
        break
      }
      if !first.contains(byte) { first.append(byte) }
    }
    firstBytes = first.isEmpty ? nil : first
    defaultOpeners = patterns == Self.defaultPatterns
  }

  public var isEmpty: Bool { patterns.isEmpty }

  /// The literal byte a pattern starts with (`\{` or `$`), if it starts with one.
  private static func literalFirstByte(_ pattern: String) -> UInt8? {
    let bytes = Array(pattern.utf8)
    guard let c = bytes.first, c < 0x80 else { return nil }
    if c == UInt8(ascii: "\\") { return bytes.count > 1 && !isLetterOrDigit(bytes[1]) ? bytes[1] : nil }
    // A punctuation literal that no quantifier follows.
    if isLetterOrDigit(c) || "^$.[(|*+?{".utf8.contains(c) { return nil }
    if bytes.count > 1, "*?{".utf8.contains(bytes[1]) { return nil }
    return c
  }

  private static func isLetterOrDigit(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
  }

  /// Whether `bytes` may hold a placeholder. Files without one pay for this scan only.
  public func mayOccur(in bytes: [UInt8]) -> Bool {
    if patterns.isEmpty { return false }
    guard defaultOpeners else { return true }
    return JSONParser.containsTemplateOpener(bytes)
  }

  /// The end of the placeholder that starts at `offset` of `buf` and ends by `limit` (by the
  /// end of `buf` when nil), if one does.
  func match(_ buf: [UInt8], at offset: Int, before limit: Int? = nil) -> Int? {
    let limit = min(buf.count, limit ?? buf.count)
    if defaultOpeners { return Self.defaultMatch(buf, at: offset, before: limit) }
    guard let anchored, offset < limit else { return nil }
    if let firstBytes, !firstBytes.contains(buf[offset]) { return nil }
    // Scalars of the window, and the byte offset each starts at.
    var scalars: [UInt32] = [], starts: [Int] = []
    var decoder = UTF8()
    var iterator = buf[offset..<min(limit, offset + Self.longestPlaceholder * 4)].makeIterator()
    var at = offset
    while scalars.count < Self.longestPlaceholder, case .scalarValue(let scalar) = decoder.decode(&iterator) {
      scalars.append(scalar.value)
      starts.append(at)
      at += UTF8.width(scalar)
    }
    starts.append(at)
    guard let range = anchored.firstMatch(in: scalars), range.lowerBound == 0, range.upperBound > 0 else { return nil }
    return starts[range.upperBound]
  }

  /// `match` for `defaultPatterns`, without the regex: each pattern is an opener, a run of bytes
  /// without its delimiters and a closer, so every attempt stops at the next delimiter and a
  /// string of openers costs linear time. The longest of the patterns that match, as the regex.
  static func defaultMatch(_ buf: [UInt8], at offset: Int, before limit: Int? = nil) -> Int? {
    let end = min(buf.count, limit ?? buf.count, offset + longestPlaceholder)
    guard offset + 1 < end else { return nil }
    let open = UInt8(ascii: "{"), close = UInt8(ascii: "}"), dollar = UInt8(ascii: "$"), percent = UInt8(ascii: "%")
    let parenOpen = UInt8(ascii: "("), parenClose = UInt8(ascii: ")")
    /// The end of `opener` (already matched up to `from`), a run without `stops`, then `closer`.
    func run(from: Int, stops: (UInt8, UInt8), closer: [UInt8]) -> Int? {
      var i = from
      while i < end, buf[i] != stops.0, buf[i] != stops.1 { i += 1 }
      guard i + closer.count <= end else { return nil }
      for (k, byte) in closer.enumerated() where buf[i + k] != byte { return nil }
      return i + closer.count
    }
    let first = buf[offset], second = buf[offset + 1]
    if first == dollar {
      if second == open { return run(from: offset + 2, stops: (open, close), closer: [close]) }
      if second == parenOpen { return run(from: offset + 2, stops: (parenOpen, parenClose), closer: [parenClose]) }
      return nil
    }
    guard first == open else { return nil }
    if second == percent { return run(from: offset + 2, stops: (percent, percent), closer: [percent, close]) }
    guard second == open else { return nil }
    let double = run(from: offset + 2, stops: (open, close), closer: [close, close])
    if offset + 2 < end, buf[offset + 2] == open, let triple = run(from: offset + 3, stops: (open, close), closer: [close, close, close]) {
      return max(triple, double ?? 0)
    }
    return double
  }

  /// The placeholders in `range` of `buf` (a string's contents), as byte ranges.
  func placeholders(_ buf: [UInt8], in range: Range<Int>) -> [Range<Int>] {
    guard range.count <= Self.longestSearchedString else { return [] }
    var found: [Range<Int>] = []
    var i = range.lowerBound
    while i < range.upperBound {
      // The default placeholders start with `{` or `$`: most bytes need no attempt.
      if defaultOpeners, buf[i] != UInt8(ascii: "{"), buf[i] != UInt8(ascii: "$") {
        i += 1
        continue
      }
      if let end = match(buf, at: i, before: range.upperBound) {
        found.append(i..<end)
        i = end
      } else {
        i += 1
      }
    }
    return found
  }

  /// How the parser reads tags outside strings: a control tag (a section, a block, a comment, a
  /// partial) is skipped between members; any other placeholder is a value.
  public var templateTags: TemplateTags {
    let syntax = self
    return TemplateTags { buf, offset in
      guard let end = syntax.match(buf, at: offset) else { return nil }
      let tag = buf[offset..<end]
      return (end, Self.isInclude(tag) ? .include : Self.isControl(tag) ? .control : .value)
    }
  }

  /// Whether `{{...}}` text reads as a value placeholder, not as a control tag or an include.
  public static func isValueTag(_ tag: [UInt8]) -> Bool {
    !isInclude(tag[...]) && !isControl(tag[...])
  }

  /// Whether a control tag inserts text of its own: a Mustache partial (`{{> name}}`), a Jinja
  /// include or macro call (`{% include %}`), a Go template call (`{{template "x"}}`).
  static func isInclude(_ tag: ArraySlice<UInt8>) -> Bool {
    var inner = Substring(String(decoding: tag, as: UTF8.self))
    while let c = inner.first, c == "{" || c == "%" || c == "-" || c == "~" || c == " " || c == "\t" { inner = inner.dropFirst() }
    if inner.first == ">" { return true }
    let word = inner.prefix { $0.isLetter }
    return ["include", "template", "call", "import"].contains(String(word))
  }

  /// Whether a tag opens, continues or closes a block, or outputs nothing a value could be.
  static func isControl(_ tag: ArraySlice<UInt8>) -> Bool {
    if tag.starts(with: "{%".utf8) { return true }
    var inner = Substring(String(decoding: tag, as: UTF8.self))
    while let c = inner.first, c == "{" || c == "$" || c == "(" { inner = inner.dropFirst() }
    while let c = inner.first, c == "-" || c == "~" || c == " " || c == "\t" { inner = inner.dropFirst() }
    guard let first = inner.first else { return false }
    if "#/^!>".contains(first) { return true }
    let word = inner.prefix { $0.isLetter }
    return ["else", "end", "if", "range", "with", "define", "block", "break", "continue", "each", "unless", "template"].contains(String(word))
  }

  /// The placeholders of a parsed document, or nil when it has none.
  public func marks(_ document: JSONDocument) -> TemplateMarks? {
    var marks = TemplateMarks()
    let buf = document.bytes
    for id in 0..<NodeID(document.nodeCount) {
      let node = document[id]
      if node.keyStart >= 0, !placeholders(buf, in: Int(node.keyStart) + 1..<Int(node.keyEnd) - 1).isEmpty {
        marks.keys.insert(id)
      }
      switch node.kind {
      case .placeholder: marks.unknown.insert(id)
      case .string:
        let contents = Int(node.start) + 1..<Int(node.end) - 1
        let found = placeholders(buf, in: contents)
        if found.isEmpty { break }
        if found.count == 1, found[0] == contents {
          marks.unknown.insert(id)
        } else {
          marks.partial[id] = found
        }
      default: break
      }
    }
    return marks.isEmpty ? nil : marks
  }
}

extension JSONDocument {
  /// The raw text of a string around its placeholders (one segment for a literal, or for a node
  /// that is not a string: its text as written).
  func templateSegments(_ id: NodeID) -> [ArraySlice<UInt8>] {
    let node = self[id]
    guard node.kind == .string else { return [bytes[Int(node.start)..<Int(node.end)]] }
    var out: [ArraySlice<UInt8>] = [], at = Int(node.start) + 1
    for range in templates?.partial[id] ?? [] {
      out.append(bytes[at..<range.lowerBound])
      at = range.upperBound
    }
    out.append(bytes[at..<Int(node.end) - 1])
    return out
  }

  /// Whether `literal` is the template `segments` with some text for each placeholder.
  static func template(_ segments: [ArraySlice<UInt8>], fits literal: ArraySlice<UInt8>) -> Bool {
    guard literal.starts(with: segments[0]), literal.count >= segments[0].count + segments.last!.count,
      literal.reversed().starts(with: segments.last!.reversed())
    else { return false }
    guard segments.count > 1 else { return literal.count == segments[0].count }
    // The middle segments in order, each as early as it goes, between the two ends.
    var rest = literal.dropFirst(segments[0].count).dropLast(segments.last!.count)
    for segment in segments.dropFirst().dropLast() where !segment.isEmpty {
      guard let found = rest.firstRange(of: segment) else { return false }
      rest = rest[found.upperBound...]
    }
    return true
  }

  /// Whether the partly placeholder string `id` may render to one of `values` (compared as
  /// written: the values are plain names, without escapes).
  func templateMayBe(_ id: NodeID, oneOf values: some Sequence<String>, caseSensitive: Bool = true) -> Bool {
    var segments = templateSegments(id)
    if !caseSensitive { segments = segments.map { ArraySlice(String(decoding: $0, as: UTF8.self).lowercased().utf8) } }
    return values.contains { value in Self.template(segments, fits: ArraySlice((caseSensitive ? value : value.lowercased()).utf8)) }
  }
}

/// The sample texts a string's placeholders are replaced with to check what its literal parts
/// decide: a check reports a partly placeholder string only when it reports every rendering.
/// Each is a value some check accepts (a file name with an extension, a scheme, a colour, a
/// number), so a literal part that is fine in one rendering is not reported.
enum TemplateSamples {
  static let texts = ["x", "", "1", "0", "ff", "ffffff", "x.png", "https", "a-b", "https://example.com/x.png", "'x' in topics"]
  /// The rendering whose findings are reported (the one of "x", which reads most naturally).
  static let wording = 0

  /// The document with every placeholder of its partly placeholder strings replaced by `sample`,
  /// parsed as `parse` does; nil if it does not parse to the same nodes.
  static func render(_ document: JSONDocument, with sample: String, parse: ([UInt8]) -> JSONDocument?) -> JSONDocument? {
    guard let templates = document.templates else { return nil }
    let ranges = templates.partial.values.flatMap { $0 }.sorted { $0.lowerBound < $1.lowerBound }
    let bytes = document.bytes
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var at = 0
    for range in ranges {
      out += bytes[at..<range.lowerBound]
      out += sample.utf8
      at = range.upperBound
    }
    out += bytes[at...]
    guard var rendered = parse(out), rendered.nodeCount == document.nodeCount else { return nil }
    rendered.mount = document.mount
    var marks = templates
    marks.partial = [:]
    rendered.templates = marks
    return rendered
  }
}
