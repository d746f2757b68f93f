import FCMLintSystem
import FCMLintTestSupport
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

  // MARK: - Names that are not UTF-8 (issue 27)

  /// `bad\xff.json` (0xFF is never part of UTF-8): the bytes of a name, and the name as reports
  /// show it.
  static let badName: [UInt8] = Array("bad".utf8) + [0xFF] + Array(".json".utf8)

  /// Creates `name` (raw bytes) in `dir` holding `text`; skips the test where the file system
  /// refuses names that are not UTF-8.
  func create(_ name: [UInt8], in dir: URL, _ text: String) throws {
    let path = Array(dir.path.utf8) + [UInt8(ascii: "/")] + name + [0]
    let fd = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
    guard fd >= 0 else { throw XCTSkip("this file system refuses names that are not UTF-8") }
    FileHandle(fileDescriptor: fd, closeOnDealloc: true).write(Data(text.utf8))
  }

  /// The contents of `name` (raw bytes) in `dir`, nil when there is no such file.
  func contents(of name: [UInt8], in dir: URL) -> String? {
    let path = Array(dir.path.utf8) + [UInt8(ascii: "/")] + name + [0]
    let fd = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_RDONLY) }
    guard fd >= 0 else { return nil }
    return String(decoding: FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
  }

  /// The names in `dir`, as raw bytes, sorted.
  func names(in dir: URL) -> [[UInt8]] {
    guard let handle = opendir(dir.path) else { return [] }
    defer { closedir(handle) }
    var names: [[UInt8]] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if name != [UInt8(ascii: ".")] && name != Array("..".utf8) { names.append(name) }
    }
    return names.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// `fcmlint` with `words` appended as the shell reads them (`printf` escapes such as `\377`
  /// give bytes that are not UTF-8, which `Process` cannot pass).
  func fcmlint(_ arguments: [String], shellWords words: String, in dir: URL) throws -> Run {
    try fcmlint(arguments, in: dir, launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" " + words])
  }

  /// Names are bytes: every byte string decodes to a String that gives the same bytes back, a
  /// valid name is its own String, and a byte that is not UTF-8 never becomes U+FFFD. A valid
  /// name that holds one of the escape scalars itself has its bytes escaped, so it still comes
  /// back as it was.
  func testFileNamesRoundTripTheirBytes() {
    var random = XorShift64(seed: 27)
    let interesting: [UInt8] = [0x00, 0x2F, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0x8F, 0xBE, 0xF5, 0xFF]
    for _ in 0..<20_000 {
      let bytes = (0..<random.below(12)).map { _ in random.chance(50) ? interesting[random.below(interesting.count)] : UInt8(random.below(256)) }
        .filter { $0 != 0 }
      let name = FileName.decode(bytes)
      XCTAssertEqual(FileName.bytes(name), bytes, "\(bytes)")
      let replacementWritten = bytes.indices.contains { bytes[$0...].starts(with: [0xEF, 0xBF, 0xBD]) }
      XCTAssertEqual(name.unicodeScalars.contains("\u{FFFD}"), replacementWritten, "\(bytes)")
    }
    XCTAssertEqual(FileName.decode(Array("café/payload.json".utf8)), "café/payload.json")
    let bad = FileName.decode(Self.badName)
    XCTAssertEqual(FileName.shown(bad), #"bad\xff.json"#)
    XCTAssertEqual(FileName.bytes(bad), Self.badName)
    // U+10FFFF written in a valid name: four escaped bytes, the same four bytes back.
    let own = Array("x\u{10FFFF}".utf8)
    XCTAssertEqual(FileName.shown(FileName.decode(own)), #"x\xf4\x8f\xbf\xbf"#)
    XCTAssertEqual(FileName.bytes(FileName.decode(own)), own)
    // A scalar just below the escapes is an ordinary scalar.
    XCTAssertEqual(FileName.decode(Array("\u{10FF7F}".utf8)), "\u{10FF7F}")
  }

  /// A folder walk lints a file whose name is not UTF-8 like any other: its findings set the
  /// exit status (it used to stop the walk with exit 2), and the name is shown with the byte
  /// escaped, never as U+FFFD or as the raw byte.
  func testAFolderHoldingANameThatIsNotUTF8LintsIt() throws {
    let dir = try temporaryDirectory()
    try create(Self.badName, in: dir, #"{"message": {"topic": "a b"}}"#)
    try write(#"{"message": {"topic": "news"}}"#, dir.appendingPathComponent("good.json"))
    let run = try fcmlint([".", "--verbose"], in: dir)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertTrue(run.stdout.hasPrefix(#"./bad\xff.json:1:23: error: "#), run.stdout)
    XCTAssertTrue(run.stdout.contains("in 2 files"), run.stdout)
    XCTAssertTrue(run.stderr.contains(#"fcmlint: linted 2 files: ./bad\xff.json, ./good.json"#), run.stderr)
    XCTAssertFalse((run.stdout + run.stderr).contains("\u{FFFD}"), run.stdout + run.stderr)
    // A .gitignore line holding the same bytes names the same file.
    try write(Self.badName + [0x0A], dir.appendingPathComponent(".gitignore"))
    let ignored = try fcmlint(["."], in: dir)
    XCTAssertEqual(ignored.status, 0, ignored.stdout + ignored.stderr)
    XCTAssertTrue(ignored.stdout.contains("in 1 file"), ignored.stdout)
  }

  /// Named on the command line, the file is found (it used to be "no such file or directory"),
  /// and a missing one is an error that names it as typed.
  func testANameThatIsNotUTF8OnTheCommandLineIsLinted() throws {
    let dir = try temporaryDirectory()
    try create(Self.badName, in: dir, #"{"message": {"topic": "a b"}}"#)
    let run = try fcmlint([], shellWords: #""$(printf 'bad\377.json')""#, in: dir)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
    XCTAssertTrue(run.stdout.hasPrefix(#"bad\xff.json:1:23: error: "#), run.stdout)
    let missing = try fcmlint([], shellWords: #""$(printf 'gone\376.json')""#, in: dir)
    XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
    XCTAssertTrue(missing.stderr.contains(#"fcmlint: error: gone\xfe.json: no such file or directory"#), missing.stderr)
    XCTAssertFalse((run.stdout + missing.stderr).contains("\u{FFFD}"))
  }

  /// Every report format shows the name with the byte escaped in its own way: `\xff` in text,
  /// JSON and XML, `%FF` in a SARIF URI.
  func testEveryFormatShowsTheNameEscaped() throws {
    let dir = try temporaryDirectory()
    try create(Self.badName, in: dir, #"{"message": {"topic": "a b"}}"#)
    let expected = [
      "text": #"bad\xff.json:1:23:"#, "json": #""file":"bad\\xff.json""#, "sarif": #""uri":"bad%FF.json""#,
      "github": #"::error file=bad\xff.json,line=1"#, "checkstyle": #"<file name="bad\xff.json">"#, "junit": #"classname="bad\xff.json""#,
    ]
    for (format, shown) in expected {
      let run = try fcmlint(["--format", format], shellWords: "bad*.json", in: dir)
      XCTAssertEqual(run.status, 1, format + ": " + run.stderr)
      XCTAssertTrue(run.stdout.contains(shown), format + ": " + run.stdout.suffix(600))
      XCTAssertFalse(run.stdout.contains("\u{FFFD}"), format + ": " + run.stdout.suffix(600))
      XCTAssertFalse(run.stdout.unicodeScalars.contains { $0.value >= 0xE000 && $0.value < 0xF900 || $0.value >= 0xF0000 }, format)
    }
  }

  /// `--fix` replaces the file under its own name, byte for byte, leaving no other file; a
  /// baseline written for it is read back and hides its findings.
  func testANameThatIsNotUTF8IsFixedInPlaceAndBaselined() throws {
    let dir = try temporaryDirectory()
    let name = Array("fix".utf8) + [0xFE, 0xC3] + Array(".json".utf8)
    try create(name, in: dir, #"{"message": {"topic": "/topics/news"}}"#)
    let fixed = try fcmlint(["--fix", "."], in: dir)
    XCTAssertEqual(fixed.status, 0, fixed.stdout + fixed.stderr)
    XCTAssertEqual(contents(of: name, in: dir), #"{"message": {"topic": "news"}}"#)
    XCTAssertEqual(names(in: dir), [name])
    // The dry run's diff names it as reports do.
    try create(name, in: dir, #"{"message": {"topic": "/topics/news"}}"#)
    let diff = try fcmlint(["--fix-dry-run", "."], in: dir)
    XCTAssertTrue(diff.stdout.hasPrefix("--- ./fix\\xfe\\xc3.json\n+++ ./fix\\xfe\\xc3.json (fixed)\n"), diff.stdout)
    try create(name, in: dir, #"{"message": {"topic": "news"}}"#)

    try create(Self.badName, in: dir, #"{"message": {"topic": "a b"}}"#)
    let written = try fcmlint(["--write-baseline", "baseline.json", "."], in: dir)
    XCTAssertEqual(written.status, 0, written.stdout + written.stderr)
    let baselined = try fcmlint(["--baseline", "baseline.json", "."], in: dir)
    XCTAssertEqual(baselined.status, 0, baselined.stdout + baselined.stderr)
    XCTAssertTrue(baselined.stdout.contains("1 hidden by the baseline"), baselined.stdout)
    XCTAssertFalse(baselined.stdout.contains("matches nothing"), baselined.stdout)
  }
}

extension LanguageServerTests {
  /// A `file://` URI's percent-escapes are the path's bytes: a folder whose name is not UTF-8
  /// (`d%FF`) is the folder the server looks in for the document's config.
  func testAURIWhoseBytesAreNotUTF8NamesItsFolder() throws {
    let folder = Array(root.path.utf8) + Array("/d".utf8) + [0xFF]
    let made = (folder + [0]).withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) }
    guard made == 0 else { throw XCTSkip("this file system refuses names that are not UTF-8") }
    let config = folder + Array("/.fcmlint.yml".utf8) + [0]
    let fd = config.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
    XCTAssertGreaterThanOrEqual(fd, 0)
    FileHandle(fileDescriptor: fd, closeOnDealloc: true).write(Data("rules: {data-string-values: off}\n".utf8))
    let session = try start()
    let uri = root.absoluteString + (root.absoluteString.hasSuffix("/") ? "" : "/") + "d%FF/welcome.json"
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    XCTAssertEqual(try session.diagnostics(for: uri).map { $0["code"] as? String }, ["apns-aps-key"])
    session.close()
  }
}
