import FCMLintJSON

/// A string value must be one of a fixed set.
struct Enumeration: RuleFunction {
  static let name = "enumeration"
  static let ignoresMissing = true
  static let summary = "A string value must be one of `values`."
  static let options = [
    OptionSpec("values", .strings, required: true, "the allowed values"),
    OptionSpec("caseSensitive", .bool, "compare case-sensitively (default true)"),
  ]
  static let placeholders = ["allowed", "suggestion"]
  /// A template's value with literal parts is one of the values when it may render to one.
  static let readsTemplates = true

  let values: [String]
  let caseSensitive: Bool
  /// `values` lower-cased once, for case-insensitive comparison.
  let folded: Set<String>

  init(options: FunctionOptions) throws(OptionError) {
    values = options.strings("values")!
    caseSensitive = options.bool("caseSensitive") ?? true
    folded = Set(values.map { $0.lowercased() })
    if values.isEmpty { throw OptionError(option: "values", "needs at least one value") }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, let s = context.document.string(id) else { return [] }
    let ok = context.document.isPartialTemplate(id)
      ? context.document.templateMayBe(id, oneOf: values, caseSensitive: caseSensitive)
      : caseSensitive ? values.contains(s) : folded.contains(s.lowercased())
    if ok { return [] }
    let allowed = values.joined(separator: ", ")
    let suggestion = closest(to: s, in: values).map { " (did you mean '\($0)'?)" } ?? ""
    return [Finding(target, detail: "'\(s)' is not one of \(allowed)\(suggestion)", ["allowed": allowed, "suggestion": suggestion])]
  }
}
