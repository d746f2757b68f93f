import FCMLintJSON

/// The value must equal a given JSON value, type included (`1` is not `"1"` nor `true`).
/// A missing field does not match.
struct Equals: RuleFunction {
  static let name = "equals"
  static let failsWhereMissing = true
  static let summary = "The value must equal `value`, with the same JSON type."
  static let options = [OptionSpec("value", .value, required: true, "the expected JSON value")]
  static let placeholders = ["expected"]

  let expected: LiteralValue

  init(options: FunctionOptions) { expected = options.value("value")! }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    switch target {
    case .missing(_, let missing):
      return [Finding(target, detail: "'\(missing)' is missing; expected \(expected)", ["expected": expected.description])]
    case .found(let id):
      if expected.matches(id, in: context.document) { return [] }
      let actual = excerpt(id, in: context.document)
      return [Finding(target, detail: "expected \(expected), found \(actual)", ["expected": expected.description])]
    }
  }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    guard case .found(let id) = target else { return false }
    return expected.matches(id, in: context.document)
  }
}
