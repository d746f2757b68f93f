#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The kind of a JSON value.
public enum JSONKind: UInt8, Sendable {
  case object, array, string, number, `true`, `false`, null
  /// A template placeholder written where a value goes (`"badge": {{badge}}`): a value not known
  /// yet. Only a parse with `JSONParser.Options.templateTags` makes one.
  case placeholder

  /// The name used in messages and in the `type` function's options.
  public var name: String {
    switch self {
    case .object: return "object"
    case .array: return "array"
    case .string: return "string"
    case .number: return "number"
    case .true, .false: return "boolean"
    case .null: return "null"
    case .placeholder: return "placeholder"
    }
  }
}

/// Index of a node in `JSONDocument.nodes`. `JSONDocument.root` is always 0.
public typealias NodeID = Int32

/// One value of a parsed document, stored flat: kind, source range and links to its neighbours.
/// Object members carry their key's range; strings are decoded only when asked for.
public struct JSONNode: Sendable {
  public var kind: JSONKind
  /// Set when the value string contains a backslash escape (decoding needs the slow path).
  public var valueHasEscapes: Bool
  /// Set when the member key contains a backslash escape.
  public var keyHasEscapes: Bool
  /// Set when the member key is ASCII as written, without escapes: its bytes are its characters.
  /// (In the struct's padding: a node takes no more room for it.)
  public var keyIsASCII: Bool = false
  /// Byte range of the value: `start` is its first byte, `end` one past its last.
  public var start: Int32
  public var end: Int32
  /// Byte range of the member key including its quotes, or -1 when the node is not an object member.
  public var keyStart: Int32
  public var keyEnd: Int32
  public var parent: NodeID
  public var firstChild: NodeID
  public var nextSibling: NodeID
  public var childCount: Int32
}

/// A parsed JSON document: the original bytes and a flat node array (`nodes[0]` is the root).
public struct JSONDocument: Sendable {
  /// The arrays live in one object, so handing a document around retains one reference, not three.
  ///
  /// The lookups every rule makes (members, kinds, children) read copies of the two arrays in
  /// buffers this object owns: reading them takes no reference counting and no bounds checks,
  /// which on the arrays themselves cost more than the lookups. Node ids come from the parser,
  /// so they are always in range.
  @usableFromInline final class Storage: @unchecked Sendable {
    @usableFromInline let bytes: [UInt8]
    /// The nodes, copied out of `nodeBuffer` (which the lookups read) for the few callers that
    /// want an array.
    @usableFromInline var nodes: [JSONNode] { Array(nodeBuffer[0..<nodeCount]) }
    /// How many nodes `nodeBuffer` holds (its capacity may be larger).
    @usableFromInline let nodeCount: Int
    @usableFromInline let duplicateKeys: [NodeID]
    @usableFromInline let nodeBuffer: UnsafeMutableBufferPointer<JSONNode>
    @usableFromInline let byteBuffer: UnsafeMutableBufferPointer<UInt8>
    /// Every object member by (object, key hash): see `MemberSlot`. Built once with the document,
    /// never written after, so lookups from any thread only read it.
    @usableFromInline let memberTable: UnsafeMutableBufferPointer<MemberSlot>
    /// The farthest any member sits from the slot its hash starts at, so a lookup gives up after
    /// that many more slots; -1 when the table was abandoned (`member` then scans the members).
    @usableFromInline let maxDisplacement: Int
    /// Each member's key's `memberHash`, by node (the member table's build computes them; other
    /// nodes' entries are not set). Read only while the table stands (`keyHash`). Kept for the
    /// first `maxKeyHashNodes` nodes (a payload has hundreds): a large file of arrays would pay
    /// four bytes a node for a handful of keys.
    @usableFromInline let keyHashes: UnsafeMutableBufferPointer<UInt32>
    static var maxKeyHashNodes: Int { 1 << 16 }
    /// `findDuplicateKeys` lists the duplicate keys when the member table, which finds them as it
    /// is built, is abandoned.
    ///
    /// The storage takes over `nodeBuffer` (allocated, its first `nodeCount` nodes initialized)
    /// and deallocates it.
    init(
      bytes: [UInt8], nodeBuffer: UnsafeMutableBufferPointer<JSONNode>, nodeCount: Int, memberCount: Int,
      findDuplicateKeys: () -> [NodeID]
    ) {
      precondition(nodeCount >= 0 && nodeCount <= nodeBuffer.count)
      self.bytes = bytes
      self.nodeBuffer = nodeBuffer
      self.nodeCount = nodeCount
      byteBuffer = .allocate(capacity: max(bytes.count, 1))
      _ = byteBuffer.initialize(from: bytes)
      let duplicates: [NodeID]?
      keyHashes = .allocate(capacity: max(min(nodeCount, Self.maxKeyHashNodes), 1))
      (memberTable, maxDisplacement, duplicates) = Self.buildMemberTable(
        nodeBuffer, byteBuffer, nodeCount: nodeCount, members: memberCount, keyHashes: keyHashes)
      duplicateKeys = duplicates ?? findDuplicateKeys()
    }
    convenience init(bytes: [UInt8], nodes: [JSONNode], memberCount: Int, findDuplicateKeys: () -> [NodeID]) {
      let buffer = UnsafeMutableBufferPointer<JSONNode>.allocate(capacity: max(nodes.count, 1))
      _ = buffer.initialize(from: nodes)
      self.init(bytes: bytes, nodeBuffer: buffer, nodeCount: nodes.count, memberCount: memberCount, findDuplicateKeys: findDuplicateKeys)
    }
    deinit {
      nodeBuffer.deallocate()
      byteBuffer.deallocate()
      memberTable.deallocate()
      keyHashes.deallocate()
    }

    /// An open-addressing table of all object members, at most half full (a power of two, so a
    /// mask picks the slot). A member whose key repeats an earlier key of its object replaces it
    /// in its slot, so a lookup finds the last, as a scan of the members would.
    ///
    /// The hash is not keyed, so a hostile document can make keys collide: a member that would
    /// sit more than `displacementLimit` slots from its start abandons the table (the document is
    /// then read by scanning), which keeps building and every lookup linear in the key bytes.
    ///
    /// A member that finds its key already in the table repeats it: those members (the later of
    /// each pair, in source order, as node ids follow it) are the document's duplicate keys,
    /// returned with the table, or nil with an abandoned table.
    private static func buildMemberTable(
      _ nodes: UnsafeMutableBufferPointer<JSONNode>, _ bytes: UnsafeMutableBufferPointer<UInt8>, nodeCount: Int, members: Int,
      keyHashes: UnsafeMutableBufferPointer<UInt32>
    ) -> (UnsafeMutableBufferPointer<MemberSlot>, Int, [NodeID]?) {
      let displacementLimit = 32, maxTableMembers = 1 << 16
      // Payloads have hundreds of members. A document with far more (a hostile one) is read by
      // scanning, so the table never adds to the memory a huge file takes (docs/hostile-input.md:
      // about 20 times the file).
      guard members <= maxTableMembers else { return (.allocate(capacity: 1), -1, nil) }
      var size = 8
      while size < members * 2 { size *= 2 }
      let table = UnsafeMutableBufferPointer<MemberSlot>.allocate(capacity: size)
      table.initialize(repeating: MemberSlot(tag: 0, member: -1, keyLength: 0))
      let mask = size - 1
      var maxDisplacement = 0
      var duplicates: [NodeID] = []
      let base = bytes.baseAddress!
      for i in 0..<nodeCount {
        let node = nodes[i]
        guard node.keyStart >= 0 else { continue }
        let start = Int(node.keyStart) + 1, end = Int(node.keyEnd) - 1
        let hash: UInt32
        if node.keyHasEscapes {
          hash = Array(JSONStringDecoder.decode(Array(bytes[start..<end])[...]).utf8).withUnsafeBufferPointer(JSONDocument.memberHash)
        } else {
          hash = JSONDocument.memberHash(UnsafeBufferPointer(start: base + start, count: end - start))
        }
        if i < keyHashes.count { keyHashes[i] = hash }
        let tag = MemberSlot.tag(hash, node.parent)
        var slot = MemberSlot.start(tag) & mask
        var displacement = 0
        var repeated = false
        while table[slot].member >= 0 {
          let entry = table[slot]
          if entry.tag == tag, sameKey(Int(entry.member), i, nodes, bytes) {
            repeated = true
            break
          }
          slot = (slot + 1) & mask
          displacement += 1
          if displacement > displacementLimit {
            table.deallocate()
            return (.allocate(capacity: 1), -1, nil)
          }
        }
        if repeated { duplicates.append(NodeID(i)) }
        table[slot] = MemberSlot(tag: tag, member: NodeID(i), keyLength: node.keyHasEscapes ? -1 : Int32(end - start))
        maxDisplacement = max(maxDisplacement, displacement)
      }
      return (table, maxDisplacement, duplicates)
    }

    /// The member table's probe for `tag`: the first member, from the slot the tag starts at and
    /// no farther than `maxDisplacement`, whose slot has the tag and that `matches`; nil at an
    /// empty slot or past the limit. (The table must not have been abandoned.)
    @inlinable @inline(__always)
    func probe(_ tag: UInt64, _ matches: (MemberSlot) -> Bool) -> NodeID? {
      let table = memberTable.baseAddress.unsafelyUnwrapped
      let mask = memberTable.count &- 1
      var slot = MemberSlot.start(tag) & mask
      // A member is never farther than `maxDisplacement` from its start.
      var left = maxDisplacement
      while true {
        let entry = table[slot]
        if entry.member < 0 { return nil }
        if entry.tag == tag, matches(entry) { return entry.member }
        if left == 0 { return nil }
        left &-= 1
        slot = (slot &+ 1) & mask
      }
    }

    /// The last member of `object` whose key is `name`, from the member table.
    @inlinable @inline(__always)
    func lookUp(_ object: NodeID, _ name: UnsafeBufferPointer<UInt8>, _ hash: UInt32) -> NodeID? {
      probe(MemberSlot.tag(hash, object)) { entry in
        if Int(entry.keyLength) == name.count {
          let keyStart = Int(nodeBuffer.baseAddress.unsafelyUnwrapped[Int(entry.member)].keyStart) &+ 1
          return JSONDocument.same(byteBuffer, keyStart, name)
        }
        return entry.keyLength < 0 && escapedKeyEquals(entry.member, name)
      }
    }

    /// Whether the decoded key of `member`, which has escapes, equals `name`.
    @usableFromInline @inline(never)
    func escapedKeyEquals(_ member: NodeID, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
      JSONDocument(storage: self).keyEquals(member, Array(name))
    }

    /// Whether two members have the same key after decoding.
    private static func sameKey(_ a: Int, _ b: Int, _ nodes: UnsafeMutableBufferPointer<JSONNode>, _ bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
      let x = nodes[a], y = nodes[b]
      if !x.keyHasEscapes && !y.keyHasEscapes {
        let length = Int(x.keyEnd - x.keyStart)
        guard length == Int(y.keyEnd - y.keyStart) else { return false }
        return memcmp(bytes.baseAddress! + Int(x.keyStart), bytes.baseAddress! + Int(y.keyStart), length) == 0
      }
      func key(_ id: Int) -> [UInt8] {
        let node = nodes[id]
        let inside = Array(bytes[(Int(node.keyStart) + 1)..<(Int(node.keyEnd) - 1)])
        return node.keyHasEscapes ? Array(JSONStringDecoder.decode(inside[...]).utf8) : inside
      }
      return key(a) == key(b)
    }
  }

  /// One member in `Storage.memberTable`: its object and the hash of its decoded key
  /// (`memberHash`) in one word (`tag`), its node (-1 for an empty slot), and the length of its
  /// key (-1 when the key has escapes, which is then compared decoded).
  @usableFromInline struct MemberSlot {
    @usableFromInline var tag: UInt64
    @usableFromInline var member: NodeID
    @usableFromInline var keyLength: Int32

    @inlinable init(tag: UInt64, member: NodeID, keyLength: Int32) {
      self.tag = tag
      self.member = member
      self.keyLength = keyLength
    }

    /// A key hash and its object in one word: two members may be the same key only when their
    /// tags are equal.
    @inline(__always) @inlinable
    static func tag(_ hash: UInt32, _ parent: NodeID) -> UInt64 {
      UInt64(hash) | (UInt64(UInt32(bitPattern: parent)) << 32)
    }

    /// The first slot to probe (before masking) for a tag.
    @inline(__always) @inlinable
    static func start(_ tag: UInt64) -> Int {
      // The high half of the product mixes every bit of both halves.
      Int(truncatingIfNeeded: (tag &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }

    /// The first slot to probe (before masking) for a key hash in an object.
    @inline(__always) @inlinable
    static func start(_ hash: UInt32, _ parent: NodeID) -> Int { start(tag(hash, parent)) }
  }

  /// The hash `member(_:_:hash:or:alternateHash:)` takes for a name: FNV-1a of its UTF-8 bytes.
  /// Paths compute it once per name, when they are compiled.
  @inline(__always)
  public static func memberHash(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 { FNV1a.hash(name) }

  @usableFromInline let storage: Storage

  public var bytes: [UInt8] { storage.bytes }
  public var nodes: [JSONNode] { storage.nodes }
  /// `nodes.count`, without handing out the array.
  public var nodeCount: Int { storage.nodeCount }
  /// Members whose key repeats an earlier key of the same object (the later member of each pair),
  /// in source order. The parser keeps every member; lookups find the last, as FCM does.
  public var duplicateKeys: [NodeID] { storage.duplicateKeys }
  /// Where this document sits in the larger document that paths are written against: a bare FCM
  /// Message is read as if it were the value of `message` in a send request (mount ["message"]).
  /// Paths resolve through the mount; pointers stay relative to the file.
  public var mount: [String] = []
  /// The placeholders of a template, or nil for a document without any (see `TemplateMarks`).
  public var templates: TemplateMarks? = nil
  /// The byte ranges of the template control tags (`{{#if x}}`, `{% endif %}`) the parser skipped
  /// between members and elements, in order.
  public internal(set) var controlTags: [TemplateControlTag] = []

  public static let root: NodeID = 0

  init(bytes: [UInt8], nodes: [JSONNode], memberCount: Int, findDuplicateKeys: () -> [NodeID]) {
    storage = Storage(bytes: bytes, nodes: nodes, memberCount: memberCount, findDuplicateKeys: findDuplicateKeys)
  }

  /// A document that takes over `nodeBuffer` (see `Storage.init`).
  init(bytes: [UInt8], nodeBuffer: UnsafeMutableBufferPointer<JSONNode>, nodeCount: Int, memberCount: Int, findDuplicateKeys: () -> [NodeID]) {
    storage = Storage(bytes: bytes, nodeBuffer: nodeBuffer, nodeCount: nodeCount, memberCount: memberCount, findDuplicateKeys: findDuplicateKeys)
  }

  init(storage: Storage) {
    self.storage = storage
  }

  @inlinable public subscript(id: NodeID) -> JSONNode { storage.nodeBuffer[Int(id)] }

  public func kind(_ id: NodeID) -> JSONKind { storage.nodeBuffer[Int(id)].kind }

  /// The children of an object (its member values) or an array (its elements), in source order.
  public func children(_ id: NodeID) -> ChildSequence { ChildSequence(storage: storage, first: storage.nodeBuffer[Int(id)].firstChild) }

  public struct ChildSequence: Sequence, IteratorProtocol {
    /// Keeps the buffer alive while the sequence is in use.
    let storage: Storage
    var next_: NodeID
    init(storage: Storage, first: NodeID) {
      self.storage = storage
      self.next_ = first
    }
    public mutating func next() -> NodeID? {
      guard next_ >= 0 else { return nil }
      defer { next_ = storage.nodeBuffer[Int(next_)].nextSibling }
      return next_
    }
  }

  /// The member of `object` whose key equals `name` (UTF-8 bytes), or nil. With duplicate keys
  /// the last one wins, as in FCM ("the last occurrence takes precedence").
  public func member(_ object: NodeID, _ name: [UInt8]) -> NodeID? {
    member(object, name, or: nil)
  }

  public func member(_ object: NodeID, _ name: String) -> NodeID? { member(object, Array(name.utf8)) }

  /// The last member named either `name` or `alternate` (two spellings of one field).
  ///
  /// Every rule path goes through here, so it reads the node and byte arrays through unsafe
  /// buffers: no bounds checks or reference counting per member.
  public func member(_ object: NodeID, _ name: [UInt8], or alternate: [UInt8]?) -> NodeID? {
    name.withUnsafeBufferPointer { name in
      guard let alternate else { return member(object, name, or: nil) }
      return alternate.withUnsafeBufferPointer { member(object, name, or: $0) }
    }
  }

  /// `member(_:_:or:)` for names in buffers (how compiled rule paths hold them).
  public func member(_ object: NodeID, _ name: UnsafeBufferPointer<UInt8>, or alternate: UnsafeBufferPointer<UInt8>?) -> NodeID? {
    guard let alternate else { return member(object, name, hash: Self.memberHash(name), or: nil, alternateHash: 0) }
    return member(object, name, hash: Self.memberHash(name), or: alternate, alternateHash: Self.memberHash(alternate))
  }

  /// `member(_:_:or:)` with the names' `memberHash`es computed in advance: one probe of the
  /// document's member table per name, rather than a scan of the object's members.
  ///
  /// Inlinable: compiled rule paths call it for every step, from another module.
  @inlinable
  public func member(
    _ object: NodeID, _ name: UnsafeBufferPointer<UInt8>, hash: UInt32, or alternate: UnsafeBufferPointer<UInt8>?, alternateHash: UInt32
  ) -> NodeID? {
    let storage = self.storage
    guard storage.nodeBuffer.baseAddress.unsafelyUnwrapped[Int(object)].kind == .object else { return nil }
    guard storage.maxDisplacement >= 0 else { return scanMembers(object, name, or: alternate) }
    let found = storage.lookUp(object, name, hash)
    guard let alternate else { return found }
    // Both spellings may be present: the later one wins, and ids follow source order.
    let other = storage.lookUp(object, alternate, alternateHash)
    guard let found else { return other }
    guard let other else { return found }
    return max(found, other)
  }

  /// The `memberHash` of `member`'s key (decoded), as the member table holds it: nil for a node
  /// that is not an object's member, when the document is read without a table, or past the
  /// nodes whose hashes it keeps (`Storage.maxKeyHashNodes`). Checks of key names read it rather
  /// than hash each key again.
  @inlinable
  public func keyHash(_ member: NodeID) -> UInt32? {
    let storage = self.storage
    guard storage.maxDisplacement >= 0, Int(member) < storage.keyHashes.count,
      storage.nodeBuffer.baseAddress.unsafelyUnwrapped[Int(member)].keyStart >= 0
    else { return nil }
    return storage.keyHashes.baseAddress.unsafelyUnwrapped[Int(member)]
  }

  /// Whether `object` may have a member whose key's `memberHash` is `hash`: false only when it
  /// has none (an object without such a key, or not an object). One probe of the member table,
  /// no key compared: the checks of a field most documents do not have ask it first.
  @inlinable
  public func mayHaveMember(_ object: NodeID, hash: UInt32) -> Bool {
    let storage = self.storage
    guard storage.nodeBuffer.baseAddress.unsafelyUnwrapped[Int(object)].kind == .object else { return false }
    guard storage.maxDisplacement >= 0 else { return true }
    return storage.probe(MemberSlot.tag(hash, object)) { _ in true } != nil
  }

  /// Member names compiled once for many lookups (a rule path's names): their bytes in one
  /// array, each with its `memberHash`, so a lookup hashes nothing and the names are plain
  /// values (no reference counting per name).
  public struct NameTable: Sendable {
    /// A name in a table: where its bytes are, and their hash.
    public struct Name: Sendable, Equatable {
      @usableFromInline package let start: Int32, count: Int32
      @usableFromInline package let hash: UInt32
      @usableFromInline package init(start: Int32, count: Int32, hash: UInt32) {
        self.start = start
        self.count = count
        self.hash = hash
      }
    }

    @usableFromInline package private(set) var bytes: [UInt8] = []

    public init() {}

    /// A table of names laid out before (their `Name`s made then, such as the compiled pack's).
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// Adds a name (a repeated name is stored again: tables are small and built once).
    /// Inlinable so callers get it specialized: generic over `Collection`, every byte went
    /// through protocol witnesses, at every start (see docs/performance.md).
    @inlinable
    public mutating func add<Bytes: Collection<UInt8>>(_ name: Bytes) -> Name {
      let start = Int32(bytes.count)
      bytes += name
      return Name(start: start, count: Int32(name.count), hash: FNV1a.hash(name))
    }

    /// The bytes of a name of this table.
    public subscript(name: Name) -> ArraySlice<UInt8> { bytes[Int(name.start)..<Int(name.start + name.count)] }

    /// Whether `name` of this table and `other` of `table` are the same bytes (hashes first).
    @inlinable
    public func equals(_ name: Name, _ other: Name, of table: NameTable) -> Bool {
      guard name.hash == other.hash, name.count == other.count else { return false }
      if name.count == 0 { return true }
      return bytes.withUnsafeBufferPointer { a in
        table.bytes.withUnsafeBufferPointer { b in
          memcmp(a.baseAddress! + Int(name.start), b.baseAddress! + Int(other.start), Int(name.count)) == 0
        }
      }
    }

    public mutating func reserveCapacity(_ byteCount: Int) { bytes.reserveCapacity(byteCount) }
  }

  /// Whether the member key of `id` equals a name of `table` (`keyEquals(_:_:)` without an array).
  @inlinable
  public func keyEquals(_ id: NodeID, _ name: NameTable.Name, in table: NameTable) -> Bool {
    let node = storage.nodeBuffer[Int(id)]
    guard node.keyStart >= 0 else { return false }
    guard !node.keyHasEscapes else { return keyEquals(id, Array(table[name])) }
    guard Int(node.keyEnd - node.keyStart) - 2 == Int(name.count) else { return false }
    return table.bytes.withUnsafeBufferPointer { bytes in
      Self.same(storage.byteBuffer, Int(node.keyStart) + 1, UnsafeBufferPointer(rebasing: bytes[Int(name.start)..<Int(name.start + name.count)]))
    }
  }

  /// `member(_:_:or:)` for names of a `NameTable`: one probe of the member table per name.
  @inlinable
  public func member(_ object: NodeID, _ name: NameTable.Name, or alternate: NameTable.Name?, in table: NameTable) -> NodeID? {
    table.bytes.withUnsafeBufferPointer { bytes in
      let nameBytes = UnsafeBufferPointer(rebasing: bytes[Int(name.start)..<Int(name.start + name.count)])
      guard let alternate else { return member(object, nameBytes, hash: name.hash, or: nil, alternateHash: 0) }
      let alternateBytes = UnsafeBufferPointer(rebasing: bytes[Int(alternate.start)..<Int(alternate.start + alternate.count)])
      return member(object, nameBytes, hash: name.hash, or: alternateBytes, alternateHash: alternate.hash)
    }
  }

  /// `member(_:_:or:)` by scanning the object's members, for documents without a member table.
  @usableFromInline
  func scanMembers(_ object: NodeID, _ name: UnsafeBufferPointer<UInt8>, or alternate: UnsafeBufferPointer<UInt8>?) -> NodeID? {
    let nodes = storage.nodeBuffer, bytes = storage.byteBuffer
    let node = nodes[Int(object)]
    guard node.kind == .object else { return nil }
    // Lengths first: most keys differ in length from the name, and are rejected by that alone.
    let nameLength = name.count, alternateLength = alternate?.count ?? -1
    var found: NodeID? = nil
    var child = node.firstChild
    while child >= 0 {
      let member = nodes[Int(child)]
      let length = Int(member.keyEnd - member.keyStart) - 2
      if member.keyHasEscapes {
        if keyEquals(child, Array(name)) || (alternate.map { keyEquals(child, Array($0)) } ?? false) { found = child }
      } else if length == nameLength {
        if Self.same(bytes, Int(member.keyStart) + 1, name) { found = child }
      } else if length == alternateLength, let alternate {
        if Self.same(bytes, Int(member.keyStart) + 1, alternate) { found = child }
      }
      child = member.nextSibling
    }
    return found
  }

  /// Whether the `name.count` bytes at `start` equal `name`. Eight bytes at a time: names are
  /// compared on every member lookup. The last word (or half word) overlaps the one before it
  /// rather than finishing byte by byte; every load stays within the `name.count` bytes.
  @inlinable @inline(__always)
  static func same(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ start: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = name.count
    guard count > 0 else { return true }
    let a = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + start), b = UnsafeRawPointer(name.baseAddress.unsafelyUnwrapped)
    if count >= 8 {
      var i = 0
      while i &+ 8 < count {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i &+= 8
      }
      let last = count &- 8
      return a.loadUnaligned(fromByteOffset: last, as: UInt64.self) == b.loadUnaligned(fromByteOffset: last, as: UInt64.self)
    }
    if count >= 4 {
      let last = count &- 4
      return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
        && a.loadUnaligned(fromByteOffset: last, as: UInt32.self) == b.loadUnaligned(fromByteOffset: last, as: UInt32.self)
    }
    // 1 to 3 bytes: the first, the middle and the last (some of them the same byte).
    let mid = count &>> 1, last = count &- 1
    return a.load(as: UInt8.self) == b.load(as: UInt8.self)
      && a.load(fromByteOffset: mid, as: UInt8.self) == b.load(fromByteOffset: mid, as: UInt8.self)
      && a.load(fromByteOffset: last, as: UInt8.self) == b.load(fromByteOffset: last, as: UInt8.self)
  }

  /// Calls `body` with the bytes of a member's key as written (without its quotes), or returns
  /// nil when `id` is not a member or its key has escapes (then use `key`). For lookups that
  /// hash or compare keys without making Strings of them.
  @inlinable
  public func withRawKey<R>(_ id: NodeID, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
    let node = storage.nodeBuffer[Int(id)]
    guard node.keyStart >= 0, !node.keyHasEscapes else { return nil }
    let start = Int(node.keyStart) + 1, end = Int(node.keyEnd) - 1
    return body(UnsafeBufferPointer(rebasing: storage.byteBuffer[start..<end]))
  }

  /// The `index`-th element of an array, or nil.
  public func element(_ array: NodeID, _ index: Int) -> NodeID? {
    guard storage.nodeBuffer[Int(array)].kind == .array, index >= 0 else { return nil }
    var i = 0
    for child in children(array) {
      if i == index { return child }
      i += 1
    }
    return nil
  }

  /// Whether the member key of `id` equals `name`, comparing raw bytes when the key has no escapes.
  public func keyEquals(_ id: NodeID, _ name: [UInt8]) -> Bool {
    let node = storage.nodeBuffer[Int(id)]
    guard node.keyStart >= 0 else { return false }
    if node.keyHasEscapes { return Array((key(id) ?? "").utf8) == name }
    return Int(node.keyEnd - node.keyStart) - 2 == name.count && name.withUnsafeBufferPointer { Self.same(storage.byteBuffer, Int(node.keyStart) + 1, $0) }
  }

  /// The decoded member key of `id`, or nil when `id` is not an object member.
  public func key(_ id: NodeID) -> String? {
    let node = storage.nodeBuffer[Int(id)]
    guard node.keyStart >= 0 else { return nil }
    return decodeString(from: Int(node.keyStart), to: Int(node.keyEnd), escaped: node.keyHasEscapes)
  }

  /// The decoded value of a string node, or nil for other kinds.
  public func string(_ id: NodeID) -> String? {
    let node = storage.nodeBuffer[Int(id)]
    guard node.kind == .string else { return nil }
    return decodeString(from: Int(node.start), to: Int(node.end), escaped: node.valueHasEscapes)
  }

  /// The value of a number node as a Double (numbers beyond Double's range become ±infinity;
  /// `rawText` keeps them exact), or nil for other kinds.
  public func number(_ id: NodeID) -> Double? {
    let node = storage.nodeBuffer[Int(id)]
    guard node.kind == .number else { return nil }
    // Most numbers in messages are small integers (1, 10, 86400): read from the bytes, exactly,
    // without a String for the parser (about 300 instructions a number).
    let start = Int(node.start), end = Int(node.end)
    if end - start <= 15 {
      let bytes = storage.bytes
      var i = start
      let negative = bytes[i] == UInt8(ascii: "-")
      if negative { i += 1 }
      var value = 0
      var digits = 0
      while i < end, bytes[i] &- UInt8(ascii: "0") < 10 {
        value = value &* 10 &+ Int(bytes[i] &- UInt8(ascii: "0"))
        digits += 1
        i += 1
      }
      // -0 stays for the parser (it is -0.0, not 0).
      if i == end, digits > 0, !(negative && value == 0) { return Double(negative ? -value : value) }
    }
    return Double(rawText(id))
  }

  /// The source text of a value exactly as written.
  public func rawText(_ id: NodeID) -> String {
    let node = storage.nodeBuffer[Int(id)]
    return String(decoding: storage.bytes[Int(node.start)..<Int(node.end)], as: UTF8.self)
  }

  /// The member key or array index that leads from the parent to `id`, or nil for the root.
  public func pathComponent(_ id: NodeID) -> PathComponent? {
    let node = storage.nodeBuffer[Int(id)]
    guard node.parent >= 0 else { return nil }
    if let key = key(id) { return .key(key) }
    var index = 0
    for sibling in children(node.parent) {
      if sibling == id { break }
      index += 1
    }
    return .index(index)
  }

  public enum PathComponent: Sendable, Equatable {
    case key(String)
    case index(Int)
  }

  /// The RFC 6901 JSON Pointer of `id` ("" for the root).
  public func pointer(_ id: NodeID) -> String {
    var components: [PathComponent] = []
    var current = id
    while let component = pathComponent(current) {
      components.append(component)
      current = storage.nodeBuffer[Int(current)].parent
    }
    return JSONPointer.format(components.reversed())
  }

  /// JSON Pointers of many nodes of this document (a linter's diagnostics): an array's element
  /// indices are counted once for the whole array, not by walking its elements for each one, so
  /// pointers into an array of 50,000 elements take linear time, not quadratic.
  public struct PointerMaker {
    let document: JSONDocument
    private var elementIndex: [NodeID: Int] = [:]

    public init(_ document: JSONDocument) { self.document = document }

    public mutating func pointer(_ id: NodeID) -> String {
      var components: [PathComponent] = []
      var current = id
      while true {
        let node = document[current]
        guard node.parent >= 0 else { break }
        if let key = document.key(current) {
          components.append(.key(key))
        } else {
          if elementIndex[current] == nil {
            for (index, element) in document.children(node.parent).enumerated() { elementIndex[element] = index }
          }
          components.append(.index(elementIndex[current] ?? 0))
        }
        current = node.parent
      }
      return JSONPointer.format(components.reversed())
    }
  }

  /// Decodes the string literal spanning `from..<to` (quotes included).
  func decodeString(from: Int, to: Int, escaped: Bool) -> String {
    let slice = storage.bytes[(from + 1)..<(to - 1)]
    if !escaped { return String(decoding: slice, as: UTF8.self) }
    return JSONStringDecoder.decode(slice)
  }
}

/// RFC 6901 pointer formatting.
public enum JSONPointer {
  public static func format(_ components: some Sequence<JSONDocument.PathComponent>) -> String {
    var out = ""
    for component in components {
      out.append("/")
      switch component {
      case .index(let i): out.append(String(i))
      case .key(let k): out.append(escape(k))
      }
    }
    return out
  }

  /// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`.
  public static func escape(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
    var out = ""
    for ch in token.unicodeScalars {
      switch ch {
      case "~": out.append("~0")
      case "/": out.append("~1")
      default: out.unicodeScalars.append(ch)
      }
    }
    return out
  }
}

/// Decodes the escapes of a string literal's contents. Lone surrogate escapes (valid JSON syntax,
/// but not Unicode) decode to U+FFFD, the replacement character.
public enum JSONStringDecoder {
  static func decode(_ bytes: ArraySlice<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    let end = bytes.endIndex
    while i < end {
      let b = bytes[i]
      if b != UInt8(ascii: "\\") {
        out.append(b)
        i += 1
        continue
      }
      // The parser has checked every escape.
      i += decodeEscape(bytes, at: i, into: &out) ?? 2
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes the escape that starts at `i` (a backslash) into `out`: how many bytes it took (a
  /// surrogate pair's two escapes are one character), or nil, with nothing written, when it is
  /// not a valid escape (text that was never parsed, such as a page's JSON blob).
  public static func decodeEscape(_ bytes: ArraySlice<UInt8>, at i: Int, into out: inout [UInt8]) -> Int? {
    let end = bytes.endIndex
    guard i + 1 < end, bytes[i] == UInt8(ascii: "\\") else { return nil }
    switch bytes[i + 1] {
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(bytes[i + 1])
    case UInt8(ascii: "u"):
      guard let high = hex4(bytes, i + 2) else { return nil }
      var scalar = high
      var length = 6
      if (0xD800..<0xDC00).contains(high) {
        // A high surrogate is a pair only when a low surrogate escape follows.
        if i + 12 <= end, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"), let low = hex4(bytes, i + 8),
          (0xDC00..<0xE000).contains(low)
        {
          scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
          length = 12
        } else {
          scalar = 0xFFFD
        }
      } else if (0xDC00..<0xE000).contains(high) {
        scalar = 0xFFFD
      }
      appendUTF8(UInt32(scalar), to: &out)
      return length
    default: return nil
    }
    return 2
  }

  /// The four hex digits at `at`, or nil.
  static func hex4(_ bytes: ArraySlice<UInt8>, _ at: Int) -> Int? {
    guard at + 4 <= bytes.endIndex else { return nil }
    var value = 0
    for k in 0..<4 {
      guard let digit = hexValue(bytes[at + k]) else { return nil }
      value = value << 4 | digit
    }
    return value
  }

  static func hexValue(_ b: UInt8) -> Int? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(b - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(b - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(b - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80: out.append(UInt8(scalar))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | (scalar >> 6)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | (scalar >> 12)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
      out.append(UInt8(0xF0 | (scalar >> 18)))
      out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }
}

/// The 32-bit FNV-1a hash of bytes: short names need no seed or state, and it can be taken a
/// byte at a time (`step`) while a caller reads the bytes for something else.
public enum FNV1a {
  @inlinable public static var seed: UInt32 { 0x811C_9DC5 }

  @inlinable @inline(__always)
  public static func step(_ hash: UInt32, _ byte: UInt8) -> UInt32 { (hash ^ UInt32(byte)) &* 0x0100_0193 }

  @inlinable
  public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var h = seed
    for b in bytes { h = step(h, b) }
    return h
  }
}
