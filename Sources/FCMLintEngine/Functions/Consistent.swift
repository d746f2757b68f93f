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
  /// Compares a template's values itself (`templateComparison`): sample renderings give every
  /// placeholder the same text, so they would call `{{host}}/a.png` and `cdn/{{name}}` different.
  static let readsTemplates = true

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
      // Two texts of a template may still be one value once rendered.
      finding.uncertain = document.templates != nil && Self.templateComparison(value, expected, document) == nil
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

  /// For two values of a template that are not the same text: false when they differ whatever
  /// the placeholders are, nil when they may be equal. A placeholder may be any text; the same
  /// text in both (`cdn/{{id}}.png` twice) was found equal before. A literal differs from a
  /// template it does not fit (`https://a/{{x}}` and `http://b/c.png`); two templates differ
  /// when they have the same placeholders in the same order (`cdn/{{id}}.png`, `cdn/{{id}}`), or
  /// when the literal texts before their first placeholders, or after their last, cannot both be
  /// read (`cdn/{{a}}.png`, `cdn/{{b}}.jpg`).
  static func templateComparison(_ a: NodeID, _ b: NodeID, _ document: JSONDocument) -> Bool? {
    if document.isUnknown(a) || document.isUnknown(b) { return nil }
    let partial = document.templates?.partial ?? [:]
    let first = document.templateSegments(a), second = document.templateSegments(b)
    switch (first.count, second.count) {
    case (1, 1): return false
    case (1, _): return JSONDocument.template(second, fits: first[0]) ? nil : false
    case (_, 1): return JSONDocument.template(first, fits: second[0]) ? nil : false
    default:
      // The same placeholders in the same order take the same values: the literal text decides.
      let bytes = document.bytes
      let names = { (ranges: [Range<Int>]) in ranges.map { bytes[$0] } }
      if names(partial[a]!).elementsEqual(names(partial[b]!)) { return false }
      let prefixes = first[0].starts(with: second[0]) || second[0].starts(with: first[0])
      let suffixes = first.last!.reversed().starts(with: second.last!.reversed()) || second.last!.reversed().starts(with: first.last!.reversed())
      return prefixes && suffixes ? nil : false
    }
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
