import Dispatch
import FCMLintEngine
import FCMLintFormatters
import FCMLintJSON
import FCMLintWorkspace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `--ndjson`: one document per line, from files or standard input, streamed in batches so memory
/// stays bounded however long the stream is (logs of sent messages run to gigabytes). Each batch
/// is linted in parallel and printed in stream order before the next is read; a diagnostic names
/// the stream and the line the document is on.
struct NDJSONLinter {
  let linter: Linter
  let format: OutputFormat
  let quiet: Bool
  let jobs: Int
  /// Longest accepted line; a longer one gets one diagnostic and is skipped, never loaded whole.
  let maxLine: Int
  /// Lines (or bytes) per batch: enough to keep every core busy, small enough to bound memory.
  static let batchLines = 8192
  static let batchBytes = 32 << 20

  struct Totals {
    var summary = Summary()
    var diagnostics: [Diagnostic] = []  // kept only for formats that cannot stream
    var first = true
  }

  /// Lints one stream (an open file descriptor) and writes its diagnostics.
  func lint(fd: Int32, name: String, totals: inout Totals) -> FileSystem.IOError? {
    var reader = LineReader(fd: fd, maxLine: maxLine)
    var batch: [(line: Int, bytes: [UInt8])] = []
    var batchSize = 0
    while true {
      let next: LineReader.Line?
      switch reader.next() {
      case .failure(let error): return FileSystem.IOError(path: name, message: error.message)
      case .success(let line): next = line
      }
      if let line = next {
        switch line {
        case .text(let number, let bytes):
          if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }  // blank lines separate nothing
          batch.append((number, bytes))
          batchSize += bytes.count
        case .tooLong(let number, let length):
          emit(tooLong(name, number, length).map { [$0] } ?? [], &totals)
          totals.summary.files += 1
        }
      }
      if next == nil || batch.count >= Self.batchLines || batchSize >= Self.batchBytes {
        emit(lintBatch(batch, name), &totals)
        totals.summary.files += batch.count
        batch.removeAll(keepingCapacity: true)
        batchSize = 0
      }
      if next == nil { return nil }
    }
  }

  private func lintBatch(_ batch: [(line: Int, bytes: [UInt8])], _ name: String) -> [Diagnostic] {
    let slots = Slots<[Diagnostic]>(count: batch.count, initial: [])
    let linter = self.linter
    let work: @Sendable (Int) -> Void = { i in
      var found = linter.lint(bytes: batch[i].bytes, file: name)
      // One document per line: document line 1 is the stream's line.
      let shift = batch[i].line - 1
      for k in found.indices {
        found[k].start.line += shift
        found[k].end.line += shift
        if var fix = found[k].fix {
          for e in fix.edits.indices {
            fix.edits[e].startPosition.line += shift
            fix.edits[e].endPosition.line += shift
          }
          found[k].fix = fix
        }
      }
      slots[i] = found
    }
    let tasks = min(jobs, batch.count)
    if tasks <= 1 {
      for i in batch.indices { work(i) }
    } else {
      let chunk = max(1, batch.count / (tasks * 8))
      DispatchQueue.concurrentPerform(iterations: (batch.count + chunk - 1) / chunk) { t in
        for i in (t * chunk)..<min(batch.count, (t + 1) * chunk) { work(i) }
      }
    }
    return slots.values.flatMap { $0 }
  }

  private func tooLong(_ name: String, _ line: Int, _ length: Int) -> Diagnostic? {
    let position = SourcePosition(line: line, column: 1)
    return linter.syntaxDiagnostic(
      file: name, message: "the document on this line is \(length) bytes, larger than the limit of \(maxLine); skipped",
      start: position, end: position)
  }

  /// Prints what can be printed now (text, JSON and GitHub annotations stream); keeps the rest.
  private func emit(_ found: [Diagnostic], _ totals: inout Totals) {
    let shown = quiet ? found.filter { $0.severity == .error } : found
    let counts = Summary(diagnostics: shown)
    totals.summary.errors += counts.errors
    totals.summary.warnings += counts.warnings
    totals.summary.infos += counts.infos
    guard !shown.isEmpty else { return }
    switch format {
    case .text, .github:
      let text = format.formatter().format(Report(diagnostics: shown, summary: Summary()))
      // Drop the per-batch summary line of the text format; the run's summary comes last.
      Console.out(format == .text ? String(text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(2).joined(separator: "\n")) + "\n" : text)
    case .json:
      var items = JSONFormatter().format(Report(diagnostics: shown, summary: Summary()))
      // The array's items, from {"diagnostics":[ ... ],"summary":...}.
      items = String(items.dropFirst("{\"diagnostics\":[".count))
      items = String(items[..<items.range(of: "],\"summary\":", options: .backwards)!.lowerBound])
      Console.out((totals.first ? "" : ",") + items)
      totals.first = false
    default:
      totals.diagnostics += shown
    }
  }

  /// Opens the report (JSON streams its array) and closes it with the summary.
  func begin() { if format == .json { Console.out("{\"diagnostics\":[") } }

  func finish(_ totals: Totals, rules: [RuleDescriptor], files: [String]) {
    switch format {
    case .text: Console.out(TextFormatter.summaryLine(totals.summary, unit: "document") + "\n")
    case .github: break
    case .json:
      let s = totals.summary
      Console.out("],\"summary\":{\"files\":\(s.files),\"errors\":\(s.errors),\"warnings\":\(s.warnings),\"infos\":\(s.infos),\"fixed\":0}}\n")
    default:
      Console.out(format.formatter().format(Report(
        diagnostics: totals.diagnostics, summary: totals.summary, files: files, rules: rules, toolVersion: FCMLintCommand.version)))
    }
  }
}

/// Reads lines from a file descriptor in large chunks without holding more than one line (and
/// one chunk) at a time. CRLF and LF both end a line.
struct LineReader {
  enum Line: Equatable {
    case text(number: Int, bytes: [UInt8])
    case tooLong(number: Int, length: Int)
  }

  let fd: Int32
  let maxLine: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var end = 0
  private var eof = false
  private var lineNumber = 0
  private var skipping = 0  // bytes of an overlong line already discarded

  init(fd: Int32, maxLine: Int) {
    self.fd = fd
    self.maxLine = maxLine
    buffer = [UInt8](repeating: 0, count: 1 << 20)
  }

  struct ReadError: Error { var message: String }

  mutating func next() -> Result<Line?, ReadError> {
    while true {
      if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
        lineNumber += 1
        var lineEnd = newline
        if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let line: Line
        if skipping > 0 {
          line = .tooLong(number: lineNumber, length: skipping + (newline - start))
          skipping = 0
        } else {
          line = .text(number: lineNumber, bytes: Array(buffer[start..<lineEnd]))
        }
        start = newline + 1
        return .success(line)
      }
      if eof {
        guard start < end || skipping > 0 else { return .success(nil) }
        lineNumber += 1
        let line: Line = skipping > 0
          ? .tooLong(number: lineNumber, length: skipping + end - start)
          : .text(number: lineNumber, bytes: Array(buffer[start..<end]))
        start = end
        skipping = 0
        return .success(line)
      }
      // No newline yet: make room, or give up on a line longer than the limit.
      if end - start > maxLine {
        skipping += end - start
        start = 0
        end = 0
      } else if start > 0 {
        buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
        end -= start
        start = 0
      }
      if end == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + end, $0.count - end) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(ReadError(message: String(cString: strerror(errno))))
      }
      if n == 0 { eof = true } else { end += n }
    }
  }
}
