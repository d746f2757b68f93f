import Foundation

/// One way an instance breaks a schema: where (an RFC 6901 pointer into the instance), which
/// keyword, and why.
struct JSONSchemaViolation: Equatable, CustomStringConvertible {
  var instancePath: String
  var keyword: String
  var message: String

  var description: String { "\(instancePath.isEmpty ? "(root)" : instancePath): \(keyword): \(message)" }
}

/// A small JSON Schema (draft 2020-12) validator for the keywords `schemas/fcmlint-output.schema.json`
/// uses, and only those: `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
/// `minimum`, `pattern`, `format: uri` and `uri-reference`, and `$ref` to `#/$defs/...` (or any
/// local `#/...` pointer).
/// `$schema`, `$id`, `$defs`, `title` and `description` are annotations. Any other keyword is
/// reported as a violation, so the schema cannot rely on a check this validator does not make.
///
/// Both documents are read with Foundation's `JSONSerialization`.
struct JSONSchemaValidator {
  struct ReadError: Error, CustomStringConvertible {
    var description: String
  }

  /// A JSON value with booleans, integers and other numbers told apart (`JSONSerialization` gives
  /// NSNumber for all three).
  indirect enum Value: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Value])
    case object([String: Value])

    init(foundation any: Any) throws {
      switch any {
      case is NSNull:
        self = .null
      case let s as String:
        self = .string(s)
      case let n as NSNumber:
        let objCType = String(cString: n.objCType)
        if objCType == "c" || objCType == "B" {
          self = .bool(n.boolValue)
        } else {
          self = .number(n.doubleValue)
        }
      case let a as [Any]:
        self = .array(try a.map { try Value(foundation: $0) })
      case let o as [String: Any]:
        var out: [String: Value] = [:]
        for (k, v) in o { out[k] = try Value(foundation: v) }
        self = .object(out)
      default:
        throw ReadError(description: "not a JSON value: \(type(of: any))")
      }
    }

    static func parse(_ data: Data) throws -> Value {
      let any: Any
      do {
        any = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      } catch {
        throw ReadError(description: "not JSON: \(error.localizedDescription)")
      }
      return try Value(foundation: any)
    }

    var typeName: String {
      switch self {
      case .null: return "null"
      case .bool: return "boolean"
      case .number(let d): return d.isFinite && d.rounded() == d ? "integer" : "number"
      case .string: return "string"
      case .array: return "array"
      case .object: return "object"
      }
    }

    func hasType(_ name: String) -> Bool {
      if name == "number", case .number = self { return true }
      return typeName == name
    }
  }

  static let supportedKeywords: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "minimum", "pattern", "format", "$ref",
  ]
  static let annotationKeywords: Set<String> = ["$schema", "$id", "$defs", "title", "description"]

  let schema: Value

  init(schema: Data) throws {
    self.schema = try Value.parse(schema)
    guard case .object = self.schema else { throw ReadError(description: "the schema must be an object") }
  }

  init(schemaFile path: String) throws {
    try self.init(schema: try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Every violation in the JSON text `instance`; throws when it is not JSON.
  func validate(_ instance: Data) throws -> [JSONSchemaViolation] {
    validate(value: try Value.parse(instance))
  }

  func validate(value: Value) -> [JSONSchemaViolation] {
    var violations: [JSONSchemaViolation] = []
    check(value, against: schema, at: "", depth: 0, &violations)
    return violations
  }

  // MARK: - Keywords

  private func check(_ value: Value, against schema: Value, at path: String, depth: Int, _ out: inout [JSONSchemaViolation]) {
    func fail(_ keyword: String, _ message: String) {
      out.append(JSONSchemaViolation(instancePath: path, keyword: keyword, message: message))
    }
    guard depth < 64 else { return fail("$ref", "references nest more than 64 levels deep") }
    if case .bool(let allowed) = schema {
      if !allowed { fail("false", "no value is allowed here") }
      return
    }
    guard case .object(let keywords) = schema else { return fail("schema", "a schema must be an object or a boolean") }

    for keyword in keywords.keys.sorted()
    where !Self.supportedKeywords.contains(keyword) && !Self.annotationKeywords.contains(keyword) {
      fail(keyword, "keyword not supported by this validator")
    }

    if case .string(let ref)? = keywords["$ref"] {
      if let target = resolve(ref) {
        check(value, against: target, at: path, depth: depth + 1, &out)
      } else {
        fail("$ref", "cannot resolve '\(ref)'")
      }
    }

    if let type = keywords["type"] {
      let names: [String]
      switch type {
      case .string(let s): names = [s]
      case .array(let items): names = items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
      default: names = []
      }
      if !names.contains(where: value.hasType) {
        fail("type", "expected \(names.joined(separator: " or ")), found \(value.typeName)")
      }
    }

    if case .array(let allowed)? = keywords["enum"], !allowed.contains(value) {
      fail("enum", "\(Self.render(value)) is not one of \(allowed.map(Self.render).joined(separator: ", "))")
    }

    if case .number(let minimum)? = keywords["minimum"], case .number(let d) = value, d < minimum {
      fail("minimum", "\(Self.render(value)) is less than \(Self.render(.number(minimum)))")
    }

    if case .string(let pattern)? = keywords["pattern"], case .string(let s) = value {
      if let regex = try? NSRegularExpression(pattern: pattern) {
        let range = NSRange(s.startIndex..<s.endIndex, in: s)
        if regex.firstMatch(in: s, range: range) == nil { fail("pattern", "\(Self.render(value)) does not match \(pattern)") }
      } else {
        fail("pattern", "the schema's pattern \(pattern) is not a valid regular expression")
      }
    }

    if case .string(let format)? = keywords["format"], case .string(let s) = value {
      switch format {
      case "uri":
        // RFC 3986: a scheme, ':', then no whitespace or control characters.
        let regex = try! NSRegularExpression(pattern: #"^[A-Za-z][A-Za-z0-9+.\-]*:[^\s\x00-\x1F\x7F]*$"#)
        if regex.firstMatch(in: s, range: NSRange(s.startIndex..<s.endIndex, in: s)) == nil {
          fail("format", "\(Self.render(value)) is not an absolute URI")
        }
      case "uri-reference":
        // RFC 3986: a URI or a relative reference; neither holds whitespace or control characters.
        let regex = try! NSRegularExpression(pattern: #"^[^\s\x00-\x1F\x7F]*$"#)
        if regex.firstMatch(in: s, range: NSRange(s.startIndex..<s.endIndex, in: s)) == nil {
          fail("format", "\(Self.render(value)) is not a URI reference")
        }
      default:
        fail("format", "format '\(format)' not supported by this validator")
      }
    }

    if case .object(let members) = value {
      var properties: [String: Value] = [:]
      if case .object(let p)? = keywords["properties"] { properties = p }
      if case .array(let required)? = keywords["required"] {
        for case .string(let name) in required where members[name] == nil {
          fail("required", "missing required member '\(name)'")
        }
      }
      for name in members.keys.sorted() {
        let memberPath = path + "/" + Self.escape(name)
        if let sub = properties[name] {
          check(members[name]!, against: sub, at: memberPath, depth: depth, &out)
        } else if let additional = keywords["additionalProperties"] {
          if case .bool(false) = additional {
            out.append(JSONSchemaViolation(instancePath: memberPath, keyword: "additionalProperties", message: "member '\(name)' is not allowed"))
          } else {
            check(members[name]!, against: additional, at: memberPath, depth: depth, &out)
          }
        }
      }
    }

    if case .array(let elements) = value, let items = keywords["items"] {
      for (i, element) in elements.enumerated() {
        check(element, against: items, at: "\(path)/\(i)", depth: depth, &out)
      }
    }
  }

  /// A local reference: `#` or `#/json/pointer` into the schema document.
  private func resolve(_ ref: String) -> Value? {
    guard ref.hasPrefix("#") else { return nil }
    let pointer = ref.dropFirst()
    if pointer.isEmpty { return schema }
    guard pointer.hasPrefix("/") else { return nil }
    var node = schema
    for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      switch node {
      case .object(let o):
        guard let next = o[token] else { return nil }
        node = next
      case .array(let a):
        guard let i = Int(token), a.indices.contains(i) else { return nil }
        node = a[i]
      default:
        return nil
      }
    }
    return node
  }

  private static func escape(_ name: String) -> String {
    name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }

  private static func render(_ value: Value) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let d): return d.isFinite && d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    case .string(let s): return "\"\(s)\""
    case .array(let a): return "[" + a.map(render).joined(separator: ",") + "]"
    case .object: return "{...}"
    }
  }
}
