import FCMLintSystem
import Foundation
import XCTest

/// `--jobs` defaults to one thread per processor the run may use: its CPU affinity, as nproc
/// counts it, so a run under taskset or in a container given some of the machine's processors
/// makes no more threads than it may run at once.
final class ProcessorCountTests: XCTestCase {
  func testDefaultJobsCountTheProcessorsNprocCounts() throws {
    let nproc = URL(fileURLWithPath: "/usr/bin/nproc")
    guard FileManager.default.isExecutableFile(atPath: nproc.path) else { throw XCTSkip("nproc is not installed") }
    let process = Process()
    process.executableURL = nproc
    // nproc reads OMP_NUM_THREADS and OMP_THREAD_LIMIT when they are set; fcmlint does not.
    process.environment = [:]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(Console.processorCount, Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
  }
}
