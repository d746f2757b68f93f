/// Reading JSON out of a code block or a page: where an object ends, where an HTTP request's body
/// starts, where a sample is elided.
enum JSONContent {
  /// Samples of a code block that holds JSON (info string `json`, `jsonc`, `json5`, `http`, or
  /// a hint that says so): the block is linted as a file would be, so all of it is the sample;
  /// an HTTP request's body is its JSON, and a member written alone (`"apns": {...}`) is put
  /// between braces. A block that holds none of these is searched as plain text when
  /// `otherwiseText` is set (an HTML block without a language), and is no sample otherwise.
  static func scanBlock(_ view: TextView, _ range: Range<Int>, blockStart: Int, otherwiseText: Bool = false, into found: inout SampleFinder.Found) {
    var first = range.lowerBound
    while first < range.upperBound, isWhitespace(view[first]) { first += 1 }
    var end = range.upperBound
    while end > first, isWhitespace(view[end - 1]) { end -= 1 }
    guard first < end else { return }
    if let body = HTTPRequest.body(view, at: first, in: first..<end) {
      add(view, body..<end, blockStart: blockStart, into: &found)
      return
    }
    // Several objects one after another (a migration guide's "Before" and "After", each under a
    // `//` comment) are several samples; a block that is not only objects is read whole.
    if view[first] == UInt8(ascii: "{") || view[first] == UInt8(ascii: "/"), let pieces = objects(view, first..<end),
      pieces.count > 1 || view[first] == UInt8(ascii: "/")
    {
      var from = first
      for piece in pieces {
        add(view, piece, blockStart: blockStart, into: &found)
        if labelsLegacy(view, from..<piece.lowerBound) { found.samples[found.samples.count - 1].labelledLegacy = true }
        from = piece.upperBound
      }
      return
    }
    switch view[first] {
    case UInt8(ascii: "{"):
      add(view, first..<end, blockStart: blockStart, into: &found)
    case UInt8(ascii: "\""):
      // `"apns": {...}`: a member of a message, as the docs show one platform's part.
      guard isMember(view, at: first, end: end) else { return }
      var text = MappedText(bytes: [], origins: [view.origin(first)])
      text.append([UInt8(ascii: "{")], standingFor: view.origin(first)..<view.origin(first))
      let inner = view.text(first..<end)
      for (i, byte) in inner.bytes.enumerated() { text.append(byte, from: inner.origins[i]) }
      text.append([UInt8(ascii: "}")], standingFor: view.origin(end)..<view.origin(end))
      var sample = DocumentSample(text: text, language: .json, encoding: view.encoding, blockStart: blockStart)
      sample.wrapped = true
      sample.elision = Elision.find(in: text.bytes)
      found.samples.append(sample)
    default:
      if otherwiseText { PlainText.scan(view, range: range, depth: 0, blockStart: blockStart, into: &found) }
    }
  }

  /// The JSON objects `range` holds one after another, with only blanks and comments around them;
  /// nil when it holds anything else (or none), or an object whose keys are not quoted.
  static func objects(_ view: TextView, _ range: Range<Int>) -> [Range<Int>]? {
    var pieces: [Range<Int>] = []
    var i = range.lowerBound
    while true {
      i = LegacySend.skip(view, from: i, limit: range.upperBound)
      guard i < range.upperBound else { break }
      guard view[i] == UInt8(ascii: "{"), PlainText.startsJSONObject(view, at: i, limit: range.upperBound) else { return nil }
      let end = extent(view, from: i, limit: range.upperBound)
      guard end > i + 1, view[end - 1] == UInt8(ascii: "}") else { return nil }
      pieces.append(i..<end)
      i = end
    }
    return pieces.isEmpty ? nil : pieces
  }

  /// Whether the text between two objects of a block (its comments) labels the next one as the
  /// legacy form: `legacy`, `before` or `old` in it.
  static func labelsLegacy(_ view: TextView, _ range: Range<Int>) -> Bool {
    ["legacy", "before", "old "].contains { view.find($0, in: range, ignoringCase: true) != nil }
  }

  /// Adds the JSON text `range` of `view` as a sample.
  static func add(_ view: TextView, _ range: Range<Int>, blockStart: Int, into found: inout SampleFinder.Found) {
    let text = view.text(range)
    var sample = DocumentSample(text: text, language: .json, encoding: view.encoding, blockStart: blockStart)
    sample.elision = Elision.find(in: text.bytes)
    found.samples.append(sample)
    SNSMessage.scan(view, range, blockStart: blockStart, into: &found)
  }

  /// Whether the text at `offset` is `"name": ` followed by a value: a member without its braces.
  static func isMember(_ view: TextView, at offset: Int, end: Int) -> Bool {
    guard let close = stringEnd(view, from: offset, end: end) else { return false }
    var i = close
    while i < end, isWhitespace(view[i]) { i += 1 }
    return i < end && view[i] == UInt8(ascii: ":")
  }

  /// The offset just past the JSON string that starts at `offset` (a `"`), or nil when it does not
  /// end on its line.
  static func stringEnd(_ view: TextView, from offset: Int, end: Int) -> Int? {
    var i = offset + 1
    while i < end {
      switch view[i] {
      case UInt8(ascii: "\\"): i += 2
      case UInt8(ascii: "\""): return i + 1
      case 0x0A, 0x0D: return nil
      default: i += 1
      }
    }
    return nil
  }

  /// Where the JSON object or array that starts at `offset` ends (one past its closing bracket),
  /// counting brackets outside strings and comments. When it never closes (a page that cut it,
  /// a missing brace), it ends before the first line after a blank line that starts at the left
  /// margin with prose (a letter), or at `limit`.
  static func extent(_ view: TextView, from offset: Int, limit: Int) -> Int {
    var depth = 0
    var i = offset
    while i < limit {
      let byte = view[i]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth <= 0 { return i + 1 }
      case UInt8(ascii: "\""):
        // A string that does not end on its line ends there (a page broke it).
        i = stringEnd(view, from: i, end: limit).map { $0 - 1 } ?? (view.lineEnd(from: i) - 1)
      case UInt8(ascii: "/") where i + 1 < limit && view[i + 1] == UInt8(ascii: "/"):
        i = view.lineEnd(from: i) - 1
      case UInt8(ascii: "/") where i + 1 < limit && view[i + 1] == UInt8(ascii: "*"):
        i = (view.find("*/", in: (i + 2)..<limit) ?? limit) + 1
      case 0x0A, 0x0D:
        if let stop = proseAfterBlankLine(view, from: i, limit: limit) { return stop }
      default:
        break
      }
      i += 1
    }
    return limit
  }

  /// At a line break: the offset of this break when a blank line follows and then a line that
  /// starts with a letter at the left margin (prose after an object a page left open).
  private static func proseAfterBlankLine(_ view: TextView, from offset: Int, limit: Int) -> Int? {
    let next = view.nextLine(from: offset)
    guard next < limit, view.skipBlanks(from: next) == view.lineEnd(from: next) else { return nil }
    var line = view.nextLine(from: next)
    while line < limit, view.skipBlanks(from: line) == view.lineEnd(from: line), line < view.nextLine(from: line) {
      line = view.nextLine(from: line)
    }
    guard line < limit else { return nil }
    let byte = view[line]
    return byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) ? offset : nil
  }

  static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

/// An HTTP request as the Firebase pages write one: a request line, headers, a blank line (which
/// pages put anywhere, or leave out), the JSON body.
enum HTTPRequest {
  static let methods = ["POST ", "PUT ", "PATCH "]

  /// Whether the line at `offset` is a request line (`POST https://.../messages:send HTTP/1.1`);
  /// with `sendOnly`, only one that sends a message.
  static func isRequestLine(_ view: TextView, at offset: Int, sendOnly: Bool) -> Bool {
    guard methods.contains(where: { view.hasPrefix($0, at: offset) }) else { return false }
    let end = view.lineEnd(from: offset)
    return !sendOnly || view.find("messages:send", in: offset..<end) != nil
  }

  /// The offset of the body's `{` when a request line starts at `offset`: after the request line,
  /// only headers (`Name: value`) and blank lines come before it.
  static func body(_ view: TextView, at offset: Int, in range: Range<Int>, sendOnly: Bool = false) -> Int? {
    guard isRequestLine(view, at: offset, sendOnly: sendOnly) else { return nil }
    var line = view.nextLine(from: offset)
    var headers = 0
    while line < range.upperBound, headers < 64 {
      let first = view.skipBlanks(from: line)
      let end = view.lineEnd(from: line)
      if first < range.upperBound, view[first] == UInt8(ascii: "{") { return first }
      if first < end {
        guard isHeader(view, first..<end) else { return nil }
        headers += 1
      }
      let next = view.nextLine(from: line)
      guard next > line else { return nil }
      line = next
    }
    return nil
  }

  /// `Name: value`, the name a token of letters, digits and `-`.
  private static func isHeader(_ view: TextView, _ line: Range<Int>) -> Bool {
    var i = line.lowerBound
    while i < line.upperBound {
      let byte = view[i]
      if byte == UInt8(ascii: ":") { return i > line.lowerBound }
      let isToken = (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
      guard isToken else { return false }
      i += 1
    }
    return false
  }
}

/// Where documentation leaves part of a sample out.
enum Elision {
  /// The offset of the closing quote of the string whose opening quote is at `quote` (or where
  /// the line or text ends first): a page's sample may be cut anywhere, so a string ends at its
  /// line's end too.
  static func endOfString(_ bytes: [UInt8], from quote: Int) -> Int {
    var i = quote + 1
    while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != 0x0A {
      i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
    }
    return i
  }

  /// The offset of the first elision outside strings in JSON text: `...` (or more dots), `…`, or a
  /// comment that holds nothing else (`// ...`, `/* … */`). A comment with words is not one: it
  /// is a syntax error the page should not have.
  static func find(in bytes: [UInt8]) -> Int? { all(in: bytes, first: true).first?.lowerBound }

  /// Every elision outside strings in JSON text, in order (only the first with `first`).
  static func all(in bytes: [UInt8], first: Bool = false) -> [Range<Int>] {
    var found: [Range<Int>] = []
    var i = 0
    let n = bytes.count
    while i < n {
      switch bytes[i] {
      case UInt8(ascii: "\""):
        i = endOfString(bytes, from: i)
      case UInt8(ascii: "."):
        if i + 2 < n, bytes[i + 1] == UInt8(ascii: "."), bytes[i + 2] == UInt8(ascii: ".") {
          var end = i + 3
          while end < n, bytes[end] == UInt8(ascii: ".") { end += 1 }
          found.append(i..<end)
          if first { return found }
          i = end
          continue
        }
      case 0xE2:
        if i + 2 < n, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA6 {
          found.append(i..<(i + 3))
          if first { return found }
          i += 3
          continue
        }
      case UInt8(ascii: "/") where i + 1 < n && (bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*")):
        let block = bytes[i + 1] == UInt8(ascii: "*")
        var end = i + 2
        while end < n {
          if block ? (bytes[end] == UInt8(ascii: "*") && end + 1 < n && bytes[end + 1] == UInt8(ascii: "/")) : (bytes[end] == 0x0A || bytes[end] == 0x0D) {
            break
          }
          end += 1
        }
        let close = block ? min(end + 2, n) : end
        if onlyDots(bytes[(i + 2)..<min(end, n)]) {
          found.append(i..<close)
          if first { return found }
        }
        i = close
        continue
      default:
        break
      }
      i += 1
    }
    return found
  }

  /// `text` (a sample's text as linted, comments blanked) with its elisions made holes, and the
  /// holes' offsets for `Linter.Options.holes`; offsets are kept. An elision where a value goes
  /// (`"data": ...`) becomes a string, a value not known; one among members or elements
  /// is blanked with a comma beside it, and the object around it is open (it may hold what the
  /// page left out).
  static func holes(in text: [UInt8], elisions: [Range<Int>]) -> (text: [UInt8], holes: [Int]) {
    var out = text
    var holes: [Int] = []
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    for elision in elisions where elision.upperBound <= out.count {
      var before = elision.lowerBound - 1
      while before >= 0, isBlank(out[before]) { before -= 1 }
      for j in elision where !isBlank(out[j]) { out[j] = 0x20 }
      if before >= 0, out[before] == UInt8(ascii: ":"), elision.count >= 3 {
        // A string that is not empty: rules that read the whole message see a value there.
        out[elision.lowerBound] = UInt8(ascii: "\"")
        out[elision.lowerBound + 1] = UInt8(ascii: ".")
        out[elision.lowerBound + 2] = UInt8(ascii: "\"")
        holes.append(elision.lowerBound)
        continue
      }
      var after = elision.upperBound
      while after < out.count, isBlank(out[after]) { after += 1 }
      if after < out.count, out[after] == UInt8(ascii: ",") {
        out[after] = 0x20
      } else if before >= 0, out[before] == UInt8(ascii: ","), after >= out.count || out[after] == UInt8(ascii: "}") || out[after] == UInt8(ascii: "]") {
        out[before] = 0x20
      }
      holes.append(elision.lowerBound)
    }
    return (out, holes)
  }

  /// At least one `.` or `…`, and nothing else but spaces.
  private static func onlyDots(_ bytes: ArraySlice<UInt8>) -> Bool {
    var dots = 0
    var i = bytes.startIndex
    while i < bytes.endIndex {
      let byte = bytes[i]
      if byte == UInt8(ascii: ".") {
        dots += 1
      } else if byte == 0xE2, i + 2 < bytes.endIndex, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA6 {
        dots += 3
        i += 2
      } else if byte != 0x20 && byte != 0x09 {
        return false
      }
      i += 1
    }
    return dots > 0
  }
}
