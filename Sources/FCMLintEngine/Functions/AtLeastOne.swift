import FCMLintJSON

/// At least one of several values must be set (an alert needs a title, subtitle or body, from
/// aps.alert or the message's notification). Reported at the target.
struct AtLeastOne: RuleFunction {
  static let name = "atLeastOne"
  static let summary = "At least one of `paths` must lead to a value (with `nonEmptyString`, a non-empty string)."
  static let options = [
    OptionSpec("paths", .paths, required: true, "the candidates, relative to the given node ('@') or absolute ('$')"),
    OptionSpec("nonEmptyString", .bool, "count only non-empty strings (default: any value but null)"),
  ]
  static let placeholders = ["paths"]

  let paths: [JSONPath]
  let nonEmptyString: Bool

  init(options: FunctionOptions) throws(OptionError) {
    paths = options.paths("paths")!
    nonEmptyString = options.bool("nonEmptyString") ?? false
    if paths.isEmpty { throw OptionError(option: "paths", "needs at least one path") }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    let document = context.document
    var found = false
    for path in paths where !found {
      path.forEachNode(in: document, from: context.given) { id in
        if found { return }
        // A string's length without decoding it: empty exactly when the literal is `""`.
        // A template's placeholder is a value of the right type, so it counts as set.
        found = nonEmptyString ? (document.kind(id) == .string && document[id].end - document[id].start > 2) || document.isUnknown(id) : document.kind(id) != .null
      }
    }
    if found { return [] }
    let list = paths.map(\.description).joined(separator: ", ")
    var finding = Finding(target, detail: "none of \(list) is set", ["paths": list])
    // In a template, a path that breaks off at a placeholder or beside an include may be set.
    // So may one out of a part of a message (an `aps` dictionary alone), or missing from the
    // message around a member shown alone.
    if let templates = document.templates {
      for path in paths where !finding.uncertain {
        if templates.outsideUnknown, path.isSingular, path.resolveOne(in: document, from: context.given) == nil {
          finding.uncertain = true
          break
        }
        path.forEachResolution(in: document, from: context.given) { resolution in
          if case .missing(let nearest, _) = resolution, document.mayHoldMissingMember(nearest) { finding.uncertain = true }
        }
      }
    }
    return [finding]
  }
}
