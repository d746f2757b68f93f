import FCMLintDocs
import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import FCMLintSystem

/// One input's way from bytes to a report, the same for every door: read (within its limit),
/// read as JSON or as a documentation page, lint, set aside what the baseline and the config's
/// suppressions waive, fix only what is reported (starting from the check that found the fixes),
/// write safely, and say what happened. A `Workspace` makes the job; the job runs on any thread.
public final class FileJob: Sendable {
  public enum Source: Sendable {
    /// A file by its path, with the size a stat of it found when it was named (the read then
    /// needs no fstat: `FileSystem.read`); nil when nothing stat'ed it (a walk's files: the
    /// folder's listing says which are regular files).
    case file(String, size: Int? = nil)
    /// Standard input, with the name it is given (`--stdin-filename`), if any.
    case standardInput(name: String?)
    /// An editor's text, with the path of its file.
    case buffer(name: String, bytes: [UInt8])

    /// The name its diagnostics carry.
    public var name: String {
      switch self {
      case .file(let path, _): return path
      case .standardInput(let name): return name ?? "<stdin>"
      case .buffer(let name, _): return name
      }
    }
  }

  /// What is done with the fixes.
  public enum Fixing: Sendable {
    /// None: the input is checked.
    case none
    /// Applied, and the file written (standard input and buffers: the text given back).
    case write
    /// Applied, and given back as a unified diff; nothing is written.
    case diff
  }

  public let source: Source
  /// nil: JSON; else the page's format.
  public let format: DocumentFormat?
  /// The config's `ignore:` excludes it (only an input given by name can still be ignored here).
  public let ignored: Bool
  /// What every job of its linter shares.
  private let shared: LinterJobs

  public var linter: Linter { shared.linter }
  /// Which of the workspace's linters it is.
  public var linterIndex: Int { shared.index }
  public var maxFileSize: Int { shared.maxFileSize }
  public var suppressions: [Config.Suppression] { shared.suppressions }
  /// Whether its image URLs are gathered for `--check-urls` (`FileResult.imageURLs`).
  public var checksURLs: Bool { shared.imageFields != nil }

  /// A class, not a struct: the threads of a run take jobs from one array, and a struct copied
  /// out is retained, part by part, on each thread.
  init(source: Source, shared: LinterJobs, format: DocumentFormat?, ignored: Bool) {
    self.source = source
    self.shared = shared
    self.format = format
    self.ignored = ignored
  }

  /// Lints the input, with `waivers` applied, and fixes it as `fixing` says.
  public func run(_ fixing: Fixing, waivers: Waivers) -> FileResult {
    let read: Result<[UInt8], FileSystem.IOError>
    switch source {
    case .file(let path, let size): read = FileSystem.read(path, limit: shared.maxFileSize, limitName: "--max-file-size", statedSize: size)
    case .standardInput: read = FileSystem.readStandardInput(limit: shared.maxFileSize, limitName: "--max-file-size")
    case .buffer(let name, let bytes):
      // An editor's text gets the limit a file of its name gets.
      read = bytes.count > shared.maxFileSize
        ? .failure(FileSystem.IOError(path: name, message: "the text is \(bytes.count) bytes, more than the limit of \(shared.maxFileSize) (--max-file-size, limits: in .fcmlint.yml)"))
        : .success(bytes)
    }
    switch read {
    case .success(let bytes): return run(bytes: bytes, fixing, waivers: waivers)
    case .failure(let error): return .failed(error)
    }
  }

  /// Lints `bytes` as this job's input (one document of a stream, read by its caller).
  public func run(bytes: [UInt8], _ fixing: Fixing, waivers: Waivers) -> FileResult {
    shared.run(bytes: bytes, of: self, fixing, waivers: waivers)
  }
}

/// What one input gave.
public struct FileResult: Sendable {
  public var diagnostics: [Diagnostic] = []
  /// Whether the input was read and linted (and so counts as a file of the report).
  public var read = true
  /// What only some inputs have, behind one reference: every result is kept until the end,
  /// and a clean file's result takes 16 bytes instead of about 100 (2 MB over 20,000 files).
  private var extra: Extra? = nil

  final class Extra: Sendable {
    let error: FileSystem.IOError?
    let fixed: Int
    let diff: String?
    let fixedBytes: [UInt8]?
    let skipped: String?
    let refused: [String]
    let skippedParts: [String]
    let imageURLs: (urls: [ImageURL], skipped: [SkippedImageURL])
    init(
      error: FileSystem.IOError?, fixed: Int, diff: String?, fixedBytes: [UInt8]?, skipped: String?, refused: [String], skippedParts: [String],
      imageURLs: (urls: [ImageURL], skipped: [SkippedImageURL]) = ([], [])
    ) {
      self.imageURLs = imageURLs
      self.skippedParts = skippedParts
      self.error = error
      self.fixed = fixed
      self.diff = diff
      self.fixedBytes = fixedBytes
      self.skipped = skipped
      self.refused = refused
    }
  }

  public init(
    diagnostics: [Diagnostic] = [], read: Bool = true, error: FileSystem.IOError? = nil, fixed: Int = 0, fixedBytes: [UInt8]? = nil,
    skipped: String? = nil, refused: [String] = [], skippedParts: [String] = []
  ) {
    self.diagnostics = diagnostics
    self.read = read
    if error != nil || fixed != 0 || fixedBytes != nil || skipped != nil || !refused.isEmpty || !skippedParts.isEmpty {
      extra = Extra(error: error, fixed: fixed, diff: nil, fixedBytes: fixedBytes, skipped: skipped, refused: refused, skippedParts: skippedParts)
    }
  }

  public var error: FileSystem.IOError? { extra?.error }
  /// Diagnostics corrected by the fixes.
  public var fixed: Int { extra?.fixed ?? 0 }
  /// The fixed text of standard input or a buffer (or the text as given when nothing was linted).
  public var fixedBytes: [UInt8]? { extra?.fixedBytes }
  /// Why the input was not linted: it is not an FCM document.
  public var skipped: String? { extra?.skipped }
  /// Fixes the fixer would not apply, and why.
  public var refused: [String] { extra?.refused ?? [] }
  /// The parts of a page not linted as not FCM documents (`name:line: reason`).
  public var skippedParts: [String] { extra?.skippedParts ?? [] }
  public var diff: String? {
    get { extra?.diff }
    set {
      extra = Extra(
        error: error, fixed: fixed, diff: newValue, fixedBytes: fixedBytes, skipped: skipped, refused: refused, skippedParts: skippedParts,
        imageURLs: imageURLs)
    }
  }
  /// The image URLs found for `--check-urls`, and those skipped with why.
  public var imageURLs: (urls: [ImageURL], skipped: [SkippedImageURL]) {
    get { extra?.imageURLs ?? ([], []) }
    set {
      extra = Extra(
        error: error, fixed: fixed, diff: diff, fixedBytes: fixedBytes, skipped: skipped, refused: refused, skippedParts: skippedParts,
        imageURLs: newValue)
    }
  }

  public static func failed(_ error: FileSystem.IOError) -> FileResult { FileResult(read: false, error: error) }
}

/// What the jobs of one linter share, made once per linter by the workspace: a job holds its
/// input and this (each job of a 20,000-file run held its own copy of the linter's fields).
final class LinterJobs: Sendable {
  let linter: Linter
  /// The linter's index in the workspace's `linters`.
  let index: Int
  let maxFileSize: Int
  let suppressions: [Config.Suppression]
  /// Where its files' image URLs are, when they are gathered for `--check-urls`.
  let imageFields: ImageFields?

  init(linter: Linter, index: Int, maxFileSize: Int, suppressions: [Config.Suppression], imageFields: ImageFields?) {
    self.linter = linter
    self.index = index
    self.maxFileSize = maxFileSize
    self.suppressions = suppressions
    self.imageFields = imageFields
  }

  /// `FileJob.run(bytes:_:waivers:)`, here so the linter is read in place: read through the
  /// job's reference to this, it was copied (its parts retained) twice a file.
  func run(bytes: [UInt8], of job: FileJob, _ fixing: FileJob.Fixing, waivers: Waivers) -> FileResult {
    let source = job.source, format = job.format
    let name = source.name
    // What a fix gives back for a text that is not linted: the text as it came (an editor's
    // format-on-save must never empty its buffer).
    let givesBack: Bool
    if case .file = source { givesBack = false } else { givesBack = fixing == .write }
    let unchanged = givesBack ? bytes : nil
    if job.ignored { return FileResult(read: false, fixedBytes: unchanged) }
    let page = format.map { (DocumentLinter(linter: linter), $0) }
    var pageCheck: DocumentLinter.Outcome? = nil
    var skippedParts: [String] = []
    let checked: [Diagnostic]
    if let (docs, format) = page {
      let outcome = docs.check(bytes: bytes, file: name, format: format)
      let parts = outcome.skippedSamples.map { "\(name):\($0.line): \($0.reason)" }
      if let reason = outcome.skipped { return FileResult(read: false, fixedBytes: unchanged, skipped: reason, skippedParts: parts) }
      pageCheck = outcome
      skippedParts = parts
      checked = outcome.diagnostics
    } else {
      let outcome = linter.check(bytes: bytes, file: name)
      if let reason = outcome.skipped { return FileResult(read: false, fixedBytes: unchanged, skipped: reason) }
      checked = outcome.diagnostics
    }
    guard fixing != .none, checked.contains(where: { $0.fix != nil }) else {
      var result = FileResult(diagnostics: waivers.apply(checked, file: name, suppressions: suppressions, linter: linter), fixedBytes: unchanged, skippedParts: skippedParts)
      gatherImageURLs(bytes, into: &result, page: page != nil)
      return result
    }

    let reported = waivers.reported(file: name, suppressions: suppressions)
    let outcome: Fixer.Result
    if let (docs, format) = page {
      outcome = docs.fix(bytes: bytes, file: name, format: format, checked: pageCheck, reported: reported)
    } else {
      outcome = Fixer(linter: linter).fix(bytes: bytes, file: name, checked: checked, reported: reported)
    }
    // What is left was offered to the fixer and not taken (refused, with a note): it is no longer
    // a mechanical fix.
    let remaining = outcome.diagnostics.map(Self.withoutFix)
    var result = FileResult(
      diagnostics: waivers.apply(remaining, file: name, suppressions: suppressions, linter: linter), fixed: outcome.fixed,
      fixedBytes: givesBack ? outcome.bytes : nil, refused: outcome.refused, skippedParts: skippedParts)
    // Where what remains is: the text as fixed.
    gatherImageURLs(outcome.bytes, into: &result, page: page != nil)
    guard outcome.bytes != bytes else { return result }
    switch (fixing, source) {
    case (.diff, _):
      result.diff = UnifiedDiff.make(bytes, outcome.bytes, path: FileName.shown(name))
    case (.write, .file(let path, _)):
      if let failure = SafeWriter.replace(path, expecting: bytes, with: outcome.bytes) {
        // Not written: report what the file still holds.
        return FileResult(
          diagnostics: waivers.apply(checked, file: name, suppressions: suppressions, linter: linter), error: FileSystem.IOError(path: failure.path, message: failure.message))
      }
    default:
      break
    }
    return result
  }

  /// The image URLs of `bytes` for `--check-urls`. Pages' samples are not fetched yet: their
  /// URLs would need each sample's place.
  private func gatherImageURLs(_ bytes: [UInt8], into result: inout FileResult, page: Bool) {
    guard let imageFields, !page else { return }
    result.imageURLs = linter.imageURLs(bytes: bytes, fields: imageFields)
  }

  private static func withoutFix(_ diagnostic: Diagnostic) -> Diagnostic {
    guard diagnostic.fix != nil else { return diagnostic }
    var d = diagnostic
    d.fix = nil
    return d
  }
}
