/// Samples in text that has no markup for them: a page saved as text, a code block without a
/// language, an HTML `<pre>` without a hint.
///
/// - an HTTP request to `.../messages:send`: its JSON body;
/// - a JSON object that starts a line (after indentation);
/// - a Node.js message literal: an object literal after `=` or `(` (`const message = {`,
///   `send({`), read as the Admin SDK sends it;
/// - a JSON array that starts a line and holds long strings: a page's data blob, whose strings may
///   hold the page again (escaped); they are searched as text of their own.
enum PlainText {
  /// Scans `range` of `view` (all of it by default). `blockStart` is the code block the text is
  /// (nil: plain text, where each sample is its own block for markers).
  static func scan(
    _ view: TextView, range: Range<Int>? = nil, depth: Int, blockStart: Int?, into found: inout SampleFinder.Found
  ) {
    let range = range ?? 0..<view.count
    var line = range.lowerBound
    while line < range.upperBound {
      let first = view.skipBlanks(from: line, to: range.upperBound)
      let lineEnd = min(view.lineEnd(from: line), range.upperBound)
      var resume = view.nextLine(from: line)
      if first < lineEnd {
        let block = blockStart ?? view.origin(first)
        if blockStart == nil, HTTPRequest.isRequestLine(view, at: first, sendOnly: true) {
          found.blockStarts.append(block)
        }
        if let body = HTTPRequest.body(view, at: first, in: first..<range.upperBound, sendOnly: true) {
          let end = JSONContent.extent(view, from: body, limit: range.upperBound)
          JSONContent.add(view, body..<end, blockStart: block, into: &found)
          resume = view.nextLine(from: end - 1)
        } else if view[first] == UInt8(ascii: "{") {
          if blockStart == nil { found.blockStarts.append(block) }
          let end = JSONContent.extent(view, from: first, limit: range.upperBound)
          JSONContent.add(view, first..<end, blockStart: block, into: &found)
          resume = view.nextLine(from: end - 1)
        } else if view[first] == UInt8(ascii: "["), depth < SampleFinder.deepestView {
          let end = JSONContent.extent(view, from: first, limit: range.upperBound)
          EmbeddedText.scan(view, first..<end, depth: depth, into: &found)
          resume = view.nextLine(from: end - 1)
        } else if let end = NodeLiterals.scan(view, line: first..<lineEnd, limit: range.upperBound, blockStart: blockStart, into: &found) {
          resume = view.nextLine(from: max(end - 1, first))
        }
      }
      guard resume > line else { break }
      line = resume
    }
  }
}

/// Node.js message literals: `{` after `=` or `(`, read by `NodeMessageLiteral`.
enum NodeLiterals {
  /// Looks for literals that start on `line`; the end of the last one read, or nil for none.
  static func scan(_ view: TextView, line: Range<Int>, limit: Int, blockStart: Int?, into found: inout SampleFinder.Found) -> Int? {
    var i = line.lowerBound
    var readUpTo: Int? = nil
    while i < line.upperBound {
      defer { i += 1 }
      guard view[i] == UInt8(ascii: "{") else { continue }
      var before = i - 1
      while before >= line.lowerBound, view[before] == 0x20 || view[before] == 0x09 { before -= 1 }
      guard before >= line.lowerBound, view[before] == UInt8(ascii: "=") || view[before] == UInt8(ascii: "(") else { continue }
      // `==`, `=>` and `>=` are not assignments.
      if view[before] == UInt8(ascii: "="), before > line.lowerBound, "=!<>".utf8.contains(view[before - 1]) { continue }
      guard let (json, end) = NodeMessageLiteral.read(view.bytes, from: i), end <= limit, end - i <= SampleFinder.longestSample else { continue }
      let origins = json.origins.map { view.origin(min($0, view.count)) }
      let block = blockStart ?? view.origin(i)
      if blockStart == nil { found.blockStarts.append(block) }
      found.samples.append(DocumentSample(text: MappedText(bytes: json.bytes, origins: origins), language: .nodeLiteral, encoding: [], blockStart: block))
      readUpTo = end
      i = end - 1
    }
    return readUpTo
  }
}

/// Text kept in the strings of a JSON blob (a page's data, holding the page's Markdown with `\n`
/// escapes): each long string is decoded, with each byte's place, and searched as plain text.
enum EmbeddedText {
  /// Strings shorter than this are names and labels, not pages.
  static let shortestPage = 200

  static func scan(_ view: TextView, _ range: Range<Int>, depth: Int, into found: inout SampleFinder.Found) {
    var i = range.lowerBound
    while i < range.upperBound {
      guard view[i] == UInt8(ascii: "\"") else {
        i += 1
        continue
      }
      guard let end = JSONContent.stringEnd(view, from: i, end: range.upperBound) else {
        i = view.nextLine(from: i)
        continue
      }
      if end - i >= shortestPage, let text = decode(view, (i + 1)..<(end - 1)) {
        let inner = TextView(text, encoding: [.jsonString] + view.encoding)
        PlainText.scan(inner, depth: depth + 1, blockStart: nil, into: &found)
      }
      i = end
    }
  }

  /// The string's contents with its escapes decoded, each byte mapped to the document; nil when
  /// it holds no line break (not a page).
  static func decode(_ view: TextView, _ range: Range<Int>) -> MappedText? {
    var text = MappedText(bytes: [], origins: [view.origin(range.lowerBound)])
    var lines = 0
    var i = range.lowerBound
    while i < range.upperBound {
      let byte = view[i]
      guard byte == UInt8(ascii: "\\"), i + 1 < range.upperBound else {
        text.append(byte, from: view.origin(i))
        i += 1
        continue
      }
      let escape = view[i + 1]
      var length = 2
      var decoded: [UInt8]
      switch escape {
      case UInt8(ascii: "n"):
        decoded = [0x0A]
        lines += 1
      case UInt8(ascii: "r"): decoded = [0x0D]
      case UInt8(ascii: "t"): decoded = [0x09]
      case UInt8(ascii: "b"): decoded = [0x08]
      case UInt8(ascii: "f"): decoded = [0x0C]
      case UInt8(ascii: "u"):
        guard i + 6 <= range.upperBound, let unit = hex(view, (i + 2)..<(i + 6)) else {
          decoded = [escape]
          break
        }
        length = 6
        var scalar = unit
        // A surrogate pair is one character.
        if unit >= 0xD800, unit < 0xDC00, i + 12 <= range.upperBound, view[i + 6] == UInt8(ascii: "\\"), view[i + 7] == UInt8(ascii: "u"),
          let low = hex(view, (i + 8)..<(i + 12)), low >= 0xDC00, low < 0xE000
        {
          scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          length = 12
        }
        decoded = Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
      default:
        decoded = [escape]
      }
      text.append(decoded, standingFor: view.origin(i)..<view.origin(i + length))
      i += length
    }
    return lines > 0 ? text : nil
  }

  private static func hex(_ view: TextView, _ range: Range<Int>) -> UInt32? {
    var value: UInt32 = 0
    for i in range {
      let byte = view[i]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
