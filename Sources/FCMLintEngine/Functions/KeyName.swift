import FCMLintJSON

/// The member names of an object: only `allowed` ones (when given), none of `forbidden`, none
/// starting with `forbiddenPrefixes`; `renames` maps a known mistake to the right name, so the
/// message can say exactly what to write. Reported at each offending key.
struct KeyName: RuleFunction {
  static let name = "keyName"
  static let summary = "Member names of an object must be `allowed`, not `forbidden`, and not start with `forbiddenPrefixes`; `renames` maps known mistakes to the right name."
  static let options = [
    OptionSpec("allowed", .strings, "the only names allowed"),
    OptionSpec("forbidden", .strings, "names that must not be used"),
    OptionSpec("forbiddenPrefixes", .strings, "prefixes names must not start with"),
    OptionSpec("renames", .stringMap, "known wrong name → the right name"),
    OptionSpec("caseInsensitive", .bool, "compare names and prefixes ignoring case (default false)"),
  ]
  /// `rename` is the right name when it is a plain key (a fix can rename to it), else empty.
  static let placeholders = ["key", "suggestion", "rename"]

  let allowed: [String]?
  let forbidden: [String]
  let forbiddenPrefixes: [String]
  let renames: [String: String]
  let caseInsensitive: Bool
  /// `forbidden` and `forbiddenPrefixes` folded once (every key of every `data` object is checked).
  let foldedForbidden: Set<String>
  let foldedPrefixes: [String]
  /// The options as byte tables, for keys that are plain ASCII (nil when an option is not ASCII):
  /// most keys break no rule, and this clears them without making a String.
  let asciiNames: ASCIINames?

  init(options: FunctionOptions) throws(OptionError) {
    allowed = options.strings("allowed")
    forbidden = options.strings("forbidden") ?? []
    forbiddenPrefixes = options.strings("forbiddenPrefixes") ?? []
    renames = options.stringMap("renames") ?? [:]
    let caseInsensitive = options.bool("caseInsensitive") ?? false
    self.caseInsensitive = caseInsensitive
    foldedForbidden = Set(forbidden.map { caseInsensitive ? $0.lowercased() : $0 })
    foldedPrefixes = forbiddenPrefixes.map { caseInsensitive ? $0.lowercased() : $0 }
    asciiNames = ASCIINames(
      renames: Array(renames.keys), forbidden: Array(foldedForbidden), prefixes: foldedPrefixes, allowed: allowed)
    if allowed == nil && forbidden.isEmpty && forbiddenPrefixes.isEmpty && renames.isEmpty {
      throw OptionError("needs 'allowed', 'forbidden', 'forbiddenPrefixes' or 'renames'")
    }
  }

  private func fold(_ s: String) -> String { caseInsensitive ? s.lowercased() : s }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, context.document.kind(id) == .object else { return [] }
    let document = context.document
    var findings: [Finding] = []
    for member in document.children(id) {
      if let asciiNames, document.withRawKey(member, { asciiNames.accepts($0, foldingCase: caseInsensitive) }) == true { continue }
      let key = document.key(member)!
      let folded = fold(key)
      var detail: String? = nil
      var suggestion = ""
      var rename = ""
      if let right = renames[key] {
        suggestion = right
        // "alert.title" names a place, not a key: say it, but do not rename to it.
        if !right.contains(".") { rename = right }
        detail = "'\(key)' is not recognised: write '\(right)'"
      } else if foldedForbidden.contains(folded) {
        detail = "'\(key)' is reserved"
      } else if let index = foldedPrefixes.firstIndex(where: { folded.hasPrefix($0) }) {
        detail = "'\(key)' starts with the reserved prefix '\(forbiddenPrefixes[index])'"
      } else if let allowed, !allowed.contains(key) {
        suggestion = closest(to: key, in: allowed) ?? ""
        detail = "'\(key)' is not a known name" + (suggestion.isEmpty ? "" : "; did you mean '\(suggestion)'?")
      }
      if let detail {
        findings.append(Finding(node: member, atKey: true, values: ["detail": detail, "key": key, "suggestion": suggestion, "rename": rename]))
      }
    }
    return findings
  }
}

/// `KeyName`'s options as byte tables, for keys written in printable ASCII without escapes. For
/// such a key and ASCII options, byte equality is String equality and ASCII lower-casing is
/// `lowercased()`, so `accepts` says exactly whether the String checks would find nothing.
struct ASCIINames: Sendable {
  let renames: ByteNameSet
  let forbidden: ByteNameSet
  let prefixes: [[UInt8]]
  let allowed: ByteNameSet?

  /// Nil when any option is not ASCII (canonical equivalence could then match an ASCII key).
  init?(renames: [String], forbidden: [String], prefixes: [String], allowed: [String]?) {
    let all = renames + forbidden + prefixes + (allowed ?? [])
    guard all.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return nil }
    self.renames = ByteNameSet(renames)
    self.forbidden = ByteNameSet(forbidden)
    self.prefixes = prefixes.map { Array($0.utf8) }
    self.allowed = allowed.map(ByteNameSet.init)
  }

  /// Whether a key (its bytes as written) is printable ASCII and passes every check; false means
  /// "check it with Strings", not that it fails.
  func accepts(_ key: UnsafeBufferPointer<UInt8>, foldingCase: Bool) -> Bool {
    guard key.count <= 64, key.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
    if renames.contains(key) { return false }
    if let allowed, !allowed.contains(key) { return false }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(key.count, 1)) { buffer in
      for (i, b) in key.enumerated() {
        buffer[i] = foldingCase && b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
      }
      let folded = UnsafeBufferPointer(rebasing: buffer[..<key.count])
      if forbidden.contains(folded) { return false }
      return !prefixes.contains { $0.count <= folded.count && $0.elementsEqual(folded[..<$0.count]) }
    }
  }
}

/// A set of byte strings: FNV-1a hashes in an open-addressing table, one comparison per hit.
struct ByteNameSet: Sendable {
  private let slots: [(hash: UInt32, name: Int32)]
  private let names: [[UInt8]]

  init(_ strings: [String]) {
    names = Array(Set(strings)).sorted().map { Array($0.utf8) }
    var size = 8
    while size < names.count * 2 { size *= 2 }
    var slots = [(hash: UInt32, name: Int32)](repeating: (0, -1), count: size)
    for (i, name) in names.enumerated() {
      let hash = name.withUnsafeBufferPointer(JSONDocument.memberHash)
      var slot = Int(hash) & (size - 1)
      while slots[slot].name >= 0 { slot = (slot + 1) & (size - 1) }
      slots[slot] = (hash, Int32(i))
    }
    self.slots = slots
  }

  func contains(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    let hash = JSONDocument.memberHash(key)
    var slot = Int(hash) & (slots.count - 1)
    while slots[slot].name >= 0 {
      if slots[slot].hash == hash, names[Int(slots[slot].name)].elementsEqual(key) { return true }
      slot = (slot + 1) & (slots.count - 1)
    }
    return false
  }
}
