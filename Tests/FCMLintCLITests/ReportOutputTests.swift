@testable import FCMLintCLI
import FCMLintFormatters
import Foundation
import XCTest

/// Where the CLI's reports go: sinks that remember a failed write.
final class ReportOutputTests: XCTestCase {
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
