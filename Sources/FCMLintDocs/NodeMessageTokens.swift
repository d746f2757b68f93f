// The JavaScript lexer of the literal reader: trivia, identifiers, expressions' extents, strings, numbers.

extension LiteralParser {
  /// `...` or `…` at `i`: the offset after it.
  func ellipsis(at i: Int) -> Int? {
    if i + 2 < textEnd, source[i] == UInt8(ascii: "."), source[i + 1] == UInt8(ascii: "."), source[i + 2] == UInt8(ascii: ".") {
      return i + 3
    }
    if i + 2 < textEnd, source[i] == 0xE2, source[i + 1] == 0x80, source[i + 2] == 0xA6 { return i + 3 }
    return nil
  }

  /// The identifier at `i` (ASCII letters, digits, `_`, `$`, and any non-ASCII character that is
  /// not white space), or nil.
  func identifier(at i: Int) -> ArraySlice<UInt8>? {
    var end = i
    while end < textEnd {
      let c = source[end]
      let isStart = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$")
      if isStart || (end > i && c >= 0x30 && c <= 0x39) {
        end += 1
      } else if c >= 0x80, whitespaceWidth(at: end) == nil, ellipsis(at: end) == nil {
        end += 1
      } else {
        break
      }
    }
    return end > i ? source[i..<end] : nil
  }

  /// The width of the white space character at `i` (ASCII white space, no-break space, the BOM,
  /// the Unicode spaces and line separators), or nil.
  func whitespaceWidth(at i: Int) -> Int? {
    let c = source[i]
    if c == 0x20 || (c >= 0x09 && c <= 0x0D) { return 1 }
    if c == 0xC2, i + 1 < textEnd, source[i + 1] == 0xA0 { return 2 }
    if i + 2 < textEnd {
      let b1 = source[i + 1], b2 = source[i + 2]
      if c == 0xEF, b1 == 0xBB, b2 == 0xBF { return 3 }
      if c == 0xE2, b1 == 0x80, (b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF { return 3 }
      if c == 0xE3, b1 == 0x80, b2 == 0x80 { return 3 }
    }
    return nil
  }

  /// The offset after white space and comments from `i`; nil for an unterminated comment.
  func skipTrivia(_ start: Int) -> Int? {
    var i = start
    while i < textEnd {
      if let width = whitespaceWidth(at: i) {
        i += width
      } else if source[i] == UInt8(ascii: "/"), i + 1 < textEnd, source[i + 1] == UInt8(ascii: "/") {
        while i < textEnd, source[i] != 0x0A, source[i] != 0x0D { i += 1 }
      } else if source[i] == UInt8(ascii: "/"), i + 1 < textEnd, source[i + 1] == UInt8(ascii: "*") {
        i += 2
        while i + 1 < textEnd, !(source[i] == UInt8(ascii: "*") && source[i + 1] == UInt8(ascii: "/")) { i += 1 }
        guard i + 1 < textEnd else { return nil }
        i += 2
      } else {
        break
      }
    }
    return i
  }

  /// `end` moved back over ASCII white space (a comment before the `,` stays part of an
  /// expression's text, which is harmless).
  func trimmedEnd(_ start: Int, _ end: Int) -> Int {
    var e = end
    while e > start, source[e - 1] == 0x20 || (source[e - 1] >= 0x09 && source[e - 1] <= 0x0D) { e -= 1 }
    return e
  }

  /// The end of the expression that starts at `start`: the offset of the first `,` (when
  /// `stopAtComma`) or unmatched closer outside brackets, strings, template literals and
  /// comments. nil when brackets do not match, a `;` ends the statement, a `:` outside brackets
  /// belongs to no `?` (`{ a: 1 b: 2 }`), or the text ends.
  func scanExpression(_ start: Int, stopAtComma: Bool) -> Int? {
    // Open brackets, each as its closer; `templateText` while in a template literal's text and
    // `templateHole` inside its `${...}`.
    let templateText: UInt8 = 0, templateHole: UInt8 = 1
    var stack: [UInt8] = []
    // Conditional operators outside brackets still waiting for their `:`.
    var openConditionals = 0
    var i = start
    while i < textEnd {
      let c = source[i]
      if stack.last == templateText {
        if c == UInt8(ascii: "\\") {
          i += 2
        } else if c == UInt8(ascii: "`") {
          stack.removeLast()
          i += 1
        } else if c == UInt8(ascii: "$"), i + 1 < textEnd, source[i + 1] == UInt8(ascii: "{") {
          stack.append(templateHole)
          i += 2
        } else {
          i += 1
        }
        continue
      }
      switch c {
      case UInt8(ascii: "'"), UInt8(ascii: "\""):
        guard let end = skipQuoted(at: i) else { return nil }
        i = end
      case UInt8(ascii: "`"):
        stack.append(templateText)
        i += 1
      case UInt8(ascii: "/"):
        if i + 1 < textEnd, source[i + 1] == UInt8(ascii: "/") || source[i + 1] == UInt8(ascii: "*") {
          guard let end = skipTrivia(i) else { return nil }
          i = end
        } else {
          i += 1
        }
      case UInt8(ascii: "("): stack.append(UInt8(ascii: ")")); i += 1
      case UInt8(ascii: "["): stack.append(UInt8(ascii: "]")); i += 1
      case UInt8(ascii: "{"): stack.append(UInt8(ascii: "}")); i += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        guard let top = stack.last else { return i }
        if top == templateHole, c == UInt8(ascii: "}") {
          stack.removeLast()
        } else {
          guard top == c else { return nil }
          stack.removeLast()
        }
        i += 1
      case UInt8(ascii: ","):
        if stack.isEmpty, stopAtComma { return i }
        i += 1
      case UInt8(ascii: ";"):
        if stack.isEmpty { return nil }
        i += 1
      case UInt8(ascii: "?") where stack.isEmpty:
        // Not `??` nor `?.` (optional chaining; `a?.5:b` is a conditional).
        let next = i + 1 < textEnd ? source[i + 1] : 0
        if next == UInt8(ascii: "?") {
          i += 2
        } else if next == UInt8(ascii: "."), !(i + 2 < textEnd && source[i + 2] >= 0x30 && source[i + 2] <= 0x39) {
          i += 2
        } else {
          openConditionals += 1
          i += 1
        }
      case UInt8(ascii: ":") where stack.isEmpty:
        guard openConditionals > 0 else { return nil }
        openConditionals -= 1
        i += 1
      default:
        i += 1
      }
    }
    return nil
  }

  /// The offset after the quoted string at `i`, or nil when it does not end on its line.
  private func skipQuoted(at i: Int) -> Int? {
    let quote = source[i]
    var k = i + 1
    while k < textEnd {
      let c = source[k]
      if c == quote { return k + 1 }
      if c == 0x0A || c == 0x0D { return nil }
      k += c == UInt8(ascii: "\\") ? 2 : 1
    }
    return nil
  }

  // MARK: Strings

  /// The decoded content of the '...' or "..." string at `i` and the offset after it.
  func decodeQuoted(at i: Int) -> (MappedText, Int)? {
    let quote = source[i]
    var text = MappedText(bytes: [], origins: [i + 1])
    var k = i + 1
    while k < textEnd {
      let c = source[k]
      if c == quote { return (text, k + 1) }
      if c == 0x0A || c == 0x0D { return nil }
      if c == UInt8(ascii: "\\") {
        guard let (bytes, end) = decodeEscape(at: k) else { return nil }
        text.append(bytes, standingFor: k..<end)
        k = end
        continue
      }
      text.append(c, from: k)
      k += 1
    }
    return nil
  }

  /// The decoded content of the template literal at `i` (each `${expression}` as a `{{...}}`
  /// placeholder) and the offset after it.
  func decodeTemplate(at i: Int) -> (MappedText, Int)? {
    var text = MappedText(bytes: [], origins: [i + 1])
    var k = i + 1
    while k < textEnd {
      let c = source[k]
      if c == UInt8(ascii: "`") { return (text, k + 1) }
      if c == UInt8(ascii: "\\") {
        guard let (bytes, end) = decodeEscape(at: k) else { return nil }
        text.append(bytes, standingFor: k..<end)
        k = end
      } else if c == UInt8(ascii: "$"), k + 1 < textEnd, source[k + 1] == UInt8(ascii: "{") {
        guard let end = scanExpression(k + 2, stopAtComma: false), source[end] == UInt8(ascii: "}") else { return nil }
        appendPlaceholder((k + 2)..<end, anchor: k, to: &text)
        k = end + 1
      } else if c == 0x0D {
        // A template's CR LF and CR are read as LF.
        text.append(0x0A, from: k)
        k += k + 1 < textEnd && source[k + 1] == 0x0A ? 2 : 1
      } else {
        text.append(c, from: k)
        k += 1
      }
    }
    return nil
  }

  /// The bytes the escape at `i` (a backslash) stands for and the offset after it.
  private func decodeEscape(at i: Int) -> ([UInt8], Int)? {
    guard i + 1 < textEnd else { return nil }
    let e = source[i + 1]
    switch e {
    case UInt8(ascii: "n"): return ([0x0A], i + 2)
    case UInt8(ascii: "r"): return ([0x0D], i + 2)
    case UInt8(ascii: "t"): return ([0x09], i + 2)
    case UInt8(ascii: "b"): return ([0x08], i + 2)
    case UInt8(ascii: "f"): return ([0x0C], i + 2)
    case UInt8(ascii: "v"): return ([0x0B], i + 2)
    case UInt8(ascii: "0") where !(i + 2 < textEnd && source[i + 2] >= 0x30 && source[i + 2] <= 0x39):
      return ([0x00], i + 2)
    case 0x0A: return ([], i + 2)  // a line continuation
    case 0x0D: return ([], i + 2 < textEnd && source[i + 2] == 0x0A ? i + 3 : i + 2)
    case UInt8(ascii: "x"):
      guard let value = hexValue(i + 2, count: 2) else { return nil }
      return (utf8(value), i + 4)
    case UInt8(ascii: "u"):
      guard let (value, end) = unicodeEscape(at: i) else { return nil }
      if value >= 0xD800, value <= 0xDBFF, end + 1 < textEnd, source[end] == UInt8(ascii: "\\"),
        let (low, lowEnd) = unicodeEscape(at: end), low >= 0xDC00, low <= 0xDFFF
      {
        return (utf8(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)), lowEnd)
      }
      return (utf8(value), end)
    default:
      // Any other character stands for itself (`\'`, `\"`, `\\`, `\``, `\$`), whole.
      var end = i + 2
      while end < textEnd, source[end] & 0xC0 == 0x80 { end += 1 }
      return (Array(source[(i + 1)..<end]), end)
    }
  }

  /// `\uXXXX` or `\u{X...}` at `i`: the code unit or point and the offset after it.
  private func unicodeEscape(at i: Int) -> (UInt32, Int)? {
    guard i + 2 < textEnd, source[i + 1] == UInt8(ascii: "u") else { return nil }
    if source[i + 2] == UInt8(ascii: "{") {
      var value: UInt32 = 0
      var k = i + 3
      while k < textEnd, let digit = hexDigit(source[k]) {
        value = value * 16 + digit
        guard value <= 0x10FFFF else { return nil }
        k += 1
      }
      guard k > i + 3, k < textEnd, source[k] == UInt8(ascii: "}") else { return nil }
      return (value, k + 1)
    }
    guard let value = hexValue(i + 2, count: 4) else { return nil }
    return (value, i + 6)
  }

  private func hexValue(_ start: Int, count: Int) -> UInt32? {
    guard start + count <= textEnd else { return nil }
    var value: UInt32 = 0
    for k in start..<(start + count) {
      guard let digit = hexDigit(source[k]) else { return nil }
      value = value * 16 + digit
    }
    return value
  }

  private func hexDigit(_ c: UInt8) -> UInt32? {
    switch c {
    case 0x30...0x39: return UInt32(c - 0x30)
    case 0x41...0x46: return UInt32(c - 0x41 + 10)
    case 0x61...0x66: return UInt32(c - 0x61 + 10)
    default: return nil
    }
  }

  /// The UTF-8 bytes of a code point; a lone surrogate becomes U+FFFD.
  private func utf8(_ value: UInt32) -> [UInt8] {
    let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
    return Array(String(Character(scalar)).utf8)
  }

  // MARK: Numbers

  /// The radix of a `0x`, `0o` or `0b` literal, by its letter in lower case.
  private static let radixes: [UInt8: Double] = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2]

  /// The numeric literal at `i` (decimal, `.5`, `1e3`, `1_000`, hex, octal, binary): its value,
  /// the offset after it, and whether its text is a JSON number. nil when none starts here or
  /// letters follow it (`1n`, `5px`).
  func numberLiteral(at i: Int) -> (Double, Int, Bool)? {
    guard i < textEnd else { return nil }
    func isDigit(_ k: Int) -> Bool { k < textEnd && source[k] >= 0x30 && source[k] <= 0x39 }
    var k = i
    var value: Double
    var isJSON = true
    if source[k] == UInt8(ascii: "0"), k + 1 < textEnd, let radix = Self.radixes[source[k + 1] | 0x20] {
      k += 2
      value = 0
      var digits = 0
      while k < textEnd {
        if source[k] == UInt8(ascii: "_") {
          k += 1
          continue
        }
        guard let digit = hexDigit(source[k]), Double(digit) < radix else { break }
        value = value * radix + Double(digit)
        digits += 1
        k += 1
      }
      guard digits > 0 else { return nil }
      isJSON = false
    } else {
      guard isDigit(k) || (source[k] == UInt8(ascii: ".") && isDigit(k + 1)) else { return nil }
      var text: [UInt8] = []
      func digits() {
        while k < textEnd, isDigit(k) || (source[k] == UInt8(ascii: "_") && isDigit(k + 1) && k > i) {
          if source[k] == UInt8(ascii: "_") { isJSON = false } else { text.append(source[k]) }
          k += 1
        }
      }
      let integerStart = k
      digits()
      let integerDigits = text.count
      if integerDigits == 0 || (integerDigits > 1 && source[integerStart] == UInt8(ascii: "0")) { isJSON = false }
      if k < textEnd, source[k] == UInt8(ascii: ".") {
        text.append(UInt8(ascii: "."))
        k += 1
        let before = text.count
        digits()
        if text.count == before {
          // `5.` is 5.
          text.removeLast()
          isJSON = false
        }
      }
      if k < textEnd, source[k] == UInt8(ascii: "e") || source[k] == UInt8(ascii: "E") {
        var e = k + 1
        if e < textEnd, source[e] == UInt8(ascii: "+") || source[e] == UInt8(ascii: "-") { e += 1 }
        if isDigit(e) {
          text.append(UInt8(ascii: "e"))
          text.append(contentsOf: source[(k + 1)..<e])
          k = e
          digits()
        }
      }
      guard let parsed = Double(String(decoding: text.first == UInt8(ascii: ".") ? [UInt8(ascii: "0")] + text : text, as: UTF8.self)) else {
        return nil
      }
      value = parsed
    }
    if identifier(at: k) != nil { return nil }
    return (value, k, isJSON)
  }
}
