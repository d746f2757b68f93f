import FCMLintJSON

/// The value must have one of the given JSON types. A missing field passes (pair with `present`).
struct TypeIs: RuleFunction {
  static let name = "type"
  static let summary = "The value's JSON type must be one of `type` (object, array, string, number, integer, boolean, null)."
  static let options = [OptionSpec("type", .strings, required: true, "the allowed types")]
  static let placeholders = ["expected", "actual"]
  static let typeNames = ["object", "array", "string", "number", "integer", "boolean", "null"]

  let types: [String]

  init(options: FunctionOptions) throws(OptionError) {
    types = options.strings("type")!
    for t in types where !Self.typeNames.contains(t) {
      throw OptionError(option: "type", "unknown type '\(t)' (types: \(Self.typeNames.joined(separator: ", ")))")
    }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let kind = context.document.kind(id)
    if types.contains(kind.name) { return [] }
    if kind == .number, types.contains("integer"), let n = context.document.number(id), n == n.rounded() { return [] }
    let expected = types.joined(separator: " or ")
    return [Finding(target, detail: "expected \(expected), found \(kind.name) \(excerpt(id, in: context.document))", ["expected": expected, "actual": kind.name])]
  }
}
