import FCMLintJSON

/// Checks a message against a schema the way the FCM server reads it (proto3 JSON): field names
/// in either spelling, types, enum values. One walk, three concerns, chosen with `check`, so each
/// is its own rule with its own id and severity:
/// - `unknownFields`: a name the API rejects ("Unknown name ... Cannot find field"), with a hint
///   from `hints` (SDK or legacy names; a `Type.name` key applies in that type only and wins over a
///   bare `name` key) or a did-you-mean;
/// - `types`: a value of the wrong JSON type (null is valid for every field and leaves it unset);
/// - `enums`: a string outside the enum (`lowercase` lists fields that also accept lower case).
/// Maps and free-form objects (`data`, `headers`, `apns.payload`, `webpush.notification`) are not
/// looked into: their keys are the sender's own. `ignore` lists `Type.field` entries whose value a
/// dedicated rule checks (such as `AndroidConfig.ttl`), so one mistake gets one diagnostic.
struct SchemaCheck: RuleFunction {
  static let name = "schema"
  static let ignoresMissing = true
  static let summary = "A message must match the schema `schema`: known field names (`check: unknownFields`), JSON types (`types`) or enum values (`enums`)."
  static let options = [
    OptionSpec("schema", .string, required: true, "the schema's name (fcm-v1 is built in)"),
    OptionSpec("check", .string, required: true, "unknownFields, types or enums"),
    OptionSpec("hints", .stringMap, "a field name (or Type.name) → what to write instead, for known mistakes"),
    OptionSpec("lowercase", .strings, "Type.field enums that also accept lower-case values"),
    OptionSpec("renames", .stringMap, "a field name (or Type.name) → its one correct wire name, which a fix may rename it to"),
    OptionSpec("ignore", .strings, "Type.field entries whose values are not checked (a dedicated rule does it)"),
  ]
  static let placeholders = ["field", "type", "rename"]
  /// A template's string with literal parts is a string; as a number, Duration or timestamp it
  /// is not judged, and as an enum it is valid when it may render to a value.
  static let readsTemplates = true

  enum Check: String { case unknownFields, types, enums }

  let schema: Schema
  let check: Check
  let hints: StringMap
  let lowercase: Set<String>
  /// `ignore` resolved to the fields it names (`ignoredKey`), so the walk builds no strings.
  let ignoredFields: [Int64]
  let renames: StringMap
  /// The index of the type of `$` (`schema.root`) in `schema.messageTypes`, looked up once.
  let rootTypeIndex: Int32

  init(options: FunctionOptions) throws(OptionError) {
    let name = options.string("schema")!
    guard let schema = options.resources.schemas[name] else {
      throw OptionError(option: "schema", "unknown schema '\(name)' (schemas: \(options.resources.schemas.keys.sorted().joined(separator: ", ")))")
    }
    guard let check = Check(rawValue: options.string("check")!) else {
      throw OptionError(option: "check", "must be unknownFields, types or enums")
    }
    self.schema = schema
    self.check = check
    hints = options.stringMap("hints") ?? [:]
    lowercase = Set(options.strings("lowercase") ?? [])
    var ignored: [Int64] = []
    // Each entry looked up (`Type.field`, either spelling), not a name built for every field.
    for entry in options.strings("ignore") ?? [] {
      guard let dot = entry.firstIndex(of: "."), let type = schema.messageTypes.firstIndex(where: { $0.name == entry[..<dot] }),
        let field = schema.messageTypes[type].byName[String(entry[entry.index(after: dot)...])]
      else { continue }
      ignored.append(Self.ignoredKey(Int32(type), Int32(field)))
    }
    ignoredFields = ignored
    renames = options.stringMap("renames") ?? [:]
    rootTypeIndex = Int32(schema.messageTypes.firstIndex { $0.name == schema.root } ?? -1)
  }

  /// A field as `ignoredFields` lists it: its type's index and its own.
  private static func ignoredKey(_ type: Int32, _ field: Int32) -> Int64 { Int64(type) << 32 | Int64(field) }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let document = context.document
    // `$` is the file's root; for a bare Message or APNs payload, follow the mount to its type.
    var typeIndex = rootTypeIndex
    if id == JSONDocument.root {
      for name in document.mount {
        guard typeIndex >= 0, let i = schema.walk.field(named: name, of: typeIndex) else { return [] }
        let shape = schema.walk.shape(typeIndex, i)
        typeIndex = shape.kind == .message ? shape.refType : -1
      }
    }
    guard typeIndex >= 0 else { return [] }
    // The three schema rules read the same walk: the first to run on a document records it.
    guard let scratch = context.scratch else {
      return replay(SchemaTrace(id, typeIndex, schema.walk, document), document)
    }
    let schemaID = ObjectIdentifier(schema.walk)
    for entry in scratch.schemaTraces where entry.node == id && entry.type == typeIndex && entry.schema == schemaID {
      return replay(entry.trace, document)
    }
    let trace = SchemaTrace(id, typeIndex, schema.walk, document)
    scratch.schemaTraces.append((id, schemaID, typeIndex, trace))
    return replay(trace, document)
  }

  /// The findings of this check, in the order of the walk.
  private func replay(_ trace: SchemaTrace, _ document: JSONDocument) -> [Finding] {
    var findings: [Finding] = []
    // Only `types` needs every leaf, `enums` the enum leaves, `unknownFields` none.
    let values = check != .unknownFields || !ignoredFields.isEmpty
    // Most messages have no unknown field: then `unknownFields` has nothing to read.
    if !values && trace.unknownCount == 0 { return [] }
    let steps = trace.steps
    var i = 0
    while i < steps.count {
      let step = steps[i]
      i += 1
      switch step.tag {
      case .notObject:
        // A template's placeholder stands for a value of the right type.
        guard check == .types, !document.isUnknown(step.node) else { continue }
        let type = type(of: step)
        findings.append(Finding(node: step.node, values: [
          "detail": "expected an object (\(type.name)), found \(step.kind.name) \(excerpt(step.node, in: document))",
          "field": document.key(step.node) ?? "", "type": type.name,
        ]))
      case .unknown:
        guard check == .unknownFields else { continue }
        unknown(step.node, type(of: step), document, &findings)
      case .member:
        guard values else { continue }
        if !ignoredFields.isEmpty && ignoredFields.contains(Self.ignoredKey(step.type, step.field)) {
          i = Int(step.end)
        } else if !step.repeated {
          value(step, trace, document, &findings)
        } else if step.kind != .array && !document.isUnknown(step.node) {
          typeError(step.node, field(of: step), type(of: step), "a list", document, &findings)
        }
      case .element:
        guard values else { continue }
        value(step, trace, document, &findings)
      }
    }
    return findings
  }

  /// The type an object of a step was read as.
  private func type(of step: SchemaTrace.Step) -> Schema.MessageType { schema.messageTypes[Int(step.type)] }
  /// The field of a member or element step.
  private func field(of step: SchemaTrace.Step) -> Schema.Field { schema.messageTypes[Int(step.type)].fields[Int(step.field)] }

  private func unknown(_ member: NodeID, _ type: Schema.MessageType, _ document: JSONDocument, _ findings: inout [Finding]) {
    let key = document.key(member)!
    let typeName = type.name
    let names = type.fields.flatMap { [$0.proto, $0.json] }
    var detail = "unknown field '\(key)' in \(typeName)"
    if let hint = hints["\(typeName).\(key)"] ?? hints[key] {
      detail += ": \(hint)"
    } else if let near = closest(to: key, in: names) {
      detail += "; did you mean '\(near)'?"
    }
    findings.append(Finding(node: member, atKey: true, values: [
      "detail": detail, "field": key, "type": typeName, "rename": renames["\(typeName).\(key)"] ?? renames[key] ?? "",
    ]))
  }

  /// The value of a member or element step: a message's own steps follow it. The step's field
  /// and type are fetched from the trace only for a finding or an enum's values.
  private func value(_ step: SchemaTrace.Step, _ trace: SchemaTrace, _ document: JSONDocument, _ findings: inout [Finding]) {
    switch (check, step.fieldKind) {
    case (_, .message): return
    case (.types, _), (.enums, .enumeration): break
    default: return
    }
    let id = step.node, kind = step.kind
    if document.isUnknown(id) { return }
    if document.isPartialTemplate(id) {
      switch step.fieldKind {
      case .int32, .int64, .float, .duration, .timestamp: return
      case .enumeration:
        guard check == .enums else { return }
        let field = field(of: step)
        let lower = lowercase.contains("\(type(of: step).name).\(field.json)") || lowercase.contains("\(type(of: step).name).\(field.proto)")
        if document.templateMayBe(id, oneOf: field.values, caseSensitive: !lower) { return }
      default: break
      }
    }
    func typeError(_ expected: String, _ findings: inout [Finding]) {
      self.typeError(id, field(of: step), type(of: step), expected, document, &findings)
    }
    switch step.fieldKind {
    case .message:
      break
    case .string:
      if kind != .string { typeError("a string", &findings) }
    case .bool:
      if kind != .true && kind != .false { typeError("true or false", &findings) }
    case .int32, .int64:
      // proto3 JSON takes integers as numbers or strings; 1.0 is an integer, 1.5 is not.
      let text = kind == .string ? document.string(id)! : document.rawText(id)
      if kind != .number && kind != .string {
        typeError("an integer", &findings)
      } else if let n = Double(text), n == n.rounded(), step.fieldKind == .int64 || abs(n) <= 2_147_483_647 {
        break
      } else {
        typeError(step.fieldKind == .int32 ? "a 32-bit integer" : "an integer", &findings)
      }
    case .float:
      if kind == .number { break }
      if kind == .string, let s = document.string(id), Double(s) != nil || ["NaN", "Infinity", "-Infinity"].contains(s) { break }
      typeError("a number", &findings)
    case .duration:
      if kind == .string, DurationCheck.seconds(document.string(id)!) != nil { break }
      let suggestion = kind == .number ? " (write \"\(document.rawText(id))s\")" : ""
      typeError("a Duration string like \"3.5s\"\(suggestion)", &findings)
    case .timestamp:
      if kind == .string, Self.isTimestamp(document.string(id)!) { break }
      typeError("an RFC 3339 timestamp like \"2026-11-21T10:00:00Z\"", &findings)
    case .enumeration:
      let field = field(of: step)
      if kind == .number {
        if check == .enums, !(document.number(id).map { $0 == $0.rounded() } ?? false) {
          findings.append(Finding(node: id, values: [
            "detail": "\(document.rawText(id)) is not an enum value", "field": field.json, "type": type(of: step).name,
          ]))
        }
        break
      }
      guard kind == .string, let s = document.string(id) else {
        typeError("one of \(field.values.filter { !$0.hasSuffix("_UNSPECIFIED") }.joined(separator: ", "))", &findings)
        break
      }
      guard check == .enums else { break }
      let typeName = type(of: step).name
      if field.values.contains(s) { break }
      let allowsLowercase = lowercase.contains("\(typeName).\(field.json)") || lowercase.contains("\(typeName).\(field.proto)")
      if allowsLowercase && field.values.contains(s.uppercased()) && s == s.lowercased() { break }
      let choices = field.values.filter { !$0.hasSuffix("_UNSPECIFIED") }
      var detail = "'\(s)' is not a value of \(typeName).\(field.proto) (values: \(choices.joined(separator: ", ")))"
      // "high" for PRIORITY_HIGH, and the reverse mix-up, "PRIORITY_HIGH" for HIGH.
      if let near = choices.first(where: { $0.lowercased() == s.lowercased() || $0.lowercased().hasSuffix("_" + s.lowercased()) })
        ?? choices.first(where: { s.lowercased().hasSuffix("_" + $0.lowercased()) }) ?? closest(to: s, in: choices) {
        detail += "; did you mean '\(near)'?"
      }
      findings.append(Finding(node: id, values: ["detail": detail, "field": field.json, "type": typeName]))
    case .map:
      if kind != .object { typeError("an object of string values", &findings) }
    case .struct:
      if kind != .object { typeError("an object", &findings) }
    case .any:
      break
    }
  }

  private func typeError(_ id: NodeID, _ field: Schema.Field, _ type: Schema.MessageType, _ expected: String, _ document: JSONDocument, _ findings: inout [Finding]) {
    guard check == .types else { return }
    let typeName = type.name
    findings.append(Finding(node: id, values: [
      "detail": "\(typeName).\(field.proto) must be \(expected), found \(document.kind(id).name) \(excerpt(id, in: document, limit: 40))",
      "field": field.json, "type": typeName,
    ]))
  }

  /// RFC 3339 date-time as protobuf's Timestamp accepts it: "Z" or an offset, up to 9 fraction digits.
  static func isTimestamp(_ s: String) -> Bool {
    let b = Array(s.utf8)
    func digits(_ at: Int, _ n: Int) -> Bool { at + n <= b.count && b[at..<(at + n)].allSatisfy { $0 >= 48 && $0 <= 57 } }
    guard digits(0, 4), b.count > 19, b[4] == UInt8(ascii: "-"), digits(5, 2), b[7] == UInt8(ascii: "-"), digits(8, 2),
      b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"), digits(11, 2), b[13] == UInt8(ascii: ":"), digits(14, 2),
      b[16] == UInt8(ascii: ":"), digits(17, 2)
    else { return false }
    var i = 19
    if i < b.count, b[i] == UInt8(ascii: ".") {
      i += 1
      let start = i
      while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
      if i == start || i - start > 9 { return false }
    }
    if i < b.count, b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") { return i + 1 == b.count }
    guard i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return false }
    return i + 6 == b.count && digits(i + 1, 2) && b[i + 3] == UInt8(ascii: ":") && digits(i + 4, 2)
  }
}

/// A message's walk through a schema as the schema checks read it, recorded once per document
/// and start: for each object the type it is read as, and for each member the field its key
/// names (one hash of the key for all three checks). Replaying the steps in order visits what the
/// recursive walk visits, in its order, so findings come out the same.
struct SchemaTrace {
  enum Tag: UInt8 {
    /// A value read as a message that is not an object.
    case notObject
    /// A member whose key names no field of its object's type.
    case unknown
    /// A member with a field, not null; a list's elements and a message's steps follow it.
    case member
    /// An element of a list field; a message's steps follow it.
    case element
  }

  /// Plain values, so recording and replaying steps retains nothing: the type is its index in
  /// the schema's `messageTypes`, the field its index in that type's `fields`, and what every
  /// step reads of the field (its kind, whether it is a list) is copied in.
  struct Step {
    var node: NodeID
    /// For a member, the index of the first step after its elements and nested steps.
    var end: Int32
    var tag: Tag
    var kind: JSONKind
    var fieldKind: Schema.Field.Kind = .any
    var repeated = false
    var type: Int32
    var field: Int32 = -1
  }

  /// Deepest nesting of messages read (the walk stops there, silently).
  static let maxDepth = 64

  private(set) var steps: [Step] = []
  /// How many steps are `unknown`.
  private(set) var unknownCount = 0

  /// The walk from `id`, read as the type at `typeIndex` in its schema's `messageTypes`.
  init(_ id: NodeID, _ typeIndex: Int32, _ types: Schema.Walk, _ document: JSONDocument) {
    // Steps are at most the nodes read; most messages need a few dozen.
    steps.reserveCapacity(min(document.nodeCount, 128))
    record(id, typeIndex, types, document, depth: 0)
  }

  private mutating func record(_ id: NodeID, _ typeIndex: Int32, _ types: Schema.Walk, _ document: JSONDocument, depth: Int) {
    guard depth < Self.maxDepth else { return }
    let node = document[id]
    guard node.kind == .object else {
      steps.append(Step(node: id, end: 0, tag: .notObject, kind: node.kind, type: typeIndex))
      return
    }
    var member = node.firstChild
    while member >= 0 {
      let memberNode = document[member]
      defer { member = memberNode.nextSibling }
      guard let index = types.field(for: member, in: document, of: typeIndex) else {
        steps.append(Step(node: member, end: 0, tag: .unknown, kind: memberNode.kind, type: typeIndex))
        unknownCount += 1
        continue
      }
      if memberNode.kind == .null { continue }  // null leaves any field unset
      let shape = types.shape(typeIndex, index)
      let at = steps.count
      var step = Step(
        node: member, end: 0, tag: .member, kind: memberNode.kind, fieldKind: shape.kind, repeated: shape.repeated,
        type: typeIndex, field: Int32(index))
      steps.append(step)
      if shape.repeated {
        if memberNode.kind == .array {
          step.tag = .element
          var element = memberNode.firstChild
          while element >= 0 {
            let elementNode = document[element]
            step.node = element
            step.kind = elementNode.kind
            steps.append(step)
            if shape.kind == .message { record(element, shape.refType, types, document, depth: depth + 1) }
            element = elementNode.nextSibling
          }
        }
      } else if shape.kind == .message {
        record(member, shape.refType, types, document, depth: depth + 1)
      }
      steps[at].end = Int32(steps.count)
    }
  }
}
