import FCMLintJSON

/// Sample values for a template's placeholders (`--vars FILE`, JSON or YAML): the template is
/// rendered with them and the result linted with every check; diagnostics point back into the
/// template.
///
/// A placeholder names its value by a dotted path (`{{ user.name }}`, Go's `{{.User.Name}}`,
/// `${NAME}`); a helper or filter around it (`{{{json data}}}`, `{{ data | tojson }}`) is read as
/// the value's JSON. A string value goes in as its text (escaped inside a JSON string), anything
/// else as JSON. Conditional blocks (`{{#if x}}`, `{{#x}}`, `{{^x}}`, `{{#unless x}}`,
/// `{% if x %}`, Go's `{{if .X}}`, each with its `else`) keep the branch the values choose; loops
/// and other tags are left as they are, and so is a placeholder the file does not give: the
/// result is still read as a template, leniently there.
public struct TemplateVariables: Sendable {
  public let root: DataValue

  public init(_ root: DataValue) { self.root = root }

  /// The value at a dotted path, or nil.
  func value(_ path: [Substring]) -> DataValue? {
    var node = root
    for name in path {
      guard case .mapping(let members) = node.node, let member = members.first(where: { key(of: $0.key) == name }) else {
        if case .sequence(let items) = node.node, let index = Int(name), items.indices.contains(index) {
          node = items[index]
          continue
        }
        return nil
      }
      node = member.value
    }
    return node
  }

  private func key(of value: DataValue) -> Substring? {
    if case .scalar(let text, _, _) = value.node { return Substring(text) }
    return nil
  }

  /// Whether a section shows: false, null, "", 0, an empty list or mapping, and a missing value do not.
  func truthy(_ path: [Substring]) -> Bool {
    guard let value = value(path) else { return false }
    switch value.node {
    case .scalar(let text, let kind, _):
      switch kind {
      case .null: return false
      case .bool: return ["true", "yes", "on"].contains(text.lowercased())
      case .int, .float: return Double(text) != 0
      case .string: return !text.isEmpty
      }
    case .mapping(let members): return !members.isEmpty
    case .sequence(let items): return !items.isEmpty
    }
  }

  /// The value as JSON text.
  static func json(_ value: DataValue) -> String {
    switch value.node {
    case .scalar(let text, let kind, _):
      switch kind {
      case .null: return "null"
      case .bool: return ["true", "yes", "on"].contains(text.lowercased()) ? "true" : "false"
      case .int, .float: return text
      case .string: return JSONText.quote(text)
      }
    case .mapping(let members):
      return "{" + members.map { member in
        let key: String
        if case .scalar(let text, _, _) = member.key.node { key = text } else { key = "" }
        return JSONText.quote(key) + ": " + json(member.value)
      }.joined(separator: ", ") + "}"
    case .sequence(let items): return "[" + items.map(json).joined(separator: ", ") + "]"
    }
  }
}

/// A rendered template and how its bytes map back to the template's.
struct RenderedTemplate {
  var bytes: [UInt8] = []
  /// Pieces of the output in order: where each starts in the output and in the template, and
  /// whether it is copied text (mapped byte for byte) or a placeholder's value (mapped to the
  /// placeholder).
  var pieces: [(output: Int, template: Int, templateEnd: Int, copied: Bool)] = []

  /// The template offset of an output offset (`end`: the offset ends a range).
  func templateOffset(_ offset: Int, end: Bool) -> Int {
    // The last piece that starts at or before `offset` (before it, for an end).
    var low = 0, high = pieces.count
    while low < high {
      let mid = (low + high) / 2
      if end ? pieces[mid].output < offset : pieces[mid].output <= offset { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return offset }
    let piece = pieces[low - 1]
    if piece.copied { return min(piece.template + (offset - piece.output), piece.templateEnd) }
    return end ? piece.templateEnd : piece.template
  }

  /// Renders `template`, whose placeholders `syntax` finds (in strings, and tags outside them).
  static func render(_ template: [UInt8], syntax: PlaceholderSyntax, variables: TemplateVariables) -> RenderedTemplate {
    var out = RenderedTemplate()
    out.bytes.reserveCapacity(template.count)
    // Open conditional blocks: whether each shows, and whether an enclosing one hides it.
    var blocks: [(shows: Bool, hiddenAbove: Bool, isConditional: Bool)] = []
    var hidden: Bool { blocks.last.map { !$0.shows || $0.hiddenAbove } ?? false }
    var inString = false
    var i = 0
    var copyStart = 0
    func flush(to end: Int) {
      if copyStart < end, !hidden {
        out.pieces.append((out.bytes.count, copyStart, end, true))
        out.bytes += template[copyStart..<end]
      }
    }
    while i < template.count {
      let b = template[i]
      if inString, b == UInt8(ascii: "\\") {
        i += 2
        continue
      }
      if b == UInt8(ascii: "\"") { inString.toggle() }
      guard b == UInt8(ascii: "{") || b == UInt8(ascii: "$"), let end = syntax.match(template, at: i) else {
        i += 1
        continue
      }
      let tag = template[i..<end]
      let expression = Self.expression(tag)
      if PlaceholderSyntax.isControl(tag) {
        guard let action = Self.blockAction(expression, variables) else {
          i = end  // a loop or another tag: left as written
          continue
        }
        flush(to: i)
        switch action {
        case .open(let shows): blocks.append((shows, hidden, true))
        case .loop: blocks.append((true, hidden, false))
        case .drop: break
        case .otherwise:
          if let last = blocks.last, last.isConditional { blocks[blocks.count - 1].shows = !last.shows }
        case .close: if !blocks.isEmpty { blocks.removeLast() }
        }
        i = end
        copyStart = end
        continue
      }
      guard let value = variables.value(Self.path(expression)) else {
        i = end  // not given: left as written
        continue
      }
      flush(to: i)
      if !hidden {
        var text: String
        if case .scalar(let scalar, .string, _) = value.node, !Self.wantsJSON(expression) {
          text = scalar
        } else {
          text = TemplateVariables.json(value)
        }
        if inString { text = String(JSONText.quote(text).dropFirst().dropLast()) }
        out.pieces.append((out.bytes.count, i, end, false))
        out.bytes += text.utf8
      }
      i = end
      copyStart = end
    }
    flush(to: template.count)
    return out
  }

  enum BlockAction {
    /// A conditional block opens, showing or not; a loop opens (its body rendered once).
    case open(Bool), loop
    case otherwise, close
    /// A comment: rendered as nothing.
    case drop
  }

  /// What a control tag does to the output, or nil for one left as written (a partial).
  static func blockAction(_ expression: Substring, _ variables: TemplateVariables) -> BlockAction? {
    if expression.first == "!" { return .drop }
    var words = expression.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
    guard var head = words.first else { return nil }
    var sigil: Character? = nil
    if let first = head.first, "#^/".contains(first) {
      sigil = first
      head = head.dropFirst()
      if head.isEmpty, words.count > 1 {
        words.removeFirst()
        head = words[0]
      }
    }
    let rest = Array(words.dropFirst())
    if sigil == "/" || (sigil == nil && head.hasPrefix("end")) { return .close }
    if sigil == nil, head == "else" || head == "elif" || head == "elseif" { return rest.isEmpty ? .otherwise : nil }
    if sigil == "^" { return rest.isEmpty ? .open(!variables.truthy(path(head))) : nil }
    switch head {
    case "if": return rest.count == 1 ? .open(variables.truthy(path(rest[0]))) : nil
    case "unless": return rest.count == 1 ? .open(!variables.truthy(path(rest[0]))) : nil
    case "each", "with", "for", "range": return .loop
    default: return sigil == "#" && rest.isEmpty ? .open(variables.truthy(path(head))) : nil
    }
  }

  /// The inside of a tag: without its delimiters, trim markers and surrounding space.
  static func expression(_ tag: ArraySlice<UInt8>) -> Substring {
    var text = Substring(String(decoding: tag, as: UTF8.self))
    while let c = text.first, "{$(%".contains(c) { text = text.dropFirst() }
    while let c = text.last, "})%".contains(c) { text = text.dropLast() }
    while let c = text.first, c == "-" || c == "~" || c == " " || c == "\t" { text = text.dropFirst() }
    while let c = text.last, c == "-" || c == "~" || c == " " || c == "\t" { text = text.dropLast() }
    return text
  }

  /// The dotted path a value placeholder names: the last word before any filter, without Go's
  /// leading dot.
  static func path(_ expression: Substring) -> [Substring] {
    let beforeFilter = expression.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).first ?? expression
    var name = beforeFilter.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? ""
    if name.hasPrefix("$.") { name = name.dropFirst(2) }
    if name.hasPrefix(".") { name = name.dropFirst() }
    return name.split(separator: ".")
  }

  /// Whether the placeholder asks for JSON (a helper or filter such as `json`, `tojson`).
  static func wantsJSON(_ expression: Substring) -> Bool {
    let lower = expression.lowercased()
    return lower.contains("json")
  }
}

extension Linter {
  /// `lint(bytes:file:)` of the template rendered with `variables`, with every diagnostic moved
  /// to the template's own line and column (one inside a value points at its placeholder).
  /// Fixes are left out: they would edit the rendering, not the template.
  public func lint(bytes template: [UInt8], file: String, variables: TemplateVariables) -> [Diagnostic] {
    check(bytes: template, file: file, variables: variables).diagnostics
  }

  /// `lint(bytes:file:variables:)`, or why the rendered document is not one to lint.
  public func check(bytes template: [UInt8], file: String, variables: TemplateVariables) -> Outcome {
    let syntax = options.placeholders
    guard syntax.mayOccur(in: template) else { return checkAsWritten(bytes: template, file: file) }
    let rendered = RenderedTemplate.render(template, syntax: syntax, variables: variables)
    let locator = SourceLocator(bytes: template)
    let outcome = checkAsWritten(bytes: rendered.bytes, file: file)
    var diagnostics = outcome.diagnostics.map { diagnostic in
      var diagnostic = diagnostic
      let start = rendered.templateOffset(diagnostic.startOffset, end: false)
      let end = max(start, rendered.templateOffset(diagnostic.endOffset, end: true))
      diagnostic.startOffset = start
      diagnostic.endOffset = end
      diagnostic.start = locator.position(of: start)
      diagnostic.end = locator.position(of: end)
      diagnostic.fix = nil
      return diagnostic
    }
    diagnostics.sort(by: Diagnostic.ordered)
    return Outcome(diagnostics: diagnostics, skipped: outcome.skipped)
  }
}
