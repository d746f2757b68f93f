import FCMLintJSON

/// A message schema as data: the types of the FCM v1 API and their fields under both proto3 JSON
/// spellings, generated from the discovery document by scripts/generate-schema.py.
public struct Schema: Sendable {
  /// Fields and types are classes: the walk hands them around by reference, not by copying
  /// their strings. They are filled in while the schema loads and never change after.
  public final class Field: @unchecked Sendable {
    public enum Kind: String, Sendable {
      case string, bool, int32, int64, float, enumeration = "enum", duration, timestamp, message, map, `struct`, any
    }
    public let json: String
    public let proto: String
    public let kind: Kind
    public let repeated: Bool
    public let ref: String?
    public let values: [String]
    public let deprecated: Bool
    public let outputOnly: Bool
    /// The type a message field refers to, resolved once the schema is loaded.
    public var refType: MessageType?

    init(json: String, proto: String, kind: Kind, repeated: Bool, ref: String?, values: [String], deprecated: Bool, outputOnly: Bool) {
      self.json = json
      self.proto = proto
      self.kind = kind
      self.repeated = repeated
      self.ref = ref
      self.values = values
      self.deprecated = deprecated
      self.outputOnly = outputOnly
    }
  }

  public final class MessageType: @unchecked Sendable {
    public let name: String
    public let fields: [Field]
    /// Both spellings of every field name.
    public let byName: [String: Int]
    /// The same as UTF-8 bytes, grouped by length, for matching keys without decoding them: a key
    /// is compared only with the few names as long as it.
    public let namesByLength: [[(bytes: [UInt8], field: Int)]]

    init(name: String, fields: [Field]) {
      self.name = name
      self.fields = fields
      var byName: [String: Int] = [:]
      for (i, f) in fields.enumerated() {
        byName[f.json] = i
        byName[f.proto] = i
      }
      self.byName = byName
      var namesByLength: [[(bytes: [UInt8], field: Int)]] = []
      for (name, field) in byName.sorted(by: { $0.key < $1.key }) {
        let bytes = Array(name.utf8)
        while namesByLength.count <= bytes.count { namesByLength.append([]) }
        namesByLength[bytes.count].append((bytes, field))
      }
      self.namesByLength = namesByLength
    }

    /// The field a member's key names.
    public func field(for member: NodeID, in document: JSONDocument) -> Int? {
      let node = document[member]
      guard node.keyStart >= 0 else { return nil }
      if node.keyHasEscapes { return document.key(member).flatMap { byName[$0] } }
      let length = Int(node.keyEnd - node.keyStart) - 2
      guard length < namesByLength.count else { return nil }
      for entry in namesByLength[length] where document.keyEquals(member, entry.bytes) { return entry.field }
      return nil
    }
  }

  public var name: String
  public var root: String
  public var types: [String: MessageType]

  /// Reads a schema file's JSON.
  public init(json bytes: [UInt8], file: String) throws(ConfigurationError) {
    let root = try DataValue.parse(json: bytes, file: file)
    var name = "", rootType = ""
    var types: [String: MessageType] = [:]
    for (key, _, value) in try root.mapping(what: "a schema") {
      switch key {
      case "name": name = try value.string(what: "name")
      case "root": rootType = try value.string(what: "root")
      case "types":
        for (typeName, _, typeValue) in try value.mapping(what: "types") {
          var fields: [Field] = []
          for (k, _, v) in try typeValue.mapping(what: typeName) where k == "fields" {
            for item in try v.sequence(what: "fields") {
              var json = "", proto = "", kind = Field.Kind.any, repeated = false, ref: String? = nil
              var values: [String] = [], deprecated = false, outputOnly = false
              for (fk, _, fv) in try item.mapping(what: "a field") {
                switch fk {
                case "json": json = try fv.string(what: fk)
                case "proto": proto = try fv.string(what: fk)
                case "type":
                  let text = try fv.string(what: fk)
                  guard let k = Field.Kind(rawValue: text) else { throw fv.fail("unknown field type '\(text)'") }
                  kind = k
                case "repeated": repeated = try fv.bool(what: fk)
                case "ref": ref = try fv.string(what: fk)
                case "values": values = try fv.strings(what: fk)
                case "deprecated": deprecated = try fv.bool(what: fk)
                case "outputOnly": outputOnly = try fv.bool(what: fk)
                default: break  // "values" of maps and future annotations
                }
              }
              fields.append(Field(
                json: json, proto: proto, kind: kind, repeated: repeated, ref: ref, values: values, deprecated: deprecated,
                outputOnly: outputOnly))
            }
          }
          let type = MessageType(name: typeName, fields: fields)
          types[typeName] = type
        }
      default: break
      }
    }
    for type in types.values {
      for field in type.fields where field.kind == .message {
        guard let ref = field.ref, let target = types[ref] else {
          throw ConfigurationError(file: file, line: 1, column: 1, message: "\(type.name).\(field.json) refers to an unknown type")
        }
        field.refType = target
      }
    }
    guard types[rootType] != nil else { throw ConfigurationError(file: file, line: 1, column: 1, message: "the root type '\(rootType)' is not defined") }
    self.name = name
    self.root = rootType
    self.types = types
  }
}

/// What rule files may refer to besides functions: the schemas.
public struct RuleResources: Sendable {
  public var schemas: [String: Schema] = [:]
  public init() {}
}
