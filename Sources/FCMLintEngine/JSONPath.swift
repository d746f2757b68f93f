import FCMLintJSON

/// A compiled path: the documented subset of RFC 9535 JSONPath that rules use.
///
/// Grammar:
/// - `$` the document root, or `@` the node the rule's `given` path selected;
/// - `.name` a member (names of letters, digits and `_`, not starting with a digit);
/// - `['name']` or `["name"]` any member name, such as `['mutable-content']` (escape `\'`, `\"`, `\\`);
/// - `.*` or `[*]` every member of an object or element of an array;
/// - `[N]` the N-th element of an array (0-based).
///
/// A member name with an underscore also matches its lowerCamelCase spelling (`fcm_options`
/// matches `fcmOptions`): FCM reads proto3 JSON, which accepts both spellings of every field, and
/// the last of them wins. Rules are written with the snake_case names the Firebase docs use.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
  public enum Anchor: Sendable, Equatable { case root, current }

  public enum Segment: Sendable, Equatable {
    case member(String, [UInt8])
    case wildcard
    case index(Int)
  }

  /// Everything in one object, so copying a path (every rule check holds some) retains one
  /// reference. Lookups read `steps` and `names`, plain values, rather than the `Segment` enum
  /// or arrays of names: reading those retains and releases their payloads at every step, which
  /// cost more than the lookups themselves.
  final class Storage: Sendable {
    let anchor: Anchor
    let description: String

    /// The path's segments, made from its steps when asked (a fix, a comparison, the pack's
    /// writer): lookups read `steps`, and every path of the pack is made at each start.
    var segments: [Segment] { (0..<count).map(segment) }

    func segment(_ i: Int) -> Segment {
      let step = steps[i]
      switch step.kind {
      case .member:
        let bytes = Array(names[step.name!])
        return .member(String(decoding: bytes, as: UTF8.self), bytes)
      case .index: return .index(Int(step.index))
      case .wildcard: return .wildcard
      }
    }

    /// Each segment as a missing member names it (`Resolution.missing`): a member's name, an
    /// index, `*`. Stored: a document's checks report missing members all the time, and made from
    /// the steps, each report made a String.
    let missingNames: [String]

    /// Segment `i`'s name as a missing member.
    @inline(__always)
    func missing(_ i: Int) -> String { missingNames[i] }

    struct Step {
      enum Kind: UInt8 { case member, index, wildcard }
      var kind: Kind
      /// A member's name in `names`, and its lowerCamelCase spelling if it has another.
      var name: JSONDocument.NameTable.Name?
      var alternate: JSONDocument.NameTable.Name?
      var index: Int32
    }
    let steps: [Step]
    let names: JSONDocument.NameTable
    /// `segments.count`, stored: the walks read it at every step.
    let count: Int
    /// Whether a segment is a wildcard; without one a path leads to one place at most.
    let hasWildcard: Bool
    /// For a path that starts with a member of the current node (`@.image`, `@.fcm_options.image`):
    /// that member's name's `memberHash`, and in the high half its other spelling's (or the same
    /// again); else 0. A check of such a field asks the document whether the member may be there
    /// before it follows the path (`LintPlan.fieldProbes`).
    var memberProbe: UInt64 {
      guard anchor == .current, let first = steps.first, first.kind == .member, let name = first.name else { return 0 }
      return UInt64(name.hash) | UInt64((first.alternate ?? name).hash) << 32
    }

    /// A path the build laid out (the compiled pack): its steps, their names in `names`, a table
    /// the pack's paths share.
    init(anchor: Anchor, description: String, steps: [Step], names: JSONDocument.NameTable, missingNames: [String]) {
      self.anchor = anchor
      self.description = description
      self.steps = steps
      self.names = names
      self.missingNames = missingNames
      count = steps.count
      hasWildcard = steps.contains { $0.kind == .wildcard }
    }

    init(anchor: Anchor, segments: [Segment], description: String) {
      self.anchor = anchor
      self.description = description
      missingNames = segments.map { segment in
        switch segment {
        case .member(let name, _): return name
        case .index(let index): return String(index)
        case .wildcard: return "*"
        }
      }
      count = segments.count
      hasWildcard = segments.contains(.wildcard)
      var steps: [Step] = [], names = JSONDocument.NameTable()
      steps.reserveCapacity(segments.count)
      names.reserveCapacity(2 * description.utf8.count)  // each name and its alternate spelling at most
      for segment in segments {
        var step = Step(kind: .wildcard, name: nil, alternate: nil, index: 0)
        switch segment {
        case .member(_, let nameBytes):
          step.kind = .member
          step.name = names.add(nameBytes)
          if nameBytes.contains(UInt8(ascii: "_")) { step.alternate = names.add(JSONPath.lowerCamelCase(utf8: nameBytes)) }
        case .index(let index):
          step.kind = .index
          step.index = Int32(index)
        case .wildcard:
          break
        }
        steps.append(step)
      }
      self.steps = steps
      self.names = names
    }

    /// The node segment `i` (a member or an index) leads to from `node`, or nil.
    @inline(__always)
    func child(_ i: Int, of node: NodeID, in document: JSONDocument) -> NodeID? {
      steps[i].child(of: node, in: document, names: names)
    }
  }
  let storage: Storage

  public var anchor: Anchor { storage.anchor }
  public var segments: [Segment] { storage.segments }
  /// The path as written.
  public var description: String { storage.description }

  public static func == (a: JSONPath, b: JSONPath) -> Bool { a.storage === b.storage || (a.anchor == b.anchor && a.segments == b.segments) }

  public struct ParseError: Error, Sendable {
    /// 0-based offset in the path text.
    public var offset: Int
    public var message: String
  }

  /// A path from parts (for paths built from others).
  public init(anchor: Anchor, segments: [Segment], description: String) {
    storage = Storage(anchor: anchor, segments: segments, description: description)
  }

  /// A path the build laid out (see `Storage.init(anchor:description:steps:names:missingNames:)`).
  init(anchor: Anchor, description: String, steps: [Storage.Step], names: JSONDocument.NameTable, missingNames: [String]) {
    storage = Storage(anchor: anchor, description: description, steps: steps, names: names, missingNames: missingNames)
  }

  public init(_ text: String) throws(ParseError) {
    let chars = Array(text.unicodeScalars)
    var i = 0
    func fail(_ message: String) -> ParseError { ParseError(offset: i, message: message) }
    guard let first = chars.first, first == "$" || first == "@" else {
      throw fail("a path starts with '$' (the document root) or '@' (the node selected by 'given')")
    }
    let anchor: Anchor = first == "$" ? .root : .current
    i = 1
    var segments: [Segment] = []
    segments.reserveCapacity(chars.count / 4 + 1)
    while i < chars.count {
      let c = chars[i]
      if c == "." {
        i += 1
        guard i < chars.count else { throw fail("expected a member name or '*' after '.'") }
        if chars[i] == "." { throw fail("recursive descent ('..') is not supported") }
        if chars[i] == "*" {
          segments.append(.wildcard)
          i += 1
          continue
        }
        let start = i
        while i < chars.count, Self.isNameScalar(chars[i], first: i == start) { i += 1 }
        guard i > start else {
          throw fail("'\(chars[i])' cannot appear in a dot member name; write ['name'] for names like 'mutable-content'")
        }
        // Dot names are ASCII (see `isNameScalar`).
        let bytes = chars[start..<i].map { UInt8($0.value) }
        segments.append(.member(String(decoding: bytes, as: UTF8.self), bytes))
      } else if c == "[" {
        i += 1
        guard i < chars.count else { throw fail("unclosed '['") }
        let q = chars[i]
        if q == "'" || q == "\"" {
          i += 1
          var name: [UInt8] = []
          while true {
            guard i < chars.count else { throw fail("unterminated quoted member name") }
            let ch = chars[i]
            if ch == q { break }
            if ch == "\\" {
              i += 1
              guard i < chars.count else { throw fail("unterminated escape in member name") }
              guard chars[i] == q || chars[i] == "\\" else { throw fail("unsupported escape '\\\(chars[i])' in member name") }
            }
            UTF8.encode(chars[i]) { name.append($0) }
            i += 1
          }
          i += 1
          segments.append(.member(String(decoding: name, as: UTF8.self), name))
        } else if q == "*" {
          i += 1
          segments.append(.wildcard)
        } else if ("0"..."9").contains(q) {
          var value = 0
          while i < chars.count, ("0"..."9").contains(chars[i]) {
            value = value * 10 + Int(chars[i].value - 48)
            i += 1
            if value > 1_000_000 { throw fail("array index too large") }
          }
          segments.append(.index(value))
        } else {
          throw fail("expected a quoted name, '*' or an index after '['")
        }
        guard i < chars.count, chars[i] == "]" else { throw fail("expected ']'") }
        i += 1
      } else {
        throw fail("unexpected '\(c)' in path (expected '.' or '[')")
      }
    }
    storage = Storage(anchor: anchor, segments: segments, description: text)
  }

  /// The member `name` of `object`, in either proto3 JSON spelling.
  public static func member(_ document: JSONDocument, _ object: NodeID, _ name: String, _ bytes: [UInt8]? = nil) -> NodeID? {
    let bytes = bytes ?? Array(name.utf8)
    guard bytes.contains(UInt8(ascii: "_")) else { return document.member(object, bytes) }
    return document.member(object, bytes, or: Array(lowerCamelCase(name).utf8) as [UInt8]?)
  }

  /// `fcm_options` → `fcmOptions`, as protoc derives JSON names.
  public static func lowerCamelCase(_ name: String) -> String {
    String(decoding: lowerCamelCase(utf8: name.utf8), as: UTF8.self)
  }

  /// `lowerCamelCase` on UTF-8 bytes.
  static func lowerCamelCase<Bytes: Collection<UInt8>>(utf8 name: Bytes) -> [UInt8] {
    // Protocol Buffers' JSON name rule: an underscore is dropped and an ASCII lowercase letter
    // after it is upper-cased; every other byte is kept.
    var out: [UInt8] = []
    out.reserveCapacity(name.count)
    var upper = false
    for byte in name {
      if byte == UInt8(ascii: "_") {
        upper = true
        continue
      }
      out.append(upper && byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte)
      upper = false
    }
    return out
  }

  private static func isNameScalar(_ c: Unicode.Scalar, first: Bool) -> Bool {
    switch c {
    case "a"..."z", "A"..."Z", "_": return true
    case "0"..."9": return !first
    default: return false
    }
  }

  /// Where a path leads in one document.
  public enum Resolution: Sendable, Equatable {
    /// An existing node.
    case found(NodeID)
    /// The path stops before its end: `nearest` is the deepest node that exists, `missing` the
    /// first member name (or index) that does not.
    case missing(nearest: NodeID, missing: String)
  }

  /// Every node the path selects; a path through wildcards may select many, a missing member none.
  public func select(in document: JSONDocument, from current: NodeID = JSONDocument.root) -> [NodeID] {
    var out: [NodeID] = []
    forEachNode(in: document, from: current) { out.append($0) }
    return out
  }

  /// Calls `body` with every node the path selects (`select` without building an array).
  /// Inlined, so a path without wildcards costs its callers one `resolveOne`, with no closure.
  @inline(__always)
  public func forEachNode(in document: JSONDocument, from current: NodeID = JSONDocument.root, _ body: (NodeID) -> Void) {
    if isSingular {
      if case .found(let id)? = resolveOne(in: document, from: current) { body(id) }
      return
    }
    start(document, current) { resolution in
      if case .found(let id) = resolution { body(id) }
    }
  }

  /// Like `select`, but also reports where the path breaks off, so a rule that requires a value
  /// can point at the nearest existing ancestor. A wildcard over an empty container yields nothing.
  public func resolve(in document: JSONDocument, from current: NodeID = JSONDocument.root) -> [Resolution] {
    var out: [Resolution] = []
    start(document, current) { out.append($0) }
    return out
  }

  /// Calls `body` with each resolution `resolve` would return, in order.
  public func forEachResolution(in document: JSONDocument, from current: NodeID = JSONDocument.root, _ body: (Resolution) -> Void) {
    start(document, current, body)
  }

  /// Whether the path has no wildcard, so it selects one node at most (see `resolveOne`).
  public var isSingular: Bool { !storage.hasWildcard }

  /// `@`: the node a check starts from.
  static let here: JSONPath = {
    do {
      return try JSONPath("@")
    } catch {
      preconditionFailure("'@' is a path: \(error)")
    }
  }()

  /// The one resolution of a path without wildcards (`isSingular`), or nil when it selects
  /// nothing (a root path that leaves the document's mount): `resolve` without an array or a
  /// closure, for the checks every rule makes on every document.
  @inline(__always)
  public func resolveOne(in document: JSONDocument, from current: NodeID = JSONDocument.root) -> Resolution? {
    let s = storage
    var node = current
    var i = 0
    if s.anchor == .root {
      node = JSONDocument.root
      if !document.mount.isEmpty && s.count > 0 {
        guard let first = mountEntry(document) else { return nil }
        i = first
      }
    }
    while i < s.count {
      guard let child = s.child(i, of: node, in: document) else { return .missing(nearest: node, missing: s.missing(i)) }
      node = child
      i += 1
    }
    return .found(node)
  }

  /// The node a path without wildcards leads to, or nil when it is missing (or leaves the
  /// document's mount): `resolveOne` for callers that only want what is there. Its own loop:
  /// sharing one with `resolveOne` (a walk returning the node and where it stopped) measured
  /// dearer on the checks' hot path.
  @inline(__always)
  func resolveNode(in document: JSONDocument, from current: NodeID) -> NodeID? {
    let s = storage
    var node = current
    var i = 0
    if s.anchor == .root {
      node = JSONDocument.root
      if !document.mount.isEmpty && s.count > 0 {
        guard let first = mountEntry(document) else { return nil }
        i = first
      }
    }
    while i < s.count {
      guard let child = s.child(i, of: node, in: document) else { return nil }
      node = child
      i += 1
    }
    return node
  }

  /// For a root path in a mounted document, the segment that continues at the file's root, or nil
  /// when the path does not lead into the file.
  private func mountEntry(_ document: JSONDocument) -> Int? {
    let mount = document.mount
    guard storage.count >= mount.count else { return nil }
    for (i, name) in mount.enumerated() where !storage.steps[i].entersMount(name, names: storage.names) { return nil }
    return mount.count
  }

  /// Starts a walk at the anchor. A root path first passes through the document's mount: for a
  /// document mounted at ["message"], `$.message.topic` starts at the file's root with `.topic`; a
  /// path that leaves the mount (`$.other`) or stops above the file (`$.message.apns` for an APNs
  /// payload mounted at ["message", "apns", "payload"]) selects nothing.
  private func start(_ document: JSONDocument, _ current: NodeID, _ visit: (Resolution) -> Void) {
    // `$` alone is always the file's root value.
    guard anchor == .root, !document.mount.isEmpty, storage.count > 0 else {
      walk(document, from: anchor == .root ? JSONDocument.root : current, segment: 0, visit)
      return
    }
    guard let first = mountEntry(document) else { return }
    walk(document, from: JSONDocument.root, segment: first, visit)
  }

  /// Follows members and indexes in a loop; only a wildcard branches (recursively).
  private func walk(_ document: JSONDocument, from start: NodeID, segment first: Int, _ visit: (Resolution) -> Void) {
    let s = storage
    var node = start
    var i = first
    while i < s.count {
      if s.steps[i].kind == .wildcard {
        let kind = document.kind(node)
        guard kind == .object || kind == .array else { return }
        for child in document.children(node) { walk(document, from: child, segment: i + 1, visit) }
        return
      }
      guard let child = s.child(i, of: node, in: document) else { return visit(.missing(nearest: node, missing: s.missing(i))) }
      node = child
      i += 1
    }
    visit(.found(node))
  }
}

extension JSONPath.Storage.Step {
  /// Whether a path passes through a document mounted at `name` here (see `JSONDocument.mount`):
  /// the member of that name, exactly as written, or a wildcard; `names` holds the step's names.
  func entersMount(_ name: String, names: JSONDocument.NameTable) -> Bool {
    switch kind {
    case .wildcard: return true
    case .index: return false
    case .member: return self.name.map { names[$0].elementsEqual(name.utf8) } ?? false
    }
  }

  /// The node this step (a member or an index) leads to from `node`, or nil; `names` holds the
  /// step's names.
  @inline(__always)
  func child(of node: NodeID, in document: JSONDocument, names: JSONDocument.NameTable) -> NodeID? {
    guard let name else { return kind == .index ? document.element(node, Int(index)) : nil }
    return document.member(node, name, or: alternate, in: names)
  }
}
