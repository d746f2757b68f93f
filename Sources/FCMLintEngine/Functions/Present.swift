import FCMLintJSON

/// The field must exist. Reports at the nearest existing ancestor when it does not, since that is
/// where the member has to be added.
struct Present: RuleFunction {
  static let name = "present"
  static let failsWhereMissing = true
  static let passesByKind = true
  static let summary = "The field must exist (null counts as present only with allowNull)."
  static let options = [OptionSpec("allowNull", .bool, "whether a JSON null counts as present (default false)")]
  static let placeholders = ["missing"]

  let allowNull: Bool

  init(options: FunctionOptions) { allowNull = options.bool("allowNull") ?? false }

  /// Every value but a placeholder; null too with `allowNull`.
  var passingKinds: UInt16 {
    var kinds: UInt16 = 0
    for kind in [JSONKind.object, .array, .string, .number, .true, .false] { kinds |= 1 << kind.rawValue }
    return allowNull ? kinds | 1 << JSONKind.null.rawValue : kinds
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    switch target {
    case .missing(let nearest, let missing):
      return [Finding(target, detail: "'\(missing)' is missing", ["missing": missing]).at(nearest)]
    case .found(let id):
      if !allowNull, context.document.kind(id) == .null {
        return [Finding(target, detail: "the value is null", ["missing": context.document.key(id) ?? ""])]
      }
      return []
    }
  }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    guard case .found(let id) = target else { return false }
    return allowNull || context.document.kind(id) != .null
  }
}

extension Finding {
  func at(_ node: NodeID) -> Finding {
    var copy = self
    copy.node = node
    return copy
  }
}
