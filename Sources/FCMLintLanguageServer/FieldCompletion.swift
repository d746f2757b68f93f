import FCMLintEngine
import FCMLintJSON

/// The FCM v1 schema's descriptions of its types, fields and enum values
/// (rules/schema/fcm-v1.descriptions.json, from the discovery document), for completion and hover.
/// Kept as the parsed document and read by key: only a few are wanted per request.
struct SchemaDescriptions {
  private let document: JSONDocument
  private let types: NodeID

  init?(json: String) {
    guard case .success(let document) = JSONParser.parse(Array(json.utf8), options: JSONParser.Options(maxStringLength: .max)),
      let types = document.member(JSONDocument.root, "types"), document.kind(types) == .object
    else { return nil }
    self.document = document
    self.types = types
  }

  /// The description of field `json` (its lowerCamelCase name) of message type `type`.
  func field(_ type: String, _ json: String) -> String? { text(type, "fields", json) }

  /// The description of `value` of the enum field `json` of `type`.
  func value(_ type: String, _ json: String, _ value: String) -> String? { text(type, "values", json, value) }

  private func text(_ path: String...) -> String? {
    var node = types
    for name in path {
      guard document.kind(node) == .object, let next = document.member(node, name) else { return nil }
      node = next
    }
    return document.string(node).flatMap { $0.isEmpty ? nil : $0 }
  }
}

/// Where a node of a document is in the schema: the message type it is (for an object of one),
/// the field it is the value of, and the type owning that field.
struct SchemaPlace {
  var type: Schema.MessageType?
  var field: Schema.Field?
  var owner: Schema.MessageType?

  /// Follows the keys from the root (after the document's mount) to `node`; nil when they leave
  /// the schema (an unknown field, or inside a map or a free-form value). An array element is its
  /// repeated field's value.
  init?(_ node: NodeID, in document: JSONDocument, schema: Schema) {
    var keys: [String?] = []
    var current = node
    while document[current].parent >= 0 {
      keys.append(document.key(current))
      current = document[current].parent
    }
    type = schema.types[schema.root]
    for key in document.mount.map({ Optional($0) }) + keys.reversed() {
      guard let key else { continue }
      guard let message = type, let index = message.byName[key] else { return nil }
      owner = message
      field = message.fields[index]
      type = field?.kind == .message ? field?.refType : nil
    }
  }

  /// What the schema has `field` be, in a line of markdown: both spellings, the type, an enum's
  /// values, and the message type it belongs to.
  static func describe(_ field: Schema.Field, owner: String) -> String {
    var kind: String
    switch field.kind {
    case .enumeration: kind = "one of " + field.values.map { "`\($0)`" }.joined(separator: ", ")
    case .message: kind = "an object (`\(field.ref ?? "")`)"
    case .duration: kind = "a Duration: seconds with an `s`, such as `\"3600s\"`"
    case .timestamp: kind = "a timestamp in RFC 3339, such as `\"2026-11-26T12:00:00Z\"`"
    case .map: kind = "an object of string values"
    case .struct: kind = "any JSON object"
    case .int64: kind = "an integer (may be written as a string)"
    case .int32: kind = "an integer"
    case .float: kind = "a number"
    case .bool: kind = "`true` or `false`"
    case .string: kind = "a string"
    case .any: kind = "any JSON value"
    }
    if field.repeated { kind = "a list, each " + kind }
    let names = field.json == field.proto ? "`\(field.json)`" : "`\(field.proto)` (or `\(field.json)`)"
    return "\(names) in FCM's `\(owner)`: \(kind)\(field.deprecated ? " (deprecated)" : "")"
  }

  /// The type in a word or two, for a completion item's `detail`.
  static func typeName(_ field: Schema.Field) -> String {
    let name: String
    switch field.kind {
    case .enumeration: name = "enum"
    case .message: name = field.ref ?? "object"
    case .duration: name = "Duration (string)"
    case .timestamp: name = "Timestamp (string)"
    case .map: name = "map of strings"
    case .struct: name = "object"
    case .int64: name = "int64"
    case .int32: name = "integer"
    case .float: name = "number"
    case .bool: name = "boolean"
    case .string: name = "string"
    case .any: name = "any"
    }
    return field.repeated ? "list of " + name : name
  }
}

/// `textDocument/completion`: field names in an object of a known message type, and the values of
/// an enum field, from the FCM v1 schema.
///
/// Works on a buffer being typed in. What is at the cursor is read from the text (a key or value
/// half typed, with or without its quotes); the rest of the buffer is parsed with the linter's
/// parser and `SyntaxRecovery` after the word at the cursor is taken out (a value's replaced by
/// `0`), so that a half-typed key does not hide its object. The innermost object or array around
/// the cursor then names the message type through its keys from the root.
struct FieldCompletion {
  let schema: Schema
  let descriptions: SchemaDescriptions?

  /// What the cursor is in.
  enum Position: Equatable {
    /// A member's key, in an object.
    case key
    /// A member's value, after its ':'.
    case value
    /// An array's element.
    case element
  }

  /// The text around the cursor, as typed.
  struct Token: Equatable {
    var position: Position?
    /// The word at the cursor, from its opening quote if it has one.
    var start: Int
    /// After the word, and after its closing quote if it has one.
    var end: Int
    /// Where the word itself starts and ends (without quotes).
    var wordStart: Int
    var wordEnd: Int
    var quoted: Bool
    /// Whether a ':' follows (a key being renamed keeps its value).
    var colonFollows: Bool
  }

  /// Completion items (LSP JSON) at byte `offset` of `text`, read by `linter`.
  func items(_ text: [UInt8], at offset: Int, linter: Linter) -> [String] {
    guard offset <= text.count else { return [] }
    let token = Self.token(text, at: offset)
    guard var position = token.position, var (document, container) = Self.tree(text, token, position, linter: linter) else { return [] }
    if position == .key && document.kind(container) == .array {
      // After a ',' in an array: an element.
      position = .element
      guard let tree = Self.tree(text, token, position, linter: linter) else { return [] }
      (document, container) = tree
    }
    let locator = SourceLocator(bytes: text)
    if position == .value || position == .element {
      guard document.kind(container) == (position == .value ? .object : .array),
        let node = document.children(container).first(where: { Int(document[$0].start) == token.start }),
        let place = SchemaPlace(node, in: document, schema: schema), let field = place.field, let owner = place.owner,
        field.kind == .enumeration, field.repeated == (position == .element)
      else { return [] }
      return field.values.map { enumItem($0, field: field, owner: owner, token: token, locator: locator) }
    }
    guard document.kind(container) == .object, let type = SchemaPlace(container, in: document, schema: schema)?.type else { return [] }
    var present = Set<Int>()
    for child in document.children(container) {
      if let key = document.key(child), let index = type.byName[key] { present.insert(index) }
    }
    let camel = Self.usesCamelCase(document, from: container)
    return type.fields.enumerated().compactMap { index, field in
      guard !present.contains(index), !field.outputOnly else { return nil }
      return keyItem(camel ? field.json : field.proto, field: field, owner: type, token: token, locator: locator)
    }
  }

  /// The tree of the buffer with the word at the cursor taken out, and the innermost object or
  /// array around where it was. A key goes (an empty key stands in when a ':' and a value
  /// follow); a value or an element becomes 0.
  private static func tree(_ text: [UInt8], _ token: Token, _ position: Position, linter: Linter) -> (JSONDocument, NodeID)? {
    let standIn: [UInt8]
    switch position {
    case .key: standIn = token.colonFollows ? Array("\"\"".utf8) : []
    case .value, .element: standIn = Array("0".utf8)
    }
    let edited = Array(text[..<token.start]) + standIn + Array(text[token.end...])
    guard let document = parse(edited, around: token.start, linter: linter), let container = container(document, at: token.start) else { return nil }
    return (document, container)
  }

  private func keyItem(_ name: String, field: Schema.Field, owner: Schema.MessageType, token: Token, locator: SourceLocator) -> String {
    // Inside quotes the edit starts after the opening one (clients that insert at the word still
    // get valid JSON); the closing quote and ": " are written unless already there.
    let newText = (token.quoted ? "" : "\"") + name + "\"" + (token.colonFollows ? "" : ": ")
    var documentation = SchemaPlace.describe(field, owner: owner.name)
    if let text = descriptions?.field(owner.name, field.json) { documentation = text + "\n\n" + documentation }
    return item(
      label: name, kind: 10, detail: SchemaPlace.typeName(field), documentation: documentation, filterText: name,
      sortText: (field.deprecated ? "1" : "0") + name, deprecated: field.deprecated, newText: newText, token: token, locator: locator)
  }

  private func enumItem(_ value: String, field: Schema.Field, owner: Schema.MessageType, token: Token, locator: SourceLocator) -> String {
    let newText = (token.quoted ? "" : "\"") + value + "\""
    let documentation = descriptions?.value(owner.name, field.json, value) ?? SchemaPlace.describe(field, owner: owner.name)
    let index = field.values.firstIndex(of: value) ?? 0
    return item(
      label: "\"\(value)\"", kind: 20, detail: "\(owner.name).\(field.json)", documentation: documentation, filterText: value,
      sortText: String(1000 + index), deprecated: false, newText: newText, token: token, locator: locator)
  }

  private func item(
    label: String, kind: Int, detail: String, documentation: String, filterText: String, sortText: String, deprecated: Bool,
    newText: String, token: Token, locator: SourceLocator
  ) -> String {
    let start = token.quoted ? token.wordStart : token.start
    let range = LanguageServer.range(locator.position(of: start), locator.position(of: token.end))
    return "{\"label\":\(JSONText.quote(label)),\"kind\":\(kind),\"detail\":\(JSONText.quote(detail)),"
      + "\"documentation\":{\"kind\":\"markdown\",\"value\":\(JSONText.quote(documentation))},"
      + "\"filterText\":\(JSONText.quote(filterText)),\"sortText\":\(JSONText.quote(sortText)),"
      + (deprecated ? "\"tags\":[1]," : "")
      + "\"insertTextFormat\":1,\"textEdit\":{\"range\":\(range),\"newText\":\(JSONText.quote(newText))}}"
  }

  // MARK: - Reading the buffer

  private static func isWord(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
  }

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  /// The word at `offset` and what it is: after '{' a key, after ':' a value, after '[' an
  /// element, after ',' a key or an element (the tree tells); after anything else, nothing.
  static func token(_ text: [UInt8], at offset: Int) -> Token {
    // Whether the cursor is inside a string: strings do not span lines, so from the line's start.
    var lineStart = offset
    while lineStart > 0, text[lineStart - 1] != 0x0A, text[lineStart - 1] != 0x0D { lineStart -= 1 }
    var stringStart: Int? = nil
    var i = lineStart
    while i < offset {
      if stringStart != nil {
        if text[i] == UInt8(ascii: "\\") {
          i += 2
          continue
        }
        if text[i] == UInt8(ascii: "\"") { stringStart = nil }
      } else if text[i] == UInt8(ascii: "\"") {
        stringStart = i
      }
      i += 1
    }
    var wordStart = offset
    if let stringStart {
      wordStart = stringStart + 1
    } else {
      while wordStart > 0, isWord(text[wordStart - 1]) { wordStart -= 1 }
    }
    var wordEnd = offset
    while wordEnd < text.count, isWord(text[wordEnd]) { wordEnd += 1 }
    let quoted = stringStart != nil
    var end = wordEnd
    if quoted, end < text.count, text[end] == UInt8(ascii: "\"") { end += 1 }
    let start = stringStart ?? wordStart
    var before = start
    while before > 0, isSpace(text[before - 1]) { before -= 1 }
    var after = end
    while after < text.count, isSpace(text[after]) { after += 1 }
    var position: Position? = nil
    if before > 0 {
      switch text[before - 1] {
      case UInt8(ascii: "{"), UInt8(ascii: ","): position = .key
      case UInt8(ascii: ":"): position = .value
      case UInt8(ascii: "["): position = .element
      default: break
      }
    }
    return Token(
      position: position, start: start, end: end, wordStart: wordStart, wordEnd: wordEnd, quoted: quoted,
      colonFollows: after < text.count && text[after] == UInt8(ascii: ":"))
  }

  /// The tree of `text` as the linter reads it, recovered past syntax errors. Nil when a cut
  /// the recovery made before `offset` closed or opened an object or array on the way there:
  /// the containers around the cursor would then be guesses.
  static func parse(_ text: [UInt8], around offset: Int, linter: Linter) -> JSONDocument? {
    switch linter.parse(text) {
    case .success(let document): return document
    case .failure(let error):
      let outcome = SyntaxRecovery.recover(text, first: error) { linter.parse($0) }
      guard let document = outcome.document else { return nil }
      if outcome.readUpTo < offset {
        let brackets: Set<UInt8> = [UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]")]
        if text[outcome.readUpTo..<offset].contains(where: brackets.contains) { return nil }
      }
      return document
    }
  }

  /// The innermost object or array whose brackets hold `offset`.
  static func container(_ document: JSONDocument, at offset: Int) -> NodeID? {
    func holds(_ node: NodeID) -> Bool {
      let kind = document.kind(node)
      return (kind == .object || kind == .array) && Int(document[node].start) < offset && offset < Int(document[node].end)
    }
    var node = JSONDocument.root
    guard holds(node) else { return nil }
    descend: while true {
      for child in document.children(node) where holds(child) {
        node = child
        continue descend
      }
      return node
    }
  }

  /// Whether to offer lowerCamelCase names: when the object's keys are mostly written so (a key
  /// with a capital and no '_' against one with a '_' and no capital), else the nearest enclosing
  /// object's that tells; snake_case, the proto names, by default.
  static func usesCamelCase(_ document: JSONDocument, from node: NodeID) -> Bool {
    var current = node
    while current >= 0 {
      var camel = 0, snake = 0
      if document.kind(current) == .object {
        for child in document.children(current) {
          guard let key = document.key(child) else { continue }
          let upper = key.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
          let underscore = key.utf8.contains(UInt8(ascii: "_"))
          if upper && !underscore { camel += 1 }
          if underscore && !upper { snake += 1 }
        }
      }
      if camel != snake { return camel > snake }
      current = document[current].parent
    }
    return false
  }
}
