/// Where a template's placeholders are: what the engine found when it read a document whose text
/// has placeholders (`{{name}}`, `${NAME}`...). A node it marks holds a value not known yet; a
/// string with placeholders among literal text keeps what its literal parts decide.
public struct TemplateMarks: Sendable {
  /// String nodes that are one placeholder and nothing else, and `.placeholder` nodes.
  public var unknown: Set<NodeID> = []
  /// String nodes with placeholders among literal text: the placeholders' byte ranges in the
  /// document, in order.
  public var partial: [NodeID: [Range<Int>]] = [:]
  /// Member nodes whose key is (or holds) a placeholder.
  public var keys: Set<NodeID> = []
  /// Objects that may hold members the document does not show: the message around a member a
  /// page shows alone (`"apns": {...}`).
  public var openObjects: Set<NodeID> = []
  /// What lies outside the document's mount is not known: the document is a part of a message
  /// (an ApnsConfig or an `aps` dictionary alone), whose other parts are elsewhere.
  public var outsideUnknown = false

  public init() {}

  public var isEmpty: Bool { unknown.isEmpty && partial.isEmpty && keys.isEmpty && openObjects.isEmpty && !outsideUnknown }
}

extension JSONDocument {
  /// Whether the value of `id` is a placeholder: known to be of the right type, not its value.
  @inline(__always)
  public func isUnknown(_ id: NodeID) -> Bool {
    guard let templates else { return false }
    return templates.unknown.contains(id)
  }

  /// Whether `id` is a string with placeholders among literal text.
  @inline(__always)
  public func isPartialTemplate(_ id: NodeID) -> Bool {
    guard let templates else { return false }
    return templates.partial[id] != nil
  }

  /// Whether `id` may be left out when the template is rendered: a control tag comes before it and
  /// another after it in its object or array (as `{{#if x}}` and `{{/if}}` wrap it).
  public func isConditional(_ id: NodeID) -> Bool {
    guard !controlTags.isEmpty else { return false }
    let node = self[id]
    guard node.parent >= 0 else { return false }
    let start = Int(node.keyStart >= 0 ? node.keyStart : node.start)
    return controlTags.contains { $0.container == node.parent && $0.range.upperBound <= start }
      && controlTags.contains { $0.container == node.parent && $0.range.lowerBound >= Int(node.end) }
  }

  /// Whether an object or array may hold members or elements the template does not show: an
  /// include tag (`{{> partial}}`) stands in it.
  public func mayHoldUnseenMembers(_ id: NodeID) -> Bool {
    controlTags.contains { $0.includes && $0.container == id } || templates?.openObjects.contains(id) == true
  }

  /// Whether a member missing from `nearest` (where a path broke off) may still be there once
  /// the template is rendered: `nearest` is a placeholder, or an object with an include.
  public func mayHoldMissingMember(_ nearest: NodeID) -> Bool {
    guard templates != nil || !controlTags.isEmpty else { return false }
    return isUnknown(nearest) || mayHoldUnseenMembers(nearest)
  }

  /// Whether the key of member `id` is or holds a placeholder.
  @inline(__always)
  public func hasTemplateKey(_ id: NodeID) -> Bool {
    guard let templates else { return false }
    return templates.keys.contains(id)
  }
}

/// A control tag the parser skipped: where it is, the object or array it is in, and whether it
/// inserts members or elements of its own (a partial, an include).
public struct TemplateControlTag: Sendable, Equatable {
  public var range: Range<Int>
  public var container: NodeID
  public var includes: Bool = false
}

/// Template tags the parser accepts where JSON has none: a placeholder in a value position
/// (`"badge": {{badge}}`) becomes a `.placeholder` node, and a control tag (`{{#if x}}`,
/// `{% endif %}`) between members or elements is skipped like white space. The engine says what a
/// tag is; the parser only asks at the bytes where plain JSON would be an error.
public struct TemplateTags: Sendable {
  /// `include`: a control tag that inserts text of its own where it stands (`{{> partial}}`).
  public enum Kind: Sendable { case value, control, include }
  /// The end offset and kind of a tag starting at the offset of the document's bytes, or nil
  /// when none starts there.
  public let scan: @Sendable ([UInt8], Int) -> (end: Int, kind: Kind)?

  public init(scan: @escaping @Sendable ([UInt8], Int) -> (end: Int, kind: Kind)?) {
    self.scan = scan
  }
}
