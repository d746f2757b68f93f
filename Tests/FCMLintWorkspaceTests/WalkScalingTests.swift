import FCMLintTestSupport
import FCMLintWorkspace
import Foundation
import XCTest

/// A walk's ignore decisions grow with the folders and files it meets, not with their depth: each
/// folder and file is matched once, by its own path, since the walk entered every folder above it.
final class WalkScalingTests: XCTestCase {
  /// Folders `depth` deep, a file and a skipped file in each; the patterns' decisions made.
  func decisions(depth: Int) throws -> (files: Int, decisions: Int) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-walk-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    var folder = root
    for level in 0..<depth {
      folder = folder.appendingPathComponent(level % 2 == 0 ? "a" : "b")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("{}".utf8).write(to: folder.appendingPathComponent("m\(level).json"))
      try Data("{}".utf8).write(to: folder.appendingPathComponent("m\(level).tmp.json"))
    }
    // Several `**` each: the patterns that made every file's folders match again costly.
    let ignore = IgnoreList(gitignore: "**/a/**/b/**/*.tmp.json\n**/b/**/a/**/skip/\n", base: root.path)
    let filter = WalkFilter(root: root.path, config: [ignore], respectGitignore: false)
    let (files, errors) = FileSystem.files(under: root.path, enter: filter.enters) { $0.hasSuffix(".json") }
    XCTAssertEqual(errors.count, 0)
    return (files.filter(filter.includes).count, filter.decisions)
  }

  func testDoublingTheDepthAtMostAboutDoublesTheDecisions() throws {
    let shallow = try decisions(depth: 40)
    let deep = try decisions(depth: 80)
    // The first pattern holds from the second level (a/b/...) down: only the first .tmp.json stays.
    XCTAssertEqual(shallow.files, 40 + 1)
    XCTAssertEqual(deep.files, 80 + 1)
    XCTAssertLessThanOrEqual(Double(deep.decisions), 2.1 * Double(shallow.decisions), "\(shallow) → \(deep)")
  }
}
