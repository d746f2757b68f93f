@testable import FCMLintCLI
import FCMLintEngine
import FCMLintFormatters
import FCMLintJSON
import FCMLintWorkspace
import Foundation
import Synchronization
import XCTest

/// How the CLI writes its reports: file by file in output order, to sinks that remember a
/// failed write.
final class ReportOutputTests: XCTestCase {
  func diagnostic(_ file: String, line: Int, _ severity: Severity = .error) -> Diagnostic {
    Diagnostic(
      file: file, rule: "image-extension", severity: severity, message: "m", pointer: "/message",
      start: SourcePosition(line: line, column: 1), end: SourcePosition(line: line, column: 2), startOffset: 0, endOffset: 1,
      docs: "https://example.com")
  }

  /// Results come in any order; each file is written as soon as every file before it is, a name
  /// given twice once with both results' diagnostics in order, and an unread file not at all.
  func testReportWriterWritesEachFileOnceTheFilesBeforeItAreDone() {
    let sink = SharedSink()
    let writer = ReportWriter(
      [ReportOutput(formatter: TextFormatter(), sink: sink, file: nil)], header: ReportHeader(),
      inputs: ["a.json", "a.json", "b.json", "c.json", "d.json"].map { .file($0) }, shown: .all)
    writer.add([FileResult(diagnostics: [diagnostic("b.json", line: 1, .warning)])], at: 2)
    writer.add([FileResult(diagnostics: [diagnostic("a.json", line: 5)])], at: 0)
    XCTAssertEqual(sink.text, "", "a.json waits for its second result, b.json for a.json")
    writer.add([FileResult(diagnostics: [diagnostic("a.json", line: 2)])], at: 1)
    XCTAssertEqual(
      sink.text,
      """
      a.json:2:1: error: m [image-extension]
      a.json:5:1: error: m [image-extension]
      b.json:1:1: warning: m [image-extension]

      """)
    writer.add([FileResult()], at: 4)
    writer.add([.failed(FileSystem.IOError(path: "c.json", message: "cannot read"))], at: 3)
    XCTAssertEqual(writer.errors.map(\.place), [3])
    XCTAssertEqual(writer.summary, Summary(files: 3, diagnostics: [diagnostic("a.json", line: 2), diagnostic("a.json", line: 5), diagnostic("b.json", line: 1, .warning)]))
    XCTAssertEqual(writer.finish().count, 0)
    XCTAssertTrue(sink.text.hasSuffix("\n3 problems (2 errors, 1 warning, 0 infos) in 3 files\n"), sink.text)
  }

  /// Results come in batches of consecutive places (as the jobs hand them over): a batch that
  /// comes early waits whole, and is written as soon as the batch before it is.
  func testReportWriterTakesBatchesInAnyOrder() {
    let sink = SharedSink()
    let names = ["a.json", "b.json", "c.json", "d.json", "e.json", "f.json"]
    let writer = ReportWriter(
      [ReportOutput(formatter: TextFormatter(), sink: sink, file: nil)], header: ReportHeader(), inputs: names.map { .file($0) },
      shown: .all)
    func batch(_ places: Range<Int>) -> [FileResult] { places.map { FileResult(diagnostics: [diagnostic(names[$0], line: 1)]) } }
    writer.add(batch(4..<6), at: 4)
    writer.add(batch(2..<4), at: 2)
    XCTAssertEqual(sink.text, "")
    writer.add(batch(0..<2), at: 0)
    XCTAssertEqual(sink.text, names.map { "\($0):1:1: error: m [image-extension]\n" }.joined())
    XCTAssertEqual(writer.lintedNames, names)
    XCTAssertEqual(writer.summary, Summary(files: 6, diagnostics: names.map { diagnostic($0, line: 1) }))
  }

  /// A write that fails (a full disk) is kept as the sink's failure, and only the first one.
  func testConsoleSinkKeepsItsFirstFailure() throws {
    let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { throw XCTSkip("no /dev/full") }
    defer { close(fd) }
    let sink = ConsoleSink(fd: fd)
    XCTAssertNil(sink.failure)
    sink.write("{\"diagnostics\":[")
    let failure = try XCTUnwrap(sink.failure)
    XCTAssertEqual(failure, String(cString: strerror(ENOSPC)))
    sink.write("]}")
    XCTAssertEqual(sink.failure, failure)
  }

  func testGatheredTextNeverFails() {
    let sink = StringSink()
    sink.write("text")
    XCTAssertNil(sink.failure)
    XCTAssertEqual(sink.text, "text")
  }
}

/// Gathers a report's text where the test can read it while a `ReportWriter` writes it.
final class SharedSink: ReportSink, Sendable {
  private let gathered = Mutex("")
  func write(_ text: String) { gathered.withLock { $0 += text } }
  var text: String { gathered.withLock { $0 } }
}
