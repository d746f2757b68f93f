import FCMLintJSON

/// No object may repeat a key. FCM silently keeps the last occurrence and other JSON readers may
/// keep the first, so the document does not say what it means. Reports at the later member.
struct NoDuplicateKeys: RuleFunction {
  static let name = "noDuplicateKeys"
  static let summary = "No object in the document may repeat a member name."
  static let options: [OptionSpec] = []

  init(options: FunctionOptions) {}

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    let document = context.document
    guard !document.duplicateKeys.isEmpty else { return [] }
    let locator = SourceLocator(bytes: document.bytes)
    return document.duplicateKeys.map { member in
      let key = document.key(member) ?? ""
      let keyBytes = Array(key.utf8)
      let first = document.children(document[member].parent).first { document.keyEquals($0, keyBytes) }!
      let line = locator.position(of: Int(document[first].keyStart)).line
      var finding = Finding(node: member, atKey: true, values: ["detail": "duplicate key '\(key)' (also on line \(line)); FCM keeps only the last one"])
      // Branches of a template block ({{#if}} ... {{else}} ...) are never rendered together.
      finding.uncertain = document.isConditional(member) || document.isConditional(first)
      return finding
    }
  }
}
