// Parsing a pattern's syntax into a tree of `Node`s and the character sets its characters stand for.

extension LinearRegex {
  // MARK: - Character sets

  /// A set of Unicode scalars: a bitmap of its ASCII members (tested on every character, so
  /// without a loop) and the ranges above ASCII, possibly negated.
  struct CharSet: Sendable {
    /// ASCII membership, negation applied: bit c of `low` for c < 64, bit c - 64 of `high`.
    var low: UInt64 = 0
    var high: UInt64 = 0
    /// The ranges above ASCII (clipped to 0x80...), before negation.
    var nonASCII: [ClosedRange<UInt32>] = []
    var negated = false

    /// The empty set, to `insert` into.
    init() {}

    init(ranges: [ClosedRange<UInt32>], negated: Bool) {
      for r in ranges { add(r) }
      if negated { negate() }
    }

    /// Adds `r`, and under `(?i)` the other case of the ASCII letters in it.
    mutating func insert(_ r: ClosedRange<UInt32>, caseInsensitive: Bool) {
      add(r)
      guard caseInsensitive else { return }
      if r.overlaps(0x61...0x7A) { add((max(r.lowerBound, 0x61) - 0x20)...(min(r.upperBound, 0x7A) - 0x20)) }
      if r.overlaps(0x41...0x5A) { add((max(r.lowerBound, 0x41) + 0x20)...(min(r.upperBound, 0x5A) + 0x20)) }
    }

    /// Negates the set (once, before it is used).
    mutating func negate() {
      negated = true
      low = ~low
      high = ~high
    }

    /// One scalar, with the other case of an ASCII letter under `(?i)`.
    init(scalar c: UInt32, caseInsensitive: Bool) {
      insert(c...c, caseInsensitive: caseInsensitive)
    }

    private mutating func add(_ r: ClosedRange<UInt32>) {
      if r.lowerBound < 64 { low |= Self.bits(r.lowerBound, min(r.upperBound, 63)) }
      if r.lowerBound < 128, r.upperBound >= 64 { high |= Self.bits(max(r.lowerBound, 64) - 64, min(r.upperBound, 127) - 64) }
      if r.upperBound >= 128 { nonASCII.append(max(r.lowerBound, 128)...r.upperBound) }
    }

    /// Bits `from...to` (both below 64) of a word.
    private static func bits(_ from: UInt32, _ to: UInt32) -> UInt64 {
      let width = to - from + 1
      return (width == 64 ? ~0 : (UInt64(1) << width) - 1) << from
    }

    @inline(__always) func contains(_ c: UInt32) -> Bool {
      if c < 64 { return low >> c & 1 != 0 }
      if c < 128 { return high >> (c - 64) & 1 != 0 }
      return containsNonASCII(c)
    }

    func containsNonASCII(_ c: UInt32) -> Bool {
      var inside = false
      for r in nonASCII where r.contains(c) {
        inside = true
        break
      }
      return inside != negated
    }

    /// Whether the two sets surely share no scalar (false when unsure: above ASCII, a negated
    /// set is taken to meet any other set that has scalars there).
    func isDisjoint(with other: CharSet) -> Bool {
      guard low & other.low == 0, high & other.high == 0 else { return false }
      return !hasNonASCII || !other.hasNonASCII || (!negated && !other.negated && !nonASCII.contains { a in other.nonASCII.contains { a.overlaps($0) } })
    }

    /// Whether the set may hold scalars above ASCII.
    var hasNonASCII: Bool { negated || !nonASCII.isEmpty }
  }

  // MARK: - Tree

  enum Node: Sendable {
    /// Whether a lookahead sits inside a repetition that can take it more than once.
    var repeatsALookahead: Bool {
      func scan(_ node: Node, repeated: Bool) -> Bool {
        switch node {
        case .empty, .char, .atStart, .atEnd: return false
        case .concat(let items), .alternation(let items): return items.contains { scan($0, repeated: repeated) }
        case .repeated(let inner, _, let max): return scan(inner, repeated: repeated || max != 0 && max != 1)
        case .look(let inner, _, _): return repeated || scan(inner, repeated: repeated)
        }
      }
      return scan(self, repeated: false)
    }

    case empty
    /// One character of `classes[n]`.
    case char(Int)
    case atStart, atEnd
    case concat([Node])
    case alternation([Node])
    indirect case repeated(Node, min: Int, max: Int?)
    /// Lookahead `id` (its program is `id + 1`).
    indirect case look(Node, negated: Bool, id: Int)
  }

  struct Parser {
    let chars: [UInt32]
    var pos = 0
    var depth = 0
    var classes: [CharSet] = []
    var lookCount = 0

    static let dot = CharSet(ranges: [0x0A...0x0A], negated: true)
    static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
    static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]

    init(_ chars: [UInt32]) {
      self.chars = chars
      classes.reserveCapacity(chars.count)
    }

    func fail(_ message: String, at offset: Int? = nil) -> SyntaxError { SyntaxError(offset: offset ?? pos, message: message) }
    var peek: UInt32? { pos < chars.count ? chars[pos] : nil }
    func isChar(_ c: Unicode.Scalar) -> Bool { pos < chars.count && chars[pos] == c.value }

    mutating func node(_ set: CharSet) -> Node {
      classes.append(set)
      return .char(classes.count - 1)
    }

    mutating func parseAll() throws(SyntaxError) -> Node {
      let node = try alternation(caseInsensitive: false)
      if pos < chars.count { throw fail(isChar(")") ? "unmatched ')'" : "unexpected character") }
      return node
    }

    mutating func alternation(caseInsensitive: Bool) throws(SyntaxError) -> Node {
      var ci = caseInsensitive
      var branches = [try concat(&ci)]
      while isChar("|") {
        pos += 1
        branches.append(try concat(&ci))
      }
      return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func concat(_ ci: inout Bool) throws(SyntaxError) -> Node {
      var items: [Node] = []
      items.reserveCapacity(min(16, chars.count - pos))
      while let c = peek, c != 0x7C /* | */, c != 0x29 /* ) */ {
        // `(?i)` turns on case-insensitivity for the rest of the enclosing group.
        if c == 0x28, pos + 3 < chars.count, chars[pos + 1] == 0x3F, chars[pos + 2] == 0x69, chars[pos + 3] == 0x29 {
          ci = true
          pos += 4
          continue
        }
        let atomStart = pos
        var atom = try self.atom(ci)
        atom = try quantified(atom, atomStart)
        items.append(atom)
      }
      return items.count == 1 ? items[0] : .concat(items)
    }

    mutating func quantified(_ atom: Node, _ atomStart: Int) throws(SyntaxError) -> Node {
      guard let c = peek else { return atom }
      var result: Node
      switch c {
      case 0x2A: pos += 1; result = .repeated(atom, min: 0, max: nil)  // *
      case 0x2B: pos += 1; result = .repeated(atom, min: 1, max: nil)  // +
      case 0x3F: pos += 1; result = .repeated(atom, min: 0, max: 1)  // ?
      case 0x7B:  // {
        let open = pos
        pos += 1
        guard let min = number() else { throw fail("expected a number after '{'", at: open) }
        var max: Int? = min
        if isChar(",") {
          pos += 1
          max = number()
        }
        guard isChar("}") else { throw fail("expected '}'", at: open) }
        pos += 1
        if let max, max < min { throw fail("{\(min),\(max)}: the maximum is below the minimum", at: open) }
        if min > 1000 || (max ?? 0) > 1000 { throw fail("repetition counts above 1000 are not supported", at: open) }
        result = .repeated(atom, min: min, max: max)
      default:
        return atom
      }
      if case .atStart = atom { throw fail("nothing to repeat", at: atomStart) }
      if isChar("?") { pos += 1 }  // lazy: the same for matching
      if let c = peek, c == 0x2A || c == 0x2B || c == 0x3F || c == 0x7B {
        throw fail("a quantifier cannot follow another (possessive quantifiers are not supported)")
      }
      return result
    }

    mutating func number() -> Int? {
      var value: Int? = nil
      while let c = peek, c >= 0x30, c <= 0x39 {
        value = (value ?? 0) * 10 + Int(c - 0x30)
        if value! > 100_000 { return value }
        pos += 1
      }
      return value
    }

    mutating func atom(_ ci: Bool) throws(SyntaxError) -> Node {
      let c = chars[pos]
      switch c {
      case 0x28:  // (
        depth += 1
        if depth > 64 { throw fail("groups nested too deeply") }
        defer { depth -= 1 }
        let open = pos
        pos += 1
        var node: Node
        if isChar("?") {
          pos += 1
          guard let kind = peek else { throw fail("unclosed group", at: open) }
          switch kind {
          case 0x3A:  // (?:
            pos += 1
            node = try alternation(caseInsensitive: ci)
          case 0x3D, 0x21:  // (?= (?!
            pos += 1
            let id = lookCount
            lookCount += 1
            node = .look(try alternation(caseInsensitive: ci), negated: kind == 0x21, id: id)
          case 0x69 where pos + 1 < chars.count && chars[pos + 1] == 0x3A:  // (?i:
            pos += 2
            node = try alternation(caseInsensitive: true)
          case 0x3C:
            throw fail("lookbehind and named groups are not supported", at: open)
          default:
            throw fail("unsupported group syntax '(?\(Character(Unicode.Scalar(kind)!))'", at: open)
          }
        } else {
          node = try alternation(caseInsensitive: ci)
        }
        guard isChar(")") else { throw fail("unclosed group", at: open) }
        pos += 1
        return node
      case 0x5B:  // [
        return node(try charClass(ci))
      case 0x2E:  // .
        pos += 1
        return node(Self.dot)
      case 0x5E:  // ^
        pos += 1
        return .atStart
      case 0x24:  // $
        pos += 1
        return .atEnd
      case 0x5C:  // backslash
        pos += 1
        switch try escape() {
        case .scalar(let c): return node(CharSet(scalar: c, caseInsensitive: ci))
        case .set(let ranges, let negated): return node(CharSet(ranges: ranges, negated: negated))
        }
      case 0x2A, 0x2B, 0x3F, 0x7B:
        throw fail("nothing to repeat")
      default:
        pos += 1
        return node(CharSet(scalar: c, caseInsensitive: ci))
      }
    }

    /// What an escape stands for: one scalar (which `(?i)` may widen), or a class.
    enum Escaped {
      case scalar(UInt32)
      case set([ClosedRange<UInt32>], negated: Bool)
    }

    mutating func escape() throws(SyntaxError) -> Escaped {
      guard let c = peek else { throw fail("a trailing '\\' escapes nothing") }
      pos += 1
      switch c {
      case 0x64: return .set(Self.digit, negated: false)  // d
      case 0x44: return .set(Self.digit, negated: true)
      case 0x77: return .set(Self.word, negated: false)  // w
      case 0x57: return .set(Self.word, negated: true)
      case 0x73: return .set(Self.space, negated: false)  // s
      case 0x53: return .set(Self.space, negated: true)
      case 0x6E: return .scalar(0x0A)  // n
      case 0x72: return .scalar(0x0D)  // r
      case 0x74: return .scalar(0x09)  // t
      case 0x30...0x39:
        throw fail("back-references are not supported", at: pos - 2)
      case 0x62, 0x42:
        throw fail("word boundaries (\\b) are not supported", at: pos - 2)
      default:
        // Any punctuation stands for itself; letters would be unknown escapes.
        if (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) {
          throw fail("unknown escape '\\\(Character(Unicode.Scalar(c)!))'", at: pos - 2)
        }
        return .scalar(c)
      }
    }

    mutating func charClass(_ ci: Bool) throws(SyntaxError) -> CharSet {
      let open = pos
      pos += 1
      var negated = false
      if isChar("^") {
        negated = true
        pos += 1
      }
      var set = CharSet()
      var first = true
      while true {
        guard let c = peek else { throw fail("unclosed '['", at: open) }
        if c == 0x5D && !first { break }  // ]
        first = false
        var low: UInt32
        if c == 0x5C {
          pos += 1
          switch try escape() {
          case .scalar(let c):
            low = c
          case .set(let ranges, let setNegated):
            guard !setNegated else { throw fail("negated classes (\\D \\W \\S) inside [...] are not supported", at: pos - 2) }
            for r in ranges { set.insert(r, caseInsensitive: ci) }
            continue
          }
        } else {
          pos += 1
          low = c
        }
        // A range a-z (a '-' first or last is a literal).
        if isChar("-"), pos + 1 < chars.count, chars[pos + 1] != 0x5D {
          pos += 1
          var high = chars[pos]
          pos += 1
          if high == 0x5C {
            guard case .scalar(let c) = try escape() else { throw fail("bad range end", at: pos - 2) }
            high = c
          }
          guard low <= high else { throw fail("range out of order", at: pos - 3) }
          set.insert(low...high, caseInsensitive: ci)
        } else {
          set.insert(low...low, caseInsensitive: ci)
        }
      }
      pos += 1
      if negated { set.negate() }
      return set
    }
  }
}
