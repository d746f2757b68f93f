// LinearRegex's public face: a pattern compiled once, asked whether and where it matches a text.

import Synchronization

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
  let storage: Storage
  var compiled: Compiled { storage.compiled }

  /// The compiled forms, made with the regex or, for a pattern of the built-in pack, read from
  /// the pack's static bytes when the pattern is first matched: a run reads only the patterns its
  /// documents reach (reading them all at every start cost more than linting a small file:
  /// docs/performance.md). Unchecked: the form it reads is the pack's static bytes, never
  /// written, and the compiled forms are published through `slot` alone.
  final class Storage: @unchecked Sendable {
    private let ready: Compiled?
    /// Where the compact form starts (for a pattern read when first matched).
    private let form: CompactReader?
    /// The compiled forms once read, retained here: threads that race to read them keep the
    /// first one stored and drop their own.
    private let slot = Atomic<UnsafeRawPointer?>(nil)

    init(_ compiled: Compiled) {
      ready = compiled
      form = nil
    }

    init(readingLater form: CompactReader) {
      ready = nil
      self.form = form
    }

    deinit {
      if let stored = slot.load(ordering: .acquiring) { Unmanaged<Compiled>.fromOpaque(stored).release() }
    }

    /// Whether the compiled forms are there (for tests).
    var isRead: Bool { ready != nil || slot.load(ordering: .acquiring) != nil }

    /// `body` with the compiled forms, read first if they are not yet. Borrowed, not retained:
    /// taken out as a reference, each match retained them and copied out their matcher, whose
    /// arrays were retained in turn (1.3 M more instructions over 500 files).
    @inline(__always) func withCompiled<Result>(_ body: (Compiled) -> Result) -> Result {
      if let ready { return body(ready) }
      let stored = slot.load(ordering: .acquiring) ?? readNow()
      return Unmanaged<Compiled>.fromOpaque(stored)._withUnsafeGuaranteedRef(body)
    }

    var compiled: Compiled { withCompiled { $0 } }

    @inline(never) private func readNow() -> UnsafeRawPointer {
      var input = form!
      let mine = UnsafeRawPointer(Unmanaged.passRetained(LinearRegex.readCompiled(&input)).toOpaque())
      let (stored, other) = slot.compareExchange(expected: nil, desired: mine, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
      if stored { return mine }
      Unmanaged<Compiled>.fromOpaque(mine).release()
      return other!
    }
  }

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
    /// The NFA determinized for ASCII text, when it has no lookahead and few states (with or
    /// without a one-pass matcher).
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

    func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      // A table look-up per byte costs less than the one-pass matcher's step, or the prefilter's
      // search; a text beyond ASCII goes on to those.
      if let dfa, let matched = dfa.matches(bytes) { return matched }
      let input = UTF8Text(bytes: bytes)
      if let onePass { return onePass.matches(input) }
      if let prefilter, !prefilter.found(in: bytes) { return false }
      var run = Run(programs: nfa!, reversed: reversedNFA, classes: classes, text: input)
      return run.search(program: 0, anchoredAt: nil)
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
    // The NFA: for the search when there is no one-pass matcher, and for the DFA.
    let wantsDFA = fastPaths && parser.lookCount == 0
    var compiler = Compiler(lookCount: parser.lookCount, compactRuns: false)
    if onePass == nil || wantsDFA { compiler.compile(tree) }
    let dfa = wantsDFA ? DFA(program: compiler.programs[0], classes: parser.classes) : nil
    if onePass == nil {
      let prefilter = RequiredLiterals(tree, classes: parser.classes)
      storage = Storage(Compiled(
        prefilter: prefilter, classes: parser.classes, tree: tree, lookCount: parser.lookCount, onePass: nil, nfa: compiler.programs, dfa: dfa))
    } else {
      // An anchored one-pass match stops at the first character that cannot go on, sooner
      // than a search for a required literal through the whole text: no prefilter. The NFA is
      // compiled again if a replacement needs it (`nfaPrograms`).
      storage = Storage(Compiled(
        prefilter: nil, classes: parser.classes, tree: tree, lookCount: parser.lookCount, onePass: onePass, nfa: nil, dfa: dfa))
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
    storage.withCompiled { $0.matches(utf8: bytes) }
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
}
