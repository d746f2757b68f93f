import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import FCMLintSystem

/// Findings set aside on purpose: the baseline's (`--baseline`, `--write-baseline`) and the
/// config's `suppress:` entries. Each file's diagnostics pass through `apply` on the thread that
/// linted it; what was hidden and what was used is gathered here for the summary, the new
/// baseline and the warnings about suppressions that matched nothing.
public final class Waivers: Sendable {
  public let baseline: Baseline?
  /// `--write-baseline`: the baseline being recorded (every finding goes into it, and is hidden).
  public let recording: Baseline?
  private let state = Locked(State())

  private struct State {
    var baselineUsed: [Baseline.Entry: Int] = [:]
    /// Baseline keys of the files linted.
    var lintedKeys: Set<String> = []
    var recorded: [Baseline.Entry] = []
    /// Suppressions whose files were linted, by key, and those that hid something.
    var suppressions: [String: Config.Suppression] = [:]
    var usedSuppressions: Set<String> = []
    /// By suppression key, the unused-suppression rule as the files it covers configure it: the
    /// most severe setting among them (none when it is off for every one).
    var unusedRule: [String: Rule] = [:]
    var baselined = 0
    var suppressed = 0
  }

  public init(baseline: Baseline?, recording: Baseline?) {
    self.baseline = baseline
    self.recording = recording
  }

  public var isEmpty: Bool { baseline == nil && recording == nil }

  /// What the user sees of a text's diagnostics in the file `name`, without recording anything:
  /// the fixer applies only the fixes of these (a finding set aside keeps its bytes). Nil when
  /// nothing is set aside in that file.
  public func reported(file name: String, suppressions: [Config.Suppression]) -> Fixer.Reported? {
    let absolute = suppressions.isEmpty ? "" : Path.absolute(name)
    let applicable = suppressions.filter { $0.appliesTo(absolute) }
    let recordingAll = recording != nil
    let baseline = recording == nil ? self.baseline : nil
    let key = baseline?.key(ofFile: name)
    if applicable.isEmpty && !recordingAll && baseline == nil { return nil }
    return { diagnostics in
      if recordingAll { return [] }
      var kept = applicable.isEmpty ? diagnostics : diagnostics.filter { d in !applicable.contains { $0.covers(d) } }
      if let baseline, let key { kept = baseline.filter(kept, fileKey: key).kept }
      return kept
    }
  }

  /// The diagnostics of the file `name` that are not set aside. `linter` is the file's: its
  /// setting of unused-suppression is what the suppressions applied to the file are judged by.
  public func apply(_ diagnostics: [Diagnostic], file name: String, suppressions: [Config.Suppression], linter: Linter) -> [Diagnostic] {
    if isEmpty && suppressions.isEmpty { return diagnostics }
    let absolute = Path.absolute(name)
    var kept = diagnostics
    var applicable: [Config.Suppression] = []
    var used: Set<String> = []
    var suppressed = 0
    for suppression in suppressions where suppression.appliesTo(absolute) { applicable.append(suppression) }
    if !applicable.isEmpty {
      kept = kept.filter { d in
        guard let suppression = applicable.first(where: { $0.covers(d) }) else { return true }
        used.insert(suppression.key)
        suppressed += 1
        return false
      }
    }
    var recorded: [Baseline.Entry] = []
    var baselined = 0
    if let recording {
      let key = recording.key(ofFile: name)
      recorded = kept.map { Baseline.Entry(file: key, $0) }
      baselined = kept.count
      kept = []
    }
    var baselineUsed: [Baseline.Entry: Int] = [:]
    var baselineKey: String? = nil
    if let baseline {
      let key = baseline.key(ofFile: name)
      baselineKey = key
      if recording == nil {
        let (remaining, usedEntries) = baseline.filter(kept, fileKey: key)
        baselined = kept.count - remaining.count
        kept = remaining
        baselineUsed = usedEntries
      }
    }
    let unusedRule = applicable.isEmpty ? nil : linter.reportedRule(Self.unusedSuppressionRule)
    state.withLock { state in
      for suppression in applicable {
        state.suppressions[suppression.key] = suppression
        if let unusedRule, state.unusedRule[suppression.key].map({ $0.severity < unusedRule.severity }) ?? true {
          state.unusedRule[suppression.key] = unusedRule
        }
      }
      state.usedSuppressions.formUnion(used)
      state.suppressed += suppressed
      state.recorded += recorded
      state.baselined += baselined
      if let baselineKey { state.lintedKeys.insert(baselineKey) }
      state.baselineUsed.merge(baselineUsed) { $0 + $1 }
    }
    return kept
  }

  /// How many findings the baseline and the suppressions hid, and how many baseline entries
  /// matched nothing.
  public var counts: (baselined: Int, suppressed: Int, baselineUnmatched: Int) {
    let (baselined, suppressed) = state.withLock { ($0.baselined, $0.suppressed) }
    return (baselined, suppressed, unmatchedBaselineEntries().count)
  }

  /// Entries of the baseline that hid nothing, though their file was linted or no longer exists
  /// (a file the run did not reach is not judged: a hook runs on a few files at a time).
  public func unmatchedBaselineEntries() -> [Baseline.Entry] {
    guard let baseline, recording == nil else { return [] }
    let (used, linted) = state.withLock { ($0.baselineUsed, $0.lintedKeys) }
    var unmatched: [Baseline.Entry] = []
    var gone: [String: Bool] = [:]
    for (entry, count) in baseline.counts {
      let judged: Bool
      if linted.contains(entry.file) {
        judged = true
      } else if let known = gone[entry.file] {
        judged = known
      } else {
        judged = FileSystem.kind(baseline.path(ofKey: entry.file)) == .missing
        gone[entry.file] = judged
      }
      guard judged else { continue }
      let left = count - used[entry, default: 0]
      if left > 0 { unmatched += Array(repeating: entry, count: left) }
    }
    return unmatched.sorted()
  }

  /// The recorded baseline's text (`--write-baseline`).
  public func recordedBaseline() -> String {
    Baseline.render(state.withLock { $0.recorded })
  }

  /// An unused-suppression diagnostic for each suppression that hid nothing in a run that linted
  /// some of its files, in the config that holds it, grouped by config file. Its severity is the
  /// rule's in the files the suppression covers (the most severe among them); a suppression whose
  /// files all turn the rule off is not reported.
  public func unusedSuppressions() -> [(file: String, diagnostics: [Diagnostic])] {
    let (all, used, rules) = state.withLock { ($0.suppressions, $0.usedSuppressions, $0.unusedRule) }
    var byFile: [String: [Diagnostic]] = [:]
    let directory = FileSystem.currentDirectory()
    for (key, suppression) in all where !used.contains(key) {
      guard let rule = rules[key] else { continue }
      let file = Path.relative(Path.absolute(suppression.file), to: directory)
      let place = suppression.pointer.map { " at \($0 == "" ? "the document" : $0)" } ?? ""
      let position = SourcePosition(line: suppression.line, column: suppression.column)
      let diagnostic = rule.diagnostic(
        file: file,
        detail: "this suppression of \(suppression.rule)\(place) matched no finding in the files it covers; remove it (its reason: \(suppression.reason))",
        start: position, end: position)
      byFile[file, default: []].append(diagnostic)
    }
    return byFile.keys.sorted().map { file in (file, byFile[file]!.sorted { ($0.start.line, $0.start.column) < ($1.start.line, $1.start.column) }) }
  }

  public static let unusedSuppressionRule = ReportedRules.unusedSuppression
}
