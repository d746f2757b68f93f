import FCMLintEngine
import FCMLintJSON

/// Applies fixes until the file is stable: apply the non-overlapping edits of one lint, re-parse,
/// re-lint, repeat (a bounded number of passes). What one fix leaves for another (a renamed key
/// that now needs a value fixed) is picked up by the next pass.
///
/// Every pass is checked before it is kept. A set of fixes is refused when, applied together, they
/// would break the parse, add a duplicate key (two renames to one name: FCM keeps only the last
/// value), raise the count of any rule's diagnostics away from the text the fixes wrote (a fix
/// that trades one problem for another elsewhere; what a fix reveals at or around what it wrote,
/// such as an `aps` whose corrected `mutable-content` now needs an alert, is the same problem seen
/// clearly), or grow the file past `growthLimit`. A refused set is split in halves, each tried again on its
/// own, so the fixes that are fine still land and only the offending ones are left, in a number
/// of tries that grows with the offenders, not with all fixes.
public struct Fixer: Sendable {
  public let linter: Linter
  public static let maxPasses = 10

  public init(linter: Linter) { self.linter = linter }

  /// The largest a fixed file may become: twice the original, or 64 KiB more for a small one. A
  /// rule whose fix feeds itself (a user rule inserting what it then reports again) stops there.
  public static func growthLimit(_ originalSize: Int) -> Int { max(originalSize * 2, originalSize + 65_536) }

  public struct Result: Sendable {
    public var bytes: [UInt8]
    /// Diagnostics corrected.
    public var fixed: Int
    /// What remains, against the fixed text.
    public var diagnostics: [Diagnostic]
    /// Fixes not applied because of what they would have done, one line each ("rule: why").
    public var refused: [String] = []
    /// The edits each pass applied, sorted, against the text that pass started from: replaying
    /// them on the original gives `bytes`, so every byte outside them is the original's (the
    /// fixer fuzz target checks exactly that).
    public var passes: [[TextEdit]] = []

    public init(bytes: [UInt8], fixed: Int, diagnostics: [Diagnostic], refused: [String] = [], passes: [[TextEdit]] = []) {
      self.bytes = bytes
      self.fixed = fixed
      self.diagnostics = diagnostics
      self.refused = refused
      self.passes = passes
    }
  }

  /// Which of a text's diagnostics the user sees: only their fixes are applied. A finding set
  /// aside on purpose (a suppression with a reason, the baseline) keeps its bytes.
  public typealias Reported = @Sendable ([Diagnostic]) -> [Diagnostic]

  /// Fixes `original` until it is stable. `checked` is the lint of `original` when the caller
  /// has it already (the check that found the fixes), so the text is not linted again.
  public func fix(bytes original: [UInt8], file: String, checked: [Diagnostic]? = nil, reported: Reported? = nil) -> Result {
    var state = State(fixer: self, file: file, original: original)
    var diagnostics = checked ?? linter.lint(bytes: original, file: file)
    var bytes = original
    var fixed = 0
    var current = state.measure(original, diagnostics)
    var passes: [[TextEdit]] = []
    for _ in 0..<Self.maxPasses {
      let offered = reported.map { $0(diagnostics) } ?? diagnostics
      let fixes = Self.preferringRenames(offered.compactMap { d in d.fix.map { (rule: d.rule, fix: $0) } })
      guard !fixes.isEmpty, let pass = state.bestPass(fixes, on: bytes, baseline: current) else { break }
      bytes = pass.bytes
      diagnostics = pass.diagnostics
      current = pass.measure
      fixed += pass.applied
      passes.append(pass.edits)
    }
    return Result(bytes: bytes, fixed: fixed, diagnostics: diagnostics, refused: state.refused, passes: passes)
  }

  /// The fixes without an insertion of a key that another fix renames a member to, in the same
  /// object: the renamed member carries the author's value, and the two together would be a
  /// duplicate key that neither pass could then clear.
  static func preferringRenames(_ fixes: [(rule: String, fix: Fix)]) -> [(rule: String, fix: Fix)] {
    let renamed = Set(fixes.compactMap { $0.fix.key.flatMap { $0.renames ? $0 : nil } }.map { KeySlot(object: $0.object, name: $0.name) })
    guard !renamed.isEmpty else { return fixes }
    return fixes.filter { candidate in
      guard let key = candidate.fix.key, !key.renames else { return true }
      return !renamed.contains(KeySlot(object: key.object, name: key.name))
    }
  }

  private struct KeySlot: Hashable {
    var object: Int
    var name: String
  }

  /// What a pass is judged by.
  struct Measure {
    var parses: Bool
    /// How many times each key name is repeated within its object. By name, not a count: two
    /// renames can trade one duplicate for another (`thread_id` twice renamed to `thread-id`
    /// twice), and a rename above a duplicate moves its pointer but not its name.
    var duplicateKeys: [String: Int]
    var perRule: [String: Int]
  }

  struct Pass {
    var bytes: [UInt8]
    var diagnostics: [Diagnostic]
    var measure: Measure
    var applied: Int
    var edits: [TextEdit]
  }

  private struct State {
    let fixer: Fixer
    let file: String
    let limit: Int
    let originalParses: Bool
    var refused: [String] = []
    private var refusedKeys: Set<String> = []

    init(fixer: Fixer, file: String, original: [UInt8]) {
      self.fixer = fixer
      self.file = file
      limit = Fixer.growthLimit(original.count)
      if case .success = fixer.linter.parse(original) { originalParses = true } else { originalParses = false }
    }

    /// Asked of the linter's own parse (so a template reads as it is linted), not of the syntax
    /// rule's diagnostics: a config may turn that rule off.
    /// Diagnostics whose range meets `written` (what fixes just wrote) are not counted.
    func measure(_ bytes: [UInt8], _ diagnostics: [Diagnostic], written: [Range<Int>] = []) -> Measure {
      var perRule: [String: Int] = [:]
      for d in diagnostics where !Self.meets(d.startOffset..<max(d.startOffset, d.endOffset), written) {
        perRule[d.rule, default: 0] += 1
      }
      switch fixer.linter.parse(bytes) {
      case .success(let document):
        var duplicates: [String: Int] = [:]
        for member in document.duplicateKeys { duplicates[document.key(member) ?? "", default: 0] += 1 }
        return Measure(parses: true, duplicateKeys: duplicates, perRule: perRule)
      case .failure: return Measure(parses: false, duplicateKeys: [:], perRule: perRule)
      }
    }

    /// Whether `range` overlaps or encloses one of `written` (sorted, as `applyTracking` returns them).
    static func meets(_ range: Range<Int>, _ written: [Range<Int>]) -> Bool {
      // The first written range that does not end before `range` starts.
      var lo = 0, hi = written.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if written[mid].upperBound < range.lowerBound { lo = mid + 1 } else { hi = mid }
      }
      guard lo < written.count else { return false }
      let w = written[lo]
      return w.lowerBound <= range.upperBound && range.lowerBound <= w.upperBound
    }

    /// Why `after` is worse than `before`, or nil when it is not.
    func regression(from before: Measure, to after: Measure, size: Int) -> String? {
      if originalParses && !after.parses { return "it would break the JSON" }
      if let key = after.duplicateKeys.keys.sorted().first(where: { after.duplicateKeys[$0]! > before.duplicateKeys[$0, default: 0] }) {
        return "it would create a duplicate key '\(key)' (FCM keeps only the last value)"
      }
      if size > limit { return "the file would grow past \(limit) bytes" }
      let worse = after.perRule.filter { rule, count in count > before.perRule[rule, default: 0] }.keys.sorted()
      if !worse.isEmpty { return "it would add a \(worse.joined(separator: ", ")) problem" }
      return nil
    }

    /// The largest set of the fixes, taken in order, that makes nothing worse, applied; nil when none.
    mutating func bestPass(_ fixes: [(rule: String, fix: Fix)], on bytes: [UInt8], baseline: Measure) -> Pass? {
      var accepted: [(rule: String, fix: Fix)] = []
      var best: Pass? = nil
      var pending: [ArraySlice<(rule: String, fix: Fix)>] = [fixes[...]]
      while let group = pending.popLast() {
        let candidate = accepted + group
        let (next, applied, written, edits) = Fixer.applyTracking(candidate.map(\.fix), to: bytes)
        if applied == 0 || next == bytes { continue }
        let diagnostics = fixer.linter.lint(bytes: next, file: file)
        let measure = self.measure(next, diagnostics, written: written)
        guard let why = regression(from: baseline, to: measure, size: next.count) else {
          accepted = candidate
          best = Pass(bytes: next, diagnostics: diagnostics, measure: self.measure(next, diagnostics), applied: applied, edits: edits)
          continue
        }
        if group.count == 1 {
          let fix = group[group.startIndex]
          let note = "\(fix.rule): \(fix.fix.description): not applied, \(why)"
          if refusedKeys.insert(note).inserted { refused.append(note) }
          continue
        }
        // Halves, the first tried first (`pending` is a stack).
        let middle = group.startIndex + group.count / 2
        pending.append(group[middle...])
        pending.append(group[..<middle])
      }
      return best
    }
  }

  /// Applies whole fixes whose edits overlap no edit already taken; returns the new text and how
  /// many fixes were applied. Edits are applied from the end so offsets stay valid.
  public static func apply(_ fixes: [Fix], to bytes: [UInt8]) -> ([UInt8], Int) {
    let (out, applied, _, _) = applyTracking(fixes, to: bytes)
    return (out, applied)
  }

  /// `apply`, where the replacements landed in the new text, and the edits taken (sorted).
  static func applyTracking(_ fixes: [Fix], to bytes: [UInt8]) -> ([UInt8], Int, [Range<Int>], [TextEdit]) {
    // The edits taken so far, sorted by start, so a clash is found by binary search.
    var taken: [TextEdit] = []
    var applied = 0
    func clashes(_ edit: TextEdit) -> Bool {
      // The first taken edit that does not end before this one starts.
      var lo = 0, hi = taken.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if taken[mid].end < edit.start { lo = mid + 1 } else { hi = mid }
      }
      var i = lo
      while i < taken.count, taken[i].start <= edit.end {
        let other = taken[i]
        if edit.start < other.end && other.start < edit.end { return true }
        // Two insertions at one place, or an insertion at the start of a replaced range: their
        // order would be a guess.
        if (edit.start == edit.end || other.start == other.end) && edit.start == other.start { return true }
        i += 1
      }
      return false
    }
    for fix in fixes {
      if fix.edits.contains(where: { $0.start < 0 || $0.end > bytes.count || $0.start > $0.end }) { continue }
      if fix.edits.contains(where: clashes) { continue }
      // Edits of one fix must not clash among themselves either.
      let own = fix.edits.sorted { $0.start < $1.start }
      if zip(own, own.dropFirst()).contains(where: { $0.end > $1.start || ($0.start == $1.start) }) { continue }
      for edit in fix.edits {
        var lo = 0, hi = taken.count
        while lo < hi {
          let mid = (lo + hi) / 2
          if taken[mid].start < edit.start { lo = mid + 1 } else { hi = mid }
        }
        taken.insert(edit, at: lo)
      }
      applied += 1
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var position = 0
    var written: [Range<Int>] = []
    for edit in taken {
      out += bytes[position..<edit.start]
      let start = out.count
      out += Array(edit.replacement.utf8)
      written.append(start..<out.count)
      position = edit.end
    }
    out += bytes[position...]
    return (out, applied, written, taken)
  }
}
