/// The type of a plain (unquoted, untagged) YAML scalar, by its text: YAML 1.1's implicit types,
/// as the common YAML libraries resolve them (`off` and `yes` are booleans, `0x1f` and `1:30` are
/// integers, `.inf` is a float, `~` and the empty scalar are null; anything else is a string).
/// Rule and config files have always been read this way, so a plain `off` in `.fcmlint.yml` is a
/// boolean that the config reads as the severity "off".
///
/// Each type is one of the alternatives below, tried in this order, and the whole text must
/// match one (`[-+]?` is an optional sign, `_` may stand between digits):
/// - bool: y/n-less YAML 1.1 words: yes, no, true, false, on, off (lower, Capitalised or UPPER);
/// - int: `0b[01_]+`, `0o?[0-7_]+`, `0`, `[1-9][0-9_]*`, `0x[0-9a-fA-F_]+`, and sexagesimal
///   `[1-9][0-9_]*(:[0-5]?[0-9])+`, each with an optional sign;
/// - float: `[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?` with a sign, `\.[0-9_]+([eE][-+][0-9]+)?`
///   without, sexagesimal `[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*` with a sign, `[-+]?\.inf`
///   and `\.nan` (`.nan`, `.NaN`, `.NAN`);
/// - null: `~`, null (lower, Capitalised or UPPER), or nothing.
enum YAMLScalar {
  static func kind(_ text: [UInt8]) -> DataNode.ScalarKind {
    if isBool(text) { return .bool }
    if isInt(text) { return .int }
    if isFloat(text) { return .float }
    if isNull(text) { return .null }
    return .string
  }

  private static func spellings(_ word: String) -> [[UInt8]] {
    let lower = Array(word.utf8)
    let capitalised = [lower[0] - 0x20] + lower.dropFirst()
    return [lower, capitalised, lower.map { $0 - 0x20 }]
  }

  private static let bools: Set<[UInt8]> = Set(["yes", "no", "true", "false", "on", "off"].flatMap(spellings))
  private static let nulls: Set<[UInt8]> = Set([Array("~".utf8), []] + spellings("null"))
  private static let infinities: Set<[UInt8]> = Set(spellings("inf").map { Array(".".utf8) + $0 })
  private static let nans: Set<[UInt8]> = Set([".nan", ".NaN", ".NAN"].map { Array($0.utf8) })

  static func isBool(_ text: [UInt8]) -> Bool { bools.contains(text) }

  static func isNull(_ text: [UInt8]) -> Bool { nulls.contains(text) }

  static func isInt(_ text: [UInt8]) -> Bool {
    var s = Cursor(text)
    s.sign()
    let body = s
    var b = body
    if b.literal("0b"), b.run(of: { $0 == 0x30 || $0 == 0x31 || $0 == underscore }) > 0, b.atEnd { return true }
    b = body
    if b.literal("0x"), b.run(of: { isHexDigit($0) || $0 == underscore }) > 0, b.atEnd { return true }
    b = body
    if b.literal("0") {
      _ = b.literal("o")
      if b.run(of: { (0x30...0x37).contains($0) || $0 == underscore }) > 0, b.atEnd { return true }
    }
    b = body
    if b.literal("0"), b.atEnd { return true }
    b = body
    if b.digit(in: 0x31...0x39) {
      _ = b.run(of: { isDigit($0) || $0 == underscore })
      if b.atEnd { return true }
      if b.sexagesimalParts(), b.atEnd { return true }
    }
    return false
  }

  static func isFloat(_ text: [UInt8]) -> Bool {
    if infinities.contains(text) || nans.contains(text) { return true }
    if let first = text.first, first == plus || first == minus, infinities.contains(Array(text.dropFirst())) { return true }
    var s = Cursor(text)
    // `\.[0-9_]+([eE][-+][0-9]+)?`: no sign, and the exponent's sign is required.
    var b = s
    if b.literal("."), b.run(of: { isDigit($0) || $0 == underscore }) > 0 {
      if b.atEnd { return true }
      if b.exponent(signRequired: true), b.atEnd { return true }
    }
    s.sign()
    guard s.digit(in: 0x30...0x39) else { return false }
    _ = s.run(of: { isDigit($0) || $0 == underscore })
    let integerPart = s
    // `[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`
    b = integerPart
    if b.literal(".") { _ = b.run(of: { isDigit($0) || $0 == underscore }) }
    if b.atEnd { return true }
    if b.exponent(signRequired: false), b.atEnd { return true }
    // `[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`
    b = integerPart
    if b.sexagesimalParts(), b.literal(".") {
      _ = b.run(of: { isDigit($0) || $0 == underscore })
      if b.atEnd { return true }
    }
    return false
  }

  private static let underscore = UInt8(ascii: "_"), plus = UInt8(ascii: "+"), minus = UInt8(ascii: "-")
  private static func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }
  private static func isHexDigit(_ c: UInt8) -> Bool { isDigit(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c) }

  /// A position in the text; each step moves it only when it matches.
  private struct Cursor {
    let text: [UInt8]
    var index = 0
    init(_ text: [UInt8]) { self.text = text }

    var atEnd: Bool { index == text.count }

    mutating func sign() {
      if index < text.count, text[index] == plus || text[index] == minus { index += 1 }
    }

    mutating func literal(_ word: StaticString) -> Bool {
      let count = word.utf8CodeUnitCount
      guard index + count <= text.count else { return false }
      let matches = word.withUTF8Buffer { bytes in (0..<count).allSatisfy { i in text[index + i] == bytes[i] } }
      if matches { index += count }
      return matches
    }

    mutating func digit(in range: ClosedRange<UInt8>) -> Bool {
      guard index < text.count, range.contains(text[index]) else { return false }
      index += 1
      return true
    }

    /// Skips the longest run of bytes that satisfy `accept`; returns its length.
    mutating func run(of accept: (UInt8) -> Bool) -> Int {
      let start = index
      while index < text.count, accept(text[index]) { index += 1 }
      return index - start
    }

    /// `(:[0-5]?[0-9])+`
    mutating func sexagesimalParts() -> Bool {
      var parts = 0
      while true {
        var b = self
        guard b.literal(":") else { break }
        if b.digit(in: 0x30...0x35) {
          // `[0-5]` then `[0-9]`, or the `[0-5]` alone was the `[0-9]`.
          _ = b.digit(in: 0x30...0x39)
        } else {
          guard b.digit(in: 0x30...0x39) else { break }
        }
        self = b
        parts += 1
      }
      return parts > 0
    }

    /// `[eE][-+]?[0-9]+`, or `[eE][-+][0-9]+` when the sign is required.
    mutating func exponent(signRequired: Bool) -> Bool {
      var b = self
      guard b.index < b.text.count, b.text[b.index] == UInt8(ascii: "e") || b.text[b.index] == UInt8(ascii: "E") else { return false }
      b.index += 1
      let before = b.index
      b.sign()
      if signRequired && b.index == before { return false }
      guard b.run(of: YAMLScalar.isDigit) > 0 else { return false }
      self = b
      return true
    }
  }
}
