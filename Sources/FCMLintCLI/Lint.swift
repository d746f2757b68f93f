#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import FCMLintSystem
import FCMLintDocs
import FCMLintEngine
import FCMLintFixes
import FCMLintFormatters
import FCMLintJSON
import FCMLintWorkspace

/// `fcmlint [lint] [options] PATH...`.
extension LintSettings {
  static let usage = "fcmlint [lint] [<options>] <path> ..."
  static let abstract = "Lint JSON files, folders (every *.json below them, in sorted order) or standard input ('-')."

  /// Every option of `lint`: the one place one is declared (see `CLIOption`).
  static let options: [CLIOption<LintSettings>] = [
    .value("--format", "<format>", repeatable: true, values: .choice(OutputFormat.allCases.map(\.rawValue)), "Output format: text, json, sarif, github, junit, checkstyle or ndjson (one JSON object a line per diagnostic); paired in order with --output.") {
      $0.format.append($1)
    },
    .value("--output", "<file>", repeatable: true, "Write the report of the matching --format to this file ('-' for standard output).") {
      $0.output.append($1)
    },
  ] + RuleSources.options.map { $0.lifted(\LintSettings.ruleSources) } + [
    .value("--max-warnings", "<n>", "Exit 1 when there are more than this many warnings.") { s, v throws(UsageError) in
      s.maxWarnings = try integer(v, for: "--max-warnings")
    },
    .flag("--quiet", "Report errors only.") { $0.quiet = true },
    .flag("--verbose", "List on standard error the files skipped as not FCM documents, and why.") { $0.verbose = true },
    .flag(
      "--no-respect-gitignore", "Walk folders without reading .gitignore files (the default folders, such as node_modules, stay skipped)."
    ) { $0.respectGitignore = false },
    .value("--stdin-filename", "<name>", "The file name to show for standard input.") { $0.stdinFilename = $1 },
    .flag(
      "--docs",
      "Lint the message samples in documentation: folder walks include .md, .markdown, .mdx, .html, .htm and .txt pages, and a named file that is not .json is read as a page (plain text too). Markdown and HTML pages named on the command line are read as pages without it."
    ) { $0.docs = true },
    .value("--jobs", "<n>", "Files linted at once (default: one per processor the run may use, as nproc counts them).") { s, v throws(UsageError) in
      s.jobs = try integer(v, for: "--jobs")
    },
    .flag("--fix", "Fix what can be fixed mechanically and write the files (standard input: print the fixed document).") { $0.fix = true },
    .flag("--fix-dry-run", "Print the fixes as a unified diff; write nothing.") { $0.fixDryRun = true },
    .flag("--fix-only", "Fix what can be fixed and report nothing that remains; exit 0 unless a file cannot be read or written (format-on-save, fix hooks).") {
      $0.fixOnly = true
    },
    .value("--baseline", "<file>", "Report only findings that are not in this baseline (see --write-baseline); say how many it hid and how many of its entries match nothing any more.") {
      $0.baseline = $1
    },
    .value("--write-baseline", "<file>", "Record every current finding in this file (JSON, sorted, one finding a line) and report none of them: commit it and lint with --baseline.") {
      $0.writeBaseline = $1
    },
    .flag("--exit-zero", "Report as usual, but exit 0 even with errors (exit 2 for usage, config and I/O failures stays).") { $0.exitZero = true },
    .flag("--ndjson", "Read one JSON document per line (files or standard input), streaming; diagnostics name the line.") { $0.ndjson = true },
    .value(
      "--id-field", "<pointer>",
      "With --ndjson and --format ndjson: the JSON Pointer of each document's own id (such as /message/data/message_id), shown as \"id\" on each of its diagnostics."
    ) { $0.idField = $1 },
    .value(
      "--input", "<kind>", values: .choice(InputKind.allCases.map(\.rawValue)),
      "What the files hold: request ({\"message\": ...}), message (a bare Message), apns (a bare APNs payload), apns-config (an ApnsConfig alone) or aps (an aps dictionary alone; these two are read as fragments). By default decided per file, and files that are none of these (package.json, tsconfig.json...) are skipped; with --input every file is linted as that kind."
    ) { $0.input = $1 },
    .flag(
      "--fragment", "The files are message fragments: the sender adds the target (token, topic, condition) at send time, so none is fine; two are still an error."
    ) { $0.fragment = true },
    .value(
      "--vars", "<file>",
      "Sample values (JSON or YAML) to render templates with; the result is linted with every check, reported at the template's lines."
    ) { $0.vars = $1 },
    .flag(
      "--check-urls",
      "Fetch every image URL of the files (a HEAD and the first bytes, once each; nothing else is sent) and report those a device could not show: unreachable, not an image, the wrong type, too large, redirected to http, slow."
    ) { $0.checkURLs = true },
    .value("--url-ca-file", "<file>", "PEM certificates to trust besides the system's when fetching image URLs (a corporate proxy's CA).") {
      $0.urlCAFile = $1
    },
    .value("--url-timeout", "<seconds>", "Each image URL request's time limit (default: 10).") { s, v throws(UsageError) in
      s.urlTimeout = try seconds(v, for: "--url-timeout")
    },
    .value("--url-budget", "<seconds>", "The whole image URL check's time limit; URLs not reached by then are counted, not reported (default: 60).") {
      s, v throws(UsageError) in s.urlBudget = try seconds(v, for: "--url-budget")
    },
    .value("--url-slow", "<seconds>", "An image slower than this to answer is reported as image-url-slow (default: 3).") { s, v throws(UsageError) in
      s.urlSlow = try seconds(v, for: "--url-slow")
    },
    .value("--url-concurrency", "<n>", "Image URLs fetched at once (default: 8).") { s, v throws(UsageError) in
      s.urlConcurrency = try positive(v, for: "--url-concurrency")
    },
    .value("--url-per-host", "<n>", "Image URLs of one host fetched at once (default: 2).") { s, v throws(UsageError) in
      s.urlPerHost = try positive(v, for: "--url-per-host")
    },
    .value(
      "--url-cache", "<file>",
      "Keep what each image URL answered in this file: a URL checked within --url-cache-max-age is not fetched again, and its findings are reported as they were."
    ) { $0.urlCache = $1 },
    .value("--url-cache-max-age", "<seconds>", "How long an entry of --url-cache is used (default: 86400, a day).") { s, v throws(UsageError) in
      s.urlCacheMaxAge = try seconds(v, for: "--url-cache-max-age")
    },
    .value("--max-depth", "<n>", "Deepest nesting of arrays and objects; deeper is a json-syntax error (default: 512).") { s, v throws(UsageError) in
      s.maxDepth = try integer(v, for: "--max-depth")
    },
    .value(
      "--max-file-size", "<size>",
      "Largest file read, in bytes (suffixes K, M, G: powers of 1024); a larger file is an I/O error, never read (default: 64M, at most 1G)."
    ) { $0.maxFileSize = $1 },
    .value(
      "--max-string-length", "<size>",
      "Longest string or number literal, in bytes as written; longer is a json-syntax error (default: 1M; suffixes K, M, G)."
    ) { $0.maxStringLength = $1 },
  ]

  /// Reads a `lint` command line (without `lint` itself) and checks it.
  init(arguments: ArraySlice<String>) throws(UsageError) {
    self.init()
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { settings, path in settings.paths.append(path) }
    try validate()
  }
}

/// The options of one `lint` run.
struct LintSettings: Equatable {
  var paths: [String] = []
  var format: [String] = []
  var output: [String] = []
  var ruleSources = RuleSources()
  var maxWarnings: Int? = nil
  var quiet = false
  var verbose = false
  var respectGitignore = true
  var stdinFilename: String? = nil
  var jobs: Int? = nil
  var fix = false
  var fixDryRun = false
  var fixOnly = false
  var exitZero = false
  var baseline: String? = nil
  var writeBaseline: String? = nil
  var ndjson = false
  var idField: String? = nil
  var input: String? = nil
  var fragment = false
  var docs = false
  var vars: String? = nil
  var maxDepth: Int? = nil
  var maxFileSize: String? = nil
  var maxStringLength: String? = nil
  var checkURLs = false
  var urlCAFile: String? = nil
  var urlTimeout: Double? = nil
  var urlBudget: Double? = nil
  var urlSlow: Double? = nil
  var urlConcurrency: Int? = nil
  var urlPerHost: Int? = nil
  var urlCache: String? = nil
  var urlCacheMaxAge: Double? = nil
}

extension LintSettings {
  func validate() throws(UsageError) {
    if paths.isEmpty { throw UsageError("give at least one file, folder, or - for standard input") }
    for format in format where OutputFormat(rawValue: format) == nil {
      throw UsageError("unknown format '\(format)' (formats: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    if output.count > max(1, format.count) {
      throw UsageError("each --output needs its own --format (\(output.count) outputs, \(format.count) formats)")
    }
    if reports.filter({ $0.destination == "-" }).count > 1 {
      throw UsageError("only one report can go to standard output: give the others an --output file")
    }
    if let maxWarnings, maxWarnings < 0 { throw UsageError("--max-warnings must be 0 or more") }
    if let jobs, jobs < 1 { throw UsageError("--jobs must be 1 or more") }
    if let input, InputKind(rawValue: input) == nil {
      throw UsageError("unknown input kind '\(input)' (kinds: \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    if paths.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input ('-') can be read only once") }
    if let stdinFilename, stdinFilename.isEmpty { throw UsageError("--stdin-filename needs a name") }
    if (fix || fixOnly) && fixDryRun { throw UsageError("--fix\(fixOnly ? "-only" : "") and --fix-dry-run exclude each other") }
    if ndjson && fixOnly { throw UsageError("--ndjson streams are linted, not fixed") }
    if ndjson && docs { throw UsageError("--ndjson streams hold JSON documents, not pages (--docs)") }
    if ndjson && (fix || fixDryRun) { throw UsageError("--ndjson streams are linted, not fixed") }
    if vars != nil && (fix || fixDryRun) { throw UsageError("--vars lints a rendering of the templates, which --fix cannot write back") }
    if ndjson && (baseline != nil || writeBaseline != nil) { throw UsageError("--ndjson streams have no file names to keep a baseline by") }
    if let baseline, baseline.isEmpty { throw UsageError("--baseline needs a file name") }
    if let writeBaseline, writeBaseline.isEmpty { throw UsageError("--write-baseline needs a file name") }
    if ndjson && checkURLs { throw UsageError("--ndjson streams are linted offline; --check-urls checks files") }
    if let urlCache, urlCache.isEmpty { throw UsageError("--url-cache needs a file name") }
    if urlCacheMaxAge != nil && urlCache == nil { throw UsageError("--url-cache-max-age is the age of --url-cache's entries: give --url-cache too") }
    if ndjson && reports.count > 1 { throw UsageError("--ndjson writes one report, to standard output") }
    if let idField {
      guard idField.hasPrefix("/") else { throw UsageError("--id-field takes a JSON Pointer such as /message/data/message_id, not '\(idField)'") }
      guard ndjson, reports.first?.format == .ndjson else { throw UsageError("--id-field names each line's id: it needs --ndjson and --format ndjson") }
    }
    do {
      _ = try limits(over: Limits())
    } catch {
      throw UsageError(error.message)
    }
  }

  /// The limits of this run: the options over `configured` (the config's, or the defaults).
  func limits(over configured: Limits) throws(Limits.Problem) -> Limits {
    try runSettings(variables: nil).checkedLimits(over: configured)
  }

  /// What the command line sets over every file's config.
  func runSettings(variables: TemplateVariables?) -> RunSettings {
    var settings = RunSettings()
    settings.configFile = ruleSources.config
    settings.ruleDirectories = ruleSources.rules
    settings.input = input.flatMap(InputKind.init(rawValue:))
    settings.fragment = fragment
    settings.docs = docs
    settings.respectGitignore = respectGitignore
    settings.variables = variables
    settings.checkURLs = checkURLs
    // --fix-only reports nothing that remains: no image is fetched for it.
    settings.offline = fixOnly
    if let maxDepth { settings.limitTexts[.maxDepth] = String(maxDepth) }
    if let maxFileSize { settings.limitTexts[.maxFileSize] = maxFileSize }
    if let maxStringLength { settings.limitTexts[.maxStringLength] = maxStringLength }
    return settings
  }

  /// Which diagnostics the reports show.
  var shown: ReportWriter.Shown {
    if fixOnly { return .none(hiddenBy: "--fix-only") }
    return quiet ? .errors(hiddenBy: "--quiet") : .all
  }

  func run() throws {
    var settings = self
    if fixOnly { settings.fix = true }
    try settings.runSettled()
  }

  private func runSettled() throws {
    let variables = try vars.map(Self.readVariables)
    let workspace = try Workspace.openOrReport(runSettings(variables: variables))

    if ndjson { return try runNDJSON(workspace) }
    let waivers = Waivers(baseline: try baseline.map(Self.readBaseline), recording: writeBaseline.map { Baseline(path: $0) })

    // Inputs, in command-line order; folders expand to their sorted files.
    var (inputs, ioErrors) = try reportingConfigurationErrors { () throws(ConfigurationError) in
      try workspace.sources(paths, standardInput: stdinFilename, distinctFiles: fix || fixDryRun)
    }

    // Linted in output order (file names as diagnostics sort), so a report written to the console
    // can take each file's diagnostics as soon as the files before it are done. Diffs and a fixed
    // document go to standard output before the report, so then the report waits for the end.
    let order = FileSystem.byteOrder(of: inputs.map(\.name))
    let linted = order.map { inputs[$0] }
    // Every input is in `linted` now: a run over many files keeps one list of them, not two.
    inputs = []
    // Each input's job: its linter from its own config (standard input: as if in the working
    // directory), and how it is read.
    let jobs = try reportingConfigurationErrors { () throws(ConfigurationError) in try linted.map { source throws(ConfigurationError) in try workspace.job(for: source) } }
    let header = ReportHeader(rules: listedRules(workspace.linters), toolVersion: FCMLintCommand.version)
    let fixing: FileJob.Fixing = fixDryRun ? .diff : fix ? .write : .none
    let report: ReportWriter
    // Image URLs are fetched once the files are linted, each once for all of them: the report waits.
    let checkingURLs = jobs.contains { $0.checksURLs }
    if !fixDryRun && !checkingURLs && !(fix && linted.contains { if case .standardInput = $0 { true } else { false } }) {
      report = ReportWriter(reportOutputs(toStandardError: false), header: header, inputs: linted, shown: shown)
      lintAll(jobs, fixing, waivers) { first, results in report.add(results, at: first) }
    } else {
      // The results stay in their slots (read them by index): an array copy of 20,000 results
      // was a third of the memory a run over 20,000 files needed.
      let results = Slots<FileResult>(count: linted.count, initial: FileResult())
      lintAll(jobs, fixing, waivers) { first, batch in
        for (offset, result) in batch.enumerated() { results[first + offset] = result }
      }
      if checkingURLs { try checkImageURLs(results, jobs: jobs, waivers: waivers) }
      var fixedDocument: [UInt8]? = nil
      for place in order.indices.sorted(by: { order[$0] < order[$1] }) {
        // Standard input is echoed even when it was not linted (ignored, or not an FCM
        // document): format-on-save replaces the buffer with what comes back.
        if fix, case .standardInput = linted[place] { fixedDocument = results[place].fixedBytes }
        if results[place].read, let diff = results[place].diff { Console.out(diff) }
      }
      // With --fix on standard input, the fixed document owns standard output; reports go to stderr.
      if let fixedDocument { Console.write(bytes: fixedDocument, to: 1) }
      report = ReportWriter(
        reportOutputs(toStandardError: fixedDocument != nil), header: header, inputs: linted, shown: shown)
      for place in linted.indices { report.add([results[place]], at: place) }
    }
    for (file, diagnostics) in waivers.unusedSuppressions() { report.addTrailing(diagnostics, file: file) }
    report.updateSummary { summary in
      (summary.baselined, summary.suppressed, summary.baselineUnmatched) = waivers.counts
    }
    if let writeBaseline, case .failure(let error) = FileSystem.write(waivers.recordedBaseline(), to: writeBaseline) {
      ioErrors.append(FileSystem.IOError(path: writeBaseline, message: "cannot write the baseline: \(error.message)"))
    }
    let summary = report.summary
    ioErrors += report.errors.sorted { order[$0.place] < order[$1.place] }.map(\.error)
    ioErrors += report.finish(fatal: summary.files == 0 && summary.skipped == 0 && !ioErrors.isEmpty)
    for (name, note) in report.refusedFixes { Console.err("fcmlint: note: \(TextFormatter.printable(name)): \(TextFormatter.printable(note))\n") }
    if verbose {
      let names = report.lintedNames
      Console.err("fcmlint: linted \(names.count) \(names.count == 1 ? "file" : "files")\(names.isEmpty ? "" : ": ")\(names.map(TextFormatter.printable).joined(separator: ", "))\n")
      for (name, reason) in report.skipped { Console.err("fcmlint: skipped \(TextFormatter.printable(name)): not an FCM document: \(TextFormatter.printable(reason))\n") }
      for part in report.skippedParts { Console.err("fcmlint: skipped sample \(TextFormatter.printable(part))\n") }
      for entry in waivers.unmatchedBaselineEntries() {
        // Every part of an entry is the baseline file's text, as anyone could write it.
        let error = entry.syntax.isEmpty ? "" : " (\(entry.syntax))"
        Console.err("fcmlint: baseline entry matches nothing any more: \(TextFormatter.printable(entry.file)): \(TextFormatter.printable(entry.rule)) at \(entry.pointer.isEmpty ? "the document" : TextFormatter.printable(entry.pointer))\(TextFormatter.printable(error))\n")
      }
    }
    for error in ioErrors { Console.err("fcmlint: error: \(TextFormatter.printable(error.path)): \(TextFormatter.printable(error.message))\n") }

    if !ioErrors.isEmpty { throw StatusError(status: .failure) }
    if exitZero || fixOnly { return }
    if summary.errors > 0 { throw StatusError(status: .problems) }
    if let maxWarnings, summary.warnings > maxWarnings {
      Console.err("fcmlint: \(summary.warnings) warnings, more than --max-warnings \(maxWarnings)\n")
      throw StatusError(status: .problems)
    }
  }

  /// The rules a report lists (SARIF's tool rules): every linter's active rules, each once by
  /// id (the format orders them). Gathered only when a report lists them: otherwise hashing
  /// every rule's id is start-up work for nothing.
  private func listedRules(_ linters: [Linter]) -> [RuleDescriptor] {
    guard reports.contains(where: { $0.format.listsRules }) else { return [] }
    var listed = Set<String>()
    return linters.flatMap(\.activeRules).filter { listed.insert($0.id).inserted }.map(RuleDescriptor.init)
  }

  /// One formatter and sink per report: standard output (or standard error, when it carries the
  /// fixed document) is written as the report goes; a report file is gathered and written whole.
  func reportOutputs(toStandardError: Bool) -> [ReportOutput] {
    reports.map { format, destination in
      if destination == "-" {
        let color = format == .text && Console.wantsColor && !toStandardError
        return ReportOutput(formatter: formatter(format, color: color), sink: ConsoleSink(fd: toStandardError ? 2 : 1), file: nil)
      }
      return ReportOutput(formatter: formatter(format, color: false), sink: StringSink(), file: destination)
    }
  }

  private func formatter(_ format: OutputFormat, color: Bool) -> any Formatter {
    guard fixDryRun, var text = format.formatter(color: color) as? TextFormatter else { return format.formatter(color: color) }
    text.dryRun = true
    return text
  }

  /// `--ndjson`: each path is a stream of one document per line ("-" is standard input).
  func runNDJSON(_ workspace: Workspace) throws {
    let linter = workspace.linters[0]
    // The config's suppressions apply to a stream's documents as to a file's; there is no baseline.
    let waivers = Waivers(baseline: nil, recording: nil)
    var formatter = reports[0].format.formatter(color: reports[0].format == .text && Console.wantsColor)
    if var text = formatter as? TextFormatter {
      // Streams are linted, not fixed, and count documents.
      text.unit = "document"
      text.mentionsFixes = false
      formatter = text
    }
    var totals = NDJSONLinter.Totals(formatter: formatter, sink: ConsoleSink(fd: 1))
    var errors: [FileSystem.IOError] = []
    let header = ReportHeader(rules: listedRules([linter]), toolVersion: FCMLintCommand.version)
    totals.formatter.begin(header, to: totals.sink)
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
      // Each stream is read as a file of its name is: its config, `ignore:` and `suppress:`.
      let source: FileJob.Source = path == "-" ? .standardInput(name: stdinFilename) : .file(path)
      let job = try reportingConfigurationErrors { () throws(ConfigurationError) in try workspace.job(for: source, readAs: .json) }
      let streamer = NDJSONLinter(
        job: job, waivers: waivers, quiet: quiet, jobs: jobs ?? Console.processorCount, maxLine: job.maxFileSize,
        idField: idField.map(DocumentID.init(pointer:)))
      totals.formatter.write([], files: [name], to: totals.sink)  // the stream, for formats that list what was read
      if let error = streamer.lint(fd: fd, name: name, totals: &totals) { errors.append(error) }
      if path != "-" { close(fd) }
    }
    totals.formatter.finish(totals.summary, to: totals.sink)
    errors = totals.overLimit + errors
    if totals.overLimitCount > totals.overLimit.count {
      let more = totals.overLimitCount - totals.overLimit.count
      errors.append(FileSystem.IOError(path: "--ndjson", message: "\(more) more \(more == 1 ? "line is" : "lines are") larger than --max-file-size; not read"))
    }
    for error in errors { Console.err("fcmlint: error: \(TextFormatter.printable(error.path)): \(TextFormatter.printable(error.message))\n") }
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

  /// The `--baseline` file, or exit 2 with where it is wrong.
  static func readBaseline(_ path: String) throws -> Baseline {
    switch FileSystem.read(path, limit: 256 << 20) {
    case .success(let bytes):
      do {
        return try Baseline.load(bytes: bytes, path: path)
      } catch {
        throw reportConfigurationError(error)
      }
    case .failure(let error):
      throw reportConfigurationError(ConfigurationError(file: path, line: 1, column: 1, message: "cannot read the baseline: \(error.message)"))
    }
  }

  /// The `--vars` file, or exit 2 with where it is wrong.
  static func readVariables(_ path: String) throws -> TemplateVariables {
    let text: String
    switch FileSystem.read(path) {
    case .success(let bytes):
      guard let decoded = String(validating: bytes, as: UTF8.self) else {
        throw reportConfigurationError(ConfigurationError(file: path, line: 1, column: 1, message: "the --vars file must be UTF-8 text"))
      }
      text = decoded
    case .failure(let error):
      throw reportConfigurationError(ConfigurationError(file: path, line: 1, column: 1, message: "cannot read the --vars file: \(error.message)"))
    }
    do {
      return TemplateVariables(try DataValue.parse(yaml: text, file: path))
    } catch {
      throw reportConfigurationError(error)
    }
  }

  /// Runs the jobs on `--jobs` threads. `take(first, results)` gets the results of the inputs
  /// from index `first` on, a few consecutive inputs at a time, as soon as they are ready, on the
  /// thread that ran them (so several calls may run at once); all calls are over when this
  /// returns. A few at a time, not one: with two threads, each call moved the report's lock and
  /// state from one core's cache to the other's (docs/performance.md).
  func lintAll(_ jobs: [FileJob], _ fixing: FileJob.Fixing, _ waivers: Waivers, take: @escaping @Sendable (Int, [FileResult]) -> Void) {
    let threads = min(self.jobs ?? Console.processorCount, jobs.count)
    // Small enough that a report on the console still follows the run closely.
    let batch = 32
    @Sendable func run(_ inputs: Range<Int>) {
      var first = inputs.lowerBound
      while first < inputs.upperBound {
        let end = min(inputs.upperBound, first + batch)
        var results: [FileResult] = []
        results.reserveCapacity(end - first)
        for i in first..<end { results.append(jobs[i].run(fixing, waivers: waivers)) }
        take(first, results)
        first = end
      }
    }
    if threads <= 1 {
      run(jobs.indices)
    } else {
      // Chunks of inputs per task keep scheduling overhead low on thousands of small files.
      let chunk = max(1, jobs.count / (threads * 8))
      let tasks = (jobs.count + chunk - 1) / chunk
      DispatchQueue.concurrentPerform(iterations: tasks) { t in run((t * chunk)..<min(jobs.count, (t + 1) * chunk)) }
    }
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

