/// Regular expressions for rule files, matched in time linear in the text (a Thompson NFA
/// simulation), so no pattern a rule file holds can make a run hang on a long string, however it
/// nests its quantifiers (`(a+)+$` included).
///
/// Syntax: literals; `.`; classes `[a-z0-9_]`, `[^...]`; escapes `\d \D \w \W \s \S \n \r \t` and
/// `\` before any punctuation; anchors `^ $`; groups `(...)`, `(?:...)`; alternation `|`;
/// quantifiers `* + ? {n} {n,} {n,m}` (a trailing `?` for laziness is accepted: it changes nothing
/// when only asking whether a text matches); case-insensitive `(?i)` for the rest of a group and
/// `(?i:...)`; lookahead `(?=...)` and `(?!...)`. Back-references and lookbehind are refused.
public struct LinearRegex: Sendable {
  public struct SyntaxError: Error, Sendable, CustomStringConvertible {
    /// 0-based character offset in the pattern.
    public var offset: Int
    public var message: String
    public var description: String { "\(message) (at character \(offset + 1))" }
  }

  /// A set of Unicode scalars: ranges, possibly negated.
  struct CharSet: Sendable {
    var ranges: [ClosedRange<UInt32>]
    var negated: Bool

    func contains(_ c: UInt32) -> Bool {
      var inside = false
      for r in ranges where r.contains(c) {
        inside = true
        break
      }
      return inside != negated
    }
  }

  enum Inst: Sendable {
    case char(CharSet)
    case split(Int, Int)
    case jump(Int)
    case atStart
    case atEnd
    /// A lookahead: the sub-program must (or, negated, must not) match a prefix from here.
    case look(Int, negated: Bool)
    case match
  }

  /// Compiled programs: [0] is the pattern, the others its lookaheads.
  let programs: [[Inst]]
  public let source: String
  static let maxInstructions = 50_000
  /// Literals of which every match contains one (see `RequiredLiterals`): a text that contains
  /// none cannot match, which a byte search tells far faster than the NFA. Most values a rule
  /// tests do not match (`\.gif` on a PNG's URL), so most checks end here.
  let prefilter: RequiredLiterals?

  public init(_ pattern: String) throws(SyntaxError) {
    var parser = Parser(Array(pattern.unicodeScalars).map { $0.value })
    let tree = try parser.parseAll()
    var compiler = Compiler()
    _ = try compiler.program(for: tree)
    programs = compiler.programs
    source = pattern
    prefilter = RequiredLiterals(tree)
  }

  /// Whether the pattern matches anywhere in `text`.
  public func matches(_ text: String) -> Bool {
    if let prefilter, !prefilter.found(in: text) { return false }
    let scalars = Self.scalars(text)
    var run = Run(programs: programs, text: scalars)
    return run.search(program: 0, anchoredAt: nil) != nil
  }

  /// The leftmost match, as a range of Unicode scalar offsets, extended as far as it goes.
  public func firstMatch(in scalars: [UInt32]) -> Range<Int>? {
    var run = Run(programs: programs, text: scalars)
    for start in 0...scalars.count {
      if let end = run.longest(program: 0, from: start) { return start..<end }
    }
    return nil
  }

  /// The text as Unicode scalar values (ASCII text, the usual case, straight from its bytes).
  static func scalars(_ text: String) -> [UInt32] {
    let utf8 = text.utf8
    if utf8.allSatisfy({ $0 < 0x80 }) { return utf8.map { UInt32($0) } }
    return text.unicodeScalars.map { $0.value }
  }

  /// `text` with its leftmost match replaced (the fix `replacePattern` uses).
  public func replacingFirstMatch(in text: String, with replacement: String) -> String {
    let scalars = Array(text.unicodeScalars)
    guard let range = firstMatch(in: scalars.map { $0.value }) else { return text }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars[..<range.lowerBound])
    out.append(contentsOf: replacement.unicodeScalars)
    out.append(contentsOf: scalars[range.upperBound...])
    return String(out)
  }

  // MARK: - Matching

  struct Run {
    let programs: [[Inst]]
    let text: [UInt32]
    /// Lookahead results per (program, position).
    var memo: [Int: Bool] = [:]
    /// The work stack of `add`, shared by nested calls (each works above the height it found).
    var stack: [Int] = []

    init(programs: [[Inst]], text: [UInt32]) {
      self.programs = programs
      self.text = text
    }

    /// Simulates `program`; with `anchoredAt` nil, a match may start anywhere. Returns the end of
    /// the first match found (any match is enough to answer "does it match").
    mutating func search(program p: Int, anchoredAt start: Int?) -> Int? {
      let prog = programs[p]
      var current = SparseSet(capacity: prog.count)
      var next = SparseSet(capacity: prog.count)
      let first = start ?? 0
      // A pattern that starts with `^` can only match from position 0: no restarts.
      var restart = start == nil
      if case .atStart = prog[0] { restart = false }
      if add(prog, p, 0, first, &current) { return first }
      var pos = first
      while pos < text.count {
        let c = text[pos]
        next.clear()
        for pc in current.items {
          if case .char(let set) = prog[pc], set.contains(c) {
            if add(prog, p, pc + 1, pos + 1, &next) { return pos + 1 }
          }
        }
        pos += 1
        if restart, add(prog, p, 0, pos, &next) { return pos }
        swap(&current, &next)
        if current.items.isEmpty && !restart { return nil }
      }
      return nil
    }

    /// The longest match of `program` starting exactly at `start`, if any.
    mutating func longest(program p: Int, from start: Int) -> Int? {
      let prog = programs[p]
      var current = SparseSet(capacity: prog.count)
      var next = SparseSet(capacity: prog.count)
      var best: Int? = add(prog, p, 0, start, &current) ? start : nil
      var pos = start
      while pos < text.count, !current.items.isEmpty {
        let c = text[pos]
        next.clear()
        for pc in current.items {
          if case .char(let set) = prog[pc], set.contains(c) {
            if add(prog, p, pc + 1, pos + 1, &next) { best = pos + 1 }
          }
        }
        pos += 1
        swap(&current, &next)
      }
      return best
    }

    /// Adds `pc` and everything reachable from it without consuming a character; returns whether
    /// the match state was reached.
    mutating func add(_ prog: [Inst], _ p: Int, _ pc: Int, _ pos: Int, _ set: inout SparseSet) -> Bool {
      let base = stack.count
      stack.append(pc)
      var matched = false
      while stack.count > base {
        let pc = stack.removeLast()
        guard set.insert(pc) else { continue }
        switch prog[pc] {
        case .char: break
        case .match: matched = true
        case .jump(let target): stack.append(target)
        case .split(let a, let b):
          stack.append(b)
          stack.append(a)
        case .atStart: if pos == 0 { stack.append(pc + 1) }
        case .atEnd: if pos == text.count { stack.append(pc + 1) }
        case .look(let sub, let negated):
          let key = sub &* 1_000_003 &+ pos
          let found: Bool
          if let known = memo[key] {
            found = known
          } else {
            found = search(program: sub, anchoredAt: pos) != nil
            memo[key] = found
          }
          if found != negated { stack.append(pc + 1) }
        }
      }
      return matched
    }
  }

  /// States of one step, each once, in insertion order.
  struct SparseSet {
    var items: [Int] = []
    var member: [Bool]

    init(capacity: Int) { member = [Bool](repeating: false, count: capacity) }

    mutating func insert(_ i: Int) -> Bool {
      if member[i] { return false }
      member[i] = true
      items.append(i)
      return true
    }

    mutating func clear() {
      for i in items { member[i] = false }
      items.removeAll(keepingCapacity: true)
    }
  }

  // MARK: - Prefilter

  /// A set of ASCII strings, lower-cased, of which every match of a pattern contains at least
  /// one (as RE2 and Go's regexp derive from a pattern): `\.(?:gif|png)(?:[?#]|$)` requires
  /// ".gif" or ".png". Found by a case-insensitive byte search, so a case-sensitive literal also
  /// accepts other cases: the NFA decides those. Nil when a pattern requires nothing of at least
  /// two characters (`^[0-9]+$`).
  struct RequiredLiterals: Sendable {
    let needles: [[UInt8]]
    /// Whether a byte starts some needle.
    let firstBytes: [Bool]
    let shortest: Int

    static let maxStrings = 64
    static let maxLength = 32

    init?(_ node: Node) {
      guard let set = Self.required(node), let shortest = set.lazy.map({ $0.count }).min(), shortest >= 2 else { return nil }
      needles = Set(set).sorted { $0.lexicographicallyPrecedes($1) }
      var first = [Bool](repeating: false, count: 256)
      for needle in needles { first[Int(needle[0])] = true }
      firstBytes = first
      self.shortest = shortest
    }

    func found(in text: String) -> Bool {
      var text = text
      return text.withUTF8 { bytes in
        guard bytes.count >= shortest else { return false }
        for start in 0...(bytes.count - shortest) where firstBytes[Int(Self.lower(bytes[start]))] {
          next: for needle in needles where needle.count <= bytes.count - start {
            for k in 1..<needle.count where Self.lower(bytes[start + k]) != needle[k] { continue next }
            if Self.lower(bytes[start]) == needle[0] { return true }
          }
        }
        return false
      }
    }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// The one lower-cased ASCII byte a character set stands for (`g`, or `[gG]` under `(?i)`).
    static func byte(_ set: CharSet) -> UInt8? {
      guard !set.negated, !set.ranges.isEmpty,
        set.ranges.allSatisfy({ $0.lowerBound == $0.upperBound && $0.lowerBound < 0x80 })
      else { return nil }
      let first = lower(UInt8(set.ranges[0].lowerBound))
      return set.ranges.allSatisfy({ lower(UInt8($0.lowerBound)) == first }) ? first : nil
    }

    /// What a node tells about the strings it matches, computed bottom-up in one pass:
    /// `exact`, every string it matches when they are few and short (nil otherwise), and
    /// `required`, strings of which every match contains one (nil when there is no such set).
    struct Facts {
      var exact: [[UInt8]]?
      var required: [[UInt8]]?
    }

    static func required(_ node: Node) -> [[UInt8]]? { facts(node).required }

    static func facts(_ node: Node) -> Facts {
      switch node {
      case .empty, .atStart, .atEnd, .look:
        return Facts(exact: [[]], required: nil)
      case .char(let set):
        return exactly(byte(set).map { [[$0]] })
      case .concat(let items):
        var exact: [[UInt8]]? = [[]]
        var best: [[UInt8]]? = nil
        func consider(_ candidate: [[UInt8]]?) {
          guard let candidate, !candidate.isEmpty, !candidate.contains(where: { $0.isEmpty }) else { return }
          guard let current = best else { best = candidate; return }
          let (a, b) = (candidate.lazy.map({ $0.count }).min()!, current.lazy.map({ $0.count }).min()!)
          if a > b || (a == b && candidate.count < current.count) { best = candidate }
        }
        // A run of consecutive items with exact strings is a required literal of its own.
        var run: [[UInt8]] = [[]]
        for item in items {
          let f = facts(item)
          if let e = exact { exact = f.exact.flatMap { product(e, $0) } }
          if let e = f.exact {
            run = product(run, e) ?? e
            consider(run)
          } else {
            run = [[]]
            consider(f.required)
          }
        }
        if let exact, !exact.contains(where: { $0.isEmpty }) { consider(exact) }
        return Facts(exact: exact, required: best)
      case .alternation(let branches):
        var exact: [[UInt8]]? = []
        var required: [[UInt8]]? = []
        for branch in branches {
          let f = facts(branch)
          if let e = f.exact, let x = exact, x.count + e.count <= maxStrings { exact = x + e } else { exact = nil }
          if let r = f.required, let x = required, x.count + r.count <= maxStrings { required = x + r } else { required = nil }
        }
        if let exact, !exact.contains(where: { $0.isEmpty }) { return Facts(exact: exact, required: exact) }
        return Facts(exact: exact, required: required)
      case .repeated(let inner, let min, let max):
        let f = facts(inner)
        var exact: [[UInt8]]? = nil
        if let e = f.exact {
          if min == 0, max == 1 {
            exact = e + [[]]
          } else if let max, max == min, min <= 4 {
            exact = [[]]
            for _ in 0..<min { exact = exact.flatMap { product($0, e) } }
          }
        }
        if let exact, !exact.contains(where: { $0.isEmpty }) { return Facts(exact: exact, required: exact) }
        return Facts(exact: exact, required: min >= 1 ? f.required : nil)
      }
    }

    /// Facts of a node that matches exactly `set` (or an unknown set, for nil).
    static func exactly(_ set: [[UInt8]]?) -> Facts {
      guard let set else { return Facts(exact: nil, required: nil) }
      return Facts(exact: set, required: set.contains(where: { $0.isEmpty }) ? nil : set)
    }

    static func product(_ a: [[UInt8]], _ b: [[UInt8]]) -> [[UInt8]]? {
      guard a.count * b.count <= maxStrings else { return nil }
      var out: [[UInt8]] = []
      for x in a {
        for y in b {
          guard x.count + y.count <= maxLength else { return nil }
          out.append(x + y)
        }
      }
      return out
    }
  }

  // MARK: - Parsing

  indirect enum Node {
    case empty
    case char(CharSet)
    case atStart, atEnd
    case concat([Node])
    case alternation([Node])
    case repeated(Node, min: Int, max: Int?)
    case look(Node, negated: Bool)
  }

  struct Parser {
    let chars: [UInt32]
    var pos = 0
    var depth = 0

    init(_ chars: [UInt32]) { self.chars = chars }

    func fail(_ message: String, at offset: Int? = nil) -> SyntaxError { SyntaxError(offset: offset ?? pos, message: message) }
    var peek: UInt32? { pos < chars.count ? chars[pos] : nil }
    func isChar(_ c: Character) -> Bool { peek == c.unicodeScalars.first!.value }

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
            node = .look(try alternation(caseInsensitive: ci), negated: kind == 0x21)
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
        return .char(try charClass(ci))
      case 0x2E:  // .
        pos += 1
        return .char(CharSet(ranges: [0x0A...0x0A], negated: true))
      case 0x5E:  // ^
        pos += 1
        return .atStart
      case 0x24:  // $
        pos += 1
        return .atEnd
      case 0x5C:  // backslash
        pos += 1
        return .char(try escape(ci, inClass: false))
      case 0x2A, 0x2B, 0x3F, 0x7B:
        throw fail("nothing to repeat")
      default:
        pos += 1
        return .char(literal(c, ci))
      }
    }

    func literal(_ c: UInt32, _ ci: Bool) -> CharSet {
      var ranges: [ClosedRange<UInt32>] = [c...c]
      if ci { ranges += Self.otherCase(c...c) }
      return CharSet(ranges: ranges, negated: false)
    }

    /// The other-case ranges of the ASCII letters in `r`.
    static func otherCase(_ r: ClosedRange<UInt32>) -> [ClosedRange<UInt32>] {
      var out: [ClosedRange<UInt32>] = []
      let lower: ClosedRange<UInt32> = 0x61...0x7A, upper: ClosedRange<UInt32> = 0x41...0x5A
      if r.overlaps(lower) { out.append((max(r.lowerBound, 0x61) - 0x20)...(min(r.upperBound, 0x7A) - 0x20)) }
      if r.overlaps(upper) { out.append((max(r.lowerBound, 0x41) + 0x20)...(min(r.upperBound, 0x5A) + 0x20)) }
      return out
    }

    mutating func escape(_ ci: Bool, inClass: Bool) throws(SyntaxError) -> CharSet {
      guard let c = peek else { throw fail("a trailing '\\' escapes nothing") }
      pos += 1
      let digit: [ClosedRange<UInt32>] = [0x30...0x39]
      let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
      let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]
      switch c {
      case 0x64: return CharSet(ranges: digit, negated: false)  // d
      case 0x44: return CharSet(ranges: digit, negated: true)
      case 0x77: return CharSet(ranges: word, negated: false)  // w
      case 0x57: return CharSet(ranges: word, negated: true)
      case 0x73: return CharSet(ranges: space, negated: false)  // s
      case 0x53: return CharSet(ranges: space, negated: true)
      case 0x6E: return literal(0x0A, false)  // n
      case 0x72: return literal(0x0D, false)  // r
      case 0x74: return literal(0x09, false)  // t
      case 0x30...0x39:
        throw fail("back-references are not supported", at: pos - 2)
      case 0x62, 0x42:
        throw fail("word boundaries (\\b) are not supported", at: pos - 2)
      default:
        // Any punctuation stands for itself; letters would be unknown escapes.
        if (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) {
          throw fail("unknown escape '\\\(Character(Unicode.Scalar(c)!))'", at: pos - 2)
        }
        return literal(c, ci)
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
      var ranges: [ClosedRange<UInt32>] = []
      var first = true
      while true {
        guard let c = peek else { throw fail("unclosed '['", at: open) }
        if c == 0x5D && !first { break }  // ]
        first = false
        var low: UInt32
        if c == 0x5C {
          pos += 1
          let set = try escape(false, inClass: true)
          if set.negated || set.ranges.count != 1 || set.ranges[0].count != 1 {
            guard !set.negated else { throw fail("negated classes (\\D \\W \\S) inside [...] are not supported", at: pos - 2) }
            ranges += set.ranges
            continue
          }
          low = set.ranges[0].lowerBound
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
            let set = try escape(false, inClass: true)
            guard !set.negated, set.ranges.count == 1, set.ranges[0].count == 1 else { throw fail("bad range end", at: pos - 2) }
            high = set.ranges[0].lowerBound
          }
          guard low <= high else { throw fail("range out of order", at: pos - 3) }
          ranges.append(low...high)
        } else {
          ranges.append(low...low)
        }
      }
      pos += 1
      if ci { ranges += ranges.flatMap(Self.otherCase) }
      return CharSet(ranges: ranges, negated: negated)
    }
  }

  // MARK: - Compiling

  struct Compiler {
    var programs: [[Inst]] = []

    mutating func program(for node: Node) throws(SyntaxError) -> Int {
      let index = programs.count
      programs.append([])
      var code: [Inst] = []
      try emit(node, &code)
      code.append(.match)
      programs[index] = code
      return index
    }

    mutating func emit(_ node: Node, _ code: inout [Inst]) throws(SyntaxError) {
      if code.count > LinearRegex.maxInstructions {
        throw SyntaxError(offset: 0, message: "the pattern is too large once its repetitions are expanded")
      }
      switch node {
      case .empty: break
      case .char(let set): code.append(.char(set))
      case .atStart: code.append(.atStart)
      case .atEnd: code.append(.atEnd)
      case .concat(let items): for item in items { try emit(item, &code) }
      case .alternation(let branches):
        // split L1, next; L1: a; jump end; next: split L2, ...
        var jumps: [Int] = []
        for (i, branch) in branches.enumerated() {
          if i < branches.count - 1 {
            let split = code.count
            code.append(.split(split + 1, 0))
            try emit(branch, &code)
            jumps.append(code.count)
            code.append(.jump(0))
            code[split] = .split(split + 1, code.count)
          } else {
            try emit(branch, &code)
          }
        }
        for j in jumps { code[j] = .jump(code.count) }
      case .repeated(let inner, let min, let max):
        for _ in 0..<min { try emit(inner, &code) }
        if let max {
          // Each optional copy may be skipped to the end.
          var splits: [Int] = []
          for _ in min..<max {
            splits.append(code.count)
            code.append(.split(code.count + 1, 0))
            try emit(inner, &code)
          }
          for s in splits { code[s] = .split(s + 1, code.count) }
        } else {
          // L: split body, end; body; jump L
          let loop = code.count
          code.append(.split(loop + 1, 0))
          let bodyStart = code.count
          try emit(inner, &code)
          if code.count == bodyStart { code.removeLast(); break }  // an empty body repeats nothing
          code.append(.jump(loop))
          code[loop] = .split(loop + 1, code.count)
        }
      case .look(let inner, let negated):
        let sub = try program(for: inner)
        code.append(.look(sub, negated: negated))
      }
    }
  }
}
