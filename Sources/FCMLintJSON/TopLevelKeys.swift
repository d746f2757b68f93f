/// The keys of a document's top-level object, read tolerantly from text that may not be strict
/// JSON: comments (`//`, `/* */`), trailing commas, unquoted values, template tags. Used to decide
/// what a file that does not parse was meant to be, never to lint it.
public enum TopLevelKeys {
  /// The keys in order, or nil when the text (after a byte order mark, white space and comments)
  /// does not start with `{`.
  public static func scan(_ bytes: [UInt8]) -> [String]? {
    var i = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    skipSpaceAndComments(bytes, &i)
    guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
    i += 1
    var keys: [String] = []
    var depth = 1
    // At depth 1, a string is a key when the next thing after it is a colon.
    while i < bytes.count, depth > 0 {
      let byte = bytes[i]
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let start = i + 1
        i = endOfString(bytes, from: start, quote: byte)
        let end = i
        i += 1
        if depth == 1 {
          var j = i
          skipSpaceAndComments(bytes, &j)
          if j < bytes.count, bytes[j] == UInt8(ascii: ":") {
            keys.append(String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self))
          }
        }
      case UInt8(ascii: "/"):
        let before = i
        skipSpaceAndComments(bytes, &i)
        if i == before { i += 1 }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        i += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        i += 1
      default:
        i += 1
      }
    }
    return keys
  }

  /// Past the closing quote's position (the index of the quote, or the end of the text).
  private static func endOfString(_ bytes: [UInt8], from start: Int, quote: UInt8) -> Int {
    var i = start
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "\\") {
        i += 2
        continue
      }
      // A string never spans lines in JSON: a stray quote ends at the line's end.
      if bytes[i] == quote || bytes[i] == 0x0A { return i }
      i += 1
    }
    return bytes.count
  }

  private static func skipSpaceAndComments(_ bytes: [UInt8], _ i: inout Int) {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D:
        i += 1
      case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
      case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
        i += 2
        while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
        i = min(bytes.count, i + 2)
      default:
        return
      }
    }
  }
}
