import FCMLintJSON

/// Marks the rule that reports a document the parser rejects. The engine applies it before any
/// other rule (a document that does not parse has no values to check); on a parsed document it
/// finds nothing. Its `{detail}` is the parser's message.
struct ValidJSON: RuleFunction {
  static let name = "validJSON"
  static let summary = "The file must be strict RFC 8259 JSON (reported by the parser, before other rules run)."
  static let options: [OptionSpec] = []

  init(options: FunctionOptions) {}

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] { [] }
}
