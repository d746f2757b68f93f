import Foundation
import XCTest

/// Issue 13: paths that were skipped in silence or read where they should not be. Every path
/// that cannot be linted is an error (exit 2) with a message.
extension HostileInputTests {
  func testAConfigThatIsAFIFOOrADeviceIsAnErrorNotSkipped() throws {
    let dir = try temporaryDirectory()
    try write("rules: {topic-name: off}\n", dir.appendingPathComponent(".fcmlint.yml"))
    let sub = dir.appendingPathComponent("sub")
    try write(#"{"message": {"topic": "a b"}}"#, sub.appendingPathComponent("a.json"))
    XCTAssertEqual(mkfifo(sub.appendingPathComponent(".fcmlint.yml").path, 0o644), 0)
    let fifo = try fcmlint(["a.json"], in: sub, timeout: 20)
    XCTAssertEqual(fifo.status, 2, fifo.stdout + fifo.stderr)
    XCTAssertTrue(fifo.stderr.contains("sub/.fcmlint.yml:1:1: cannot read the config: is not a regular file"), fifo.stderr)
    try FileManager.default.removeItem(at: sub.appendingPathComponent(".fcmlint.yml"))
    try FileManager.default.createSymbolicLink(atPath: sub.appendingPathComponent(".fcmlint.yml").path, withDestinationPath: "/dev/zero")
    let device = try fcmlint(["a.json"], in: sub, timeout: 20)
    XCTAssertEqual(device.status, 2, device.stdout + device.stderr)
    XCTAssertTrue(device.stderr.contains("is not a regular file"), device.stderr)
  }

  func testRuleDirectoriesCannotLeaveTheConfigFolderThroughLinks() throws {
    let dir = try temporaryDirectory()
    try write("secret: \"TOP SECRET\"\n", dir.appendingPathComponent("outside/secret.yml"))
    let project = dir.appendingPathComponent("project")
    try write("rule-directories: [rules]\n", project.appendingPathComponent(".fcmlint.yml"))
    try write(#"{"message": {"topic": "news"}}"#, project.appendingPathComponent("a.json"))
    try FileManager.default.createDirectory(at: project.appendingPathComponent("rules"), withIntermediateDirectories: true)
    // A file link, then a folder link, each leading out.
    try FileManager.default.createSymbolicLink(atPath: project.appendingPathComponent("rules/evil.yml").path, withDestinationPath: "../../outside/secret.yml")
    for _ in 0..<2 {
      let run = try fcmlint(["a.json"], in: project)
      XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
      XCTAssertTrue(run.stderr.contains("leads outside the config's folder through a symbolic link"), run.stderr)
      XCTAssertFalse(run.stderr.contains("TOP SECRET") || run.stdout.contains("TOP SECRET"), run.stderr)
      try FileManager.default.removeItem(at: project.appendingPathComponent("rules/evil.yml"))
      try FileManager.default.createSymbolicLink(atPath: project.appendingPathComponent("rules/evil.yml").path, withDestinationPath: "../../outside")
    }
    // Named with --rules, a folder elsewhere is the user's choice.
    try FileManager.default.removeItem(at: project.appendingPathComponent("rules/evil.yml"))
    XCTAssertEqual(try fcmlint(["a.json"], in: project).status, 0)
  }

  func testAPathLongerThanPATHMAXIsAnError() throws {
    let dir = try temporaryDirectory()
    // Made step by step from inside, since the whole path is too long to name.
    let name = String(repeating: "d", count: 200)
    let previous = FileManager.default.currentDirectoryPath
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(dir.path))
    for _ in 0..<25 {
      XCTAssertEqual(mkdir(name, 0o755), 0)
      XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(name))
    }
    try Data(#"{"message": {"topic": "a b"}}"#.utf8).write(to: URL(fileURLWithPath: "deep.json", relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/")))
    XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(previous))
    let run = try fcmlint(["."], in: dir)
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    XCTAssertTrue(run.stderr.contains("longer than the system allows (PATH_MAX)"), run.stderr)
  }

  func testAFileNameThatIsNotUTF8IsAnError() throws {
    let dir = try temporaryDirectory()
    let path = Array(dir.path.utf8) + Array("/bad".utf8) + [0xFF] + Array(".json".utf8) + [0]
    let fd = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
    guard fd >= 0 else { throw XCTSkip("this file system refuses names that are not UTF-8") }
    close(fd)
    let run = try fcmlint(["."], in: dir)
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    XCTAssertTrue(run.stderr.contains("its name is not valid UTF-8"), run.stderr)
  }
}
