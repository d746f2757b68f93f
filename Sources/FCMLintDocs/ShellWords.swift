/// JSON given to a command as a quoted shell word (`curl -d '{...}'`, `-d "{\"message\": ...}"`,
/// `--payload '{...}'`, `echo '{...}' | ...`): the JSON the command gets once the shell has
/// removed its quoting, each byte mapped to the page, and fixes written back in the same quoting.
enum ShellWords {
  /// Adds the JSON object of the quoted word whose opening quote is at `quote` as a sample; the
  /// view offset where the sample ends (for a scan to resume after), or nil when the word holds
  /// no JSON object.
  @discardableResult
  static func addJSON(_ view: TextView, quote: Int, limit: Int, blockStart: Int, into found: inout SampleFinder.Found) -> Int? {
    if view[quote] == UInt8(ascii: "\"") {
      guard let (text, end) = doubleQuoted(view, quote: quote, limit: limit) else { return nil }
      let inner = TextView(text, encoding: [.shellDoubleQuoted] + view.encoding)
      var first = 0
      while first < inner.count, JSONContent.isWhitespace(inner[first]) { first += 1 }
      guard first < inner.count, inner[first] == UInt8(ascii: "{"), PlainText.startsJSONObject(inner, at: first, limit: inner.count) else { return nil }
      let close = JSONContent.extent(inner, from: first, limit: inner.count)
      JSONContent.add(inner, first..<close, blockStart: blockStart, into: &found)
      return end
    }
    var body = quote + 1
    while body < limit, JSONContent.isWhitespace(view[body]) { body += 1 }
    guard body < limit, view[body] == UInt8(ascii: "{") else { return nil }
    let end = JSONContent.extent(view, from: body, limit: limit)
    let text = Curl.placeholders(view.text(body..<end))
    var sample = DocumentSample(text: text, language: .json, encoding: [.shellSingleQuoted] + view.encoding, blockStart: blockStart)
    sample.elision = Elision.find(in: text.bytes)
    found.samples.append(sample)
    return end
  }

  /// The contents of the double-quoted word at `quote` as the command gets them: `\"`, `\\`,
  /// `\$` and `` \` `` stand for the character after the backslash, a backslash before a line
  /// break joins the lines, any other backslash stays. Nil when the quote does not close.
  static func doubleQuoted(_ view: TextView, quote: Int, limit: Int) -> (text: MappedText, end: Int)? {
    var text = MappedText(bytes: [], origins: [view.origin(quote + 1)])
    var i = quote + 1
    while i < limit {
      let byte = view[i]
      if byte == UInt8(ascii: "\"") {
        text.origins[text.origins.count - 1] = view.origin(i)
        return (text, i + 1)
      }
      if byte == UInt8(ascii: "\\"), i + 1 < limit {
        let next = view[i + 1]
        if next == 0x0A {
          text.origins[text.origins.count - 1] = view.origin(i + 2)
          i += 2
          continue
        }
        if "\"\\$`".utf8.contains(next) {
          text.append([next], standingFor: view.origin(i)..<view.origin(i + 2))
          i += 2
          continue
        }
      }
      text.append(byte, from: view.origin(i))
      i += 1
    }
    return nil
  }

  /// Whether the quote at `quote` starts a shell word whose JSON is a command's argument: after
  /// a blank or an option's `=` (`--payload='{...}'`), with `{` just inside it.
  static func startsJSONArgument(_ view: TextView, quote: Int, lineStart: Int, limit: Int) -> Bool {
    guard quote > lineStart, view[quote - 1] == 0x20 || view[quote - 1] == 0x09 || view[quote - 1] == UInt8(ascii: "=") else { return false }
    guard quote + 1 < limit, view[quote + 1] == UInt8(ascii: "{") else { return false }
    // Inside double quotes the JSON's own quotes are escaped: `"{\"message\": ...}"`.
    var i = quote + 2
    while i < limit, view[i] == 0x20 || view[i] == 0x09 { i += 1 }
    if view[quote] == UInt8(ascii: "\"") { return i + 1 < limit && view[i] == UInt8(ascii: "\\") && view[i + 1] == UInt8(ascii: "\"") }
    return i < limit && (view[i] == UInt8(ascii: "\"") || view[i] == 0x0A || view[i] == 0x0D)
  }

  /// Looks for quoted JSON arguments on `line` (`-P '{...}'`, `echo '{...}' |`); the end of the
  /// last one read, or nil for none.
  static func scan(_ view: TextView, line: Range<Int>, limit: Int, blockStart: Int?, into found: inout SampleFinder.Found) -> Int? {
    var i = line.lowerBound
    while i < line.upperBound {
      let byte = view[i]
      guard byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\""), startsJSONArgument(view, quote: i, lineStart: line.lowerBound, limit: limit) else {
        i += 1
        continue
      }
      let block = blockStart ?? view.origin(i)
      let before = found.samples.count
      // One try a line: a word that does not close would be read to the page's end again.
      guard let end = addJSON(view, quote: i, limit: limit, blockStart: block, into: &found) else { return nil }
      if blockStart == nil, found.samples.count > before { found.blockStarts.append(block) }
      return end
    }
    return nil
  }
}
