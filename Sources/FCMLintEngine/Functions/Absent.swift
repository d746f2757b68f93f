import FCMLintJSON

/// The field must not exist: on its own, for a member that has no place where it is written (a
/// header that breaks background pushes); in `when`, to apply a check only while a field is unset.
/// Reports at the member.
struct Absent: RuleFunction {
  static let name = "absent"
  static let ignoresMissing = true
  static let summary = "The field must not exist."
  static let options: [OptionSpec] = []

  init(options: FunctionOptions) {}

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let name = context.document.key(id).map { "'\($0)'" } ?? "this value"
    return [Finding(node: id, atKey: context.document.key(id) != nil, values: ["detail": "\(name) must not be set"])]
  }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    guard case .found = target else { return true }
    return false
  }
}
