import FCMLintJSON

/// A topic condition: `'<topic>' in topics` atoms joined by `&&` and `||`, with parentheses, at
/// most `maxTopics` topics, each a valid topic name. Parsed for real, so the message names the
/// column where the condition goes wrong and the diagnostic points there.
struct TopicCondition: RuleFunction {
  static let name = "topicCondition"
  static let ignoresMissing = true
  static let summary = "A string must be an FCM topic condition: 'topic' in topics, &&, ||, parentheses, at most `maxTopics` topics."
  static let options = [
    OptionSpec("maxTopics", .integer, required: true, "the most topics a condition may name"),
    OptionSpec("topicPattern", .pattern, required: true, "the pattern every topic name must match"),
    OptionSpec("doubleQuotes", .bool, "accept a topic name in double quotes (\"news\" in topics) like one in single quotes (default false: reported)"),
  ]
  static let placeholders = ["column"]

  let maxTopics: Int
  let topicPattern: CompiledPattern
  let doubleQuotes: Bool

  init(options: FunctionOptions) {
    doubleQuotes = options.bool("doubleQuotes") ?? false
    maxTopics = Int(options.number("maxTopics")!)
    topicPattern = options.pattern("topicPattern")!
  }

  struct SyntaxError: Error {
    var offset: Int  // in UTF-8 bytes of the condition
    var message: String
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, let text = context.document.string(id) else { return [] }
    var parser = Parser(text: Array(text.utf8), topicPattern: topicPattern, doubleQuotes: doubleQuotes)
    do {
      try parser.parse()
      if parser.topicCount > maxTopics {
        return [Finding(target, detail: "\(parser.topicCount) topics, more than the \(maxTopics) a condition may name", ["column": ""])]
      }
      return []
    } catch {
      var finding = Finding(target, detail: "at character \(characterIndex(text, error.offset) + 1) of the condition, \(error.message)", ["column": String(characterIndex(text, error.offset) + 1)])
      // Point inside the string when its bytes map one to one (no escapes).
      let node = context.document[id]
      if !node.valueHasEscapes {
        let start = Int(node.start) + 1 + min(error.offset, text.utf8.count)
        finding.range = start..<max(start, min(start + 1, Int(node.end) - 1))
      }
      return [finding]
    }
  }

  private func characterIndex(_ text: String, _ offset: Int) -> Int {
    String(decoding: text.utf8.prefix(offset), as: UTF8.self).count
  }

  struct Parser {
    let text: [UInt8]
    let topicPattern: CompiledPattern
    var doubleQuotes = false
    var pos = 0
    /// Topics named so far (counted, not kept in an array grown for each).
    var topicCount = 0
    var depth = 0

    init(text: [UInt8], topicPattern: CompiledPattern, doubleQuotes: Bool = false) {
      self.text = text
      self.topicPattern = topicPattern
      self.doubleQuotes = doubleQuotes
    }

    mutating func parse() throws(SyntaxError) {
      skipSpaces()
      if pos == text.count { throw SyntaxError(offset: 0, message: "the condition is empty") }
      try expression()
      skipSpaces()
      if pos < text.count {
        if text[pos] == UInt8(ascii: ")") { throw SyntaxError(offset: pos, message: "')' without a matching '('") }
        throw SyntaxError(offset: pos, message: "expected '&&' or '||' between conditions, found \(describe())")
      }
    }

    mutating func expression() throws(SyntaxError) {
      try term()
      while true {
        skipSpaces()
        guard pos + 1 < text.count else { return }
        let pair = (text[pos], text[pos + 1])
        if pair == (UInt8(ascii: "&"), UInt8(ascii: "&")) || pair == (UInt8(ascii: "|"), UInt8(ascii: "|")) {
          pos += 2
          try term()
        } else if text[pos] == UInt8(ascii: "&") || text[pos] == UInt8(ascii: "|") {
          throw SyntaxError(offset: pos, message: "operators are '&&' and '||', found a single '\(Character(UnicodeScalar(text[pos])))'")
        } else {
          return
        }
      }
    }

    mutating func term() throws(SyntaxError) {
      skipSpaces()
      guard pos < text.count else { throw SyntaxError(offset: pos, message: "the condition ends after an operator: expected 'topic' in topics") }
      switch text[pos] {
      case UInt8(ascii: "("):
        depth += 1
        if depth > 32 { throw SyntaxError(offset: pos, message: "parentheses nested too deeply") }
        let open = pos
        pos += 1
        try expression()
        skipSpaces()
        guard pos < text.count, text[pos] == UInt8(ascii: ")") else {
          throw SyntaxError(offset: pos < text.count ? pos : open, message: pos < text.count ? "expected ')', found \(describe())" : "'(' is never closed")
        }
        pos += 1
        depth -= 1
      case UInt8(ascii: "'"):
        try atom()
      case UInt8(ascii: "\"") where doubleQuotes:
        try atom()
      case UInt8(ascii: "\""):
        throw SyntaxError(offset: pos, message: "topic names go in single quotes ('news' in topics), not double quotes")
      case UInt8(ascii: "!"):
        throw SyntaxError(offset: pos, message: "'!' is not an operator FCM documents (conditions use '&&', '||' and parentheses)")
      default:
        throw SyntaxError(offset: pos, message: "expected 'topic' in topics or '(', found \(describe())")
      }
    }

    mutating func atom() throws(SyntaxError) {
      let open = pos
      let quote = text[pos]
      pos += 1
      let start = pos
      while pos < text.count, text[pos] != quote { pos += 1 }
      guard pos < text.count else { throw SyntaxError(offset: open, message: "the topic name's closing quote is missing") }
      let name = String(decoding: text[start..<pos], as: UTF8.self)
      pos += 1
      if !topicPattern.matches(name) {
        throw SyntaxError(offset: start, message: name.isEmpty ? "empty topic name" : "'\(name)' is not a valid topic name (letters, digits and -_.~% only, up to 900 characters)")
      }
      topicCount += 1
      skipSpaces()
      guard word(Self.inKeyword) else { throw SyntaxError(offset: pos, message: "expected 'in topics' after '\(name)', found \(describe())") }
      skipSpaces()
      guard word(Self.topicsKeyword) else { throw SyntaxError(offset: pos, message: "expected 'topics' after 'in', found \(describe())") }
    }

    /// The keywords as bytes, made once (an array made per call cost more than the parse).
    static let inKeyword = Array("in".utf8)
    static let topicsKeyword = Array("topics".utf8)

    /// Consumes a keyword (lower-case bytes; any case in the text, as the legacy API documented)
    /// followed by a non-letter.
    mutating func word(_ bytes: [UInt8]) -> Bool {
      guard pos + bytes.count <= text.count else { return false }
      for (i, b) in bytes.enumerated() where text[pos + i] | 0x20 != b { return false }
      if pos + bytes.count < text.count, isLetter(text[pos + bytes.count]) { return false }
      pos += bytes.count
      return true
    }

    func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }

    mutating func skipSpaces() {
      while pos < text.count, text[pos] == 0x20 || text[pos] == 0x09 { pos += 1 }
    }

    func describe() -> String {
      guard pos < text.count else { return "the end of the condition" }
      var end = pos
      while end < text.count, end - pos < 12, text[end] != 0x20 { end += 1 }
      if end == pos { end = pos + 1 }
      return "'\(String(decoding: text[pos..<end], as: UTF8.self))'"
    }
  }
}
