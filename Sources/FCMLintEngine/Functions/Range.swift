import FCMLintJSON

/// A number must lie within bounds (APNs `badge` >= 0, `relevance-score` and colour channels in 0...1).
struct NumberRange: RuleFunction {
  static let name = "range"
  static let ignoresMissing = true
  static let summary = "A number must lie within `min`..`max` (inclusive)."
  static let options = [
    OptionSpec("min", .number, "the smallest allowed value"),
    OptionSpec("max", .number, "the largest allowed value"),
  ]
  static let placeholders = ["min", "max"]

  let min: Double?
  let max: Double?

  init(options: FunctionOptions) throws(OptionError) {
    min = options.number("min")
    max = options.number("max")
    if min == nil && max == nil { throw OptionError("needs 'min' or 'max'") }
    if let min, let max, min > max { throw OptionError("'min' is larger than 'max'") }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, let n = context.document.number(id) else { return [] }
    let values = ["min": min.map(JSONText.number) ?? "", "max": max.map(JSONText.number) ?? ""]
    let text = context.document.rawText(id)
    if let min, n < min { return [Finding(target, detail: "\(text) is less than \(JSONText.number(min))", values)] }
    if let max, n > max { return [Finding(target, detail: "\(text) is more than \(JSONText.number(max))", values)] }
    return []
  }
}
