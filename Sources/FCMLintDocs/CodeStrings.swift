/// A request body written as a string literal and given straight to a call, as Java, Kotlin, C#,
/// Go and JavaScript samples write one: `setBody("{\"message\": ...}")`,
/// `new StringContent("{...}", ...)`. The sample is the string the program holds: `\"`, `\\`,
/// `\/`, `\'`, `\n`, `\t` and `\r` decoded, each character mapped to its escape in the page, and a
/// fix written back with the same escapes (`SampleEncoding.codeString`). Only a whole object is
/// read: a literal the program concatenates (`"{\"to\":\"" + token + "\"}"`) is a part of one.
enum CodeStrings {
  /// Info strings of code blocks in languages whose string literals are read here, and nothing
  /// else in them.
  static let languages: Set<String> = [
    "java", "kotlin", "kt", "csharp", "cs", "c#", "go", "golang", "swift", "dart", "scala", "groovy", "c", "cpp", "c++", "php",
  ]

  /// The string literals of a code block in one of `languages`, line by line: after `(`, `,` or
  /// `=` (`String body = "{\"message\": ...}";`).
  static func scanBlock(_ view: TextView, blockStart: Int, into found: inout SampleFinder.Found) {
    var line = 0
    while line < view.count {
      let lineEnd = view.lineEnd(from: line)
      let end = scan(view, line: line..<lineEnd, limit: view.count, blockStart: blockStart, assigned: true, into: &found)
      let next = view.nextLine(from: max(line, (end ?? line + 1) - 1))
      guard next > line else { break }
      line = next
    }
  }

  /// Looks on `line` for a string literal argument (`(` or `,` before its quote; `=` too with
  /// `assigned`) that holds a JSON object; the end of the one read, or nil for none. A literal
  /// ends on its line.
  /// A raw literal in backticks (a Go raw string, a JavaScript template literal) may span lines,
  /// up to `limit`; it is read as it is written, and only when it holds no `${...}`.
  static func scan(
    _ view: TextView, line: Range<Int>, limit: Int, blockStart: Int?, assigned: Bool = false, into found: inout SampleFinder.Found
  ) -> Int? {
    var i = line.lowerBound
    while i < line.upperBound {
      defer { i += 1 }
      let raw = view[i] == UInt8(ascii: "`")
      guard raw || view[i] == UInt8(ascii: "\""), i + 1 < line.upperBound, view[i + 1] == UInt8(ascii: "{") else { continue }
      var before = i - 1
      while before >= line.lowerBound, view[before] == 0x20 || view[before] == 0x09 { before -= 1 }
      guard before >= line.lowerBound,
        view[before] == UInt8(ascii: "(") || view[before] == UInt8(ascii: ",") || ((assigned || raw) && view[before] == UInt8(ascii: "="))
      else { continue }
      if raw { return rawLiteral(view, quote: i, limit: limit, blockStart: blockStart, into: &found) }
      guard let (text, end) = decoded(view, quote: i, lineEnd: line.upperBound) else { return nil }
      // The literal is the whole value: `)`, `,` or `;` after it (or the line's end), not `+`.
      var after = end
      while after < line.upperBound, view[after] == 0x20 || view[after] == 0x09 || view[after] == 0x0D { after += 1 }
      guard after == line.upperBound || [UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: ";")].contains(view[after]) else { return nil }
      let inner = TextView(text, encoding: [.codeString] + view.encoding)
      guard inner.count > 2, inner[0] == UInt8(ascii: "{"), PlainText.startsJSONObject(inner, at: 0, limit: inner.count),
        JSONContent.extent(inner, from: 0, limit: inner.count) == inner.count
      else { return nil }
      let block = blockStart ?? view.origin(i)
      if blockStart == nil { found.blockStarts.append(block) }
      JSONContent.add(inner, 0..<inner.count, blockStart: block, into: &found)
      return end
    }
    return nil
  }

  /// The JSON object of the raw literal whose backtick is at `quote`, added as a sample; the
  /// offset past its closing backtick, or nil when it holds no whole object. One try reads at
  /// most `NodeMessageLiteral.longestLiteral` bytes, so that a page of unclosed ones stays linear.
  static func rawLiteral(_ view: TextView, quote: Int, limit: Int, blockStart: Int?, into found: inout SampleFinder.Found) -> Int? {
    let first = quote + 1
    guard PlainText.startsJSONObject(view, at: first, limit: limit) else { return nil }
    let end = JSONContent.extent(view, from: first, limit: min(limit, first + NodeMessageLiteral.longestLiteral))
    guard end > first, view[end - 1] == UInt8(ascii: "}") else { return nil }
    var after = end
    while after < limit, JSONContent.isWhitespace(view[after]) { after += 1 }
    guard after < limit, view[after] == UInt8(ascii: "`") else { return nil }
    // A template literal's `${...}` is the program's value, not JSON.
    guard view.find("${", in: first..<end) == nil else { return nil }
    let block = blockStart ?? view.origin(quote)
    if blockStart == nil { found.blockStarts.append(block) }
    JSONContent.add(view, first..<end, blockStart: block, into: &found)
    return after + 1
  }

  /// The escapes a literal's contents are decoded from, and the characters they stand for.
  static let escapes: [UInt8: UInt8] = [
    UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
    UInt8(ascii: "'"): UInt8(ascii: "'"), UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D,
  ]

  /// The contents of the literal whose opening quote is at `quote`, decoded, and the offset past
  /// its closing quote; nil when it does not close on its line or holds an escape not read here.
  static func decoded(_ view: TextView, quote: Int, lineEnd: Int) -> (text: MappedText, end: Int)? {
    var text = MappedText(bytes: [], origins: [view.origin(quote + 1)])
    var i = quote + 1
    while i < lineEnd {
      let byte = view[i]
      if byte == UInt8(ascii: "\"") {
        text.origins[text.origins.count - 1] = view.origin(i)
        return (text, i + 1)
      }
      if byte == UInt8(ascii: "\\") {
        guard i + 1 < lineEnd, let stands = escapes[view[i + 1]] else { return nil }
        text.append([stands], standingFor: view.origin(i)..<view.origin(i + 2))
        i += 2
        continue
      }
      text.append(byte, from: view.origin(i))
      i += 1
    }
    return nil
  }
}
