import Dispatch
import FCMLintEngine
import FCMLintFormatters
import FCMLintJSON
import FCMLintSystem
import FCMLintWorkspace

/// `--ndjson`: one document per line, from files or standard input, streamed in batches so memory
/// stays bounded however long the stream is (logs of sent messages run to gigabytes). Each batch
/// is linted in parallel and printed in stream order before the next is read; a diagnostic names
/// the stream and the line the document is on.
struct NDJSONLinter {
  /// Each document of the stream is this job's input: the stream's config, its `ignore:` and
  /// `suppress:`, as for a file of that name.
  let job: FileJob
  let waivers: Waivers
  let quiet: Bool
  let jobs: Int
  /// Longest accepted line; a longer one gets one diagnostic and is skipped, never loaded whole.
  let maxLine: Int
  /// `--id-field`: where each document keeps its own id, shown with its diagnostics.
  var idField: DocumentID? = nil
  /// Lines (or bytes) per batch: enough to keep every core busy, small enough to bound memory.
  static let batchLines = 8192
  static let batchBytes = 32 << 20

  /// The report being written, and the counts so far.
  struct Totals {
    var summary = Summary()
    var formatter: any Formatter
    let sink: any ReportSink
    /// Lines over the limit: each is reported at its line, in order, and is an I/O error of the
    /// run (exit 2), as a file over the limit is. The first few are named on standard error, the
    /// rest counted: memory stays bounded however many lines are over.
    var overLimit: [FileSystem.IOError] = []
    var overLimitCount = 0
    static let overLimitNamed = 20
  }

  /// Lints one stream (an open file descriptor) and writes its diagnostics.
  func lint(fd: Int32, name: String, totals: inout Totals) -> FileSystem.IOError? {
    var reader = LineReader(fd: fd, maxLine: maxLine)
    // A line over the limit keeps its place in the batch (`tooLong`, its length), so its
    // diagnostic comes between those of the lines around it.
    var batch: [(line: Int, bytes: [UInt8], tooLong: Int?)] = []
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
          batch.append((number, bytes, nil))
          batchSize += bytes.count
        case .tooLong(let number, let length):
          batch.append((number, [], length))
          totals.overLimitCount += 1
          if totals.overLimit.count < Totals.overLimitNamed {
            totals.overLimit.append(FileSystem.IOError(
              path: "\(name):\(number)", message: "the document on this line is \(length) bytes, larger than the limit of \(maxLine) bytes (--max-file-size); not read"))
          }
        }
      }
      if next == nil || batch.count >= Self.batchLines || batchSize >= Self.batchBytes {
        let (found, ids) = lintBatch(batch, name)
        emit(found, ids, &totals)
        totals.summary.files += batch.count
        batch.removeAll(keepingCapacity: true)
        batchSize = 0
      }
      if next == nil { return nil }
    }
  }

  /// The batch's diagnostics in line order and, with `--id-field`, the id of each one's document
  /// (else no ids).
  private func lintBatch(_ batch: [(line: Int, bytes: [UInt8], tooLong: Int?)], _ name: String) -> ([Diagnostic], [String]) {
    let slots = Slots<[Diagnostic]>(count: batch.count, initial: [])
    // A line over the limit was never read: its id is not known.
    let ids = Slots<String>(count: idField == nil ? 0 : batch.count, initial: "null")
    let job = self.job, waivers = self.waivers, idField = self.idField
    let work: @Sendable (Int) -> Void = { [self] i in
      if let length = batch[i].tooLong {
        slots[i] = tooLong(name, batch[i].line, length).map { [$0] } ?? []
        return
      }
      var found = job.run(bytes: batch[i].bytes, .none, waivers: waivers).diagnostics
      // One document per line: every position is on the stream's line, however many CRs (which
      // JSON reads as white space, and an editor as line breaks) the document holds.
      let bytes = batch[i].bytes, line = batch[i].line
      func position(_ offset: Int) -> SourcePosition { SourcePosition(line: line, column: Self.utf16Column(bytes, offset)) }
      for k in found.indices {
        found[k].start = position(found[k].startOffset)
        found[k].end = position(found[k].endOffset)
        if var fix = found[k].fix {
          for e in fix.edits.indices {
            fix.edits[e].startPosition = position(fix.edits[e].start)
            fix.edits[e].endPosition = position(fix.edits[e].end)
          }
          found[k].fix = fix
        }
      }
      slots[i] = found
      // Only documents with findings are read for their id: a clean line costs nothing more.
      if let idField, !found.isEmpty { ids[i] = idField.value(in: bytes) }
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
    let found = slots.values
    guard idField != nil else { return (found.flatMap { $0 }, []) }
    return (found.flatMap { $0 }, found.indices.flatMap { i in Array(repeating: ids[i], count: found[i].count) })
  }

  /// The 1-based column of a byte offset in one line, in UTF-16 code units (as every position is).
  static func utf16Column(_ bytes: [UInt8], _ offset: Int) -> Int {
    var units = 0
    for byte in bytes[..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
    return units + 1
  }

  private func tooLong(_ name: String, _ line: Int, _ length: Int) -> Diagnostic? {
    let position = SourcePosition(line: line, column: 1)
    return job.linter.syntaxDiagnostic(
      file: name, message: "the document on this line is \(length) bytes, larger than the limit of \(maxLine); skipped",
      start: position, end: position)
  }

  /// Counts a batch's diagnostics and hands them to the report.
  private func emit(_ found: [Diagnostic], _ ids: [String], _ totals: inout Totals) {
    let kept = quiet ? found.indices.filter { found[$0].severity == .error } : Array(found.indices)
    let shown = kept.count == found.count ? found : kept.map { found[$0] }
    let counts = Summary(diagnostics: shown)
    totals.summary.errors += counts.errors
    totals.summary.warnings += counts.warnings
    totals.summary.infos += counts.infos
    if !ids.isEmpty, var formatter = totals.formatter as? NDJSONFormatter {
      formatter.write(shown, ids: kept.map { ids[$0] }, to: totals.sink)
      totals.formatter = formatter
    } else {
      totals.formatter.write(shown, files: [], to: totals.sink)
    }
  }
}

/// `--id-field`: the JSON Pointer of a document's own id (a message id in the data, the name a
/// send returned), so the diagnostics of a log's parts can be joined with the log by id however
/// it was split. Read from the document's tree, or from what can be read of a document with a
/// syntax error (up to the error, as the linter reads it).
struct DocumentID: Sendable {
  let tokens: [String]

  init(pointer: String) {
    tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { token in
      // RFC 6901: "~1" is "/", then "~0" is "~".
      String(token).replacing("~1", with: "/").replacing("~0", with: "~")
    }
  }

  /// The document, or what can be read of it: the linter's recovery, then, when that reads
  /// nothing of a line cut short (a key cut off at its end), the text before its last comma.
  static func readable(_ bytes: [UInt8]) -> JSONDocument? {
    let error: JSONSyntaxError
    switch JSONParser.parse(bytes) {
    case .success(let parsed): return parsed
    case .failure(let failure): error = failure
    }
    let parse: ([UInt8]) -> Result<JSONDocument, JSONSyntaxError> = { JSONParser.parse($0) }
    if let document = SyntaxRecovery.recover(bytes, first: error, parse: parse).document { return document }
    // Once, and only at the end: a mistake inside the line is the recovery's to read past.
    guard error.offset >= bytes.count, let comma = bytes.lastIndex(of: UInt8(ascii: ",")) else { return nil }
    let before = Array(bytes[..<comma])
    switch JSONParser.parse(before) {
    case .success(let parsed): return parsed
    case .failure(let failure): return SyntaxRecovery.recover(before, first: failure, parse: parse).document
    }
  }

  /// The id as JSON text: a string (re-escaped), a number as written, a boolean; "null" when
  /// the document has no such member or it is something else.
  func value(in bytes: [UInt8]) -> String {
    guard let document = Self.readable(bytes) else { return "null" }
    var node = JSONDocument.root
    for token in tokens {
      let next: NodeID?
      switch document.kind(node) {
      case .object: next = document.member(node, token)
      case .array: next = Int(token).flatMap { document.element(node, $0) }
      default: next = nil
      }
      guard let next else { return "null" }
      node = next
    }
    switch document.kind(node) {
    case .string: return JSONText.quote(document.string(node) ?? "")
    case .number, .true, .false: return document.rawText(node)
    default: return "null"
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
  /// `buffer[start..<searched]` holds no newline: each byte is searched once, however many reads
  /// a long line takes to arrive (a pipe hands over 64 KB at a time).
  private var searched = 0
  /// Bytes searched for a newline so far: at most each byte once (the tests check it).
  private(set) var bytesSearched = 0

  init(fd: Int32, maxLine: Int) {
    self.fd = fd
    self.maxLine = maxLine
    buffer = [UInt8](repeating: 0, count: 1 << 20)
  }

  struct ReadError: Error { var message: String }

  mutating func next() -> Result<Line?, ReadError> {
    while true {
      let searchFrom = max(start, searched)
      let newline = buffer[searchFrom..<end].firstIndex(of: 0x0A)
      bytesSearched += (newline.map { $0 + 1 } ?? end) - searchFrom
      if let newline {
        lineNumber += 1
        var lineEnd = newline
        if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let line: Line
        if skipping > 0 || lineEnd - start > maxLine {
          // The limit holds however the line was read: whole in the buffer, or in parts.
          line = .tooLong(number: lineNumber, length: skipping + (lineEnd - start))
          skipping = 0
        } else {
          line = .text(number: lineNumber, bytes: Array(buffer[start..<lineEnd]))
        }
        start = newline + 1
        searched = start
        return .success(line)
      }
      if eof {
        guard start < end || skipping > 0 else { return .success(nil) }
        lineNumber += 1
        let line: Line = skipping > 0 || end - start > maxLine
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
      searched = end
      if end == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
      switch POSIX.read(fd, into: &buffer, from: end) {
      case .failure(let error): return .failure(ReadError(message: error.description))
      case .success(0): eof = true
      case .success(let n): end += n
      }
    }
  }
}
