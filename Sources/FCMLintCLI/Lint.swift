import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import FCMLintEngine
import FCMLintFixes
import FCMLintFormatters
import FCMLintJSON
import FCMLintWorkspace

/// `fcmlint [lint] [options] PATH...`: the command line as swift-argument-parser sees it (help,
/// usage errors, completion). What a run does is in `LintSettings`: a plain command line reaches
/// it without this parser (`LintSettings(plainArguments:)`), which saves half of a one-file run.
struct Lint: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Lint JSON files, folders (every *.json below them, in sorted order) or standard input ('-')."
  )

  @Argument(help: ArgumentHelp("Files, folders, or - for standard input.", valueName: "path"))
  var paths: [String] = []

  @Option(name: .long, help: ArgumentHelp("Output format: text, json, sarif, github, junit or checkstyle; repeatable, paired in order with --output.", valueName: "format"))
  var format: [String] = []

  @Option(name: .long, help: ArgumentHelp("Write the report of the matching --format to this file ('-' for standard output); repeatable.", valueName: "file"))
  var output: [String] = []

  @OptionGroup var ruleOptions: RuleOptions

  @Option(name: .long, help: ArgumentHelp("Exit 1 when there are more than this many warnings.", valueName: "n"))
  var maxWarnings: Int?

  @Flag(name: .long, help: "Report errors only.")
  var quiet = false

  @Option(name: .long, help: ArgumentHelp("The file name to show for standard input.", valueName: "name"))
  var stdinFilename: String?

  @Option(name: .long, help: ArgumentHelp("Files linted at once (default: one per core).", valueName: "n"))
  var jobs: Int?

  @Flag(name: .long, help: "Fix what can be fixed mechanically and write the files (standard input: print the fixed document).")
  var fix = false

  @Flag(name: .long, help: "Print the fixes as a unified diff; write nothing.")
  var fixDryRun = false

  @Flag(name: .long, help: "Read one JSON document per line (files or standard input), streaming; diagnostics name the line.")
  var ndjson = false

  @Option(name: .long, help: ArgumentHelp("What the files hold: request ({\"message\": ...}), message (a bare Message) or apns (a bare APNs payload); detected per file by default.", valueName: "kind"))
  var input: String?

  @Option(name: .long, help: ArgumentHelp("Deepest nesting of arrays and objects; deeper is a json-syntax error (default: 512).", valueName: "n"))
  var maxDepth: Int?

  @Option(name: .long, help: ArgumentHelp("Largest file read, in bytes (suffixes K, M, G: powers of 1024); a larger file is an I/O error, never read (default: 64M, at most 1G).", valueName: "size"))
  var maxFileSize: String?

  @Option(name: .long, help: ArgumentHelp("Longest string or number literal, in bytes as written; longer is a json-syntax error (default: 1M; suffixes K, M, G).", valueName: "size"))
  var maxStringLength: String?

  var settings: LintSettings {
    LintSettings(
      paths: paths, format: format, output: output, ruleSources: ruleOptions.sources, maxWarnings: maxWarnings, quiet: quiet,
      stdinFilename: stdinFilename, jobs: jobs, fix: fix, fixDryRun: fixDryRun, ndjson: ndjson, input: input, maxDepth: maxDepth,
      maxFileSize: maxFileSize, maxStringLength: maxStringLength)
  }

  func validate() throws { try settings.validate() }

  func run() throws { try settings.run() }
}

/// The options of one `lint` run, as plain values (`Lint` declares them for the parser).
struct LintSettings: Equatable {
  var paths: [String] = []
  var format: [String] = []
  var output: [String] = []
  var ruleSources = RuleSources()
  var maxWarnings: Int? = nil
  var quiet = false
  var stdinFilename: String? = nil
  var jobs: Int? = nil
  var fix = false
  var fixDryRun = false
  var ndjson = false
  var input: String? = nil
  var maxDepth: Int? = nil
  var maxFileSize: String? = nil
  var maxStringLength: String? = nil
}

extension LintSettings {
  func validate() throws {
    if paths.isEmpty { throw ValidationError("give at least one file, folder, or - for standard input") }
    for format in format where OutputFormat(rawValue: format) == nil {
      throw ValidationError("unknown format '\(format)' (formats: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    if output.count > max(1, format.count) {
      throw ValidationError("each --output needs its own --format (\(output.count) outputs, \(format.count) formats)")
    }
    if reports.filter({ $0.destination == "-" }).count > 1 {
      throw ValidationError("only one report can go to standard output: give the others an --output file")
    }
    if let maxWarnings, maxWarnings < 0 { throw ValidationError("--max-warnings must be 0 or more") }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
    if let input, InputKind(rawValue: input) == nil {
      throw ValidationError("unknown input kind '\(input)' (kinds: \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    if paths.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input ('-') can be read only once") }
    if let stdinFilename, stdinFilename.isEmpty { throw ValidationError("--stdin-filename needs a name") }
    if fix && fixDryRun { throw ValidationError("--fix and --fix-dry-run exclude each other") }
    if ndjson && (fix || fixDryRun) { throw ValidationError("--ndjson streams are linted, not fixed") }
    if ndjson && reports.count > 1 { throw ValidationError("--ndjson writes one report, to standard output") }
    do {
      _ = try limits(over: Limits())
    } catch {
      throw ValidationError(error.message)
    }
  }

  private static let jsonSuffix: [UInt8] = Array(".json".utf8)

  /// Whether a file found in a folder is linted: its name ends in ".json", in any case. Checked
  /// on the bytes, since a folder may hold 20,000 names.
  static func isJSONFileName(_ name: String) -> Bool {
    let suffix = jsonSuffix
    let utf8 = name.utf8
    guard utf8.count >= suffix.count else { return false }
    // ASCII letters only: no other character lower-cases to one of ".json".
    return zip(utf8.suffix(suffix.count), suffix).allSatisfy { byte, expected in byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) == expected }
  }

  /// The limits of this run: the options over `configured` (the config's, or the defaults).
  func limits(over configured: Limits) throws(Limits.Problem) -> Limits {
    var limits = configured
    let options: [(Limits.Setting, String?)] = [
      (.maxDepth, maxDepth.map(String.init)), (.maxFileSize, maxFileSize), (.maxStringLength, maxStringLength),
    ]
    for case let (setting, text?) in options { try limits.set(setting, to: text, name: "--" + setting.rawValue) }
    return limits
  }

  func run() throws {
    let (ruleSet, config) = try ruleSources.loadOrReport(documented: false)  // linting reads no descriptions or examples
    var options = Linter.Options()
    options.input = input.flatMap(InputKind.init(rawValue:))
    let limits = try self.limits(over: config.limits)  // checked by validate()
    options.maxDepth = limits.maxDepth
    options.maxStringLength = limits.maxStringLength
    let linter = Linter(rules: ruleSet, severities: config.severities, options: options)
    ProcessLifetime.keep(linter)

    if ndjson { return try runNDJSON(linter, limits) }

    // Inputs, in command-line order; folders expand to their sorted *.json files.
    var inputs: [Input] = []
    var ioErrors: [FileSystem.IOError] = []
    for path in paths {
      if path == "-" {
        inputs.append(.standardInput(name: stdinFilename ?? "<stdin>"))
        continue
      }
      switch FileSystem.kind(path) {
      case .directory:
        let (files, errors) = FileSystem.files(under: path, include: Self.isJSONFileName)
        inputs += files.filter { !config.isIgnored($0) }.map { .file($0) }
        ioErrors += errors
      case .missing:
        ioErrors.append(FileSystem.IOError(path: path, message: FileSystem.statFailure(path)))
      case .file, .other:
        if !config.isIgnored(path) { inputs.append(.file(path)) }
      }
    }

    let results = lintAll(inputs, linter, limits)
    var diagnostics: [Diagnostic] = []
    var linted: [String] = []
    var fixed = 0
    var fixedDocument: [UInt8]? = nil
    for (index, input) in inputs.enumerated() {
      let result = results[index]
      if let error = result.error { ioErrors.append(error) }
      guard result.read else { continue }
      diagnostics += result.diagnostics
      fixed += result.fixed
      if let diff = result.diff { Console.out(diff) }
      switch input {
      case .file(let path): linted.append(path)
      case .standardInput(let name):
        linted.append(name)
        if fix { fixedDocument = result.fixedBytes }
      }
    }
    if quiet { diagnostics.removeAll { $0.severity != .error } }
    diagnostics.sort(by: Diagnostic.ordered)

    var summary = Summary(files: linted.count, diagnostics: diagnostics)
    summary.fixed = fixed
    // With --fix on standard input, the fixed document owns standard output; reports go to stderr.
    if let fixedDocument { Console.out(String(decoding: fixedDocument, as: UTF8.self)) }
    let report = Report(
      diagnostics: diagnostics, summary: summary, files: linted,
      rules: linter.activeRules.map { RuleDescriptor(id: $0.id, summary: $0.summary, docs: $0.docs, severity: $0.severity) },
      toolVersion: FCMLintCommand.version)
    for (format, destination) in reports {
      if destination == "-" {
        let text = format.formatter(color: format == .text && Console.wantsColor && fixedDocument == nil).format(report)
        if fixedDocument != nil { Console.err(text) } else { Console.out(text) }
      } else if case .failure(let error) = FileSystem.write(format.formatter().format(report), to: destination) {
        ioErrors.append(FileSystem.IOError(path: destination, message: "cannot write the report: \(error.message)"))
      }
    }
    for error in ioErrors { Console.err("fcmlint: error: \(error.path): \(error.message)\n") }

    if !ioErrors.isEmpty { throw StatusError(status: .failure) }
    if summary.errors > 0 { throw StatusError(status: .problems) }
    if let maxWarnings, summary.warnings > maxWarnings {
      Console.err("fcmlint: \(summary.warnings) warnings, more than --max-warnings \(maxWarnings)\n")
      throw StatusError(status: .problems)
    }
  }

  /// `--ndjson`: each path is a stream of one document per line ("-" is standard input).
  func runNDJSON(_ linter: Linter, _ limits: Limits) throws {
    let streamer = NDJSONLinter(
      linter: linter, format: reports[0].format, quiet: quiet, jobs: jobs ?? Console.processorCount, maxLine: limits.maxFileSize)
    var totals = NDJSONLinter.Totals()
    var errors: [FileSystem.IOError] = []
    streamer.begin()
    for path in paths {
      let name = path == "-" ? (stdinFilename ?? "<stdin>") : path
      let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        errors.append(FileSystem.IOError(path: path, message: FileSystem.kind(path) == .missing ? "no such file or directory" : "cannot open"))
        continue
      }
      if FileSystem.kind(path) == .directory && path != "-" {
        close(fd)
        errors.append(FileSystem.IOError(path: path, message: "is a directory (--ndjson reads streams, not folders)"))
        continue
      }
      if let error = streamer.lint(fd: fd, name: name, totals: &totals) { errors.append(error) }
      if path != "-" { close(fd) }
    }
    streamer.finish(totals, rules: linter.activeRules.map { RuleDescriptor(id: $0.id, summary: $0.summary, docs: $0.docs, severity: $0.severity) }, files: paths)
    for error in errors { Console.err("fcmlint: error: \(error.path): \(error.message)\n") }
    if !errors.isEmpty { throw StatusError(status: .failure) }
    if totals.summary.errors > 0 { throw StatusError(status: .problems) }
    if let maxWarnings, totals.summary.warnings > maxWarnings { throw StatusError(status: .problems) }
  }

  /// Each report: its format and where it goes ("-" is standard output). Formats pair with
  /// outputs in order; formats without an output go to standard output.
  var reports: [(format: OutputFormat, destination: String)] {
    let formats = format.isEmpty ? ["text"] : format
    return formats.enumerated().map { i, name in
      (OutputFormat(rawValue: name) ?? .text, i < output.count ? output[i] : "-")
    }
  }

  enum Input {
    case file(String)
    case standardInput(name: String)
  }

  struct Result: Sendable {
    var diagnostics: [Diagnostic] = []
    /// Whether the input was read (and so counts as linted).
    var read = true
    /// What only some inputs have, behind one reference: every result is kept until the end,
    /// and a clean file's result takes 16 bytes instead of about 100 (2 MB over 20,000 files).
    private var extra: Extra? = nil

    final class Extra: Sendable {
      let error: FileSystem.IOError?
      let fixed: Int
      let diff: String?
      let fixedBytes: [UInt8]?
      init(error: FileSystem.IOError?, fixed: Int, diff: String?, fixedBytes: [UInt8]?) {
        self.error = error
        self.fixed = fixed
        self.diff = diff
        self.fixedBytes = fixedBytes
      }
    }

    init(diagnostics: [Diagnostic] = [], read: Bool = true, error: FileSystem.IOError? = nil, fixed: Int = 0, fixedBytes: [UInt8]? = nil) {
      self.diagnostics = diagnostics
      self.read = read
      if error != nil || fixed != 0 || fixedBytes != nil { extra = Extra(error: error, fixed: fixed, diff: nil, fixedBytes: fixedBytes) }
    }

    var error: FileSystem.IOError? { extra?.error }
    var fixed: Int { extra?.fixed ?? 0 }
    var fixedBytes: [UInt8]? { extra?.fixedBytes }
    var diff: String? {
      get { extra?.diff }
      set { extra = Extra(error: error, fixed: fixed, diff: newValue, fixedBytes: fixedBytes) }
    }

    static func failed(_ error: FileSystem.IOError) -> Result { Result(read: false, error: error) }
  }

  /// The results stay in their slots (read them by index): an array copy of 20,000 results was
  /// a third of the memory a run over 20,000 files needed.
  func lintAll(_ inputs: [Input], _ linter: Linter, _ limits: Limits) -> Slots<Result> {
    let slots = Slots<Result>(count: inputs.count, initial: Result())
    let work: @Sendable (Int) -> Void = { i in slots[i] = lintOne(inputs[i], linter, limits) }
    let jobs = min(self.jobs ?? Console.processorCount, inputs.count)
    if jobs <= 1 {
      for i in inputs.indices { work(i) }
    } else {
      // Chunks of inputs per task keep scheduling overhead low on thousands of small files.
      let chunk = max(1, inputs.count / (jobs * 8))
      let tasks = (inputs.count + chunk - 1) / chunk
      DispatchQueue.concurrentPerform(iterations: tasks) { t in
        for i in (t * chunk)..<min(inputs.count, (t + 1) * chunk) { work(i) }
      }
    }
    return slots
  }

  func lintOne(_ input: Input, _ linter: Linter, _ limits: Limits) -> Result {
    let name: String
    let read: Swift.Result<[UInt8], FileSystem.IOError>
    switch input {
    case .file(let path):
      name = path
      read = FileSystem.read(path, limit: limits.maxFileSize, limitName: "--max-file-size")
    case .standardInput(let stdinName):
      name = stdinName
      read = FileSystem.readStandardInput(limit: limits.maxFileSize, limitName: "--max-file-size")
    }
    guard case .success(let bytes) = read else {
      if case .failure(let error) = read { return .failed(error) }
      return Result()
    }
    guard fix || fixDryRun else { return Result(diagnostics: linter.lint(bytes: bytes, file: name)) }

    let outcome = Fixer(linter: linter).fix(bytes: bytes, file: name)
    var result = Result(diagnostics: outcome.diagnostics, fixed: outcome.fixed, fixedBytes: outcome.bytes)
    guard outcome.bytes != bytes else { return result }
    if fixDryRun {
      result.diff = UnifiedDiff.make(bytes, outcome.bytes, path: name)
    } else if case .file(let path) = input, let failure = SafeWriter.replace(path, expecting: bytes, with: outcome.bytes) {
      // Not written: report what the file still holds.
      result = Result(diagnostics: linter.lint(bytes: bytes, file: name), error: FileSystem.IOError(path: failure.path, message: failure.message))
    }
    return result
  }
}

/// Fixed-size result storage written from many threads, each index by exactly one of them.
final class Slots<Value>: @unchecked Sendable {
  private let storage: UnsafeMutableBufferPointer<Value>

  init(count: Int, initial: Value) {
    storage = .allocate(capacity: count)
    storage.initialize(repeating: initial)
  }

  deinit {
    storage.deinitialize()
    storage.deallocate()
  }

  subscript(i: Int) -> Value {
    get { storage[i] }
    set { storage[i] = newValue }
  }

  var values: [Value] { Array(storage) }
}

/// Keeps a value alive until the process exits. The rule pack is thousands of small objects that
/// a linter needs until its last file; freeing them one by one just before `exit` was a
/// noticeable part of a single-file run (docs/performance.md).
enum ProcessLifetime {
  /// A box that refers to itself: nothing ever releases it, so its value is never freed.
  private final class Box<Value> {
    let value: Value
    var itself: Box?
    init(_ value: Value) { self.value = value }
  }

  static func keep<Value>(_ value: Value) {
    let box = Box(value)
    box.itself = box
  }
}
