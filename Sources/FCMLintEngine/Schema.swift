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
    public var json: String
    public var proto: String
    public var kind: Kind
    public var repeated: Bool
    public var ref: String?
    public var values: [String]
    public var deprecated: Bool
    public var outputOnly: Bool
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
    public var name: String
    public var fields: [Field]
    /// Both spellings of every field name.
    public var byName: [String: Int]

    init(name: String, fields: [Field], byName: [String: Int]) {
      self.name = name
      self.fields = fields
      self.byName = byName
    }
    /// The same as UTF-8 bytes, for matching keys without decoding them.
    public var names: [(bytes: [UInt8], field: Int)] = []

    /// The field a member's key names, compared byte for byte.
    public func field(for member: NodeID, in document: JSONDocument) -> Int? {
      for entry in names where document.keyEquals(member, entry.bytes) { return entry.field }
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
              var field = Field(json: "", proto: "", kind: .any, repeated: false, ref: nil, values: [], deprecated: false, outputOnly: false)
              for (fk, _, fv) in try item.mapping(what: "a field") {
                switch fk {
                case "json": field.json = try fv.string(what: fk)
                case "proto": field.proto = try fv.string(what: fk)
                case "type":
                  let text = try fv.string(what: fk)
                  guard let kind = Field.Kind(rawValue: text) else { throw fv.fail("unknown field type '\(text)'") }
                  field.kind = kind
                case "repeated": field.repeated = try fv.bool(what: fk)
                case "ref": field.ref = try fv.string(what: fk)
                case "values": field.values = try fv.strings(what: fk)
                case "deprecated": field.deprecated = try fv.bool(what: fk)
                case "outputOnly": field.outputOnly = try fv.bool(what: fk)
                default: break  // "values" of maps and future annotations
                }
              }
              fields.append(field)
            }
          }
          var byName: [String: Int] = [:]
          for (i, f) in fields.enumerated() {
            byName[f.json] = i
            byName[f.proto] = i
          }
          var type = MessageType(name: typeName, fields: fields, byName: byName)
          type.names = byName.map { (Array($0.key.utf8), $0.value) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
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
