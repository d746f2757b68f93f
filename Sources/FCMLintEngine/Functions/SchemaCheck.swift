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

  enum Check: String { case unknownFields, types, enums }

  let schema: Schema
  let check: Check
  let hints: [String: String]
  let lowercase: Set<String>
  let ignore: Set<String>
  /// `ignore` resolved to field indexes per type, so the walk builds no strings.
  let ignoredFields: [String: Set<Int>]
  let renames: [String: String]

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
    ignore = Set(options.strings("ignore") ?? [])
    var ignored: [String: Set<Int>] = [:]
    // Most checks ignore nothing: skip building a name for every field of the schema.
    for (typeName, type) in schema.types where !ignore.isEmpty {
      for (i, field) in type.fields.enumerated() where ignore.contains("\(typeName).\(field.json)") || ignore.contains("\(typeName).\(field.proto)") {
        ignored[typeName, default: []].insert(i)
      }
    }
    ignoredFields = ignored
    renames = options.stringMap("renames") ?? [:]
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let document = context.document
    // `$` is the file's root; for a bare Message or APNs payload, follow the mount to its type.
    var type: String? = schema.root
    if id == JSONDocument.root {
      for name in document.mount {
        guard let current = type, let t = schema.types[current], let i = t.byName[name] else { return [] }
        let field = t.fields[i]
        type = field.kind == .message ? field.ref : nil
      }
    }
    guard let type, let messageType = schema.types[type] else { return [] }
    var findings: [Finding] = []
    walk(id, messageType, document, &findings, depth: 0)
    return findings
  }

  private func walk(_ id: NodeID, _ type: Schema.MessageType, _ document: JSONDocument, _ findings: inout [Finding], depth: Int) {
    guard depth < 64 else { return }
    let typeName = type.name
    guard document.kind(id) == .object else {
      if check == .types {
        findings.append(Finding(node: id, values: ["detail": "expected an object (\(typeName)), found \(document.kind(id).name) \(excerpt(id, in: document))", "field": document.key(id) ?? "", "type": typeName]))
      }
      return
    }
    let skip = ignoredFields[typeName]
    for member in document.children(id) {
      guard let index = type.field(for: member, in: document) else {
        let key = document.key(member)!
        if check == .unknownFields {
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
        continue
      }
      let field = type.fields[index]
      if document.kind(member) == .null { continue }  // null leaves any field unset
      if let skip, skip.contains(index) { continue }
      if field.repeated {
        guard document.kind(member) == .array else {
          typeError(member, field, typeName, "a list", document, &findings)
          continue
        }
        for element in document.children(member) { value(element, field, typeName, document, &findings, depth: depth) }
      } else {
        value(member, field, typeName, document, &findings, depth: depth)
      }
    }
  }

  private func value(_ id: NodeID, _ field: Schema.Field, _ typeName: String, _ document: JSONDocument, _ findings: inout [Finding], depth: Int) {
    // Each of the three rules walks the message; only `types` needs every leaf, `enums` the enum
    // leaves, `unknownFields` none (most of a message is leaves).
    switch (check, field.kind) {
    case (_, .message), (.types, _), (.enums, .enumeration): break
    default: return
    }
    let kind = document.kind(id)
    switch field.kind {
    case .message:
      walk(id, field.refType!, document, &findings, depth: depth + 1)
    case .string:
      if kind != .string { typeError(id, field, typeName, "a string", document, &findings) }
    case .bool:
      if kind != .true && kind != .false { typeError(id, field, typeName, "true or false", document, &findings) }
    case .int32, .int64:
      // proto3 JSON takes integers as numbers or strings; 1.0 is an integer, 1.5 is not.
      let text = kind == .string ? document.string(id)! : document.rawText(id)
      if kind != .number && kind != .string {
        typeError(id, field, typeName, "an integer", document, &findings)
      } else if let n = Double(text), n == n.rounded(), field.kind == .int64 || abs(n) <= 2_147_483_647 {
        break
      } else {
        typeError(id, field, typeName, field.kind == .int32 ? "a 32-bit integer" : "an integer", document, &findings)
      }
    case .float:
      if kind == .number { break }
      if kind == .string, let s = document.string(id), Double(s) != nil || ["NaN", "Infinity", "-Infinity"].contains(s) { break }
      typeError(id, field, typeName, "a number", document, &findings)
    case .duration:
      if kind == .string, DurationCheck.seconds(document.string(id)!) != nil { break }
      let suggestion = kind == .number ? " (write \"\(document.rawText(id))s\")" : ""
      typeError(id, field, typeName, "a Duration string like \"3.5s\"\(suggestion)", document, &findings)
    case .timestamp:
      if kind == .string, Self.isTimestamp(document.string(id)!) { break }
      typeError(id, field, typeName, "an RFC 3339 timestamp like \"2026-11-21T10:00:00Z\"", document, &findings)
    case .enumeration:
      if kind == .number {
        if check == .enums, !(document.number(id).map { $0 == $0.rounded() } ?? false) {
          findings.append(Finding(node: id, values: ["detail": "\(document.rawText(id)) is not an enum value", "field": field.json, "type": typeName]))
        }
        break
      }
      guard kind == .string, let s = document.string(id) else {
        typeError(id, field, typeName, "one of \(field.values.filter { !$0.hasSuffix("_UNSPECIFIED") }.joined(separator: ", "))", document, &findings)
        break
      }
      guard check == .enums else { break }
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
      if kind != .object { typeError(id, field, typeName, "an object of string values", document, &findings) }
    case .struct:
      if kind != .object { typeError(id, field, typeName, "an object", document, &findings) }
    case .any:
      break
    }
  }

  private func typeError(_ id: NodeID, _ field: Schema.Field, _ typeName: String, _ expected: String, _ document: JSONDocument, _ findings: inout [Finding]) {
    guard check == .types else { return }
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
