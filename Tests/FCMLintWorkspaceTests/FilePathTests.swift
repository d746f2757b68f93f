import FCMLintSystem
@testable import FCMLintWorkspace
import XCTest

/// `Path.absolute` resolves `.` and `..` by the text, as configs, baselines and ignore lists
/// compare paths.
final class FilePathTests: XCTestCase {
  func testAbsoluteResolvesDotsAndSlashesByTheText() {
    let cases: [(String, String)] = [
      ("/", "/"), ("//", "/"), ("/.", "/"), ("/..", "/"), ("/a/b/../../..", "/"),
      ("/a/./b/../c", "/a/c"), ("//x//y/", "/x/y"), ("/a/b/.", "/a/b"), ("/a/b/..", "/a"),
      ("/a/.../b", "/a/.../b"), ("/a/..b/.c/", "/a/..b/.c"), ("/ré/ñ/../ü", "/ré/ü"),
      // Already resolved: given back as they are.
      ("/a/b.json", "/a/b.json"), ("/...", "/..."), ("/.a", "/.a"), ("/a./b..", "/a./b.."), ("/a/b/", "/a/b"), ("/a//", "/a"),
    ]
    for (path, expected) in cases { XCTAssertEqual(Path.absolute(path), expected, path) }
  }

  func testARelativePathStartsAtTheWorkingDirectory() {
    let here = FileSystem.currentDirectory()
    XCTAssertEqual(Path.absolute("a/./b/../c.json"), (here == "/" ? "" : here) + "/a/c.json")
    XCTAssertEqual(Path.absolute("."), here)
    XCTAssertEqual(Path.absolute(""), here)
  }

  /// `isEntry(_:of:)`, which a walk asks of each file, agrees with `directory(of:)` made into a String.
  func testIsEntryAgreesWithTheDirectoryOfAPath() {
    let paths = ["a.json", "./a.json", "a/b.json", "a/b/c.json", "/a.json", "//a.json", "/a/b.json", "ré/ü.json", "a//b.json", "a/", "/", "."]
    let folders = [".", "/", "a", "a/b", "./", "ré", "a/", "/a", "", "//"]
    for path in paths {
      for folder in folders {
        XCTAssertEqual(Path.isEntry(path, of: folder), Path.directory(of: path) == folder, "\(path) in \(folder)")
      }
    }
  }

  /// `FileSystem.byteOrder`, the order a run reports files in: by their UTF-8 bytes, names given
  /// twice in the order given; names already in order (a walk's) come back as they are.
  func testFilesAreReportedInTheOrderOfTheirBytes() {
    let names = ["b.json", "a/b.json", "a.json", "B.json", "é.json", "a", "a.json", "z/../a.json", "ab.json", ""]
    let order = FileSystem.byteOrder(of: names)
    XCTAssertEqual(order.map { names[$0] }, ["", "B.json", "a", "a.json", "a.json", "a/b.json", "ab.json", "b.json", "z/../a.json", "é.json"])
    XCTAssertEqual(order.filter { names[$0] == "a.json" }, [2, 6], "equal names in the order given")
    let walked = ["./a.json", "./a/b.json", "./b.json", "./é/c.json"]
    XCTAssertEqual(FileSystem.byteOrder(of: walked), [0, 1, 2, 3])
    XCTAssertEqual(FileSystem.byteOrder(of: walked.reversed()), [3, 2, 1, 0])
    XCTAssertEqual(FileSystem.byteOrder(of: []), [])
  }

  /// Names that agree for whole words and differ in the last byte of one, or where one ends: the
  /// order of their bytes, as a byte-by-byte comparison gives it, equal names in the order given.
  func testNamesSharingWordsSortAsTheirBytes() {
    var generator = SystemRandomNumberGenerator()
    let stems = ["", "./part-0/", "./part-0/req-00", "./part-1/req-001", "./part-0/req-0012", "é/ü"]
    // Without and with a start all names share (a project's folder, named whole by a hook).
    for shared in ["", "/home/someone/project/templates/", "/home/someone/project/templates/part-0/req-0012"] {
      let names = (0..<400).map { _ in
        shared + stems.randomElement(using: &generator)!
          + String((0..<Int.random(in: 0...17, using: &generator)).map { _ in "a.0/é-".randomElement(using: &generator)! })
      }
      let expected = names.indices.sorted { a, b in
        names[a] == names[b] ? a < b : Array(names[a].utf8).lexicographicallyPrecedes(Array(names[b].utf8))
      }
      XCTAssertEqual(FileSystem.byteOrder(of: names), expected, "\(names)")
    }
  }
}

/// `Workspace.SeenNames`, which drops a name given twice: by a hash of its bytes, and as Strings
/// once two hashes meet.
final class SeenNamesTests: XCTestCase {
  /// Names made to agree in the bits of their FNV-1a hash a table of 4096 slots once read (a
  /// folder of them, named to a hook, made each insertion walk past the others) spread over the
  /// table's slots like any names: `FileName.slot` reads bits of the hash times a number drawn
  /// at random, which a name cannot aim at.
  func testNamesMadeToShareAHashsBitsDoNotShareSlots() {
    var crowded: [String] = []
    var n = 0
    while crowded.count < 1000 {
      let name = "req-\(n).json"
      n += 1
      if FileName.hash(name.utf8) >> 32 & 0xFFF == 0 { crowded.append(name) }
    }
    let slots = Set(crowded.map { FileName.slot(FileName.hash($0.utf8), bits: 12) })
    // About 890 slots for 1000 names drawn at random; all of them in one under the old slots.
    XCTAssertGreaterThan(slots.count, 700)
    var seen = Workspace.SeenNames()
    XCTAssertTrue(crowded.allSatisfy { seen.insert($0) })
    XCTAssertFalse(seen.insert(crowded[500]))
  }

  func testANameGivenTwiceIsSeenOnce() {
    var seen = Workspace.SeenNames()
    let names = (0..<500).map { "part-\($0 % 7)/req-\($0).json" }
    XCTAssertTrue(names.allSatisfy { seen.insert($0) })
    XCTAssertFalse(seen.insert("part-3/req-10.json"))
    XCTAssertTrue(seen.insert("part-3/req-10.json.json"))
  }

  func testNamesWhoseHashesMeetAreToldApartAsStrings() {
    var seen = Workspace.SeenNames(hash: { $0.hasPrefix("a") ? 7 : 9 })
    XCTAssertTrue(seen.insert("a1"))
    XCTAssertTrue(seen.insert("b1"))
    XCTAssertTrue(seen.insert("a2"), "same hash as a1, another name")
    XCTAssertFalse(seen.insert("a1"))
    XCTAssertFalse(seen.insert("b1"))
    XCTAssertTrue(seen.insert("b2"))
    XCTAssertFalse(seen.insert("a2"))
  }
}
