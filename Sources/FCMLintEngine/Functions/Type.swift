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
    guard case .found(let id) = target, !isOfType(id, in: context.document) else { return [] }
    let kind = context.document.kind(id)
    let expected = types.joined(separator: " or ")
    return [Finding(target, detail: "expected \(expected), found \(kind.name) \(excerpt(id, in: context.document))", ["expected": expected, "actual": kind.name])]
  }

  /// In a condition (`when: {function: type}` on a whole message, say) the answer alone: the
  /// finding's message quotes the value, which costs as much as the rest of the lint.
  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    guard case .found(let id) = target else { return true }
    return isOfType(id, in: context.document)
  }

  private func isOfType(_ id: NodeID, in document: JSONDocument) -> Bool {
    let kind = document.kind(id)
    if types.contains(kind.name) { return true }
    return kind == .number && types.contains("integer") && document.number(id).map { $0 == $0.rounded() } == true
  }
}
