@testable import FCMLintWorkspace
import XCTest

/// `Glob` reads patterns as git reads `.gitignore` lines; each case was checked against
/// `git check-ignore` (see `testAgreesWithGit`, which runs git when it is installed).
final class GlobTests: XCTestCase {
  /// (pattern, path, is a folder, matches)
  static let cases: [(String, String, Bool, Bool)] = [
    // A pattern without a slash matches a name at any depth.
    ("*.json", "a.json", false, true),
    ("*.json", "deep/er/a.json", false, true),
    ("*.json", "a.json5", false, false),
    ("fixtures", "x/fixtures", true, true),
    // With a slash at its start or middle it is anchored at the base.
    ("/a.json", "a.json", false, true),
    ("/a.json", "sub/a.json", false, false),
    ("skip/*.json", "skip/a.json", false, true),
    ("skip/*.json", "x/skip/a.json", false, false),
    ("skip/*.json", "skip/deeper/a.json", false, false),
    // A trailing slash: folders only, at any depth.
    ("generated/", "generated", true, true),
    ("generated/", "x/generated", true, true),
    ("generated/", "generated", false, false),
    // `**`.
    ("**/x.json", "x.json", false, true),
    ("**/x.json", "a/b/x.json", false, true),
    ("skip/**", "skip/a.json", false, true),
    ("skip/**", "skip/deeper/b.json", false, true),
    ("a/**/b", "a/b", true, true),
    ("a/**/b", "a/x/y/b", true, true),
    ("a/**/b", "a/xb", true, false),
    // The case issue 13 found: `**` followed by another `*` in a later segment.
    ("**/x/*.json", "a/x/b/x/c.json", false, true),
    ("**/x/*.json", "x/c.json", false, true),
    ("**/x/*.json", "a/x/b/c.json", false, false),
    ("**/fixtures/**/*.json", "p/fixtures/q/r/s.json", false, true),
    ("a/**/x*/*.json", "a/b/xy/c/xz/d.json", false, true),
    // `**` inside a name is `*`.
    ("a**b.json", "axyb.json", false, true),
    ("a**b.json", "ax/yb.json", false, false),
    // `*`, `?` and classes never match a slash.
    ("a*b", "a/b", false, false),
    ("a?b", "a/b", false, false),
    ("a[/]b", "a/b", false, false),
    ("[a-c]?.json", "bx.json", false, true),
    ("[!a-c]?.json", "bx.json", false, false),
    ("[]a].json", "].json", false, true),
    // Escapes.
    ("\\!important.json", "!important.json", false, true),
    ("\\#x.json", "#x.json", false, true),
    ("a\\*.json", "a*.json", false, true),
    ("a\\*.json", "ab.json", false, false),
  ]

  func testGitignoreSemantics() throws {
    for (pattern, path, isDirectory, expected) in Self.cases {
      let glob = try Glob(pattern)
      XCTAssertEqual(glob.matches(path, isDirectory: isDirectory), expected, "\(pattern) on \(path)\(isDirectory ? "/" : "")")
    }
  }

  func testNegationAndLastMatchWins() throws {
    let list = IgnoreList(gitignore: "# generated\n*.json\n!keep.json\nbuild/\n!build/keep.json\n\n", base: "/r")
    XCTAssertEqual(list.globs.count, 4)
    XCTAssertTrue(list.excludes("/r/a.json", isDirectory: false))
    XCTAssertFalse(list.excludes("/r/sub/keep.json", isDirectory: false))
    // A file below an excluded folder cannot be re-included.
    XCTAssertTrue(list.excludes("/r/build/keep.json", isDirectory: false))
    XCTAssertFalse(list.excludes("/elsewhere/a.json", isDirectory: false))
  }

  func testTrailingSpacesAndLineEndings() throws {
    let list = IgnoreList(gitignore: "a.json  \r\nb\\ .json\rc.json", base: "/r")
    XCTAssertTrue(list.excludes("/r/a.json", isDirectory: false))
    XCTAssertTrue(list.excludes("/r/b .json", isDirectory: false))
    XCTAssertTrue(list.excludes("/r/c.json", isDirectory: false))
  }

  func testMatchingTimeIsLinearInStars() throws {
    // Backtracking matchers take exponential time on this; a set of positions does not.
    let glob = try Glob(String(repeating: "*a", count: 40) + "b")
    XCTAssertFalse(glob.matches(String(repeating: "a", count: 2000)))
  }

  /// Every case against `git check-ignore`, when git is installed.
  func testAgreesWithGit() throws {
    guard let git = ["/usr/bin/git", "/usr/local/bin/git"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      throw XCTSkip("git is not installed")
    }
    for (pattern, path, isDirectory, expected) in Self.cases {
      let root = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-glob-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: root) }
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      XCTAssertEqual(try run(git, ["init", "-q", root.path]), 0)
      try Data((pattern + "\n").utf8).write(to: root.appendingPathComponent(".gitignore"))
      let target = root.appendingPathComponent(path)
      if isDirectory {
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      } else {
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: target)
      }
      // --no-index: the answer for the path itself, whatever is tracked.
      let status = try run(git, ["-C", root.path, "check-ignore", "-q", "--no-index", path + (isDirectory ? "/" : "")])
      XCTAssertEqual(status == 0, expected, "git says \(status == 0 ? "" : "not ")ignored: \(pattern) on \(path)")
    }
  }

  private func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}
