import FCMLintJSON

/// The member names of an object: only `allowed` ones (when given), none of `forbidden`, none
/// starting with `forbiddenPrefixes`; `renames` maps a known mistake to the right name, so the
/// message can say exactly what to write. Reported at each offending key.
struct KeyName: RuleFunction {
  static let name = "keyName"
  static let ignoresMissing = true
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
  let renames: StringMap
  let caseInsensitive: Bool
  /// `forbidden` and `forbiddenPrefixes` folded once (every key of every `data` object is checked).
  /// A list, not a set: the byte tables clear nearly every key, and a set hashed every name at
  /// each start.
  let foldedForbidden: [String]
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
    foldedForbidden = forbidden.map { caseInsensitive ? $0.lowercased() : $0 }
    foldedPrefixes = forbiddenPrefixes.map { caseInsensitive ? $0.lowercased() : $0 }
    asciiNames = ASCIINames(
      renames: renames.keys, forbidden: foldedForbidden, prefixes: foldedPrefixes, allowed: allowed)
    if allowed == nil && forbidden.isEmpty && forbiddenPrefixes.isEmpty && renames.isEmpty {
      throw OptionError("needs 'allowed', 'forbidden', 'forbiddenPrefixes' or 'renames'")
    }
  }

  private func fold(_ s: String) -> String { caseInsensitive ? s.lowercased() : s }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, context.document.kind(id) == .object else { return [] }
    let document = context.document
    var findings: [Finding] = []
    let bytes = document.bytes
    for member in document.children(id) {
      if let asciiNames {
        let node = document[member]
        if node.keyIsASCII,
          asciiNames.accepts(bytes[Int(node.keyStart) + 1..<Int(node.keyEnd) - 1], hash: document.keyHash(member), foldingCase: caseInsensitive)
        {
          continue
        }
      }
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
  /// Bit b (of 128) set when some prefix starts with byte b: most keys start with none.
  let prefixStartsLow: UInt64
  let prefixStartsHigh: UInt64
  /// An empty prefix forbids every key: such options always take the String checks.
  let hasEmptyPrefix: Bool

  /// Nil when any option is not ASCII (canonical equivalence could then match an ASCII key).
  init?(renames: [String], forbidden: [String], prefixes: [String], allowed: [String]?) {
    // ASCII checked on the tables' bytes, once they are made: through each String's UTF-8
    // view, byte by byte, the check cost half as much again as making the tables.
    self.renames = ByteNameSet(renames)
    self.forbidden = ByteNameSet(forbidden)
    self.prefixes = prefixes.map { Array($0.utf8) }
    self.allowed = allowed.map(ByteNameSet.init)
    guard self.renames.isASCII, self.forbidden.isASCII, self.allowed?.isASCII ?? true,
      self.prefixes.allSatisfy({ $0.allSatisfy { $0 < 0x80 } })
    else { return nil }
    var low: UInt64 = 0, high: UInt64 = 0
    for prefix in self.prefixes {
      guard let first = prefix.first else { continue }
      if first < 64 { low |= 1 << UInt64(first) } else { high |= 1 << UInt64(first - 64) }
    }
    prefixStartsLow = low
    prefixStartsHigh = high
    hasEmptyPrefix = self.prefixes.contains { $0.isEmpty }
  }

  @inline(__always) static func fold(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

  /// Whether an ASCII key without escapes (`JSONNode.keyIsASCII`: the parser has read its bytes)
  /// passes every check; false means "check it with Strings", not that it fails. One pass over
  /// the key hashes it as written and folded; the sets compare bytes only on a hash hit. (ASCII
  /// compares as Strings do byte for byte: no other text is canonically equivalent to it.)
  /// `knownHash`: the key's FNV-1a hash, when the document has it (`JSONDocument.keyHash`).
  func accepts(_ key: ArraySlice<UInt8>, hash knownHash: UInt32? = nil, foldingCase: Bool) -> Bool {
    let count = key.count
    guard count > 0, count <= 64, !hasEmptyPrefix else { return false }
    var hash = FNV1a.seed
    var foldedHash = FNV1a.seed
    if foldingCase {
      for b in key {
        hash = FNV1a.step(hash, b)
        foldedHash = FNV1a.step(foldedHash, Self.fold(b))
      }
    } else if let knownHash {
      hash = knownHash
      foldedHash = knownHash
    } else {
      for b in key { hash = FNV1a.step(hash, b) }
      foldedHash = hash
    }
    if renames.contains(key, hash: hash, folding: false) { return false }
    if let allowed, !allowed.contains(key, hash: hash, folding: false) { return false }
    if forbidden.contains(key, hash: foldedHash, folding: foldingCase) { return false }
    let first = foldingCase ? Self.fold(key[key.startIndex]) : key[key.startIndex]
    let bit = first < 64 ? prefixStartsLow >> UInt64(first) : prefixStartsHigh >> UInt64(first - 64)
    if bit & 1 == 0 { return true }
    for prefix in prefixes where prefix.count <= count {
      var equal = true
      for i in 0..<prefix.count where (foldingCase ? Self.fold(key[key.startIndex + i]) : key[key.startIndex + i]) != prefix[i] {
        equal = false
        break
      }
      if equal { return false }
    }
    return true
  }
}

/// A set of byte strings: FNV-1a hashes in an open-addressing table, one comparison per hit.
struct ByteNameSet: Sendable {
  /// hash << 32 | (name index + 1); 0 is an empty slot.
  private let slots: [UInt64]
  /// The names one after another; name i is `bytes[bounds[i]..<bounds[i + 1]]`.
  private let bytes: [UInt8]
  private let bounds: [Int]

  /// Repeated names are kept once. Built in the given order, without a `Set` or a sort of the
  /// Strings: rule options hold hundreds of names, and every start builds these sets.
  init(_ strings: [String]) {
    var size = 8
    while size < strings.count * 2 { size *= 2 }
    var slots = [UInt64](repeating: 0, count: size)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count })
    var bounds = [0]
    bounds.reserveCapacity(strings.count + 1)
    for name in strings {
      let start = bytes.count
      bytes.append(contentsOf: name.utf8)
      let hash = FNV1a.hash(bytes[start...])
      var slot = Int(hash) & (size - 1)
      var repeated = false
      while slots[slot] != 0 {
        let entry = slots[slot]
        let other = Int(UInt32(truncatingIfNeeded: entry)) - 1
        if UInt32(truncatingIfNeeded: entry >> 32) == hash, bytes[bounds[other]..<bounds[other + 1]].elementsEqual(bytes[start...]) {
          repeated = true
          break
        }
        slot = (slot + 1) & (size - 1)
      }
      if repeated {
        bytes.removeSubrange(start...)
        continue
      }
      bounds.append(bytes.count)
      slots[slot] = UInt64(hash) << 32 | UInt64(bounds.count - 1)  // the name's index + 1
    }
    self.slots = slots
    self.bytes = bytes
    self.bounds = bounds
  }

  /// Whether every name is ASCII.
  var isASCII: Bool { bytes.allSatisfy { $0 < 0x80 } }

  func contains(_ key: ArraySlice<UInt8>) -> Bool {
    contains(key, hash: FNV1a.hash(key), folding: false)
  }

  /// Whether the set holds `key` (ASCII-folded first when `folding`), whose (folded) hash is `hash`.
  func contains(_ key: ArraySlice<UInt8>, hash: UInt32, folding: Bool) -> Bool {
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return false }
      if UInt32(truncatingIfNeeded: entry >> 32) == hash && equals(Int(UInt32(truncatingIfNeeded: entry)) - 1, key, folding: folding) {
        return true
      }
      slot = (slot + 1) & mask
    }
  }

  private func equals(_ name: Int, _ key: ArraySlice<UInt8>, folding: Bool) -> Bool {
    let start = bounds[name], end = bounds[name + 1]
    guard end - start == key.count else { return false }
    var at = start
    for b in key {
      if (folding ? ASCIINames.fold(b) : b) != bytes[at] { return false }
      at += 1
    }
    return true
  }
}
