import FCMLintEngine
import FCMLintFormatters
import FCMLintSystem
import FCMLintWorkspace

/// `--check-urls` (or `check-urls: true`): the image URLs the files' lint found are fetched once
/// each, and what their answers mean is added to each file's diagnostics at the URL's place, as
/// the rules fcmlint reports itself (rules/urls/). The fetching is done by `fcmlint-url-check`,
/// the program beside fcmlint that links the HTTP client: fcmlint itself links none of it, so a
/// run without the flag starts as fast as before it existed.
extension LintSettings {
  func checkImageURLs(_ results: Slots<FileResult>, jobs: [FileJob], waivers: Waivers) throws {
    // One line per distinct (URL, platforms): fetched once per URL by the helper.
    var lines: [String] = []
    var lineOf: [String: Int] = [:]
    var skipped: [(String, SkippedImageURL)] = []
    for (place, job) in jobs.enumerated() where job.checksURLs {
      let found = results[place].imageURLs
      for image in found.urls where !image.url.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
        let line = "\(image.platforms.rawValue)\t\(image.url)"
        if lineOf[line] == nil {
          lineOf[line] = lines.count
          lines.append(line)
        }
      }
      skipped += found.skipped.map { (job.source.name, $0) }
    }
    var arguments = ["--user-agent", "fcmlint/\(FCMLintCommand.version)"]
    if let urlTimeout { arguments += ["--timeout", "\(urlTimeout)"] }
    if let urlBudget { arguments += ["--budget", "\(urlBudget)"] }
    if let urlSlow { arguments += ["--slow", "\(urlSlow)"] }
    if let urlCAFile { arguments += ["--ca-file", urlCAFile] }
    if let urlConcurrency { arguments += ["--concurrency", "\(urlConcurrency)"] }
    if let urlPerHost { arguments += ["--per-host", "\(urlPerHost)"] }
    // What --url-cache answers for the URLs checked within its age; the checker gets the rest.
    let now = URLCache.now(), maxAge = urlCacheMaxAge ?? URLCache.defaultMaxAge
    let cache = urlCache.map(URLCache.load)
    var cached: [Int: URLCache.Entry] = [:]
    var sent: [Int] = []
    for (index, line) in lines.enumerated() {
      if let entry = cache?.fresh(line, now: now, maxAge: maxAge) { cached[index] = entry } else { sent.append(index) }
    }
    let answer: String
    if sent.isEmpty {
      answer = ""
    } else {
      switch URLCheckHelper.run(arguments, input: sent.map { lines[$0] + "\n" }.joined()) {
      case .success(let output): answer = output
      case .failure(let failure):
        Console.err("fcmlint: error: --check-urls: \(TextFormatter.printable(failure.message))\n")
        throw StatusError(status: .failure)
      }
    }
    /// The index in `lines` of the checker's LINE (which counts the lines sent).
    func lineSent(_ field: String) -> Int? { Int(field).flatMap { sent.indices.contains($0) ? sent[$0] : nil } }
    var findings: [Int: [(rule: String, detail: String)]] = [:]
    var failedLines = Set<Int>(), uncheckedLines = Set<Int>()
    for row in answer.split(separator: "\n") {
      let fields = row.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
      switch (fields.first, fields.count) {
      case ("fatal", 2...):
        Console.err("fcmlint: error: --check-urls: \(TextFormatter.printable(fields[1]))\n")
        throw StatusError(status: .failure)
      case ("finding", 4): if let line = lineSent(fields[1]) { findings[line, default: []].append((fields[2], fields[3])) }
      case ("failed", 2): if let line = lineSent(fields[1]) { failedLines.insert(line) }
      case ("unchecked", 2): if let line = lineSent(fields[1]) { uncheckedLines.insert(line) }
      default: continue
      }
    }
    if let urlCache, var updated = cache {
      for line in sent where !uncheckedLines.contains(line) {
        updated.entries[lines[line]] = URLCache.Entry(checked: now, failed: failedLines.contains(line), findings: findings[line] ?? [])
      }
      updated.save(urlCache, now: now, maxAge: maxAge)
    }
    for (line, entry) in cached {
      findings[line] = entry.findings.isEmpty ? nil : entry.findings
      if entry.failed { failedLines.insert(line) }
    }
    func url(_ line: Int) -> Substring { lines[line].split(separator: "\t", maxSplits: 1)[1] }
    for (place, job) in jobs.enumerated() where job.checksURLs {
      var added: [Diagnostic] = []
      for image in results[place].imageURLs.urls {
        guard let line = lineOf["\(image.platforms.rawValue)\t\(image.url)"] else { continue }
        for finding in findings[line] ?? [] {
          guard let rule = job.linter.reportedRule(finding.rule) else { continue }
          var diagnostic = rule.diagnostic(
            file: job.source.name, detail: finding.detail, start: image.start, end: image.end, startOffset: image.startOffset,
            endOffset: image.endOffset)
          diagnostic.pointer = image.pointer
          added.append(diagnostic)
        }
      }
      guard !added.isEmpty else { continue }
      let kept = waivers.apply(added, file: job.source.name, suppressions: job.suppressions, linter: job.linter)
      results[place].diagnostics = (results[place].diagnostics + kept).sorted(by: Diagnostic.ordered)
    }
    let all = Set(lines.indices.map(url))
    let unchecked = Set(uncheckedLines.map(url))
    let checked = all.count - unchecked.count
    let flagged = Set(findings.keys.map(url)).count
    let failed = Set(failedLines.map(url)).count
    var summary = "fcmlint: checked \(checked) image \(checked == 1 ? "URL" : "URLs"): \(flagged) with findings, \(failed) not fetched"
    if !skipped.isEmpty { summary += "; skipped \(skipped.count)\(verbose ? "" : " (--verbose lists them)")" }
    if !unchecked.isEmpty { summary += "; \(unchecked.count) not checked: the --url-budget ran out" }
    if urlCache != nil {
      let reused = Set(cached.keys.map(url)).count
      summary += "; \(reused) from the --url-cache"
    }
    Console.err(summary + "\n")
    if verbose {
      for (file, url) in skipped {
        Console.err("fcmlint: skipped image URL \(TextFormatter.printable(url.url)) (\(TextFormatter.printable(file)):\(url.line)): \(url.reason)\n")
      }
    }
  }
}

/// Runs `fcmlint-url-check` (the program `FCMLINT_URL_CHECK` names, else the one beside this
/// executable, else the one on PATH) with `input` on its standard input, and returns its standard
/// output. It is built from its own package: `swift build -c release --package-path URLCheck`.
enum URLCheckHelper {
  static let name = "fcmlint-url-check"

  struct Failure: Error {
    var message: String
  }

  static func run(_ arguments: [String], input: String) -> Result<String, Failure> {
    let named = POSIX.environment("FCMLINT_URL_CHECK").flatMap { $0.isEmpty ? nil : $0 }
    let path = named ?? besideExecutable() ?? name
    switch POSIX.run(path, arguments, input: Array(input.utf8)) {
    case .failure:
      if let named { return .failure(Failure(message: "FCMLINT_URL_CHECK names '\(named)', which cannot be run")) }
      return .failure(Failure(message: "\(name) was not found beside fcmlint nor on PATH; build it with `swift build -c release --package-path URLCheck` and put .build/release/\(name) beside fcmlint"))
    case .success(let run):
      let text = String(decoding: run.output, as: UTF8.self)
      // Exit 2 with a "fatal" line is the checker's own failure, read by the caller.
      guard let status = run.exitStatus, status == 0 || text.hasPrefix("fatal\t") else {
        return .failure(Failure(message: "\(name) stopped (\(run.exitStatus.map { "exit status \($0)" } ?? "ended by a signal"))"))
      }
      return .success(text)
    }
  }

  /// The checker in the folder of the running executable, if it is there.
  static func besideExecutable() -> String? {
    guard let executable = POSIX.executablePath() ?? CommandLine.arguments.first, let slash = executable.lastIndex(of: "/") else { return nil }
    let candidate = String(executable[...slash]) + name
    return POSIX.isExecutable(candidate) ? candidate : nil
  }
}

/// A whole number above 0 for an option (`--url-concurrency 4`).
func positive(_ text: String, for option: String) throws(UsageError) -> Int {
  guard let value = Int(text), value > 0 else { throw UsageError("\(option) takes a whole number above 0, not '\(text)'") }
  return value
}

/// A number of seconds for an option (`--url-timeout 2.5`).
func seconds(_ text: String, for option: String) throws(UsageError) -> Double {
  guard let value = Double(text), value > 0, value.isFinite else { throw UsageError("\(option) takes a number of seconds above 0, not '\(text)'") }
  return value
}
