import FCMLintWorkspace
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
}
