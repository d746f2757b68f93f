import FCMLintJSON

/// An object must have exactly one of the named members (a proto `oneof`, such as a message's target).
/// Reports at the object when none is set (unless `noneInFragment` and the document is a fragment,
/// whose sender adds the member at send time), and at each extra member when several are.
struct ExactlyOne: RuleFunction {
  static let name = "exactlyOne"
  static let ignoresMissing = true
  static let summary = "An object must have exactly one of the members named in `fields`."
  static let options = [
    OptionSpec("fields", .strings, required: true, "the member names, of which exactly one must be set (in either proto3 spelling)"),
    OptionSpec(
      "noneInFragment", .bool,
      "in a fragment (--fragment, `fragment: true`), none set is fine: the sender adds it; several are still reported (default false)"),
    OptionSpec("nullIsAbsent", .bool, "a member whose value is null counts as not set, as proto3 JSON reads it (default false)"),
  ]
  static let placeholders = ["fields", "present"]

  let fields: [String]
  let noneInFragment: Bool
  let nullIsAbsent: Bool
  /// The names' bytes in one table: a list of byte arrays retained each array it compared,
  /// shared objects that every thread touched.
  let nameTable: JSONDocument.NameTable
  let nameIDs: [JSONDocument.NameTable.Name]
  /// The names (both spellings), as messages list them.
  let names: [String]
  /// `names` as messages list them: joined for a finding only (every start makes this function).
  var list: String { names.joined(separator: ", ") }

  init(options: FunctionOptions) throws(OptionError) {
    fields = options.strings("fields")!
    noneInFragment = options.bool("noneInFragment") ?? false
    nullIsAbsent = options.bool("nullIsAbsent") ?? false
    // A name with an underscore also matches its lowerCamelCase spelling, as in paths (see
    // `JSONPath`): proto3 JSON reads `android_v2` and `androidV2` as one field.
    var names: [String] = []
    for field in fields {
      names.append(field)
      let alternate = JSONPath.lowerCamelCase(field)
      if alternate != field { names.append(alternate) }
    }
    var table = JSONDocument.NameTable()
    nameIDs = names.map { table.add($0.utf8) }
    nameTable = table
    self.names = names
    if fields.count < 2 { throw OptionError(option: "fields", "needs at least two names") }
  }

  private func isField(_ member: NodeID, _ document: JSONDocument) -> Bool {
    for i in nameIDs.indices where document.keyEquals(member, nameIDs[i], in: nameTable) { return true }
    return false
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, context.document.kind(id) == .object else { return [] }
    // Nearly every object has exactly one: count first, building no arrays.
    var count = 0
    var child = context.document[id].firstChild
    while child >= 0 {
      if isField(child, context.document), !(nullIsAbsent && context.document.kind(child) == .null) {
        count += 1
      }
      child = context.document[child].nextSibling
    }
    if count == 1 { return [] }
    let document = context.document
    // Members in source order, so the first one set counts as the intended target.
    let present = document.children(id).filter { child in
      isField(child, document) && !(nullIsAbsent && document.kind(child) == .null)
    }
    if present.isEmpty {
      if noneInFragment && context.isFragment { return [] }
      var finding = Finding(node: id, values: ["detail": "none of \(list) is set", "fields": list, "present": ""])
      // A template's include may add the member.
      finding.uncertain = document.mayHoldUnseenMembers(id)
      return [finding]
    }
    guard present.count > 1 else { return [] }
    let names = present.compactMap { document.key($0) }.joined(separator: ", ")
    return present.dropFirst().map { extra in
      var finding = Finding(node: extra, atKey: true, values: [
        "detail": "only one of \(list) may be set, found \(names)", "fields": list, "present": names,
      ])
      // Members in a template block ({{#if topic}}) may not be rendered together.
      finding.uncertain = document.isConditional(extra) || document.isConditional(present[0])
      return finding
    }
  }
}
