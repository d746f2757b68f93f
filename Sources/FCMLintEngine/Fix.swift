import FCMLintJSON
import LinearRegex

/// One replacement of a byte range of the original file.
public struct TextEdit: Sendable, Equatable {
  /// Byte offsets in the file; `start == end` inserts.
  public var start: Int
  public var end: Int
  public var replacement: String
  /// Line and column of `start` and `end` (filled in by the linter, for editors).
  public var startPosition = SourcePosition(line: 1, column: 1)
  public var endPosition = SourcePosition(line: 1, column: 1)

  public init(start: Int, end: Int, replacement: String) {
    self.start = start
    self.end = end
    self.replacement = replacement
  }
}

/// A mechanical correction: what it does, and the minimal edits of the original text that do it,
/// so indentation, key order and line endings elsewhere stay byte-identical.
public struct Fix: Sendable, Equatable {
  public var description: String
  public var edits: [TextEdit]
  /// The member key the fix writes into an object, when it renames or adds one: the fixer lets a
  /// rename win over an insertion of the same key (`mutable_content` renamed, not a second
  /// `mutable-content` inserted beside it).
  public var key: KeyWrite?

  public struct KeyWrite: Sendable, Equatable, Hashable {
    /// Where the object that receives the key starts in the text the fix was made for.
    public var object: Int
    public var name: String
    /// A rename of an existing member (else the key is inserted).
    public var renames: Bool

    public init(object: Int, name: String, renames: Bool) {
      self.object = object
      self.name = name
      self.renames = renames
    }
  }

  public init(description: String, edits: [TextEdit], key: KeyWrite? = nil) {
    self.description = description
    self.edits = edits
    self.key = key
  }
}

/// A rule's `fix:`: the action, for which reported values, and how it is described.
public struct RuleFix: Sendable {
  public var action: FixAction
  /// Only values of these JSON types (object, array, string, number, boolean, null), when set.
  public var kinds: [String]?
  /// Only these values, when set (`true` and `"1"` become 1, but `false` does not).
  public var values: [LiteralValue]?
  /// Only string values matching this pattern, when set: the values the fix resolves (stripping
  /// "/topics/" resolves "/topics/news", not "/topics/sport/football").
  public var matching: CompiledPattern? = nil
  public var description: MessageTemplate?

  func applies(to node: NodeID, in document: JSONDocument) -> Bool {
    if let kinds, !kinds.contains(document.kind(node).name) { return false }
    if let values, !values.contains(where: { $0.matches(node, in: document) }) { return false }
    if let matching {
      guard let s = document.string(node), matching.matches(s) else { return false }
    }
    return true
  }
}

/// What a rule's `fix:` does to each reported value. Only changes whose right form is
/// unambiguous are offered; a fix that cannot be applied cleanly (the target already exists, a
/// parent is not an object) is simply not offered.
public enum FixAction: Sendable {
  /// Set the value at a path (relative to the `given` node with `@`), creating missing objects.
  case set(JSONPath, LiteralValue)
  /// Rename the reported member's key (a template: `{suggestion}` and the function's values).
  case renameKey(MessageTemplate)
  /// Replace the reported value by new JSON text (a template: `{raw}` is the value's JSON text,
  /// `{rawString}` that text as a JSON string).
  case replaceValue(MessageTemplate)
  /// Move the reported member, keeping its key, into the object at a path (created when
  /// missing); nothing is overwritten.
  case moveInto(JSONPath)
  /// Replace what a pattern matches in the reported string value.
  case replacePattern(CompiledPattern, with: String)
}

/// Builds edits for fixes, matching the file's own layout (indentation, separators, line endings).
struct FixBuilder {
  let document: JSONDocument
  /// The file's layout, read once for all its fixes and only when one inserts a member.
  private let layout: LayoutCache

  init(document: JSONDocument) {
    self.document = document
    layout = LayoutCache()
  }

  private final class LayoutCache {
    var newline: String?
    var separator: String?
  }

  /// The line ending most of the file's lines use (LF, CRLF or a lone CR; LF for a tie or a file
  /// of one line), so inserted lines match the file.
  var newline: String {
    if let known = layout.newline { return known }
    var lf = 0, crlf = 0, cr = 0
    let bytes = document.bytes
    var i = 0
    while i < bytes.count {
      if bytes[i] == 0x0D {
        if i + 1 < bytes.count, bytes[i + 1] == 0x0A {
          crlf += 1
          i += 1
        } else {
          cr += 1
        }
      } else if bytes[i] == 0x0A {
        lf += 1
      }
      i += 1
    }
    let newline = crlf > lf && crlf >= cr ? "\r\n" : (cr > lf && cr > crlf ? "\r" : "\n")
    layout.newline = newline
    return newline
  }

  /// The key-value separator of the file's first member (": ", ":" or " : ").
  var firstSeparator: String {
    if let known = layout.separator { return known }
    var separator = ": "
    for id in 0..<document.nodeCount {
      let node = document[NodeID(id)]
      if node.keyStart >= 0 {
        separator = String(decoding: document.bytes[Int(node.keyEnd)..<Int(node.start)], as: UTF8.self)
        break
      }
    }
    layout.separator = separator
    return separator
  }

  /// The edits of `action` on the finding, and the key it writes into an object (see `Fix.key`).
  func edits(for action: FixAction, finding: Finding, given: NodeID, values: [String: String]) -> (edits: [TextEdit], key: Fix.KeyWrite?)? {
    let node = finding.node
    switch action {
    case .set(let path, let value):
      var written: Fix.KeyWrite? = nil
      guard let edits = set(path, from: given, valueText: value.description, inserted: &written) else { return nil }
      return (edits, written)
    case .renameKey(let template):
      guard let parent = parentObject(of: node), let name = template.renderComplete(values) else { return nil }
      guard !name.isEmpty, JSONPath.member(document, parent, name) == nil, !isShadowed(node, in: parent) else { return nil }
      let n = document[node]
      return ([TextEdit(start: Int(n.keyStart), end: Int(n.keyEnd), replacement: JSONText.quote(name))], Fix.KeyWrite(object: Int(document[parent].start), name: name, renames: true))
    case .replaceValue(let template):
      var v = values
      v["raw"] = document.rawText(node)
      v["rawString"] = JSONText.quote(document.rawText(node))
      guard let text = template.renderComplete(v) else { return nil }
      // The replacement must itself be JSON, or the fix would break the file.
      guard case .success = JSONParser.parse(Array(text.utf8)) else { return nil }
      let n = document[node]
      return ([TextEdit(start: Int(n.start), end: Int(n.end), replacement: text)], nil)
    case .moveInto(let path):
      guard let parent = parentObject(of: node), let key = document.key(node), !isShadowed(node, in: parent) else { return nil }
      let destination = JSONPath(anchor: path.anchor, segments: path.segments + [.member(key, Array(key.utf8))], description: path.description + "['\(key)']")
      guard destination.select(in: document, from: given).isEmpty else { return nil }
      guard let insert = set(destination, from: given, valueText: document.rawText(node)) else { return nil }
      let remove = removeMember(node)
      // Both edits must not overlap (moving into the member's own object is fine, into itself is not).
      guard insert.allSatisfy({ $0.end <= remove.start || $0.start >= remove.end }) else { return nil }
      return (insert + [remove], nil)
    case .replacePattern(let pattern, let with):
      guard let s = document.string(node) else { return nil }
      let scalars = s.unicodeScalars.map(\.value)
      guard let match = pattern.regex.firstMatch(in: scalars), !(match.isEmpty && with.isEmpty) else { return nil }
      // Only the matched characters are rewritten: the rest of the literal keeps its bytes
      // (an escape such as \u00e9 or \/ elsewhere in the string stays as written).
      let starts = scalarStarts(of: node)
      guard starts.count == scalars.count + 1 else { return nil }
      let inner = String(JSONText.quote(with).dropFirst().dropLast())
      return ([TextEdit(start: starts[match.lowerBound], end: starts[match.upperBound], replacement: inner)], nil)
    }
  }

  /// Whether a later member of `parent` has the same key as `member`, so FCM reads that one and
  /// never this. Renaming or moving a shadowed member would bring back a value the author
  /// overrode; the duplicate is reported on its own.
  private func isShadowed(_ member: NodeID, in parent: NodeID) -> Bool {
    guard let key = document.key(member) else { return false }
    // The exact spelling: JSONPath.member would also take the lowerCamelCase one.
    return document.member(parent, Array(key.utf8)) != member
  }

  /// Where each character of a string value starts in the file, and where its closing quote is:
  /// an escape (`\n`, `\u00e9`, a surrogate pair `\ud83d\ude00`) is one character of the value.
  private func scalarStarts(of node: NodeID) -> [Int] {
    let n = document[node]
    let bytes = document.bytes
    var starts: [Int] = []
    var i = Int(n.start) + 1
    let end = Int(n.end) - 1
    func hex(at j: Int) -> UInt32? {
      guard j + 4 <= end, let value = UInt32(String(decoding: bytes[j..<(j + 4)], as: UTF8.self), radix: 16) else { return nil }
      return value
    }
    while i < end {
      starts.append(i)
      if bytes[i] == UInt8(ascii: "\\") {
        if bytes[i + 1] == UInt8(ascii: "u"), let high = hex(at: i + 2) {
          // A high surrogate followed by an escaped low one is one character.
          if (0xD800...0xDBFF).contains(high), i + 11 < end + 1, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
            let low = hex(at: i + 8), (0xDC00...0xDFFF).contains(low)
          {
            i += 12
          } else {
            i += 6
          }
        } else {
          i += 2
        }
      } else {
        let b = bytes[i]
        i += b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
      }
    }
    starts.append(end)
    return starts
  }

  private func parentObject(of node: NodeID) -> NodeID? {
    let parent = document[node].parent
    guard parent >= 0, document.kind(parent) == .object else { return nil }
    return parent
  }

  /// Edits that make `path` hold `valueText`: replace an existing value, or add the missing
  /// members to the deepest existing object.
  func set(_ path: JSONPath, from given: NodeID, valueText: String) -> [TextEdit]? {
    var inserted: Fix.KeyWrite? = nil
    return set(path, from: given, valueText: valueText, inserted: &inserted)
  }

  /// `set`, saying which key it inserts into which object when it inserts one.
  func set(_ path: JSONPath, from given: NodeID, valueText: String, inserted: inout Fix.KeyWrite?) -> [TextEdit]? {
    var names: [String] = []
    for segment in path.segments {
      guard case .member(let name, _) = segment else { return nil }
      names.append(name)
    }
    var current = path.anchor == .root ? JSONDocument.root : given
    var i = 0
    if path.anchor == .root {
      // A root path first names the mount (for a bare Message, `$.message`), not file members.
      guard names.count >= document.mount.count, zip(names, document.mount).allSatisfy({ $0 == $1 }) else { return nil }
      i = document.mount.count
    }
    while i < names.count, let child = JSONPath.member(document, current, names[i]) {
      current = child
      i += 1
    }
    if i == names.count {
      if document.rawText(current) == valueText { return nil }
      let n = document[current]
      return [TextEdit(start: Int(n.start), end: Int(n.end), replacement: valueText)]
    }
    guard document.kind(current) == .object else { return nil }
    inserted = Fix.KeyWrite(object: Int(document[current].start), name: names[i], renames: false)
    return [insertMember(into: current, names: Array(names[i...]), valueText: valueText)]
  }

  /// Inserts `"names[0]": {"names[1]": ... valueText}` as the last member of `object`, laid out
  /// like the object's existing members.
  func insertMember(into object: NodeID, names: [String], valueText: String) -> TextEdit {
    let bytes = document.bytes
    let o = document[object]
    let newline = self.newline
    let members = Array(document.children(object))
    // The object's own indentation: the whitespace that starts the line of its opening brace.
    let ownIndent = lineIndent(at: Int(o.start))
    var memberIndent: String? = nil
    // The key-value separator as the file writes it (": ", ":" or " : "), from the nearest member.
    var separator = members.isEmpty ? firstSeparator : ": "
    if let last = members.last {
      let l = document[last]
      separator = String(decoding: bytes[Int(l.keyEnd)..<Int(l.start)], as: UTF8.self)
      // Members on their own lines: the indentation after the last line break before the key.
      let before = Array(whitespace(before: Int(l.keyStart)).utf8)
      if let lineBreak = before.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
        memberIndent = String(decoding: before[(lineBreak + 1)...], as: UTF8.self)
      }
    } else if bytes[Int(o.start)..<Int(o.end)].contains(0x0A) || bytes[Int(o.start)..<Int(o.end)].contains(0x0D) {
      memberIndent = ownIndent + indentUnit(ownIndent)
    }
    let unit = memberIndent.map { indentUnit(ownIndent, member: $0) }
    func nested(_ i: Int, indent: String?) -> String {
      if i == names.count { return valueText }
      let key = JSONText.quote(names[i]) + separator
      if i == names.count - 1 { return key + valueText }
      guard let indent, let unit else { return key + "{" + nested(i + 1, indent: nil) + "}" }
      let inner = indent + unit
      return key + "{" + newline + inner + nested(i + 1, indent: inner) + newline + indent + "}"
    }
    let member = nested(0, indent: memberIndent)
    if let last = members.last {
      let insertAt = Int(document[last].end)
      let lead = memberIndent.map { newline + $0 } ?? (separator.hasSuffix(" ") ? " " : "")
      return TextEdit(start: insertAt, end: insertAt, replacement: "," + lead + member)
    }
    // An empty object: put the member between the braces.
    let inside = Int(o.start) + 1
    if let memberIndent {
      return TextEdit(start: inside, end: Int(o.end) - 1, replacement: newline + memberIndent + member + newline + ownIndent)
    }
    return TextEdit(start: inside, end: Int(o.end) - 1, replacement: member)
  }

  /// Removes a member with the comma that joins it to its neighbours.
  func removeMember(_ member: NodeID) -> TextEdit {
    let m = document[member]
    let parent = m.parent
    let siblings = Array(document.children(parent))
    let index = siblings.firstIndex(of: member)!
    if index + 1 < siblings.count {
      // Up to the next member's key: its comma and the whitespace before the key go too.
      let next = document[siblings[index + 1]]
      return TextEdit(start: Int(m.keyStart), end: Int(next.keyStart), replacement: "")
    }
    if index > 0 {
      // The last member: from the end of the previous value, taking the comma with it.
      let previous = document[siblings[index - 1]]
      return TextEdit(start: Int(previous.end), end: Int(m.end), replacement: "")
    }
    // The only member: empty the braces.
    let p = document[parent]
    return TextEdit(start: Int(p.start) + 1, end: Int(p.end) - 1, replacement: "")
  }

  private func whitespace(before offset: Int) -> String {
    var i = offset
    let bytes = document.bytes
    while i > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i - 1]) { i -= 1 }
    return String(decoding: bytes[i..<offset], as: UTF8.self)
  }

  private func lineIndent(at offset: Int) -> String {
    let bytes = document.bytes
    var start = offset
    while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
    var end = start
    while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// One level of indentation: what a member adds to its object's indentation, else a guess from
  /// the object's own (tabs stay tabs).
  private func indentUnit(_ own: String, member: String? = nil) -> String {
    if let member, member.hasPrefix(own), member.count > own.count { return String(member.dropFirst(own.count)) }
    return own.hasPrefix("\t") ? "\t" : "  "
  }
}
