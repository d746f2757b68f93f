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
    let document = context.document
    let differing = values.filter { !Self.sameString($0, expected, document) }
    guard !differing.isEmpty else { return [] }
    let expectedText = document.string(expected) ?? document.rawText(expected)
    let pointer = document.pointer(expected)
    return differing.map { value in
      var finding = Finding(node: value, values: [
        "detail": "'\(document.string(value) ?? document.rawText(value))' differs from '\(expectedText)' at \(pointer)",
        "expected": expectedText, "expectedPointer": pointer,
      ])
      // A template's placeholder may be any image: two different texts may still be one image.
      finding.uncertain = document.isUnknown(value) || document.isUnknown(expected)
      return finding
    }
  }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    guard let (values, expected) = comparison(target, context) else { return true }
    return values.allSatisfy { Self.sameString($0, expected, context.document) }
  }

  /// The string nodes to compare and the one they should equal, or nil when there is nothing to
  /// compare. Nodes, not Strings: most messages have one image or none, and Strings are made
  /// only for a message.
  private func comparison(_ target: JSONPath.Resolution, _ context: FunctionContext) -> (values: [NodeID], expected: NodeID)? {
    let document = context.document
    guard case .found(let base) = target else { return nil }
    var values: [NodeID] = []
    for i in paths.indices {  // by index: a `for path in` copy retained each path
      paths[i].forEachNode(in: document, from: base) { id in
        // A node two paths reach (`fcm_options` and `fcmOptions` both find either spelling) is one value.
        if Self.comparable(id, document), !values.contains(id) { values.append(id) }
      }
    }
    var reference: NodeID? = nil
    self.reference?.forEachNode(in: document, from: base) { id in
      if reference == nil { reference = id }
    }
    if let reference, Self.comparable(reference, document) { return (values, reference) }
    guard values.count >= 2 else { return nil }
    // The most common value, the first in `paths` order on a tie (a handful of values: count pairs).
    var best = 0, expected = values[0]
    for value in values {
      let count = values.reduce(0) { $0 + (Self.sameString($1, value, document) ? 1 : 0) }
      if count > best {
        best = count
        expected = value
      }
    }
    return (values, expected)
  }

  /// A string, or a template's unquoted placeholder (which may be any string).
  private static func comparable(_ id: NodeID, _ document: JSONDocument) -> Bool {
    let kind = document.kind(id)
    return kind == .string || kind == .placeholder
  }

  /// Whether two string nodes hold equal Strings. Identical bytes without escapes are equal, and
  /// differing ASCII without escapes is not; anything else compares decoded Strings, whose
  /// equality is canonical equivalence ("é" written precomposed or not).
  static func sameString(_ a: NodeID, _ b: NodeID, _ document: JSONDocument) -> Bool {
    if a == b { return true }
    let x = document[a], y = document[b]
    if !x.valueHasEscapes, !y.valueHasEscapes {
      let bytes = document.bytes
      let first = bytes[Int(x.start)..<Int(x.end)], second = bytes[Int(y.start)..<Int(y.end)]
      if first.elementsEqual(second) { return true }
      if !first.contains(where: { $0 >= 0x80 }) && !second.contains(where: { $0 >= 0x80 }) { return false }
    }
    return document.string(a) == document.string(b)
  }
}
