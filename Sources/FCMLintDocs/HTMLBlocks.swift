/// `<pre>` and `<code>` blocks of an HTML page (or raw HTML in Markdown). Their text is read with
/// the tags inside dropped (syntax highlighting wraps tokens in `<span>`s), `<br>` as a line
/// break and entities decoded, each byte mapped to where it is in the page. A class naming the
/// language (`language-json`, `lang-js`, `prettyprint lang-http`) says how to read it; without
/// one the text is searched as plain text.
enum HTMLBlocks {
  /// Returns the blocks' ranges in `view` (Markdown reads the text around them as prose).
  @discardableResult
  static func scan(_ view: TextView, excluding excluded: [Range<Int>] = [], into found: inout SampleFinder.Found) -> [Range<Int>] {
    var blocks: [Range<Int>] = []
    var i = 0
    var skip = excluded.makeIterator()
    var nextExcluded = skip.next()
    while let open = view.find("<", in: i..<view.count) {
      i = open + 1
      while let range = nextExcluded, range.upperBound <= open { nextExcluded = skip.next() }
      if let range = nextExcluded, range.contains(open) {
        i = range.upperBound
        continue
      }
      if view.hasPrefix("<!--", at: open) {
        i = (view.find("-->", in: open..<view.count) ?? view.count - 3) + 3
        continue
      }
      guard let name = ["pre", "code"].first(where: { view.hasPrefix("<" + $0, at: open, ignoringCase: true) && isNameEnd(view, open + 1 + $0.utf8.count) }),
        let tagEnd = view.find(">", in: open..<view.count)
      else { continue }
      let close = view.find("</" + name, in: tagEnd..<view.count, ignoringCase: true) ?? view.count
      let end = min(view.count, (view.find(">", in: close..<view.count) ?? view.count - 1) + 1)
      i = end
      found.blockStarts.append(view.origin(open))
      found.codeRanges.append(view.origin(open)..<view.origin(end))
      blocks.append(open..<end)
      let (text, spelling) = decode(view, (tagEnd + 1)..<close)
      let inner = TextView(text, encoding: [.html(spelling)] + view.encoding)
      let blockStart = view.origin(open)
      let first = found.samples.count
      defer {
        // A `<code>` in running text holds a name or a snippet (`{"mutable-content": 1}`), not a
        // part of a message to check: only a whole message there is a sample.
        if name == "code" { for i in first..<found.samples.count { found.samples[i].inline = true } }
      }
      // The class may sit on a `<code>` inside the `<pre>`.
      let hintEnd = min(close, (view.find(">", in: (tagEnd + 1)..<close).map { $0 + 1 }) ?? tagEnd + 1)
      switch language(view, open..<max(tagEnd + 1, hintEnd)) {
      case .json: JSONContent.scanBlock(inner, 0..<inner.count, blockStart: blockStart, into: &found)
      case .none: JSONContent.scanBlock(inner, 0..<inner.count, blockStart: blockStart, otherwiseText: true, into: &found)
      case .node: PlainText.scan(inner, depth: 0, blockStart: blockStart, into: &found)
      case .other: break
      }
    }
    return blocks
  }

  enum Hint { case json, node, other }

  /// The language a `class` attribute in the tags `range` names, if any.
  static func language(_ view: TextView, _ range: Range<Int>) -> Hint? {
    // Firebase's pages (devsite) name the language in `syntax="JSON"`, others in a class.
    for attribute in ["syntax=", "data-language=", "data-lang="] {
      guard let at = view.find(attribute, in: range, ignoringCase: true) else { continue }
      var start = at + attribute.utf8.count
      if start < range.upperBound, view[start] == UInt8(ascii: "\"") || view[start] == UInt8(ascii: "'") { start += 1 }
      var end = start
      while end < range.upperBound, view[end] != UInt8(ascii: "\""), view[end] != UInt8(ascii: "'"), view[end] != 0x20, view[end] != UInt8(ascii: ">") { end += 1 }
      let language = String(decoding: view.bytes[start..<end].map(TextView.lower), as: UTF8.self)
      if MarkdownBlocks.jsonLanguages.contains(language) { return .json }
      if MarkdownBlocks.nodeLanguages.contains(language) { return .node }
      return .other
    }
    guard let attribute = view.find("class=", in: range, ignoringCase: true) else { return nil }
    var start = attribute + 6
    let quote = start < range.upperBound ? view[start] : 0
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") { start += 1 }
    var end = start
    while end < range.upperBound, view[end] != quote, view[end] != UInt8(ascii: ">"), quote != 0 || view[end] != 0x20 { end += 1 }
    let classes = String(decoding: view.bytes[start..<end].map(TextView.lower), as: UTF8.self).split(separator: " ")
    for name in classes {
      for prefix in ["language-", "lang-", "highlight-", "brush:"] where name.hasPrefix(prefix) {
        let language = String(name.dropFirst(prefix.count))
        if MarkdownBlocks.jsonLanguages.contains(language) { return .json }
        if MarkdownBlocks.nodeLanguages.contains(language) { return .node }
        return .other
      }
    }
    return nil
  }

  private static func isNameEnd(_ view: TextView, _ offset: Int) -> Bool {
    offset < view.count && (view[offset] == UInt8(ascii: ">") || view[offset] == 0x20 || view[offset] == 0x09 || view[offset] == 0x0A || view[offset] == 0x0D)
  }

  /// The text of `range`: tags dropped (`<br>` a line break), entities decoded; and how the
  /// block spells what a fix writes into it.
  static func decode(_ view: TextView, _ range: Range<Int>) -> (MappedText, HTMLSpelling) {
    var text = MappedText(bytes: [], origins: [view.origin(range.lowerBound)])
    var counts = HTMLSpelling.Counts()
    var i = range.lowerBound
    while i < range.upperBound {
      let byte = view[i]
      if byte == UInt8(ascii: "<"), let tagEnd = view.find(">", in: i..<range.upperBound) {
        let isBreak = view.hasPrefix("<br", at: i, ignoringCase: true) && (i + 3 == tagEnd || !isLetter(view[i + 3]))
        text.append(isBreak ? [0x0A] : [], standingFor: view.origin(i)..<view.origin(tagEnd + 1))
        i = tagEnd + 1
      } else if byte == UInt8(ascii: "&"), let (decoded, length) = entity(view, at: i, end: range.upperBound) {
        text.append(decoded, standingFor: view.origin(i)..<view.origin(i + length))
        counts.written(decoded, as: view.bytes[i..<(i + length)])
        i += length
      } else {
        text.append(byte, from: view.origin(i))
        counts.written(byte)
        i += 1
      }
    }
    return (text, counts.spelling)
  }

  private static func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z") }

  /// Named entities a code sample holds. `&nbsp;` is a space: a page copied from a browser gives
  /// one, and JSON would not accept U+00A0.
  static let named: [String: String] = [
    "quot": "\"", "amp": "&", "lt": "<", "gt": ">", "apos": "'", "nbsp": " ", "hellip": "\u{2026}",
    "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}", "ndash": "\u{2013}",
    "mdash": "\u{2014}", "copy": "\u{00A9}", "lbrace": "{", "rbrace": "}", "lsqb": "[", "rsqb": "]",
    "colon": ":", "comma": ",", "period": ".", "sol": "/", "bsol": "\\", "Tab": "\t", "NewLine": "\n",
  ]

  /// The entity at `offset` (`&quot;`, `&#34;`, `&#x22;`): its text and length, or nil.
  static func entity(_ view: TextView, at offset: Int, end: Int) -> ([UInt8], Int)? {
    guard let semicolon = view.find(";", in: (offset + 1)..<min(end, offset + 12)) else { return nil }
    let body = view.bytes[(offset + 1)..<semicolon]
    let length = semicolon + 1 - offset
    if body.first == UInt8(ascii: "#") {
      let hex = body.count > 1 && (body[body.startIndex + 1] | 0x20) == UInt8(ascii: "x")
      let digits = String(decoding: body.dropFirst(hex ? 2 : 1), as: UTF8.self)
      guard let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value), value != 0 else { return nil }
      return (Array(String(Character(scalar)).utf8), length)
    }
    guard let text = named[String(decoding: body, as: UTF8.self)] else { return nil }
    return (Array(text.utf8), length)
  }
}
