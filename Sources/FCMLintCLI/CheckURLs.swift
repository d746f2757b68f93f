#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FCMLintEngine
import FCMLintFormatters
import FCMLintSystem
import FCMLintURLCheck
import FCMLintWorkspace

/// `--check-urls` (or `check-urls: true`): the image URLs the files' lint found are fetched once
/// each, and what their answers mean is added to each file's diagnostics at the URL's place, as
/// the rules fcmlint reports itself (rules/urls/). Reached only when a file asks for it, so a run
/// without it never starts the HTTP client.
extension LintSettings {
  func checkImageURLs(_ results: Slots<FileResult>, jobs: [FileJob], waivers: Waivers) throws {
    var urls: [String] = []
    var skipped: [(String, SkippedImageURL)] = []
    for (place, job) in jobs.enumerated() where job.checksURLs {
      let found = results[place].imageURLs
      urls += found.urls.map(\.url)
      skipped += found.skipped.map { (job.source.name, $0) }
    }
    var options = URLChecker.Options()
    if let urlTimeout { options.timeout = urlTimeout }
    if let urlBudget { options.budget = urlBudget }
    if let urlSlow { options.slow = urlSlow }
    options.caFile = urlCAFile
    options.userAgent = "fcmlint/\(FCMLintCommand.version)"
    for name in ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"] {
      for spelling in [name, name.lowercased()] {
        if let value = getenv(spelling) { options.environment[spelling] = String(cString: value) }
      }
    }
    let answers: [String: URLChecker.Answer]
    switch URLChecker(options: options).run(urls) {
    case .success(let found): answers = found
    case .failure(let failure):
      Console.err("fcmlint: error: --check-urls: \(TextFormatter.printable(failure.message))\n")
      throw StatusError(status: .failure)
    }
    var failed = Set<String>(), flagged = Set<String>(), unchecked = Set<String>()
    for (place, job) in jobs.enumerated() where job.checksURLs {
      let found = results[place].imageURLs.urls
      guard !found.isEmpty else { continue }
      var added: [Diagnostic] = []
      for image in found {
        guard let answer = answers[image.url] else {
          unchecked.insert(image.url)
          continue
        }
        if answer.failure != nil { failed.insert(image.url) }
        var platforms: Judgement.Platforms = []
        if image.platforms.contains(.android) { platforms.insert(.android) }
        if image.platforms.contains(.apple) { platforms.insert(.apple) }
        if image.platforms.contains(.web) { platforms.insert(.web) }
        for finding in Judgement.findings(url: image.url, answer: answer, platforms: platforms, slow: options.slow) {
          flagged.insert(image.url)
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
    let checked = Set(urls).count - unchecked.count
    var summary = "fcmlint: checked \(checked) image \(checked == 1 ? "URL" : "URLs"): \(flagged.count) with findings, \(failed.count) not fetched"
    if !skipped.isEmpty { summary += "; skipped \(skipped.count)\(verbose ? "" : " (--verbose lists them)")" }
    if !unchecked.isEmpty { summary += "; \(unchecked.count) not checked: the --url-budget of \(options.budget) s ran out" }
    Console.err(summary + "\n")
    if verbose {
      for (file, url) in skipped {
        Console.err("fcmlint: skipped image URL \(TextFormatter.printable(url.url)) (\(TextFormatter.printable(file)):\(url.line)): \(url.reason)\n")
      }
    }
  }
}

/// A number of seconds for an option (`--url-timeout 2.5`).
func seconds(_ text: String, for option: String) throws(UsageError) -> Double {
  guard let value = Double(text), value > 0, value.isFinite else { throw UsageError("\(option) takes a number of seconds above 0, not '\(text)'") }
  return value
}
