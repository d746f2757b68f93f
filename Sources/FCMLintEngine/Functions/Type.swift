import FCMLintJSON

/// The value must have one of the given JSON types. A missing field passes (pair with `present`).
struct TypeIs: RuleFunction {
  static let name = "type"
  static let ignoresMissing = true
  static let passesByKind = true
  static let summary = "The value's JSON type must be one of `type` (object, array, string, number, integer, boolean, null)."
  static let options = [OptionSpec("type", .strings, required: true, "the allowed types")]
  static let placeholders = ["expected", "actual"]
  static let typeNames = ["object", "array", "string", "number", "integer", "boolean", "null"]

  let types: [String]
  /// The kinds `types` names, a bit per `JSONKind`, and whether whole numbers are accepted:
  /// what every call asks, without comparing names (conditions ask it of most values).
  let kinds: UInt16
  let integers: Bool

  init(options: FunctionOptions) throws(OptionError) {
    types = options.strings("type")!
    var kinds: UInt16 = 0
    for t in types {
      guard Self.typeNames.contains(t) else {
        throw OptionError(option: "type", "unknown type '\(t)' (types: \(Self.typeNames.joined(separator: ", ")))")
      }
      for kind in [JSONKind.object, .array, .string, .number, .true, .false, .null, .placeholder] where kind.name == t { kinds |= 1 << kind.rawValue }
    }
    self.kinds = kinds
    integers = types.contains("integer")
  }

  var passingKinds: UInt16 { kinds & ~(1 << JSONKind.placeholder.rawValue) }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    guard case .found(let id) = target else { return true }
    let kind = context.document.kind(id)
    if kinds & 1 << kind.rawValue != 0 { return true }
    return kind == .number && integers && context.document.number(id).map { $0 == $0.rounded() } == true
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard !passes(target, in: context), case .found(let id) = target else { return [] }
    let kind = context.document.kind(id)
    let expected = types.joined(separator: " or ")
    return [Finding(target, detail: "expected \(expected), found \(kind.name) \(excerpt(id, in: context.document))", ["expected": expected, "actual": kind.name])]
  }
}
