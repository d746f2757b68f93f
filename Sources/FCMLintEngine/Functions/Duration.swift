import FCMLintJSON

/// A protobuf Duration in its JSON form: a string of seconds with up to nine fractional digits and
/// an `s` suffix ("3600s", "3.5s"). A bare number, "PT1H" or "3600" is rejected by FCM.
struct DurationCheck: RuleFunction {
  static let name = "duration"
  static let ignoresMissing = true
  static let summary = "A value must be a Duration string like \"3600s\" within `min`..`max` seconds."
  static let options = [
    OptionSpec("min", .number, "the shortest allowed duration in seconds"),
    OptionSpec("max", .number, "the longest allowed duration in seconds"),
  ]
  static let placeholders = ["seconds", "suggestion", "duration"]

  let min: Double?
  let max: Double?

  init(options: FunctionOptions) {
    min = options.number("min")
    max = options.number("max")
  }

  /// Seconds of a Duration string, or nil when it is not one.
  static func seconds(_ s: String) -> Double? {
    wholeSeconds(s) ?? generalSeconds(s)
  }

  /// Any Duration string, through `Double` (fractions, and more digits than `wholeSeconds` reads).
  static func generalSeconds(_ s: String) -> Double? {
    guard s.hasSuffix("s") else { return nil }
    var body = Substring(s.dropLast())
    if body.hasPrefix("-") { body = body.dropFirst() }
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    if parts.count == 2 {
      guard !parts[1].isEmpty, parts[1].count <= 9, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    }
    guard let value = Double(body) else { return nil }
    return s.hasPrefix("-") ? -value : value
  }

  /// The common form, `-?[0-9]{1,15}s`, read from the bytes: up to 15 digits are exact in a
  /// Double, so this is what `Double` would read. Nil for any other form (the general path).
  static func wholeSeconds(_ s: String) -> Double? {
    let utf8 = s.utf8
    let result: Double?? = utf8.withContiguousStorageIfAvailable { bytes -> Double? in
      var count = bytes.count
      guard count >= 2, bytes[count - 1] == UInt8(ascii: "s") else { return nil }
      count -= 1
      var i = 0
      let negative = bytes[0] == UInt8(ascii: "-")
      if negative { i = 1 }
      let digits = count - i
      guard digits >= 1, digits <= 15 else { return nil }
      var value = 0
      while i < count {
        let d = bytes[i] &- UInt8(ascii: "0")
        guard d < 10 else { return nil }
        value = value * 10 + Int(d)
        i += 1
      }
      return negative ? -Double(value) : Double(value)
    }
    return result ?? nil
  }

  /// A JSON number literal as a Duration string ("1e3" is "1000s", "1.50" is "1.5s"), worked out
  /// on its digits so nothing is rounded; nil when a Duration cannot hold it exactly (more than
  /// nine fractional digits, or more seconds than Duration's range of about 10,000 years).
  static func durationString(_ literal: String) -> String? {
    var text = Substring(literal)
    let negative = text.hasPrefix("-")
    if negative { text = text.dropFirst() }
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      guard let value = Int(text[text.index(after: e)...].drop { $0 == "+" }), abs(value) < 100 else { return nil }
      exponent = value
      text = text[..<e]
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
    var digits = Array(parts[0]) + (parts.count == 2 ? Array(parts[1]) : [])
    // The decimal point sits after `point` digits.
    var point = parts[0].count + exponent
    if point < 0 {
      digits = Array(repeating: "0", count: -point) + digits
      point = 0
    }
    if point > digits.count { digits += Array(repeating: "0", count: point - digits.count) }
    var whole = String(digits[..<point]).drop { $0 == "0" }
    var fraction = String(digits[point...])
    while fraction.hasSuffix("0") { fraction.removeLast() }
    if whole.isEmpty { whole = "0" }
    guard fraction.count <= 9, whole.count <= 12 else { return nil }
    let isZero = whole == "0" && fraction.isEmpty
    return (negative && !isZero ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction) + "s"
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let document = context.document
    switch document.kind(id) {
    case .null:
      return []
    case .string:
      let text = document.string(id)!
      guard let seconds = Self.seconds(text) else {
        // A number written as a string ("86400") has an exact Duration a fix can write.
        if Double(text) != nil, let duration = Self.durationString(text) {
          return [Finding(
            target, detail: "\"\(text)\" is not a Duration: write seconds with an 's' suffix: \"\(duration)\"",
            ["suggestion": " (write \"\(duration)\")", "duration": duration])]
        }
        return [Finding(target, detail: "\"\(text)\" is not a Duration: write seconds with an 's' suffix, like \"3600s\"", ["suggestion": ""])]
      }
      // Built for a finding only.
      var values: [String: String] { ["seconds": JSONText.number(seconds)] }
      if let min, seconds < min { return [Finding(target, detail: "\(text) is shorter than the minimum \(JSONText.number(min))s", values)] }
      if let max, seconds > max { return [Finding(target, detail: "\(text) is longer than the maximum \(JSONText.number(max))s", values)] }
      return []
    case .number:
      let raw = document.rawText(id)
      // `duration`: the number as a Duration string, when it has one exactly (a fix writes it).
      guard let duration = Self.durationString(raw) else {
        return [Finding(target, detail: "a Duration is a string of seconds like \"3600s\", not the number \(raw)", [:])]
      }
      return [Finding(target, detail: "a Duration is a string: write \"\(duration)\", not the number \(raw)", ["suggestion": "\"\(duration)\"", "duration": duration])]
    default:
      return [Finding(target, detail: "a Duration is a string like \"3600s\", found \(document.kind(id).name)")]
    }
  }
}
