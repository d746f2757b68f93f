import FCMLintJSON

/// The values at several paths should be equal (the same image on every platform). Each value
/// that differs from the `reference` value (when it is set), or else from the most common value
/// (the first in `paths` order on a tie), is reported.
struct Consistent: RuleFunction {
  static let name = "consistent"
  static let summary = "The values at `paths` must be equal to the value at `reference`, or to each other."
  static let options = [
    OptionSpec("paths", .paths, required: true, "the values to compare, relative to the given node ('@') or absolute ('$')"),
    OptionSpec("reference", .path, "the common value the others should repeat, when it is set"),
  ]
  static let placeholders = ["expected", "expectedPointer"]

  let paths: [JSONPath]
  let reference: JSONPath?

  init(options: FunctionOptions) throws(OptionError) {
    paths = options.paths("paths")!
    reference = options.path("reference")
    if paths.count + (reference == nil ? 0 : 1) < 2 { throw OptionError(option: "paths", "needs at least two values to compare") }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard let (values, expected) = comparison(target, context) else { return [] }
    return findings(values, expected, context.document)
  }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    guard let (values, expected) = comparison(target, context) else { return true }
    return values.allSatisfy { $0.text == expected.text }
  }

  /// The values to compare and the one they should equal, or nil when there is nothing to compare.
  private func comparison(_ target: JSONPath.Resolution, _ context: FunctionContext) -> ([(node: NodeID, text: String)], (node: NodeID, text: String))? {
    let document = context.document
    guard case .found(let base) = target else { return nil }
    let values: [(node: NodeID, text: String)] = paths.flatMap { path in
      path.select(in: document, from: base).compactMap { id in document.string(id).map { (id, $0) } }
    }
    let expected: (node: NodeID, text: String)
    if let reference, let id = reference.select(in: document, from: base).first, let text = document.string(id) {
      expected = (id, text)
    } else {
      guard values.count >= 2 else { return nil }
      var counts: [String: Int] = [:]
      for v in values { counts[v.text, default: 0] += 1 }
      let best = counts.values.max()!
      expected = values.first { counts[$0.text] == best }!
    }
    return (values, expected)
  }

  private func findings(_ values: [(node: NodeID, text: String)], _ expected: (node: NodeID, text: String), _ document: JSONDocument) -> [Finding] {
    let differing = values.filter { $0.text != expected.text }
    guard !differing.isEmpty else { return [] }
    let pointer = document.pointer(expected.node)
    return differing.map { value in
      Finding(node: value.node, values: [
        "detail": "'\(value.text)' differs from '\(expected.text)' at \(pointer)",
        "expected": expected.text, "expectedPointer": pointer,
      ])
    }
  }
}
