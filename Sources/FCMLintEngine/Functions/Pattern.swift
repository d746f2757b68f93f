import FCMLintJSON

/// A string value must match (or must not match) a regular expression.
struct Pattern: RuleFunction {
  static let name = "pattern"
  static let summary = "A string value must match `match` and must not match `notMatch`."
  static let options = [
    OptionSpec("match", .pattern, "a regular expression the value must match"),
    OptionSpec("notMatch", .pattern, "a regular expression the value must not match"),
  ]

  let match: CompiledPattern?
  let notMatch: CompiledPattern?

  init(options: FunctionOptions) throws(OptionError) {
    match = options.pattern("match")
    notMatch = options.pattern("notMatch")
    if match == nil && notMatch == nil { throw OptionError("needs 'match' or 'notMatch'") }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, let s = context.document.string(id) else { return [] }
    if let match, !match.matches(s) {
      return [Finding(target, detail: "'\(s)' does not match /\(match.source)/")]
    }
    if let notMatch, notMatch.matches(s) {
      return [Finding(target, detail: "'\(s)' must not match /\(notMatch.source)/")]
    }
    return []
  }
}
