/// JSON text written out: strings quoted and escaped, numbers as JSON writes them. The one JSON
/// string escaper of fcmlint: reports, messages, fixes, the baseline, the language server, and
/// samples written into a page's JSON all escape through `escape`.
public enum JSONText {
  /// `s` as a JSON string literal, quotes included.
  public static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
    }
    return out + "\""
  }

  /// How a JSON string writes `scalar`: `"` and `\` escaped, control characters by their short
  /// escape (`\n`) or `\u00XX`, and U+2028 and U+2029, which JavaScript once read as line ends,
  /// as `\u2028` and `\u2029`; nil for a scalar written as itself.
  @inline(__always)
  public static func escape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\"": return "\\\""
    case "\\": return "\\\\"
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case "\u{08}": return "\\b"
    case "\u{0C}": return "\\f"
    default:
      guard scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 else { return nil }
      let hex = String(scalar.value, radix: 16, uppercase: false)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
  }

  public static func number(_ n: Double) -> String {
    if n.isFinite, n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return String(n)
  }
}
