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
