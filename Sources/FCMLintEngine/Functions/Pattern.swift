import FCMLintJSON
import LinearRegex

/// A string value must match (or must not match) a regular expression.
struct Pattern: RuleFunction {
  static let name = "pattern"
  static let ignoresMissing = true
  static let summary = "A string value must match `match` and must not match `notMatch`."
  static let options = [
    OptionSpec("match", .pattern, "a regular expression the value must match"),
    OptionSpec("notMatch", .pattern, "a regular expression the value must not match"),
  ]
  /// For a `notMatch` finding, the value without the text the pattern matched ("/topics/news"
  /// without "^/topics/" is "news"), quoted as JSON: what the value becomes once that is removed.
  static let placeholders = ["remainder"]

  let match: CompiledPattern?
  let notMatch: CompiledPattern?

  init(options: FunctionOptions) throws(OptionError) {
    match = options.pattern("match")
    notMatch = options.pattern("notMatch")
    if match == nil && notMatch == nil { throw OptionError("needs 'match' or 'notMatch'") }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let document = context.document
    let node = document[id]
    if node.kind == .string, !node.valueHasEscapes {
      // A value without escapes that is all ASCII decodes to its literal's inside byte for byte:
      // match those bytes, and make a String only for a finding.
      let passes: Bool? = document.bytes.withUnsafeBufferPointer { all in
        let bytes = UnsafeBufferPointer(rebasing: all[(Int(node.start) + 1)..<(Int(node.end) - 1)])
        guard Self.isASCII(bytes) else { return nil }
        // Through optional chaining, not `if let`: binding copied the shared regex (a retain and
        // a release of one object from every thread).
        if match?.regex.matches(utf8: bytes) == false { return false }
        if notMatch?.regex.matches(utf8: bytes) == true { return false }
        return true
      }
      if passes == true { return [] }
    }
    guard let s = document.string(id) else { return [] }
    if let match, !match.matches(s) {
      return [Finding(target, detail: "'\(s)' does not match /\(match.source)/")]
    }
    if let notMatch, notMatch.matches(s) {
      var remainder = ""
      let scalars = s.unicodeScalars.map(\.value)
      if let range = notMatch.regex.firstMatch(in: scalars) {
        var rest = String.UnicodeScalarView()
        for (i, scalar) in s.unicodeScalars.enumerated() where !range.contains(i) { rest.append(scalar) }
        remainder = JSONText.quote(String(rest))
      }
      return [Finding(target, detail: "'\(s)' must not match /\(notMatch.source)/", ["remainder": remainder])]
    }
    return []
  }

  /// Whether every byte is below 0x80, eight bytes at a time (a value is tens of bytes: a byte
  /// at a time, the scan was about a seventh of the check's instructions).
  @inline(__always)
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var i = 0, any: UInt64 = 0
    while i &+ 8 <= bytes.count {
      any |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      i &+= 8
    }
    while i < bytes.count {
      any |= UInt64(bytes[i])
      i &+= 1
    }
    return any & 0x8080_8080_8080_8080 == 0
  }
}
