import FCMLintJSON

/// A message schema as data: the types of the FCM v1 API and their fields under both proto3 JSON
/// spellings, generated from the discovery document by scripts/generate-schema.py.
public struct Schema: Sendable {
  /// Fields and types are classes: the walk hands them around by reference, not by copying
  /// their strings. They are filled in while the schema loads and never change after.
  ///
  /// `@unchecked Sendable` for `refType`, the one `var`: `Schema.init` sets it before the schema
  /// is returned, so no other thread ever sees it change.
  public final class Field: @unchecked Sendable {
    public enum Kind: String, Sendable, CaseIterable {
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
    /// The type a message field refers to, resolved once the schema is loaded (never written
    /// after, so the walk reads it without an exclusivity check).
    @exclusivity(unchecked) public var refType: MessageType?
    /// `refType`'s index in the schema's `messageTypes`, set with it.
    @exclusivity(unchecked) public var refTypeIndex: Int32 = -1

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

  public final class MessageType: Sendable {
    public let name: String
    public let fields: [Field]
    /// Both spellings of every field name: `byName[name]` is the field's index in `fields` (the
    /// last field with the name, as a dictionary filled in field order would keep). A scan:
    /// rules and the editor ask it while they load or complete; the walk uses `Schema.walk`.
    public var byName: FieldNames { FieldNames(type: self) }

    public struct FieldNames {
      let type: MessageType
      public subscript(name: String) -> Int? { type.fields.lastIndex { $0.json == name || $0.proto == name } }
    }

    init(name: String, fields: [Field]) {
      self.name = name
      self.fields = fields
    }
  }

  /// Every type's fields as a walk reads them, in flat arrays of plain values reached by the
  /// type's index in `messageTypes`: both spellings of each type's field names in an
  /// open-addressing hash table (a member's key is found with one hash of its bytes as written
  /// and one comparison), and per field its `Shape`. A walk reads nothing out of a `Field` or
  /// `MessageType`: each read of a class out of an array retained and released it, at every
  /// member, and with two threads on one pack those counts moved between the cores' caches
  /// (docs/performance.md).
  final class Walk: Sendable {
    /// What a walk reads of a field: its kind, whether it is a list, and for a message field
    /// the index of its type in the schema's `messageTypes` (else -1).
    struct Shape {
      let kind: Field.Kind
      let repeated: Bool
      let refType: Int32
    }
    struct Slot {
      var hash: UInt64
      var field: Int32
      var name: JSONDocument.NameTable.Name?
    }
    /// A type's place in `slots` and `shapes`.
    struct Table {
      let slots: Int32
      /// The table's size minus one (a power of two).
      let mask: Int32
      /// 64 minus log2 of the table's size: a hash's top bits pick the first slot.
      let shift: UInt64
      let shapes: Int32
    }
    let tables: [Table]
    let slots: [Slot]
    let shapes: [Shape]
    let names: JSONDocument.NameTable

    /// A walk the build laid out (the compiled pack), as `init(_:)` made it.
    init(tables: [Table], slots: [Slot], shapes: [Shape], names: JSONDocument.NameTable) {
      self.tables = tables
      self.slots = slots
      self.shapes = shapes
      self.names = names
    }

    /// Everything in the tables as numbers: equal for two walks only if they answer alike.
    var layout: [Int] {
      var out: [Int] = []
      for table in tables { out += [Int(table.slots), Int(table.mask), Int(table.shift), Int(table.shapes)] }
      out.append(-1)
      for slot in slots {
        out += [Int(truncatingIfNeeded: slot.hash), Int(slot.field)]
        if let name = slot.name { out += [Int(name.hash)] + names[name].map(Int.init) }
        out.append(-2)
      }
      out.append(-1)
      for shape in shapes { out += [Field.Kind.allCases.firstIndex(of: shape.kind)!, shape.repeated ? 1 : 0, Int(shape.refType)] }
      return out
    }

    /// From the types as they are numbered (`Field.refTypeIndex` set).
    init(_ messageTypes: [MessageType]) {
      var tables: [Table] = [], slots: [Slot] = [], shapes: [Shape] = []
      var names = JSONDocument.NameTable()
      // Each type's table size first, so the tables are allocated once (grown by appending,
      // they were copied three times over at every start).
      // Sizes alone (powers of two, whose log2 is the bits a slot takes): an array of tuples is
      // one more element type for the runtime to set up at each start.
      let sizes = messageTypes.map { type -> Int in
        var count = 0
        for f in type.fields { count += f.json == f.proto ? 1 : 2 }
        var size = 8
        while size < count * 2 { size *= 2 }
        return size
      }
      tables.reserveCapacity(messageTypes.count)
      slots.reserveCapacity(sizes.reduce(0, +))
      shapes.reserveCapacity(messageTypes.reduce(0) { $0 + $1.fields.count })
      names.reserveCapacity(messageTypes.reduce(0) { total, type in type.fields.reduce(total) { $0 + $1.json.utf8.count + $1.proto.utf8.count } })
      for (type, size) in zip(messageTypes, sizes) {
        let fields = type.fields
        let base = slots.count, shift = UInt64(64 - size.trailingZeroBitCount)
        tables.append(Table(slots: Int32(base), mask: Int32(size - 1), shift: shift, shapes: Int32(shapes.count)))
        slots += repeatElement(Slot(hash: 0, field: -1, name: nil), count: size)
        // Each name once, with the last field that has it (as `byName`): the fields from last
        // to first, a name skipped when it is there already.
        func insert(_ name: String, _ field: Int) {
          var name = name
          name.withUTF8 { utf8 in
            let hash = Self.hash(utf8)
            var slot = Int(truncatingIfNeeded: hash >> shift)
            while let other = slots[base + slot].name {
              if slots[base + slot].hash == hash, names[other].elementsEqual(utf8) { return }
              slot = (slot + 1) & (size - 1)
            }
            slots[base + slot] = Slot(hash: hash, field: Int32(field), name: names.add(utf8))
          }
        }
        for field in fields.indices.reversed() {
          insert(fields[field].json, field)
          if fields[field].proto != fields[field].json { insert(fields[field].proto, field) }
        }
        for field in fields { shapes.append(Shape(kind: field.kind, repeated: field.repeated, refType: field.refTypeIndex)) }
      }
      self.tables = tables
      self.slots = slots
      self.shapes = shapes
      self.names = names
    }

    /// What the walk reads of field `field` of type `type`.
    @inline(__always)
    func shape(_ type: Int32, _ field: Int) -> Shape { shapes[Int(tables[Int(type)].shapes) + field] }

    /// The field of type `type` a name names, in either spelling.
    func field(named name: String, of type: Int32) -> Int? {
      var name = name
      return name.withUTF8 { utf8 in
        let table = tables[Int(type)]
        let hash = Self.hash(utf8)
        var slot = Int32(truncatingIfNeeded: hash >> table.shift)
        while let found = slots[Int(table.slots + slot)].name {
          if slots[Int(table.slots + slot)].hash == hash, names[found].elementsEqual(utf8) { return Int(slots[Int(table.slots + slot)].field) }
          slot = (slot + 1) & table.mask
        }
        return nil
      }
    }

    /// The field of type `type` a member's key names.
    func field(for member: NodeID, in document: JSONDocument, of type: Int32) -> Int? {
      // No raw key: not a member (nil), or a key with escapes, decoded.
      guard let hash = document.withRawKey(member, { Self.hash($0) }) else { return document.key(member).flatMap { field(named: $0, of: type) } }
      let table = tables[Int(type)]
      var slot = Int32(truncatingIfNeeded: hash >> table.shift)
      while let name = slots[Int(table.slots + slot)].name {
        if slots[Int(table.slots + slot)].hash == hash, document.keyEquals(member, name, in: names) { return Int(slots[Int(table.slots + slot)].field) }
        slot = (slot + 1) & table.mask
      }
      return nil
    }

    /// The length and four of the bytes (first, last, middle, quarter), mixed by one multiply:
    /// a type's names differ there, and a hit is confirmed by comparing the whole name, so a
    /// collision costs a probe, never a wrong answer. Keys are hashed on every walk; this reads
    /// four bytes of them instead of all.
    @inline(__always)
    static func hash<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> UInt64 where Bytes.Index == Int {
      let n = bytes.count
      guard n > 0 else { return 0 }
      let s = bytes.startIndex
      let mixed = UInt64(truncatingIfNeeded: n) | UInt64(bytes[s]) << 16 | UInt64(bytes[s + n - 1]) << 24
        | UInt64(bytes[s + n >> 1]) << 32 | UInt64(bytes[s + n >> 2]) << 40
      return mixed &* 0x9E37_79B9_7F4A_7C15
    }
  }

  public let name: String
  public let root: String
  public let types: [String: MessageType]
  /// `types`' values in the order of their names: a type's place here is its index
  /// (`Field.refTypeIndex`), which walks record instead of a reference.
  public let messageTypes: [MessageType]
  /// What a walk reads of `messageTypes`, made once their `refTypeIndex` is set.
  let walk: Walk

  /// A schema from its types, in the order of their names, their message fields' `refType` set;
  /// `walk` made from them if not given (the compiled pack gives it).
  init(name: String, root: String, messageTypes: [MessageType], walk: Walk? = nil) {
    self.name = name
    self.root = root
    self.messageTypes = messageTypes
    var types = [String: MessageType](minimumCapacity: messageTypes.count)
    for type in messageTypes { types[type.name] = type }
    self.types = types
    self.walk = walk ?? Walk(messageTypes)
  }

  /// Reads a schema file's JSON. Read straight from the parsed document, not through
  /// `DataValue`: every start reads the built-in schema, and positions are only wanted for an
  /// error (schemas are built-in, generated files, so errors are for whoever edits them).
  public init(json bytes: [UInt8], file: String) throws(ConfigurationError) {
    let document: JSONDocument
    switch JSONParser.parse(bytes, options: JSONParser.Options(maxStringLength: .max)) {
    case .success(let d): document = d
    case .failure(let e): throw ConfigurationError(file: file, line: 1, column: e.offset + 1, message: "invalid schema: \(e.message)")
    }
    func fail(_ node: NodeID, _ message: String) -> ConfigurationError {
      let position = SourceLocator(bytes: bytes).bytePosition(of: Int(document[node].start))
      return ConfigurationError(file: file, line: position.line, column: position.column, message: message)
    }
    func members(_ node: NodeID, _ what: @autoclosure () -> String) throws(ConfigurationError) -> [(key: String, value: NodeID)] {
      guard document.kind(node) == .object else { throw fail(node, "\(what()) must be a mapping") }
      var members: [(key: String, value: NodeID)] = []
      members.reserveCapacity(Int(document[node].childCount))
      for child in document.children(node) { members.append((document.key(child) ?? "", child)) }
      return members
    }
    func string(_ node: NodeID, _ what: @autoclosure () -> String) throws(ConfigurationError) -> String {
      guard document.kind(node) == .string, let text = document.string(node) else { throw fail(node, "\(what()) must be a string") }
      return text
    }
    func bool(_ node: NodeID, _ what: @autoclosure () -> String) throws(ConfigurationError) -> Bool {
      switch document.kind(node) {
      case .true: return true
      case .false: return false
      default: throw fail(node, "\(what()) must be true or false")
      }
    }
    func strings(_ node: NodeID, _ what: @autoclosure () -> String) throws(ConfigurationError) -> [String] {
      guard document.kind(node) == .array else { throw fail(node, "\(what()) must be a list") }
      var out: [String] = []
      for item in document.children(node) { out.append(try string(item, "each item of \(what())")) }
      return out
    }

    var name = "", rootType = ""
    var types: [String: MessageType] = [:]
    for (key, value) in try members(JSONDocument.root, "a schema") {
      switch key {
      case "name": name = try string(value, "name")
      case "root": rootType = try string(value, "root")
      case "types":
        for (typeName, typeValue) in try members(value, "types") {
          var fields: [Field] = []
          for (k, v) in try members(typeValue, typeName) where k == "fields" {
            guard document.kind(v) == .array else { throw fail(v, "fields must be a list") }
            for item in document.children(v) {
              var json = "", proto = "", kind = Field.Kind.any, repeated = false, ref: String? = nil
              var values: [String] = [], deprecated = false, outputOnly = false
              for (fk, fv) in try members(item, "a field") {
                switch fk {
                case "json": json = try string(fv, fk)
                case "proto": proto = try string(fv, fk)
                case "type":
                  let text = try string(fv, fk)
                  guard let k = Field.Kind(rawValue: text) else { throw fail(fv, "unknown field type '\(text)'") }
                  kind = k
                case "repeated": repeated = try bool(fv, fk)
                case "ref": ref = try string(fv, fk)
                case "values": values = try strings(fv, fk)
                case "deprecated": deprecated = try bool(fv, fk)
                case "outputOnly": outputOnly = try bool(fv, fk)
                default: break  // "valueType" of maps and future annotations
                }
              }
              fields.append(Field(
                json: json, proto: proto, kind: kind, repeated: repeated, ref: ref, values: values, deprecated: deprecated,
                outputOnly: outputOnly))
            }
          }
          types[typeName] = MessageType(name: typeName, fields: fields)
        }
      default: break
      }
    }
    let typeNames = types.keys.sorted()
    let typeIndex = Dictionary(uniqueKeysWithValues: typeNames.enumerated().map { ($0.element, Int32($0.offset)) })
    for typeName in typeNames {
      let type = types[typeName]!
      for field in type.fields where field.kind == .message {
        guard let ref = field.ref, let target = types[ref] else {
          throw ConfigurationError(file: file, line: 1, column: 1, message: "\(type.name).\(field.json) refers to an unknown type")
        }
        field.refType = target
        field.refTypeIndex = typeIndex[ref]!
      }
    }
    guard types[rootType] != nil else { throw ConfigurationError(file: file, line: 1, column: 1, message: "the root type '\(rootType)' is not defined") }
    self.name = name
    self.root = rootType
    self.types = types
    messageTypes = typeNames.map { types[$0]! }
    walk = Walk(messageTypes)
  }
}

/// What rule files may refer to besides functions: the schemas.
public struct RuleResources: Sendable {
  public var schemas: [String: Schema] = [:]
  public init() {}
}
