import FCMLintEngine
import FCMLintFormatters
import FCMLintSystem
import FCMLintWorkspace

/// A report being written: its formatter, and where its text goes.
struct ReportOutput {
  var formatter: any Formatter
  let sink: any ReportSink
  /// The report file, written whole by `save()`; nil for standard output or error.
  let file: String?

  /// Writes a report file; the error, if it cannot be written.
  func save() -> FileSystem.IOError? {
    guard let file, let gathered = sink as? StringSink else { return nil }
    guard case .failure(let error) = FileSystem.write(gathered.text, to: file) else { return nil }
    return FileSystem.IOError(path: file, message: "cannot write the report: \(error.message)")
  }
}

/// Writes the reports of a run over files, file by file in output order. Results come in any
/// order and from any thread, each with its place in the output, and a file's diagnostics are
/// written once every file before it has been. A name given twice is one file of the report (its
/// places are next to each other), with the diagnostics of both merged.
final class ReportWriter: Sendable {
  private let state: Locked<State>

  /// Which diagnostics a report shows; the others are counted as hidden, by the option named.
  enum Shown {
    case all
    case errors(hiddenBy: String)
    case none(hiddenBy: String)
  }

  /// `inputs` are the places' inputs, in output order (the run's own list, not a copy).
  init(_ outputs: sending [ReportOutput], header: ReportHeader, inputs: [FileJob.Source], shown: Shown) {
    var state = State(outputs: outputs, inputs: inputs, shown: shown)
    for i in state.outputs.indices { state.outputs[i].formatter.begin(header, to: state.outputs[i].sink) }
    self.state = Locked(state)
  }

  /// The results of the places from `first` on, and whatever waited for them. Results come in
  /// batches that split the places between them, so each batch starts where another ended.
  func add(_ results: [FileResult], at first: Int) {
    state.withLock { $0.add(results, at: first) }
  }

  /// The counts of the files written so far.
  var summary: Summary { state.withLock { $0.summary } }

  /// The errors met reading or fixing files, with their places.
  var errors: [(place: Int, error: FileSystem.IOError)] { state.withLock { $0.errors } }

  /// The files linted (read, and FCM documents), in output order.
  var lintedNames: [String] { state.withLock { state in state.linted.map { state.inputs[Int($0)].name } } }

  /// Fixes not applied, in output order, with their files.
  var refusedFixes: [(name: String, note: String)] { state.withLock { $0.refusedFixes } }

  /// The files skipped as not FCM documents, in output order, with the reason.
  var skipped: [(name: String, reason: String)] { state.withLock { $0.skipped } }
  /// Samples of pages skipped as not FCM documents (`name:line: reason`).
  var skippedParts: [String] { state.withLock { $0.skippedParts } }

  /// Changes the summary before `finish` writes it (counts gathered outside the report).
  func updateSummary(_ body: (inout Summary) -> Void) {
    state.withLock { body(&$0.summary) }
  }

  /// Writes diagnostics about a file that was not linted (a config), after every linted file.
  func addTrailing(_ diagnostics: [Diagnostic], file: String) {
    state.withLock { state in
      let counts = Summary(diagnostics: diagnostics)
      state.summary.errors += counts.errors
      state.summary.warnings += counts.warnings
      state.summary.infos += counts.infos
      for i in state.outputs.indices { state.outputs[i].formatter.write(diagnostics, files: [file], to: state.outputs[i].sink) }
    }
  }

  /// Ends every report with the summary and writes the report files; the errors of those that
  /// could not be written.
  /// With `fatal` (nothing was linted, and the run failed), a text report writes no summary: "no
  /// problems in 0 files" beside the error would say the opposite of what happened. Machine
  /// formats still end as their format requires.
  func finish(fatal: Bool = false) -> [FileSystem.IOError] {
    state.withLock { state in
      for i in state.outputs.indices where !(fatal && state.outputs[i].formatter is TextFormatter) {
        state.outputs[i].formatter.finish(state.summary, to: state.outputs[i].sink)
      }
      return state.outputs.compactMap { $0.save() }
    }
  }

  private struct State {
    var outputs: [ReportOutput]
    /// The input at each place in the output, which names it.
    let inputs: [FileJob.Source]
    let shown: Shown
    /// Batches of results that came before those of earlier places, by their first place.
    var waiting: [Int: [FileResult]] = [:]
    var next = 0
    /// The diagnostics of the file at the place being written, if it was read.
    var current: [Diagnostic]? = nil
    var merged = false
    var summary = Summary()
    var errors: [(place: Int, error: FileSystem.IOError)] = []
    var skipped: [(name: String, reason: String)] = []
    var skippedParts: [String] = []
    var refusedFixes: [(name: String, note: String)] = []
    /// The places of the files linted (a name each would cost a run over many files 16 bytes a file).
    var linted: [Int32] = []

    init(outputs: [ReportOutput], inputs: [FileJob.Source], shown: Shown) {
      self.outputs = outputs
      self.inputs = inputs
      self.shown = shown
    }

    mutating func add(_ results: [FileResult], at first: Int) {
      guard first == next else {
        waiting[first] = results
        return
      }
      var batch = results
      while true {
        for result in batch {
          take(result)
          next += 1
        }
        guard let waited = waiting.removeValue(forKey: next) else { return }
        batch = waited
      }
    }

    private mutating func take(_ result: FileResult) {
      let place = next
      if let error = result.error { errors.append((place, error)) }
      // Most files have neither: appending nothing still cost a generic append a file.
      if !result.refused.isEmpty { refusedFixes += result.refused.map { (inputs[place].name, $0) } }
      if !result.skippedParts.isEmpty { skippedParts += result.skippedParts }
      if let reason = result.skipped, current == nil, place == 0 || inputs[place - 1].name != inputs[place].name {
        summary.skipped += 1
        skipped.append((inputs[place].name, reason))
      }
      if result.read {
        summary.fixed += result.fixed
        let diagnostics: [Diagnostic]
        switch shown {
        case .all:
          diagnostics = result.diagnostics
        case .errors(let option):
          diagnostics = result.diagnostics.filter { $0.severity == .error }
          summary.hidden += result.diagnostics.count - diagnostics.count
          summary.hiddenBy = option
        case .none(let option):
          diagnostics = []
          summary.hidden += result.diagnostics.count
          summary.hiddenBy = option
        }
        if let current {
          self.current = current + diagnostics
          merged = true
        } else {
          current = diagnostics
        }
      }
      guard place + 1 == inputs.count || inputs[place + 1].name != inputs[place].name else { return }
      guard var diagnostics = current else { return }
      if merged { diagnostics.sort(by: Diagnostic.ordered) }
      current = nil
      merged = false
      let counts = Summary(diagnostics: diagnostics)
      summary.files += 1
      linted.append(Int32(place))
      summary.errors += counts.errors
      summary.warnings += counts.warnings
      summary.infos += counts.infos
      for i in outputs.indices { outputs[i].formatter.write(diagnostics, files: [inputs[place].name], to: outputs[i].sink) }
    }
  }
}
