@testable import FCMLintCLI
import FCMLintEngine
import FCMLintWorkspace
import Foundation
import XCTest

/// The folder walk and file reads that every run starts with.
final class FileSystemTests: XCTestCase {
  func temporaryDirectory() throws -> String {
    let dir = NSTemporaryDirectory() + "fcmlint-fs-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
    return dir
  }

  func testFilesComeInByteOrderWhateverTheirLength() throws {
    let dir = try temporaryDirectory()
    // Names that agree on their first 16 bytes are told apart by the rest; shorter names first.
    let names = [
      "req-0000000000000000b.json", "req-0000000000000000a.json", "req-000000000000.json", "B.json", "a.json", "a",
      "req-000000000000", "é.json", "Z-long-name-beyond-sixteen.json", "req-0000000000000000.json",
    ]
    for name in names { XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("{}".utf8)), name) }
    let (files, errors) = FileSystem.files(under: dir) { _ in true }
    XCTAssertEqual(errors.count, 0)
    let expected = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { dir + "/" + $0 }
    XCTAssertEqual(files, expected)
  }

  func testJSONFileNamesInAnyCase() {
    for name in ["a.json", "A.JSON", "x.Json", ".json", "long name.jSoN"] { XCTAssertTrue(Workspace.isJSONFileName(name), name) }
    for name in ["a.jso", "json", "a.json.bak", "a.jsonl", "a.yml", "", "é"] { XCTAssertFalse(Workspace.isJSONFileName(name), name) }
  }

  func testReadsFilesOfEverySizeWhole() throws {
    let dir = try temporaryDirectory()
    for size in [0, 1, 4095, 4096, 4097, 70_000] {
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      let path = dir + "/f\(size)"
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)), path)
      guard case .success(let read) = FileSystem.read(path) else { return XCTFail("cannot read \(size) bytes") }
      XCTAssertEqual(read, bytes, "\(size) bytes")
      // A limit of exactly the size reads it; one byte less refuses it.
      if case .failure(let e) = FileSystem.read(path, limit: size) { XCTFail("limit \(size): \(e.message)") }
      if size > 0, case .success = FileSystem.read(path, limit: size - 1) { XCTFail("read past the limit: \(size)") }
    }
  }

  #if os(Linux)
  func testReadsFilesThatReportNoSizeToTheEnd() {
    // A /proc file reports a size of 0 and holds more: it is read on to its end, under the limit.
    guard case .success(let read) = FileSystem.read("/proc/self/status") else { return XCTFail("cannot read /proc/self/status") }
    XCTAssertGreaterThan(read.count, 100)
    XCTAssertEqual(read.last, UInt8(ascii: "\n"))
    if case .success = FileSystem.read("/proc/self/status", limit: 10) { XCTFail("read past the limit") }
  }
  #endif
}
