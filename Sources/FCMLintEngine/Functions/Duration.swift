import FCMLintJSON

/// A protobuf Duration in its JSON form: a string of seconds with up to nine fractional digits and
/// an `s` suffix ("3600s", "3.5s"). A bare number, "PT1H" or "3600" is rejected by FCM.
struct DurationCheck: RuleFunction {
  static let name = "duration"
  static let summary = "A value must be a Duration string like \"3600s\" within `min`..`max` seconds."
  static let options = [
    OptionSpec("min", .number, "the shortest allowed duration in seconds"),
    OptionSpec("max", .number, "the longest allowed duration in seconds"),
  ]
  static let placeholders = ["seconds", "suggestion"]

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

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let document = context.document
    switch document.kind(id) {
    case .null:
      return []
    case .string:
      let text = document.string(id)!
      guard let seconds = Self.seconds(text) else {
        var suggestion = ""
        if let n = Double(text) { suggestion = " (write \"\(JSONText.number(n))s\")" }
        return [Finding(target, detail: "\"\(text)\" is not a Duration: write seconds with an 's' suffix, like \"3600s\"\(suggestion)", ["suggestion": suggestion])]
      }
      let values = ["seconds": JSONText.number(seconds)]
      if let min, seconds < min { return [Finding(target, detail: "\(text) is shorter than the minimum \(JSONText.number(min))s", values)] }
      if let max, seconds > max { return [Finding(target, detail: "\(text) is longer than the maximum \(JSONText.number(max))s", values)] }
      return []
    case .number:
      let raw = document.rawText(id)
      return [Finding(target, detail: "a Duration is a string: write \"\(raw)s\", not the number \(raw)", ["suggestion": "\"\(raw)s\""])]
    default:
      return [Finding(target, detail: "a Duration is a string like \"3600s\", found \(document.kind(id).name)")]
    }
  }
}
