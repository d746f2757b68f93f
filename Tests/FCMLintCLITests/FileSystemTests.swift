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

  func testReadsANamedFileWholeWhateverItsStatedSize() throws {
    // A named file is read with the size its stat gave (no fstat of its own). Changed since, it
    // is still read whole: grown, shrunk, or turned into a folder or a FIFO (no read waits).
    let dir = try temporaryDirectory()
    let path = dir + "/named.json"
    let bytes = Array(#"{"message": {"topic": "news"}}"#.utf8)
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    for stated in [0, 1, bytes.count - 1, bytes.count, bytes.count + 1, 4096] {
      guard case .success(let read) = FileSystem.read(path, statedSize: stated) else { return XCTFail("stated \(stated): not read") }
      XCTAssertEqual(read, bytes, "stated size \(stated)")
    }
    // The limit holds on the stated size and on what is read past it.
    if case .success = FileSystem.read(path, limit: 10, statedSize: bytes.count) { XCTFail("read past the limit") }
    if case .success = FileSystem.read(path, limit: 10, statedSize: 5) { XCTFail("read past the limit (grown)") }
    if case .failure(let e) = FileSystem.read(path, limit: bytes.count, statedSize: bytes.count) { XCTFail(e.message) }
    // A folder fails to read; a FIFO without a writer reads as empty, at once.
    if case .success = FileSystem.read(dir, statedSize: 10) { XCTFail("read a folder") }
    let fifo = dir + "/fifo.json"
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    switch FileSystem.read(fifo, statedSize: 10) {
    case .success(let read): XCTAssertEqual(read, [])
    case .failure: break
    }
  }

  func testNamedFilesAreStatedOnceAndReadWithoutAnFstat() throws {
    // A named file's stat (a folder is walked, a file read) gives the size its read uses.
    let dir = try temporaryDirectory()
    let path = dir + "/a.json"
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{}".utf8)))
    XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/b.json", contents: Data("{}".utf8)))
    let workspace = try Workspace(settings: RunSettings(), pack: { RuleSet() }, keptUntilExit: false)
    let (sources, errors) = try workspace.sources([path, dir], standardInput: nil, distinctFiles: false)
    XCTAssertEqual(errors.count, 0)
    guard case .file(let named, let size)? = sources.first else { return XCTFail("no source") }
    XCTAssertEqual(named, path)
    XCTAssertEqual(size, 2)
    // A file the walk found carries no size: its folder's listing said it is a regular file.
    guard case .file(let found, let walked)? = sources.last else { return XCTFail("the walk found nothing") }
    XCTAssertEqual(found, dir + "/b.json")
    XCTAssertNil(walked)
  }

  func testManyFilesNamedInOneFolderAreToldFromItsListing() throws {
    // Three hundred files named in one folder (find | xargs): its listing says they are regular
    // files, so none is stated (no size), one named twice neither; among them a link, a folder
    // named like a file and a missing file take the stat, and come out as a stat says.
    let dir = try temporaryDirectory()
    var paths: [String] = []
    for i in 0..<300 {
      let path = dir + "/req-\(i).json"
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{}".utf8)))
      paths.append(path)
    }
    try FileManager.default.createSymbolicLink(atPath: dir + "/link.json", withDestinationPath: dir + "/req-0.json")
    try FileManager.default.createDirectory(atPath: dir + "/folder.json", withIntermediateDirectories: false)
    XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/folder.json/inside.json", contents: Data("{}".utf8)))
    paths += [dir + "/link.json", dir + "/folder.json", dir + "/missing.json", dir + "/req-3.json"]
    XCTAssertEqual(
      FileSystem.listedAsRegularFiles(paths), (0..<300).map { _ in true } + [false, false, false, true],
      "the files listed (one of them twice), the link, the folder and the missing file stated")
    XCTAssertEqual(FileSystem.listedAsRegularFiles(Array(paths.prefix(255))), [], "too few to list")
    XCTAssertEqual(
      FileSystem.listedAsRegularFiles(Array(paths.prefix(20)) + ["elsewhere/a.json"], minimumPerFolder: 20, entriesPerPath: 100),
      Array(repeating: true, count: 20) + [false], "a folder with too few named files is not listed")
    // A listing read no further than a few entries a name (none here): what it did not reach is stated.
    XCTAssertEqual(FileSystem.listedAsRegularFiles(paths, minimumPerFolder: 1, entriesPerPath: 0).filter { $0 }, [])

    let workspace = try Workspace(settings: RunSettings(), pack: { RuleSet() }, keptUntilExit: false)
    let (sources, errors) = try workspace.sources(paths, standardInput: nil, distinctFiles: false)
    XCTAssertEqual(errors.map(\.path), [dir + "/missing.json"])
    XCTAssertEqual(errors.first?.message, FileSystem.statFailure(dir + "/missing.json"))
    var files: [String] = [], sizes: [Int?] = []
    for source in sources {
      guard case .file(let path, let size) = source else { return XCTFail("\(source)") }
      files.append(path)
      sizes.append(size)
    }
    XCTAssertEqual(files, Array(paths.prefix(300)) + [dir + "/link.json", dir + "/folder.json/inside.json"])
    XCTAssertEqual(sizes, Array(repeating: nil, count: 300) + [2, nil])
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
