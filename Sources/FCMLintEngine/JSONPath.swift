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

  public let anchor: Anchor
  public let segments: [Segment]
  /// For each segment, the lowerCamelCase spelling of a snake_case member name (else nil),
  /// computed once here rather than on every lookup.
  let alternates: [[UInt8]?]
  /// The path as written.
  public let description: String

  public struct ParseError: Error, Sendable {
    /// 0-based offset in the path text.
    public var offset: Int
    public var message: String
  }

  /// A path from parts (for paths built from others).
  public init(anchor: Anchor, segments: [Segment], description: String) {
    self.anchor = anchor
    self.segments = segments
    self.description = description
    alternates = Self.alternates(for: segments)
  }

  static func alternates(for segments: [Segment]) -> [[UInt8]?] {
    segments.map { segment in
      guard case .member(let name, let bytes) = segment, bytes.contains(UInt8(ascii: "_")) else { return nil }
      return Array(lowerCamelCase(name).utf8)
    }
  }

  public init(_ text: String) throws(ParseError) {
    let chars = Array(text.unicodeScalars)
    var i = 0
    func fail(_ message: String) -> ParseError { ParseError(offset: i, message: message) }
    guard let first = chars.first, first == "$" || first == "@" else {
      throw fail("a path starts with '$' (the document root) or '@' (the node selected by 'given')")
    }
    anchor = first == "$" ? .root : .current
    i = 1
    var segments: [Segment] = []
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
        let name = String(String.UnicodeScalarView(chars[start..<i]))
        segments.append(.member(name, Array(name.utf8)))
      } else if c == "[" {
        i += 1
        guard i < chars.count else { throw fail("unclosed '['") }
        let q = chars[i]
        if q == "'" || q == "\"" {
          i += 1
          var name = String.UnicodeScalarView()
          while true {
            guard i < chars.count else { throw fail("unterminated quoted member name") }
            let ch = chars[i]
            if ch == q { break }
            if ch == "\\" {
              i += 1
              guard i < chars.count else { throw fail("unterminated escape in member name") }
              guard chars[i] == q || chars[i] == "\\" else { throw fail("unsupported escape '\\\(chars[i])' in member name") }
            }
            name.append(chars[i])
            i += 1
          }
          i += 1
          let s = String(name)
          segments.append(.member(s, Array(s.utf8)))
        } else if q == "*" {
          i += 1
          segments.append(.wildcard)
        } else if q.properties.numericType != nil, q.isASCII {
          var value = 0
          while i < chars.count, let d = Int(String(chars[i])), chars[i].isASCII {
            value = value * 10 + d
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
    self.segments = segments
    self.description = text
    alternates = Self.alternates(for: segments)
  }

  /// The member `name` of `object`, in either proto3 JSON spelling.
  public static func member(_ document: JSONDocument, _ object: NodeID, _ name: String, _ bytes: [UInt8]? = nil) -> NodeID? {
    let bytes = bytes ?? Array(name.utf8)
    guard bytes.contains(UInt8(ascii: "_")) else { return document.member(object, bytes) }
    return document.member(object, bytes, or: Array(lowerCamelCase(name).utf8))
  }

  /// `fcm_options` → `fcmOptions`, as protoc derives JSON names.
  public static func lowerCamelCase(_ name: String) -> String {
    var out = ""
    var upper = false
    for c in name {
      if c == "_" {
        upper = true
      } else {
        out.append(upper ? Character(c.uppercased()) : c)
        upper = false
      }
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
    start(document, current) { resolution in
      if case .found(let id) = resolution { out.append(id) }
    }
    return out
  }

  /// Like `select`, but also reports where the path breaks off, so a rule that requires a value
  /// can point at the nearest existing ancestor. A wildcard over an empty container yields nothing.
  public func resolve(in document: JSONDocument, from current: NodeID = JSONDocument.root) -> [Resolution] {
    var out: [Resolution] = []
    start(document, current) { out.append($0) }
    return out
  }

  /// Starts a walk at the anchor. A root path first passes through the document's mount: for a
  /// document mounted at ["message"], `$.message.topic` starts at the file's root with `.topic`; a
  /// path that leaves the mount (`$.other`) or stops above the file (`$.message.apns` for an APNs
  /// payload mounted at ["message", "apns", "payload"]) selects nothing.
  private func start(_ document: JSONDocument, _ current: NodeID, _ visit: (Resolution) -> Void) {
    // `$` alone is always the file's root value.
    guard anchor == .root, !document.mount.isEmpty, !segments.isEmpty else {
      walk(document, from: anchor == .root ? JSONDocument.root : current, segment: 0, visit)
      return
    }
    guard segments.count >= document.mount.count else { return }
    for (segment, name) in zip(segments, document.mount) {
      switch segment {
      case .member(let member, _) where member == name: continue
      case .wildcard: continue
      default: return
      }
    }
    walk(document, from: JSONDocument.root, segment: document.mount.count, visit)
  }

  private func walk(_ document: JSONDocument, from node: NodeID, segment: Int, _ visit: (Resolution) -> Void) {
    guard segment < segments.count else {
      visit(.found(node))
      return
    }
    switch segments[segment] {
    case .member(let name, let bytes):
      let found = alternates[segment].map { document.member(node, bytes, or: $0) } ?? document.member(node, bytes)
      if let child = found {
        walk(document, from: child, segment: segment + 1, visit)
      } else {
        visit(.missing(nearest: node, missing: name))
      }
    case .index(let index):
      if let child = document.element(node, index) {
        walk(document, from: child, segment: segment + 1, visit)
      } else {
        visit(.missing(nearest: node, missing: String(index)))
      }
    case .wildcard:
      let kind = document.kind(node)
      guard kind == .object || kind == .array else { return }
      for child in document.children(node) { walk(document, from: child, segment: segment + 1, visit) }
    }
  }
}
