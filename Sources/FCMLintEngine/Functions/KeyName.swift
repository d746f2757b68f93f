import FCMLintJSON

/// The member names of an object: only `allowed` ones (when given), none of `forbidden`, none
/// starting with `forbiddenPrefixes`; `renames` maps a known mistake to the right name, so the
/// message can say exactly what to write. Reported at each offending key.
struct KeyName: RuleFunction {
  static let name = "keyName"
  static let summary = "Member names of an object must be `allowed`, not `forbidden`, and not start with `forbiddenPrefixes`; `renames` maps known mistakes to the right name."
  static let options = [
    OptionSpec("allowed", .strings, "the only names allowed"),
    OptionSpec("forbidden", .strings, "names that must not be used"),
    OptionSpec("forbiddenPrefixes", .strings, "prefixes names must not start with"),
    OptionSpec("renames", .stringMap, "known wrong name → the right name"),
    OptionSpec("caseInsensitive", .bool, "compare names and prefixes ignoring case (default false)"),
  ]
  /// `rename` is the right name when it is a plain key (a fix can rename to it), else empty.
  static let placeholders = ["key", "suggestion", "rename"]

  let allowed: [String]?
  let forbidden: [String]
  let forbiddenPrefixes: [String]
  let renames: [String: String]
  let caseInsensitive: Bool
  /// `forbidden` and `forbiddenPrefixes` folded once (every key of every `data` object is checked).
  let foldedForbidden: Set<String>
  let foldedPrefixes: [String]

  init(options: FunctionOptions) throws(OptionError) {
    allowed = options.strings("allowed")
    forbidden = options.strings("forbidden") ?? []
    forbiddenPrefixes = options.strings("forbiddenPrefixes") ?? []
    renames = options.stringMap("renames") ?? [:]
    let caseInsensitive = options.bool("caseInsensitive") ?? false
    self.caseInsensitive = caseInsensitive
    foldedForbidden = Set(forbidden.map { caseInsensitive ? $0.lowercased() : $0 })
    foldedPrefixes = forbiddenPrefixes.map { caseInsensitive ? $0.lowercased() : $0 }
    if allowed == nil && forbidden.isEmpty && forbiddenPrefixes.isEmpty && renames.isEmpty {
      throw OptionError("needs 'allowed', 'forbidden', 'forbiddenPrefixes' or 'renames'")
    }
  }

  private func fold(_ s: String) -> String { caseInsensitive ? s.lowercased() : s }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, context.document.kind(id) == .object else { return [] }
    let document = context.document
    var findings: [Finding] = []
    for member in document.children(id) {
      let key = document.key(member)!
      let folded = fold(key)
      var detail: String? = nil
      var suggestion = ""
      var rename = ""
      if let right = renames[key] {
        suggestion = right
        // "alert.title" names a place, not a key: say it, but do not rename to it.
        if !right.contains(".") { rename = right }
        detail = "'\(key)' is not recognised: write '\(right)'"
      } else if foldedForbidden.contains(folded) {
        detail = "'\(key)' is reserved"
      } else if let index = foldedPrefixes.firstIndex(where: { folded.hasPrefix($0) }) {
        detail = "'\(key)' starts with the reserved prefix '\(forbiddenPrefixes[index])'"
      } else if let allowed, !allowed.contains(key) {
        suggestion = closest(to: key, in: allowed) ?? ""
        detail = "'\(key)' is not a known name" + (suggestion.isEmpty ? "" : "; did you mean '\(suggestion)'?")
      }
      if let detail {
        findings.append(Finding(node: member, atKey: true, values: ["detail": detail, "key": key, "suggestion": suggestion, "rename": rename]))
      }
    }
    return findings
  }
}
