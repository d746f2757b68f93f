import FCMLintJSON

/// Members that only mean something together with another one (JSON Schema's
/// `dependentRequired`): when an object sets a member named in `fields`, it must also set the
/// member that name maps to (`loc-args` needs `loc-key`). A member counts as set when it is not
/// null and not an empty array; the member it needs, when it is not null and not an empty string.
/// Names match in either proto3 JSON spelling, as in paths. Reported at the key of each member
/// whose partner is missing.
struct DependentRequired: RuleFunction {
  static let name = "dependentRequired"
  static let ignoresMissing = true
  static let summary = "When an object sets a member named in `fields`, it must also set the member that name maps to."
  static let options = [
    OptionSpec("fields", .stringMap, required: true, "member name → the member it requires (in either proto3 spelling)")
  ]
  static let placeholders = ["key", "requires"]

  /// Each trigger name, in both spellings, with the member it requires.
  let requirements: [String: String]
  /// The trigger names as bytes: most members trigger nothing, and this clears a plain key
  /// without making a String of it.
  let triggers: ByteNameSet

  init(options: FunctionOptions) throws(OptionError) {
    let fields = options.stringMap("fields")!
    if fields.isEmpty { throw OptionError(option: "fields", "needs at least one pair") }
    var requirements: [String: String] = [:]
    for (trigger, required) in fields {
      if trigger == required { throw OptionError(option: "fields", "'\(trigger)' cannot require itself") }
      requirements[trigger] = required
      let alternate = JSONPath.lowerCamelCase(trigger)
      if alternate != trigger { requirements[alternate] = required }
    }
    self.requirements = requirements
    triggers = ByteNameSet(Array(requirements.keys))
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, context.document.kind(id) == .object else { return [] }
    let document = context.document
    var findings: [Finding] = []
    let bytes = document.bytes
    for member in document.children(id) {
      let node = document[member]
      if node.keyStart >= 0, !node.keyHasEscapes, !triggers.contains(bytes[(Int(node.keyStart) + 1)..<(Int(node.keyEnd) - 1)]) { continue }
      guard let key = document.key(member), let required = requirements[key] else { continue }
      switch document.kind(member) {
      case .null: continue
      case .array where document[member].firstChild < 0: continue
      default: break
      }
      let partner = JSONPath.member(document, id, required)
      if let partner, document.kind(partner) != .null, document.string(partner) != "" { continue }
      let why = partner == nil ? "'\(required)' is missing" : "'\(required)' is \(document.kind(partner!) == .null ? "null" : "empty")"
      var finding = Finding(node: member, atKey: true, values: [
        "detail": "'\(key)' is set but \(why)", "key": key, "requires": required,
      ])
      // A template's include or block may add the partner.
      finding.uncertain = partner == nil && document.mayHoldUnseenMembers(id)
      findings.append(finding)
    }
    return findings
  }
}
