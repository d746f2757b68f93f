#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Regular expressions for rule files, matched in time linear in the text (a Thompson NFA
/// simulation), so no pattern a rule file holds can make a run hang on a long string, however it
/// nests its quantifiers (`(a+)+$` included).
///
/// Syntax: literals; `.`; classes `[a-z0-9_]`, `[^...]`; escapes `\d \D \w \W \s \S \n \r \t` and
/// `\` before any punctuation; anchors `^ $`; groups `(...)`, `(?:...)`; alternation `|`;
/// quantifiers `* + ? {n} {n,} {n,m}` (a trailing `?` for laziness is accepted: it changes nothing
/// when only asking whether a text matches); case-insensitive `(?i)` for the rest of a group and
/// `(?i:...)`; lookahead `(?=...)` and `(?!...)`, each answered for every position of the text
/// in one backward pass when a search needs it (`Run.table`). Back-references and lookbehind are
/// refused, and so is a pattern whose expanded program is longer than `maxInstructions`: the
/// NFA's time is the program's length times the text's.
///
/// Most patterns rules use are anchored and "one-pass" (at every character at most one way
/// through the pattern can go on, as in `^(/topics/)?[A-Za-z0-9_.~%\-]{1,900}$`): those are
/// matched by `OnePass`, one thread and a counter per class run, without expanding `{1,900}`
/// into 1,800 instructions. The others are matched by the NFA, compiled only for them.
public struct LinearRegex: Sendable {
  public struct SyntaxError: Error, Sendable, CustomStringConvertible {
    /// 0-based character offset in the pattern.
    public var offset: Int
    public var message: String
    public var description: String { "\(message) (at character \(offset + 1))" }
  }

  public let source: String
  static let maxInstructions = 4_096
  /// What the pattern compiled to, behind one reference, so that copying a regex (rules hand
  /// theirs around by value on every check) costs one retain rather than one per array.
  let compiled: Compiled

  /// The compiled forms of a pattern; immutable, so threads share it.
  final class Compiled: Sendable {
    /// Literals of which every match contains one (see `RequiredLiterals`): a text that
    /// contains none cannot match, which a byte search tells far faster than the NFA. Most
    /// values a rule tests do not match (`\.gif` on a PNG's URL), so most checks end here. Only
    /// for patterns matched on the NFA.
    let prefilter: RequiredLiterals?
    /// The character classes of the pattern, which instructions name by index.
    let classes: [CharSet]
    /// The parsed pattern, kept to compile the NFA on demand when `nfa` is nil; nil for a
    /// pattern read from its compiled form (`init(reading:)`), which parses its source again then.
    let tree: Node?
    /// How many lookaheads the pattern has (program i + 1 is lookahead i).
    let lookCount: Int
    /// The one-pass matcher, when the pattern has one (then `nfa` is nil).
    let onePass: OnePass?
    /// Compiled NFA programs: [0] is the pattern, [i + 1] its lookahead i.
    let nfa: [[Inst]]?
    /// The lookaheads' programs reversed, by program (see `Run.table`).
    let reversedNFA: [[Inst]]
    /// The NFA determinized for ASCII text, when it has no lookahead and few states.
    let dfa: DFA?

    convenience init(
      prefilter: RequiredLiterals?, classes: [CharSet], tree: Node, lookCount: Int, onePass: OnePass?, nfa: [[Inst]]?, dfa: DFA? = nil
    ) {
      self.init(
        prefilter: prefilter, classes: classes, tree: tree, lookCount: lookCount, onePass: onePass, nfa: nfa,
        reversedNFA: Compiler.reversedLookaheads(tree, lookCount: lookCount), dfa: dfa)
    }

    init(
      prefilter: RequiredLiterals?, classes: [CharSet], tree: Node?, lookCount: Int, onePass: OnePass?, nfa: [[Inst]]?,
      reversedNFA: [[Inst]], dfa: DFA?
    ) {
      self.prefilter = prefilter
      self.classes = classes
      self.tree = tree
      self.lookCount = lookCount
      self.onePass = onePass
      self.nfa = nfa
      self.reversedNFA = reversedNFA
      self.dfa = dfa
    }
  }

  var prefilter: RequiredLiterals? { compiled.prefilter }
  var classes: [CharSet] { compiled.classes }
  var onePass: OnePass? { compiled.onePass }
  var nfa: [[Inst]]? { compiled.nfa }
  var tree: Node {
    if let tree = compiled.tree { return tree }
    // Read from its compiled form: the source compiled when the form was written.
    var parser = Parser(source.unicodeScalars.map(\.value))
    do {
      return try parser.parseAll()
    } catch {
      preconditionFailure("a compiled pattern's source no longer parses: \(error)")
    }
  }

  public init(_ pattern: String) throws(SyntaxError) {
    try self.init(pattern, fastPaths: true)
  }

  /// With `fastPaths` false, every search runs on the NFA (tests compare both ways).
  init(_ pattern: String, fastPaths: Bool) throws(SyntaxError) {
    var scalars: [UInt32] = []
    scalars.reserveCapacity(pattern.utf8.count)
    for scalar in pattern.unicodeScalars { scalars.append(scalar.value) }
    var parser = Parser(scalars)
    let tree = try parser.parseAll()
    try SizeGuard.check(tree)
    source = pattern
    var onePass: OnePass? = nil
    // The one-pass matcher asks a lookahead forward from where its one thread is: fine once,
    // quadratic if a repetition brings the thread back to it at every character. Those go to
    // the NFA, which answers lookaheads for all positions in one pass.
    if fastPaths && !tree.repeatsALookahead {
      var compact = Compiler(lookCount: parser.lookCount, compactRuns: true)
      compact.compile(tree)
      onePass = OnePass(programs: compact.programs, classes: parser.classes)
    }
    if onePass == nil {
      var compiler = Compiler(lookCount: parser.lookCount, compactRuns: false)
      compiler.compile(tree)
      let prefilter = RequiredLiterals(tree, classes: parser.classes)
      let dfa = fastPaths && parser.lookCount == 0 ? DFA(program: compiler.programs[0], classes: parser.classes) : nil
      compiled = Compiled(
        prefilter: prefilter, classes: parser.classes, tree: tree, lookCount: parser.lookCount, onePass: nil, nfa: compiler.programs, dfa: dfa)
    } else {
      // An anchored one-pass match stops at the first character that cannot go on, sooner
      // than a search for a required literal through the whole text: no prefilter.
      compiled = Compiled(prefilter: nil, classes: parser.classes, tree: tree, lookCount: parser.lookCount, onePass: onePass, nfa: nil)
    }
  }

  /// The NFA programs, compiled now if the pattern matches by `onePass` (only replacements,
  /// which need the longest match, come here for those).
  var nfaPrograms: [[Inst]] {
    if let nfa = compiled.nfa { return nfa }
    var compiler = Compiler(lookCount: compiled.lookCount, compactRuns: false)
    compiler.compile(tree)
    return compiler.programs
  }

  /// Whether the pattern matches anywhere in `text`.
  public func matches(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { matches(utf8: $0) }
  }

  /// Whether the pattern matches anywhere in a text given as its UTF-8 bytes (valid UTF-8).
  public func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let compiled = compiled
    let input = UTF8Text(bytes: bytes)
    if let onePass = compiled.onePass { return onePass.matches(input) }
    // A table look-up per byte costs less than the prefilter's search.
    if let dfa = compiled.dfa, let matched = dfa.matches(bytes) { return matched }
    if let prefilter = compiled.prefilter, !prefilter.found(in: bytes) { return false }
    var run = Run(programs: compiled.nfa!, reversed: compiled.reversedNFA, classes: compiled.classes, text: input)
    return run.search(program: 0, anchoredAt: nil)
  }

  /// Whether the pattern matches anywhere in `text`, on the NFA whatever the pattern (for tests).
  func nfaMatches(_ text: String) -> Bool { nfaSearch(text).matched }

  /// `nfaMatches`, and the states the search visited (for tests).
  func nfaSearch(_ text: String) -> (matched: Bool, work: Int) {
    var text = text
    let programs = nfaPrograms
    return text.withUTF8 { bytes in
      var run = Run(programs: programs, reversed: compiled.reversedNFA, classes: classes, text: UTF8Text(bytes: bytes))
      let matched = run.search(program: 0, anchoredAt: nil)
      return (matched, run.work)
    }
  }

  /// The leftmost match, as a range of Unicode scalar offsets, extended as far as it goes.
  public func firstMatch(in scalars: [UInt32]) -> Range<Int>? {
    let programs = nfaPrograms
    return scalars.withUnsafeBufferPointer { buffer in
      var run = Run(programs: programs, reversed: compiled.reversedNFA, classes: classes, text: ScalarText(scalars: buffer))
      for start in 0...buffer.count {
        if let end = run.longest(program: 0, from: start) { return start..<end }
      }
      return nil
    }
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

  // MARK: - Text

  /// Text a search reads a Unicode scalar at a time; positions are the text's own offsets.
  protocol Text {
    var count: Int { get }
    /// The scalar at `i` and the position after it.
    func scalar(at i: Int) -> (value: UInt32, next: Int)
    /// The scalar that ends at `i` (`i` > 0) and the position where it starts.
    func scalar(before i: Int) -> (value: UInt32, start: Int)
  }

  /// A string's UTF-8 bytes (valid UTF-8, as a Swift string's always are), decoded as they are
  /// read, so a search neither copies nor decodes the text up front.
  struct UTF8Text: Text {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }

    @inline(__always) func scalar(at i: Int) -> (value: UInt32, next: Int) {
      let b0 = UInt32(bytes[i])
      if b0 < 0x80 { return (b0, i + 1) }
      let b1 = UInt32(bytes[i + 1]) & 0x3F
      if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | b1, i + 2) }
      let b2 = UInt32(bytes[i + 2]) & 0x3F
      if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | b1 << 6 | b2, i + 3) }
      let b3 = UInt32(bytes[i + 3]) & 0x3F
      return ((b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, i + 4)
    }

    @inline(__always) func scalar(before i: Int) -> (value: UInt32, start: Int) {
      var start = i - 1
      while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
      return (scalar(at: start).value, start)
    }
  }

  /// Unicode scalar values, one position each (for `firstMatch`, which answers in scalars).
  struct ScalarText: Text {
    let scalars: UnsafeBufferPointer<UInt32>
    var count: Int { scalars.count }
    @inline(__always) func scalar(at i: Int) -> (value: UInt32, next: Int) { (scalars[i], i + 1) }
    @inline(__always) func scalar(before i: Int) -> (value: UInt32, start: Int) { (scalars[i - 1], i - 1) }
  }

  // MARK: - Matching (NFA)

  enum Inst: Sendable {
    /// One character of the class `classes[n]`.
    case char(Int)
    /// Only in compact programs (see `OnePass`): `min...max` characters of one class.
    case run(Int, min: Int, max: Int)
    case split(Int, Int)
    case jump(Int)
    case atStart
    case atEnd
    /// A lookahead: the program must (or, negated, must not) match a prefix from here.
    case look(Int, negated: Bool)
    case match
  }

  struct Run<T: Text> {
    let programs: [[Inst]]
    let classes: [CharSet]
    let text: T
    /// Each lookahead's program reversed (`reversed[i]` for program i; empty for program 0).
    let reversed: [[Inst]]
    /// For each lookahead program asked about, whether it matches from each text position,
    /// worked out for all positions in one backward pass (see `table`): asking a lookahead at
    /// every position by running it forward from there was quadratic.
    var tables: [Int: [Bool]] = [:]
    /// States visited, lookahead tables included: what the tests hold to a linear bound (counted
    /// in debug builds only, the hot loop's one extra add in a release build showed in callgrind).
    var work = 0

    init(programs: [[Inst]], reversed: [[Inst]], classes: [CharSet], text: T) {
      self.programs = programs
      self.reversed = reversed
      self.classes = classes
      self.text = text
    }

    /// Whether lookahead program `p` matches a prefix of the text from each position: its
    /// reversed program run backward from the end, a new thread started at every position (any
    /// match end will do), and a position marked where a thread reaches the match. Linear: one
    /// pass, each position's states once.
    mutating func table(_ p: Int) -> [Bool] {
      if let known = tables[p] { return known }
      let program = reversed[p]
      var result = [Bool](repeating: false, count: text.count + 1)
      program.withUnsafeBufferPointer { prog in
        StateSets.with(capacity: prog.count) { current, next, stack in
          var pos = text.count
          result[pos] = add(prog, 0, pos, &current, &stack)
          while pos > 0 {
            let (c, start) = text.scalar(before: pos)
            next.clear()
            var matched = false
            for i in 0..<current.count {
              let pc = current.items[i]
              if case .char(let set) = prog[pc], classes[set].contains(c) {
                if add(prog, pc + 1, start, &next, &stack) { matched = true }
              }
            }
            if add(prog, 0, start, &next, &stack) { matched = true }
            pos = start
            result[pos] = matched
            swap(&current, &next)
          }
        }
      }
      tables[p] = result
      return result
    }

    /// Simulates `program`; with `anchoredAt` nil, a match may start anywhere. Returns whether
    /// a match was found (any match is enough to answer "does it match").
    mutating func search(program p: Int, anchoredAt start: Int?) -> Bool {
      let program = programs[p]
      let classes = classes
      return program.withUnsafeBufferPointer { prog in
        classes.withUnsafeBufferPointer { classes in
          StateSets.with(capacity: prog.count) { current, next, stack in
            let first = start ?? 0
            // A pattern that starts with `^` can only match from position 0: no restarts.
            var restart = start == nil
            if case .atStart = prog[0] { restart = false }
            if add(prog, 0, first, &current, &stack) { return true }
            var pos = first
            while pos < text.count {
              let (c, after) = text.scalar(at: pos)
              next.clear()
              for i in 0..<current.count {
                let pc = current.items[i]
                if case .char(let set) = prog[pc], classes[set].contains(c) {
                  if add(prog, pc + 1, after, &next, &stack) { return true }
                }
              }
              pos = after
              if restart, add(prog, 0, pos, &next, &stack) { return true }
              swap(&current, &next)
              if current.count == 0 && !restart { return false }
            }
            return false
          }
        }
      }
    }

    /// The longest match of `program` starting exactly at `start`, if any.
    mutating func longest(program p: Int, from start: Int) -> Int? {
      let program = programs[p]
      let classes = classes
      return program.withUnsafeBufferPointer { prog in
        classes.withUnsafeBufferPointer { classes in
          StateSets.with(capacity: prog.count) { current, next, stack in
            var best: Int? = add(prog, 0, start, &current, &stack) ? start : nil
            var pos = start
            while pos < text.count, current.count > 0 {
              let (c, after) = text.scalar(at: pos)
              next.clear()
              for i in 0..<current.count {
                let pc = current.items[i]
                if case .char(let set) = prog[pc], classes[set].contains(c) {
                  if add(prog, pc + 1, after, &next, &stack) { best = after }
                }
              }
              pos = after
              swap(&current, &next)
            }
            return best
          }
        }
      }
    }

    /// Adds `pc` and everything reachable from it without consuming a character; returns whether
    /// the match state was reached.
    mutating func add(_ prog: UnsafeBufferPointer<Inst>, _ pc: Int, _ pos: Int, _ set: inout StateSets.Set, _ stack: inout StateSets.Stack) -> Bool {
      stack.push(pc)
      var matched = false
      while let pc = stack.pop() {
        guard set.insert(pc) else { continue }
        #if DEBUG
        work += 1
        #endif
        switch prog[pc] {
        case .char, .run: break
        case .match: matched = true
        case .jump(let target): stack.push(target)
        case .split(let a, let b):
          stack.push(b)
          stack.push(a)
        case .atStart: if pos == 0 { stack.push(pc + 1) }
        case .atEnd: if pos == text.count { stack.push(pc + 1) }
        case .look(let sub, let negated):
          if table(sub)[pos] != negated { stack.push(pc + 1) }
        }
      }
      return matched
    }
  }

  /// The two state sets and the work stack of one NFA search, in one allocation whose only
  /// initialised part is a bitmap of a bit per instruction (not a `[Bool]` per set, as each
  /// search once allocated).
  enum StateSets {
    /// States of one step, each once, in insertion order.
    struct Set {
      let items: UnsafeMutablePointer<Int>
      let member: UnsafeMutablePointer<UInt64>
      var count = 0

      @inline(__always) mutating func insert(_ i: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(i & 63)
        if member[i >> 6] & bit != 0 { return false }
        member[i >> 6] |= bit
        items[count] = i
        count += 1
        return true
      }

      mutating func clear() {
        for k in 0..<count { member[items[k] >> 6] &= ~(1 << UInt64(items[k] & 63)) }
        count = 0
      }
    }

    /// Instructions still to follow in `add`: each is pushed when one that is newly in the set
    /// is followed, at most two per instruction, so it never holds more than twice the program.
    struct Stack {
      let items: UnsafeMutablePointer<Int>
      var count = 0

      @inline(__always) mutating func push(_ pc: Int) {
        items[count] = pc
        count += 1
      }

      @inline(__always) mutating func pop() -> Int? {
        guard count > 0 else { return nil }
        count -= 1
        return items[count]
      }
    }

    static func with<R>(capacity: Int, _ body: (inout Set, inout Set, inout Stack) -> R) -> R {
      let words = (capacity + 63) / 64
      let stackSize = 2 * capacity + 2
      let memory = UnsafeMutablePointer<Int>.allocate(capacity: 2 * capacity + stackSize + 2 * words)
      defer { memory.deallocate() }
      let bitmaps = UnsafeMutableRawPointer(memory + 2 * capacity + stackSize).bindMemory(to: UInt64.self, capacity: 2 * words)
      bitmaps.initialize(repeating: 0, count: 2 * words)
      var a = Set(items: memory, member: bitmaps)
      var b = Set(items: memory + capacity, member: bitmaps + words)
      var stack = Stack(items: memory + 2 * capacity)
      return body(&a, &b, &stack)
    }
  }

  // MARK: - Matching (one pass)

  /// A pattern that at every character can go on in at most one way, matched by one thread:
  /// the class run it is in and how many characters the run has taken (RE2's "one-pass"
  /// matcher, here with counted runs, so `[a-z]{1,900}` is one state and not 1,800).
  ///
  /// Built from a compact program (runs not expanded). Every run of it is a `Consumer`; from the
  /// start, and from after each consumer, the ways on without consuming are listed as `Entry`s
  /// (the consumer or match they reach and the zero-width conditions on the way). The pattern
  /// qualifies when the consumers of each list have disjoint classes (and a run's class is
  /// disjoint from what follows it), so the next character picks the way; when the whole pattern
  /// is anchored by `^`; and when lookaheads hold no lookaheads. Immutable once built, so
  /// threads share it.
  struct OnePass: Sendable {
    struct Consumer {
      var low: UInt64
      var high: UInt64
      var set: Int
      var min: Int
      var max: Int
      var follow: Range<Int>
      /// Whether every match in `follow` needs the end of the text, so that while the run goes
      /// on (the class excludes what follows), nothing else needs looking at.
      var matchesOnlyAtEnd: Bool
    }

    struct Entry {
      /// A consumer, or `matched`.
      var target: Int
      var needsStart: Bool
      var needsEnd: Bool
      /// The lookaheads that must hold, in `looks`.
      var looks: Range<Int>
    }

    struct Look {
      var program: Int
      var negated: Bool
    }

    static let matched = -1
    /// Work allowed to build one (the lists can grow with the square of the pattern).
    static let budget = 20_000

    let classes: [CharSet]
    let consumers: [Consumer]
    let entries: [Entry]
    let looks: [Look]
    /// The entries of each program's start.
    let starts: [Range<Int>]

    init(classes: [CharSet], consumers: [Consumer], entries: [Entry], looks: [Look], starts: [Range<Int>]) {
      self.classes = classes
      self.consumers = consumers
      self.entries = entries
      self.looks = looks
      self.starts = starts
    }

    init?(programs: [[Inst]], classes: [CharSet]) {
      guard programs.count <= 64 else { return nil }  // lookahead results live on the stack
      var builder = Builder(programs: programs, classes: classes)
      guard builder.build() else { return nil }
      self.classes = classes
      consumers = builder.consumers
      entries = builder.entries
      looks = builder.looks
      starts = builder.starts
    }

    func matches<T: Text>(_ text: T) -> Bool {
      if starts.count == 1 {
        var none = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
        return matches(text, program: 0, at: 0, &none)
      }
      // The last result of each lookahead (position * 2 + answer): a lookahead is asked again
      // only at the position the thread is at, so that is all there is to remember.
      return withUnsafeTemporaryAllocation(of: Int.self, capacity: starts.count) { buffer in
        var memo = buffer
        memo.initialize(repeating: -1)
        return matches(text, program: 0, at: 0, &memo)
      }
    }

    /// Whether `program` matches a prefix of `text` from `start`.
    func matches<T: Text>(_ text: T, program: Int, at start: Int, _ memo: inout UnsafeMutableBufferPointer<Int>) -> Bool {
      consumers.withUnsafeBufferPointer { consumers in
        entries.withUnsafeBufferPointer { entries in
          let end = text.count
          var pos = start
          var list = starts[program]
          var current = -1  // the consumer the thread is in (none before the first character)
          var taken = 0
          while true {
            if current >= 0, consumers[current].matchesOnlyAtEnd {
              // Inside a run, away from the end, only the run itself can take a character.
              let consumer = consumers[current]
              while taken < consumer.max, pos < end {
                let (c, after) = text.scalar(at: pos)
                guard contains(consumer, c) else { break }
                taken += 1
                pos = after
              }
            }
            let atEnd = pos == end
            var c: UInt32 = 0
            var after = pos
            if !atEnd { (c, after) = text.scalar(at: pos) }
            var chosen = -1
            if current < 0 || taken >= consumers[current].min {
              for e in list {
                let entry = entries[e]
                if entry.needsStart && pos != 0 || entry.needsEnd && !atEnd { continue }
                if !entry.looks.isEmpty, !holds(entry.looks, text, pos, &memo) { continue }
                if entry.target == Self.matched { return true }
                if !atEnd, chosen < 0, contains(consumers[entry.target], c) { chosen = entry.target }
              }
            }
            if atEnd { return false }
            if current >= 0, taken < consumers[current].max, contains(consumers[current], c) {
              taken += 1
            } else if chosen >= 0 {
              current = chosen
              taken = 1
              list = consumers[chosen].follow
            } else {
              return false
            }
            pos = after
          }
        }
      }
    }

    @inline(__always) func contains(_ consumer: Consumer, _ c: UInt32) -> Bool {
      if c < 64 { return consumer.low >> c & 1 != 0 }
      if c < 128 { return consumer.high >> (c - 64) & 1 != 0 }
      return classes[consumer.set].containsNonASCII(c)
    }

    func holds<T: Text>(_ range: Range<Int>, _ text: T, _ pos: Int, _ memo: inout UnsafeMutableBufferPointer<Int>) -> Bool {
      for i in range {
        let look = looks[i]
        let found: Bool
        if memo[look.program] >= 0, memo[look.program] >> 1 == pos {
          found = memo[look.program] & 1 != 0
        } else {
          // Lookaheads hold no lookaheads (or the pattern would not be here): no memo needed.
          var none = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
          found = matches(text, program: look.program, at: pos, &none)
          memo[look.program] = pos << 1 | (found ? 1 : 0)
        }
        if found == look.negated { return false }
      }
      return true
    }

    /// Finds the consumers and lists, and whether they qualify.
    struct Builder {
      let programs: [[Inst]]
      let classes: [CharSet]
      var consumers: [Consumer] = []
      var entries: [Entry] = []
      var looks: [Look] = []
      var starts: [Range<Int>] = []
      /// Where each program's instructions start in the flat arrays below.
      var base: [Int] = []
      /// The consumer of each run instruction (-1 for other instructions).
      var consumerAt: [Int] = []
      /// The walk that last visited each instruction (a second visit in one walk means two
      /// ways lead to the same place: not one-pass).
      var visited: [Int] = []
      var walk = 0
      var work = 0
      /// Zero-width conditions met on the way, as a linked list shared by the paths of a walk:
      /// `.atStart`, `.atEnd` or `.look`, and the index of the previous one.
      var path: [(condition: Inst, previous: Int)] = []
      var stack: [(pc: Int, path: Int)] = []

      init(programs: [[Inst]], classes: [CharSet]) {
        self.programs = programs
        self.classes = classes
      }

      mutating func build() -> Bool {
        for program in programs {
          base.append(consumerAt.count)
          for inst in program {
            guard case .run(let set, let min, let max) = inst else {
              consumerAt.append(-1)
              continue
            }
            consumerAt.append(consumers.count)
            let c = classes[set]
            consumers.append(Consumer(low: c.low, high: c.high, set: set, min: min, max: max, follow: 0..<0, matchesOnlyAtEnd: false))
          }
        }
        visited = [Int](repeating: -1, count: consumerAt.count)
        for p in programs.indices {
          // A lookahead under `{0}` is never compiled, nor ever asked.
          if programs[p].isEmpty {
            starts.append(0..<0)
            continue
          }
          guard let start = list(p, from: 0) else { return false }
          starts.append(start)
          // Restarting at every position would take more threads: only `^` patterns qualify.
          if p == 0, start.contains(where: { !entries[$0].needsStart }) { return false }
          // Lookaheads inside lookaheads would need a memo of every position.
          if p > 0, start.contains(where: { !entries[$0].looks.isEmpty }) { return false }
          for pc in programs[p].indices {
            let id = consumerAt[base[p] + pc]
            guard id >= 0 else { continue }
            guard let follow = list(p, from: pc + 1) else { return false }
            if p > 0, follow.contains(where: { !entries[$0].looks.isEmpty }) { return false }
            consumers[id].follow = follow
            consumers[id].matchesOnlyAtEnd = follow.allSatisfy { entries[$0].target != OnePass.matched || entries[$0].needsEnd }
            // Going on in the run and leaving it must not both take a character.
            let consumer = consumers[id]
            if consumer.max > Swift.max(consumer.min, 1) {
              let set = classes[consumer.set]
              for e in follow where entries[e].target != OnePass.matched {
                guard set.isDisjoint(with: classes[consumers[entries[e].target].set]) else { return false }
              }
            }
          }
        }
        return true
      }

      /// The entries reachable from `pc` without consuming, if they qualify.
      mutating func list(_ p: Int, from pc: Int) -> Range<Int>? {
        let program = programs[p]
        let offset = base[p]
        walk += 1
        let first = entries.count
        path.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        stack.append((pc, -1))
        while let (pc, at) = stack.popLast() {
          work += 1
          guard work <= OnePass.budget, visited[offset + pc] != walk else { return nil }
          visited[offset + pc] = walk
          switch program[pc] {
          case .char: return nil  // compact programs have runs only
          case .run(_, let min, _):
            guard add(consumerAt[offset + pc], at) else { return nil }
            if min == 0 { stack.append((pc + 1, at)) }
          case .match:
            guard add(OnePass.matched, at) else { return nil }
          case .jump(let target): stack.append((target, at))
          case .split(let a, let b):
            stack.append((b, at))
            stack.append((a, at))
          case .atStart, .atEnd, .look:
            path.append((program[pc], at))
            stack.append((pc + 1, path.count - 1))
          }
        }
        // The consumers of one list must not share a character.
        var low: UInt64 = 0, high: UInt64 = 0
        var aboveASCII = false
        for e in first..<entries.count where entries[e].target != OnePass.matched {
          let set = classes[consumers[entries[e].target].set]
          guard low & set.low == 0, high & set.high == 0, !(aboveASCII && set.hasNonASCII) else { return nil }
          low |= set.low
          high |= set.high
          aboveASCII = aboveASCII || set.hasNonASCII
        }
        return first..<entries.count
      }

      /// Records an entry for `target` with the conditions on the path to it.
      mutating func add(_ target: Int, _ at: Int) -> Bool {
        var entry = Entry(target: target, needsStart: false, needsEnd: false, looks: looks.count..<looks.count)
        var node = at
        while node >= 0 {
          work += 1
          if work > OnePass.budget { return false }
          switch path[node].condition {
          case .atStart: entry.needsStart = true
          case .atEnd: entry.needsEnd = true
          case .look(let program, let negated): looks.append(Look(program: program, negated: negated))
          default: break
          }
          node = path[node].previous
        }
        entry.looks = entry.looks.lowerBound..<looks.count
        entries.append(entry)
        return true
      }
    }
  }

  // MARK: - Size guard

  /// Refuses patterns whose NFA, repetitions expanded, would pass `maxInstructions` — exactly
  /// those the expanding compiler used to refuse as it went (it checked the program's length
  /// before emitting each node) — now told without expanding anything.
  enum SizeGuard {
    /// Counts stop here: far above the limit, and far from overflowing.
    static let cap = 1 << 40

    static func check(_ tree: Node) throws(SyntaxError) {
      guard try measure(tree).lastEmit <= maxInstructions else { throw tooLarge }
    }

    static var tooLarge: SyntaxError {
      SyntaxError(
        offset: 0,
        message: "the pattern is too large once its repetitions are expanded (more than \(maxInstructions) steps; each adds to the time of every string it is matched against)")
    }

    /// The instructions `node` expands to, and the largest offset (from its start) at which the
    /// compiler begins a node inside it; lookaheads (compiled apart) are checked here.
    static func measure(_ node: Node) throws(SyntaxError) -> (size: Int, lastEmit: Int) {
      switch node {
      case .empty: return (0, 0)
      case .char, .atStart, .atEnd: return (1, 0)
      case .look(let inner, _, _):
        guard try measure(inner).lastEmit <= maxInstructions else { throw tooLarge }
        return (1, 0)
      case .concat(let items):
        var size = 0, last = 0
        for item in items {
          let m = try measure(item)
          last = max(last, add(size, m.lastEmit))
          size = add(size, m.size)
        }
        return (size, last)
      case .alternation(let branches):
        var size = 0, last = 0
        for (i, branch) in branches.enumerated() {
          let isLast = i == branches.count - 1
          if !isLast { size = add(size, 1) }  // split
          let m = try measure(branch)
          last = max(last, add(size, m.lastEmit))
          size = add(size, m.size)
          if !isLast { size = add(size, 1) }  // jump
        }
        return (size, last)
      case .repeated(_, _, max: 0):
        return (0, 0)  // no copy is compiled, so nothing inside is checked
      case .repeated(let inner, let min, let max):
        let m = try measure(inner)
        var size = 0, last = 0
        if min > 0 {
          last = add(times(min - 1, m.size), m.lastEmit)
          size = times(min, m.size)
        }
        if let max {
          if max > min {
            // Each optional copy: a split, then the body.
            let copy = add(m.size, 1)
            last = Swift.max(last, add(add(size, times(max - min - 1, copy)), add(1, m.lastEmit)))
            size = add(size, times(max - min, copy))
          }
        } else {
          last = Swift.max(last, add(size, add(1, m.lastEmit)))
          if m.size > 0 { size = add(size, add(m.size, 2)) }  // split, body, jump
        }
        return (size, last)
      }
    }

    static func add(_ a: Int, _ b: Int) -> Int { Swift.min(a + b, cap) }
    static func times(_ n: Int, _ a: Int) -> Int { Swift.min(n * a, cap) }
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
    /// The byte every needle starts with, when they share one that case folding leaves alone
    /// (the `.` of `\.png|\.jpg`): candidates are then found with `memchr`.
    let commonFirst: UInt8?

    static let maxStrings = 64
    static let maxLength = 32

    init?(_ node: Node, classes: [CharSet]) {
      guard let set = Analysis(classes: classes).facts(node).required, let shortest = set.shortest, shortest >= 2 else { return nil }
      self.init(needles: Set(set.indices.map { Array(set[$0]) }).sorted { $0.lexicographicallyPrecedes($1) }, shortest: shortest)
    }

    /// From the needles alone (as `LinearRegex.write(to:)` keeps them).
    init(needles: [[UInt8]]) {
      self.init(needles: needles, shortest: needles.map(\.count).min() ?? 0)
    }

    private init(needles: [[UInt8]], shortest: Int) {
      self.needles = needles
      var first = [Bool](repeating: false, count: 256)
      for needle in needles { first[Int(needle[0])] = true }
      firstBytes = first
      self.shortest = shortest
      // The first byte, when every needle starts with it.
      let only = needles.first.map { $0[0] }
      if let only, needles.allSatisfy({ $0[0] == only }), Self.lower(only) == only, !(only >= 0x61 && only <= 0x7A) {
        commonFirst = only
      } else {
        commonFirst = nil
      }
    }

    func found(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      guard bytes.count >= shortest else { return false }
      if let commonFirst, let base = bytes.baseAddress { return found(in: bytes, base: base, startingWith: commonFirst) }
      return needles.withUnsafeBufferPointer { needles in
        firstBytes.withUnsafeBufferPointer { firstBytes in
          for start in 0...(bytes.count - shortest) where firstBytes[Int(Self.lower(bytes[start]))] {
            next: for needle in needles where needle.count <= bytes.count - start {
              for k in 1..<needle.count where Self.lower(bytes[start + k]) != needle[k] { continue next }
              if Self.lower(bytes[start]) == needle[0] { return true }
            }
          }
          return false
        }
      }
    }

    /// `found(in:)` when every needle starts with `first`, a byte only itself folds to: the
    /// same candidates in the same order, each reached by `memchr`.
    private func found(in bytes: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, startingWith first: UInt8) -> Bool {
      let last = bytes.count - shortest  // the last start a needle fits at
      var start = 0
      return needles.withUnsafeBufferPointer { needles in
        while start <= last {
          guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return false }
          start = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
          next: for needle in needles where needle.count <= bytes.count - start {
            for k in 1..<needle.count where Self.lower(bytes[start + k]) != needle[k] { continue next }
            return true
          }
          start += 1
        }
        return false
      }
    }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// The one lower-cased ASCII byte a character set stands for (`g`, or `[gG]` under `(?i)`).
    static func byte(_ set: CharSet) -> UInt8? {
      guard !set.negated, set.nonASCII.isEmpty else { return nil }
      let count = set.low.nonzeroBitCount + set.high.nonzeroBitCount
      guard count == 1 || count == 2 else { return nil }
      // The lowest member, and with two, the other one.
      let first = set.low != 0 ? UInt8(set.low.trailingZeroBitCount) : UInt8(64 + set.high.trailingZeroBitCount)
      if count == 1 { return lower(first) }
      let last = set.high != 0 ? UInt8(127 - set.high.leadingZeroBitCount) : UInt8(63 - set.low.leadingZeroBitCount)
      return lower(first) == lower(last) ? lower(first) : nil
    }

    /// A few short byte strings (duplicates kept), stored flat: one buffer of bytes and one of
    /// ends, so that building a set costs two allocations rather than one per string.
    struct Strings {
      var bytes: [UInt8] = []
      var ends: [Int] = []

      /// The set holding only the empty string.
      static let empty = Strings(bytes: [], ends: [0])

      var count: Int { ends.count }
      var indices: Range<Int> { ends.indices }
      subscript(i: Int) -> ArraySlice<UInt8> { bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]] }
      func length(_ i: Int) -> Int { ends[i] - (i == 0 ? 0 : ends[i - 1]) }
      var containsEmpty: Bool { indices.contains { length($0) == 0 } }
      var shortest: Int? { indices.lazy.map(length).min() }

      mutating func append(_ other: Strings) {
        let base = bytes.count
        bytes += other.bytes
        ends.reserveCapacity(ends.count + other.ends.count)
        for end in other.ends { ends.append(base + end) }
      }

      /// Appends one string.
      mutating func append(_ string: [UInt8]) {
        bytes += string
        ends.append(bytes.count)
      }

      mutating func appendEmpty() { ends.append(bytes.count) }

      /// Appends `b` to every string, as `product` with the set {b} does (false where that
      /// returns nil), in place for a single string.
      mutating func appendToEach(_ b: UInt8) -> Bool {
        guard count <= maxStrings, indices.allSatisfy({ length($0) < maxLength }) else { return false }
        if count == 1 {
          bytes.append(b)
          ends[0] += 1
          return true
        }
        var out = Strings()
        out.bytes.reserveCapacity(bytes.count + count)
        out.ends.reserveCapacity(count)
        for i in indices {
          out.bytes += self[i]
          out.bytes.append(b)
          out.ends.append(out.bytes.count)
        }
        self = out
        return true
      }
    }

    /// What a node tells about the strings it matches, computed bottom-up in one pass:
    /// `exact`, every string it matches when they are few and short (nil otherwise), and
    /// `required`, strings of which every match contains one (nil when there is no such set).
    struct Facts {
      var exact: Strings?
      var required: Strings?
    }

    struct Analysis {
      let classes: [CharSet]

      func facts(_ node: Node) -> Facts {
        switch node {
        case .empty, .atStart, .atEnd, .look:
          return Facts(exact: .empty, required: nil)
        case .char(let set):
          guard let b = byte(classes[set]) else { return Facts(exact: nil, required: nil) }
          let one = Strings(bytes: [b], ends: [1])
          return Facts(exact: one, required: one)
        case .concat(let items):
          var exact: Strings? = .empty
          var best: Strings? = nil
          var bestShortest = 0
          func consider(_ candidate: Strings?) {
            guard let candidate, candidate.count > 0, let a = candidate.shortest, a > 0 else { return }
            guard let current = best else {
              best = candidate
              bestShortest = a
              return
            }
            if a > bestShortest || (a == bestShortest && candidate.count < current.count) {
              best = candidate
              bestShortest = a
            }
          }
          // A run of consecutive items with exact strings is a required literal of its own.
          var run: Strings = .empty
          // Whether `run` grew by single bytes since it was last considered: each byte only
          // lengthens its strings, so the last of such a stretch is the only one worth it.
          var unconsidered = false
          for item in items {
            if case .char(let set) = item, let b = byte(classes[set]) {
              if exact != nil, !exact!.appendToEach(b) { exact = nil }
              if !run.appendToEach(b) {
                if unconsidered { consider(run) }
                run = Strings(bytes: [b], ends: [1])
              }
              unconsidered = true
              continue
            }
            if unconsidered {
              consider(run)
              unconsidered = false
            }
            let f = facts(item)
            if let e = exact { exact = f.exact.flatMap { product(e, $0) } }
            if let e = f.exact {
              run = product(run, e) ?? e
              consider(run)
            } else {
              run = .empty
              consider(f.required)
            }
          }
          if unconsidered { consider(run) }
          if let exact, !exact.containsEmpty { consider(exact) }
          return Facts(exact: exact, required: best)
        case .alternation(let branches):
          var exact: Strings? = Strings()
          var required: Strings? = Strings()
          var literal: [UInt8] = []
          for branch in branches {
            // A branch that is a plain literal (`png` in `png|jpe?g`) is its own exact and
            // required string: added as it is, without sets built for it.
            if self.literal(branch, into: &literal) {
              if exact != nil, exact!.count < maxStrings { exact!.append(literal) } else { exact = nil }
              if required != nil, required!.count < maxStrings { required!.append(literal) } else { required = nil }
              continue
            }
            let f = facts(branch)
            if let e = f.exact, exact != nil, exact!.count + e.count <= maxStrings { exact!.append(e) } else { exact = nil }
            if let r = f.required, required != nil, required!.count + r.count <= maxStrings { required!.append(r) } else { required = nil }
          }
          if let exact, !exact.containsEmpty { return Facts(exact: exact, required: exact) }
          return Facts(exact: exact, required: required)
        case .repeated(let inner, let min, let max):
          let f = facts(inner)
          var exact: Strings? = nil
          if let e = f.exact {
            if min == 0, max == 1 {
              exact = e
              exact!.appendEmpty()
            } else if let max, max == min, min <= 4 {
              exact = .empty
              for _ in 0..<min { exact = exact.flatMap { product($0, e) } }
            }
          }
          if let exact, !exact.containsEmpty { return Facts(exact: exact, required: exact) }
          return Facts(exact: exact, required: min >= 1 ? f.required : nil)
        }
      }

      /// Whether `node` is one to `maxLength` characters each standing for one byte, which then
      /// replace `bytes`.
      func literal(_ node: Node, into bytes: inout [UInt8]) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        switch node {
        case .char(let set):
          guard let b = byte(classes[set]) else { return false }
          bytes.append(b)
          return true
        case .concat(let items):
          guard !items.isEmpty, items.count <= maxLength else { return false }
          for item in items {
            guard case .char(let set) = item, let b = byte(classes[set]) else { return false }
            bytes.append(b)
          }
          return true
        default:
          return false
        }
      }

      /// Every string of `a` followed by every string of `b`; nil when that makes too many or
      /// too long strings.
      func product(_ a: Strings, _ b: Strings) -> Strings? {
        guard a.count * b.count <= maxStrings else { return nil }
        var out = Strings()
        out.bytes.reserveCapacity(a.count * b.count * 4)
        out.ends.reserveCapacity(a.count * b.count)
        for x in a.indices {
          for y in b.indices {
            guard a.length(x) + b.length(y) <= maxLength else { return nil }
            out.bytes += a[x]
            out.bytes += b[y]
            out.ends.append(out.bytes.count)
          }
        }
        return out
      }
    }
  }

  // MARK: - Parsing

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

  // MARK: - Compiling

  struct Compiler {
    /// Whether a repeated single class becomes one `run` (for `OnePass`) rather than copies.
    let compactRuns: Bool
    /// [0] is the pattern, [id + 1] lookahead `id`.
    var programs: [[Inst]]

    init(lookCount: Int, compactRuns: Bool) {
      self.compactRuns = compactRuns
      programs = Array(repeating: [], count: lookCount + 1)
    }

    /// Compiles the pattern; `SizeGuard` has checked that its expansion stays in bounds.
    mutating func compile(_ tree: Node) {
      programs[0] = program(for: tree)
    }

    /// Each lookahead's body reversed and compiled, by program number ([0] is empty): a
    /// lookahead is matched for every position at once by running it backward (`Run.table`).
    /// Reversing keeps zero-width tests as they are: `^`, `$` and a nested lookahead ask about
    /// a position, whichever way the text is read.
    static func reversedLookaheads(_ tree: Node, lookCount: Int) -> [[Inst]] {
      var result = [[Inst]](repeating: [], count: lookCount + 1)
      guard lookCount > 0 else { return result }
      var compiler = Compiler(lookCount: lookCount, compactRuns: false)
      func visit(_ node: Node) {
        switch node {
        case .empty, .char, .atStart, .atEnd: break
        case .concat(let items), .alternation(let items): items.forEach(visit)
        case .repeated(let inner, _, _): visit(inner)
        case .look(let inner, _, let id):
          if result[id + 1].isEmpty { result[id + 1] = compiler.program(for: reverse(inner)) }
          visit(inner)
        }
      }
      visit(tree)
      return result
    }

    static func reverse(_ node: Node) -> Node {
      switch node {
      case .empty, .char, .atStart, .atEnd, .look: return node
      case .concat(let items): return .concat(items.reversed().map(reverse))
      case .alternation(let branches): return .alternation(branches.map(reverse))
      case .repeated(let inner, let min, let max): return .repeated(reverse(inner), min: min, max: max)
      }
    }

    mutating func program(for node: Node) -> [Inst] {
      var code: [Inst] = []
      code.reserveCapacity(16)
      emit(node, &code)
      code.append(.match)
      return code
    }

    mutating func emit(_ node: Node, _ code: inout [Inst]) {
      switch node {
      case .empty: break
      case .char(let set): code.append(compactRuns ? .run(set, min: 1, max: 1) : .char(set))
      case .atStart: code.append(.atStart)
      case .atEnd: code.append(.atEnd)
      case .concat(let items): for item in items { emit(item, &code) }
      case .alternation(let branches):
        // split L1, next; L1: a; jump end; next: split L2, ...
        var jumps: [Int] = []
        for (i, branch) in branches.enumerated() {
          if i < branches.count - 1 {
            let split = code.count
            code.append(.split(split + 1, 0))
            emit(branch, &code)
            jumps.append(code.count)
            code.append(.jump(0))
            code[split] = .split(split + 1, code.count)
          } else {
            emit(branch, &code)
          }
        }
        for j in jumps { code[j] = .jump(code.count) }
      case .repeated(.char(let set), let min, let max) where compactRuns:
        if max != 0 { code.append(.run(set, min: min, max: max ?? Int.max)) }
      case .repeated(let inner, let min, let max):
        for _ in 0..<min { emit(inner, &code) }
        if let max {
          // Each optional copy may be skipped to the end.
          var splits: [Int] = []
          for _ in min..<max {
            splits.append(code.count)
            code.append(.split(code.count + 1, 0))
            emit(inner, &code)
          }
          for s in splits { code[s] = .split(s + 1, code.count) }
        } else {
          // L: split body, end; body; jump L
          let loop = code.count
          code.append(.split(loop + 1, 0))
          let bodyStart = code.count
          emit(inner, &code)
          if code.count == bodyStart { code.removeLast(); break }  // an empty body repeats nothing
          code.append(.jump(loop))
          code[loop] = .split(loop + 1, code.count)
        }
      case .look(let inner, let negated, let id):
        // A lookahead repeated by a quantifier is compiled once, for all its copies.
        if programs[id + 1].isEmpty { programs[id + 1] = program(for: inner) }
        code.append(.look(id + 1, negated: negated))
      }
    }
  }
}
