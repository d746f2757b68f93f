/// Reading past syntax errors, as editor-grade JSON parsers do, so one trailing comma does not
/// hide every other mistake of a file.
///
/// The strict parser stays the judge: each time it stops, the mistake it names is repaired in a
/// copy of the text and the copy is parsed again, up to `maxErrors` times. Repairs keep every
/// byte where it was, so offsets in the copy are offsets in the file: a trailing comma or a
/// comment becomes spaces; a missing ',' between two members takes the place of a space before
/// the second. Any other mistake ends what can be read: the text from there is blanked (from the
/// start of a string the mistake is in, and back over a dangling key or comma), and what is still
/// open is closed after the end. Limits (depth, sizes) are never read past. The repairs of the
/// first three kinds are also fixes on the original text: delete the comma or the comment, insert
/// the ','.
public enum SyntaxRecovery {
  /// At most this many syntax errors are reported per file; past the last, nothing is read.
  public static let maxErrors = 20

  public struct Repair: Sendable, Equatable {
    public var error: JSONSyntaxError
    /// The fix on the original text (a byte range and its replacement), when the repair is one.
    public var fix: (start: Int, end: Int, replacement: String)?

    public static func == (a: Repair, b: Repair) -> Bool {
      a.error == b.error && a.fix?.start == b.fix?.start && a.fix?.end == b.fix?.end && a.fix?.replacement == b.fix?.replacement
    }
  }

  public struct Outcome: Sendable {
    /// Every syntax error found, in the order found (the first is the strict parser's).
    public var repairs: [Repair]
    /// The document read from the repaired text; nil when nothing could be read.
    public var document: JSONDocument?
    /// Whether part of the text was not read (blanked after a mistake that has no repair).
    public var truncated: Bool
    /// Where the unread part starts: a finding that reaches it (a member "missing" from an
    /// object that was cut short) is not to be trusted.
    public var readUpTo: Int = Int.max
  }

  /// Recovers from `first`, the strict parse's error on `bytes`; `parse` is that parse.
  public static func recover(
    _ bytes: [UInt8], first: JSONSyntaxError, parse: ([UInt8]) -> Result<JSONDocument, JSONSyntaxError>
  ) -> Outcome {
    var text = bytes
    var repairs: [Repair] = []
    var error = first
    var truncated = false
    /// Where the text was cut, if it was: a later error at or past it is the cut's, not the user's.
    var cutAt = Int.max
    while true {
      if error.kind == .fatal || repairs.count >= maxErrors {
        repairs.append(Repair(error: error, fix: nil))
        return Outcome(repairs: repairs, document: nil, truncated: true)
      }
      var repair = Repair(error: error, fix: nil)
      if !repairInPlace(&text, original: bytes, error, &repair) {
        // A mistake with no repair: nothing past it is read. A second one at the same place means
        // even that did not help.
        if truncated {
          repairs.append(repair)
          return Outcome(repairs: repairs, document: nil, truncated: true)
        }
        cutAt = truncate(&text, at: error.offset, originalCount: bytes.count)
        truncated = true
      }
      repairs.append(repair)
      switch parse(text) {
      case .success(let document): return Outcome(repairs: repairs, document: document, truncated: truncated, readUpTo: cutAt)
      case .failure(let next):
        // Past the original text is only what closing added: a mistake there is not the user's.
        if next.offset >= cutAt { return Outcome(repairs: repairs, document: nil, truncated: true) }
        error = next
      }
    }
  }

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  /// Repairs a trailing comma, a comment or a missing comma in place; false for anything else.
  private static func repairInPlace(_ text: inout [UInt8], original: [UInt8], _ error: JSONSyntaxError, _ repair: inout Repair) -> Bool {
    let at = error.offset
    guard at < text.count else { return false }
    switch error.kind {
    case .trailingComma:
      guard text[at] == UInt8(ascii: ",") else { return false }
      text[at] = 0x20
      repair.fix = (at, at + 1, "")
      return true
    case .comment:
      guard at + 1 < text.count else { return false }
      var end = at + 2
      if text[at + 1] == UInt8(ascii: "/") {
        while end < text.count, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
      } else {
        while end + 1 < text.count, !(text[end] == UInt8(ascii: "*") && text[end + 1] == UInt8(ascii: "/")) { end += 1 }
        guard end + 1 < text.count else { return false }  // an unclosed comment: nothing past it
        end += 2
      }
      for i in at..<end where text[i] != 0x0A && text[i] != 0x0D { text[i] = 0x20 }
      // The fix takes the spaces before a comment that ends its line too, and a line that held
      // only the comment goes whole.
      var start = at, fixEnd = end
      if end == original.count || original[end] == 0x0A || original[end] == 0x0D {
        while start > 0, original[start - 1] == 0x20 || original[start - 1] == 0x09 { start -= 1 }
        if (start == 0 || original[start - 1] == 0x0A || original[start - 1] == 0x0D) && end < original.count {
          fixEnd = end + (original[end] == 0x0D && end + 1 < original.count && original[end + 1] == 0x0A ? 2 : 1)
        }
      }
      repair.fix = (start, fixEnd, "")
      return true
    case .missingComma:
      // Where the previous value ends: the comma goes right after it.
      var end = at
      while end > 0, isSpace(text[end - 1]) { end -= 1 }
      guard end < at, end > 0 else { return false }
      text[end] = UInt8(ascii: ",")
      repair.fix = (end, end, ",")
      return true
    case .fatal, .other:
      return false
    }
  }

  /// Blanks the text from `offset` (or from the start of the string it is in), and a dangling
  /// key or comma before it, then closes what is open.
  @discardableResult
  private static func truncate(_ text: inout [UInt8], at offset: Int, originalCount: Int) -> Int {
    // What is open at `offset`, and where the string it is in starts.
    var stack: [UInt8] = []
    var stringStart: Int? = nil
    var i = 0
    let limit = min(offset, text.count)
    while i < limit {
      let b = text[i]
      if let _ = stringStart {
        if b == UInt8(ascii: "\\") { i += 2; continue }
        if b == UInt8(ascii: "\"") { stringStart = nil }
      } else if b == UInt8(ascii: "\"") {
        stringStart = i
      } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
        stack.append(b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
      } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
        if !stack.isEmpty { stack.removeLast() }
      }
      i += 1
    }
    var cut = min(stringStart ?? offset, text.count)
    // Back over what cannot stand alone: a key and its ':', or a comma.
    while true {
      var j = cut
      while j > 0, isSpace(text[j - 1]) { j -= 1 }
      guard j > 0 else { break }
      let b = text[j - 1]
      if b == UInt8(ascii: ",") {
        cut = j - 1
      } else if b == UInt8(ascii: ":") {
        var k = j - 1
        while k > 0, isSpace(text[k - 1]) { k -= 1 }
        guard k > 0, text[k - 1] == UInt8(ascii: "\"") else { break }
        k -= 1
        while k > 0 {
          k -= 1
          if text[k] == UInt8(ascii: "\"") && (k == 0 || text[k - 1] != UInt8(ascii: "\\")) { break }
        }
        cut = k
      } else {
        break
      }
    }
    for index in cut..<text.count where text[index] != 0x0A && text[index] != 0x0D { text[index] = 0x20 }
    if text.count > originalCount { text.removeSubrange(originalCount...) }
    text += stack.reversed()
    return cut
  }
}
