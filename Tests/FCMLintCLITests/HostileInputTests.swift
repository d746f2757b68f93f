@testable import FCMLintCLI
@testable import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile input: fcmlint never crashes, hangs or loses a file. Each test is one hostile case
/// from docs/hostile-input.md: huge, deep, binary and mis-encoded files; paths
/// that are not plain files; rule and config files built to explode; runs killed in the middle
/// of `--fix`; full disks; parallel runs. Inputs the fuzzers found are replayed from
/// `Fixtures/hostile/crashes/`.
final class HostileInputTests: XCTestCase {

  // MARK: - Helpers

  static let fixtures = Repository.path("Tests/Fixtures/hostile")

  lazy var linter = Linter(rules: builtinRules())

  override func setUp() {
    super.setUp()
    signal(SIGPIPE, SIG_IGN)
  }

  func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let real = url.resolvingSymlinksInPath()
    addTeardownBlock {
      // Restore permissions a test took away, so the folder can be removed.
      if let walker = FileManager.default.enumerator(atPath: real.path) {
        for case let name as String in walker { chmod(real.appendingPathComponent(name).path, 0o755) }
      }
      try? FileManager.default.removeItem(at: real)
    }
    return real
  }

  func write(_ text: String, _ url: URL) throws { try write(Array(text.utf8), url) }

  func write(_ bytes: [UInt8], _ url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  func read(_ url: URL) -> [UInt8] { (try? Array(Data(contentsOf: url))) ?? [] }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
  }

  /// Runs the real `fcmlint` binary (found as CLITests finds it), optionally behind a launcher
  /// such as `setpriv` or `prlimit`; fails the test if it runs longer than `timeout`.
  func fcmlint(
    _ arguments: [String], in directory: URL, launcher: [String] = [], timeout: TimeInterval = 60,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Run {
    let executable = try XCTUnwrap(CLITests.executable, "no fcmlint executable next to the test bundle", file: file, line: line)
    let process = Process()
    if launcher.isEmpty {
      process.executableURL = executable
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: launcher[0])
      process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
    }
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    let outBox = CLITests.DataBox(), errBox = CLITests.DataBox()
    let group = DispatchGroup()
    let outHandle = stdout.fileHandleForReading, errHandle = stderr.fileHandleForReading
    DispatchQueue.global().async(group: group) { outBox.set(outHandle.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { errBox.set(errHandle.readDataToEndOfFile()) }
    if group.wait(timeout: .now() + timeout) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      _ = group.wait(timeout: .now() + 10)
      XCTFail("fcmlint \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s", file: file, line: line)
    }
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
      stderr: String(decoding: errBox.data, as: UTF8.self), seconds: Date().timeIntervalSince(start))
  }

  /// Lints `bytes`; `input` forces a kind (`.message` reads any keys as a bare Message, so a case
  /// reaches the parser's limits whatever its keys).
  func lint(_ bytes: [UInt8], maxDepth: Int = 512, input: InputKind? = nil) -> [Diagnostic] {
    var options = Linter.Options()
    options.maxDepth = maxDepth
    options.input = input
    return Linter(rules: builtinRules(), options: options).lint(bytes: bytes, file: "x.json")
  }

  func lint(_ text: String) -> [Diagnostic] { linter.lint(bytes: Array(text.utf8), file: "x.json") }

  /// The one json-syntax diagnostic of `diagnostics`, or a failure.
  func syntaxError(_ diagnostics: [Diagnostic], file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
    XCTAssertEqual(diagnostics.map(\.rule), ["json-syntax"], "\(diagnostics.map(\.message))", file: file, line: line)
    return diagnostics.first
  }

  /// The CPU time `body` takes on this thread: a hang guard that other work on the machine (a
  /// parallel build, say) cannot trip, as it would a wall clock.
  func elapsed(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = now()
    try body()
    return now() - start
  }

  // MARK: - 1. Fuzzer findings stay fixed

  /// Every input a fuzzer ever crashed on (Fixtures/hostile/crashes/, named by target) and every
  /// seed of the fuzz corpora goes through the code its target exercises: parse, lint, fix, rule
  /// and config loading. A crash here fails the whole suite, as it should.
  func testFuzzerFindingsAndSeedsRunClean() throws {
    var inputs: [(target: String, path: String)] = []
    let fm = FileManager.default
    for directory in [Self.fixtures + "/crashes", Repository.path("Fuzz/Corpus")] {
      guard let walker = fm.enumerator(atPath: directory) else { continue }
      for case let relative as String in walker {
        var isDirectory: ObjCBool = false
        let path = directory + "/" + relative
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, !relative.hasSuffix("README.md") else { continue }
        inputs.append((String(relative.split(separator: "/").first ?? ""), path))
      }
    }
    XCTAssertFalse(inputs.isEmpty, "no fuzz seeds found under Fuzz/Corpus")
    let rules = builtinRules()
    let fixer = Fixer(linter: linter)
    for (target, path) in inputs {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      switch target {
      case "rules":
        if let text = String(validating: bytes, as: UTF8.self) {
          _ = try? RuleLoader.load(text: text, file: path, resources: rules.resources)
          _ = try? Config.load(text: text, file: path)
        }
      default:
        _ = JSONParser.parse(bytes, options: JSONParser.Options(maxDepth: 16, maxStringLength: 64))
        let diagnostics = linter.lint(bytes: bytes, file: path)
        for d in diagnostics {
          XCTAssertTrue(0 <= d.startOffset && d.startOffset <= d.endOffset && d.endOffset <= bytes.count, "\(path): \(d)")
        }
        let fixed = fixer.fix(bytes: bytes, file: path)
        if fixed.bytes != bytes, case .success = JSONParser.parse(bytes) {
          guard case .success = JSONParser.parse(fixed.bytes) else { return XCTFail("\(path): a fix made the file unparseable") }
        }
      }
    }
  }

  // MARK: - 2. Limits

  func testAFileOverTheSizeLimitIsOneErrorAndIsNeverRead() throws {
    let dir = try temporaryDirectory()
    // 100 MB, sparse: no disk space, and reading it would take seconds and 100 MB of memory.
    let big = dir.appendingPathComponent("big.json")
    XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
    XCTAssertEqual(truncate(big.path, 100 << 20), 0)
    try write(#"{"message": {"topic": "news"}}"#, dir.appendingPathComponent("ok.json"))
    let run = try fcmlint(["--format", "json", "big.json", "ok.json"], in: dir)
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("big.json: is 104857600 bytes, larger than the limit of 67108864 bytes (--max-file-size); not read"), run.stderr)
    XCTAssertTrue(run.stdout.contains(#""files":1"#), "ok.json is still linted: \(run.stdout)")
    XCTAssertLessThan(run.seconds, Sanitizer.seconds(10))

    // The limit is an option; sizes take K, M and G.
    XCTAssertEqual(truncate(big.path, 2 << 20), 0)
    let refused = try fcmlint(["--max-file-size", "1M", "big.json"], in: dir)
    XCTAssertEqual(refused.status, 2)
    XCTAssertTrue(refused.stderr.contains("big.json: is 2097152 bytes, larger than the limit of 1048576 bytes (--max-file-size); not read"), refused.stderr)
    let raised = try fcmlint(["--max-file-size", "2M", "big.json"], in: dir)
    XCTAssertEqual(raised.status, 1, "read and linted (NUL bytes are not JSON): \(raised.stderr)")
    XCTAssertTrue(raised.stdout.contains("a NUL byte"), raised.stdout)
    let lowered = try fcmlint(["--max-file-size", "10", "ok.json"], in: dir)
    XCTAssertEqual(lowered.status, 2)
    XCTAssertTrue(lowered.stderr.contains("larger than the limit of 10 bytes (--max-file-size)"), lowered.stderr)
  }

  func testLimitOptionsAreChecked() throws {
    let dir = try temporaryDirectory()
    try write(#"{"message": {"topic": "news"}}"#, dir.appendingPathComponent("a.json"))
    for (arguments, phrase) in [
      (["--max-file-size", "lots"], "--max-file-size takes a size in bytes"),
      (["--max-file-size", "2G"], "--max-file-size can be at most 1G"),
      (["--max-file-size", "0"], "--max-file-size takes a size in bytes"),
      (["--max-string-length", "-1"], "--max-string-length"),
      (["--max-depth", "0"], "--max-depth must be 1 or more"),
    ] {
      let run = try fcmlint(arguments + ["a.json"], in: dir)
      XCTAssertEqual(run.status, 2, "\(arguments)")
      XCTAssertTrue(run.stderr.contains(phrase), "\(arguments): \(run.stderr)")
    }
    let run = try fcmlint(["--max-file-size", "1K", "--max-string-length", "64k", "--max-depth", "3", "a.json"], in: dir)
    XCTAssertEqual(run.status, 0, run.stderr)
  }

  func testLimitOptionsReachTheParser() throws {
    let dir = try temporaryDirectory()
    try write(#"{"message": {"topic": "news", "data": {"k": "0123456789"}}}"#, dir.appendingPathComponent("a.json"))
    let deep = try fcmlint(["--max-depth", "2", "a.json"], in: dir)
    XCTAssertEqual(deep.status, 1)
    XCTAssertTrue(deep.stdout.hasPrefix("a.json:1:39: error: nesting is deeper than 2 levels (--max-depth) [json-syntax]"), deep.stdout)
    let long = try fcmlint(["--max-string-length", "8", "a.json"], in: dir)
    XCTAssertEqual(long.status, 1)
    XCTAssertTrue(long.stdout.hasPrefix("a.json:1:45: error: a string longer than the limit of 8 bytes (--max-string-length) [json-syntax]"), long.stdout)
  }

  /// `limits:` in `.fcmlint.yml` sets the same limits as the options; an option wins over it.
  func testConfigLimitsApplyAndOptionsOverrideThem() throws {
    let dir = try temporaryDirectory()
    try write(#"{"message": {"topic": "news", "data": {"k": "0123456789"}}}"#, dir.appendingPathComponent("a.json"))
    try write("limits:\n  max-depth: 2\n  max-string-length: 8\n  max-file-size: 40\n", dir.appendingPathComponent(".fcmlint.yml"))
    let configured = try fcmlint(["a.json"], in: dir)
    XCTAssertEqual(configured.status, 2, configured.stderr)
    XCTAssertTrue(configured.stderr.contains("a.json: is 59 bytes, larger than the limit of 40 bytes (--max-file-size); not read"), configured.stderr)
    let deep = try fcmlint(["--max-file-size", "1K", "a.json"], in: dir)
    XCTAssertEqual(deep.status, 1, deep.stderr)
    XCTAssertTrue(deep.stdout.hasPrefix("a.json:1:39: error: nesting is deeper than 2 levels (--max-depth) [json-syntax]"), deep.stdout)
    let long = try fcmlint(["--max-file-size", "1K", "--max-depth", "3", "a.json"], in: dir)
    XCTAssertEqual(long.status, 1, long.stderr)
    XCTAssertTrue(long.stdout.hasPrefix("a.json:1:45: error: a string longer than the limit of 8 bytes (--max-string-length) [json-syntax]"), long.stdout)
    let clean = try fcmlint(["--max-file-size", "1K", "--max-depth", "3", "--max-string-length", "1M", "a.json"], in: dir)
    XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
    // --ndjson takes its longest line from the same limit; a line over it is an I/O error of the
    // run (exit 2) as a file over it is, and is reported at its line too.
    let stream = try fcmlint(["--ndjson", "a.json"], in: dir)
    XCTAssertEqual(stream.status, 2, stream.stderr)
    XCTAssertTrue(stream.stdout.contains("the document on this line is 59 bytes, larger than the limit of 40; skipped"), stream.stdout)
    // Lines that end in a newline (CRLF too) are held to the limit as well, not only a last line.
    try write(
      #"{"message": {"topic": "news", "data": {"k": "0123456789"}}}"# + "\r\n" + #"{"message": {"topic": "news"}}"# + "\n",
      dir.appendingPathComponent("s.ndjson"))
    let lines = try fcmlint(["--ndjson", "s.ndjson"], in: dir)
    XCTAssertEqual(lines.status, 2, lines.stderr)
    XCTAssertTrue(lines.stdout.hasPrefix("s.ndjson:1:1: error: the document on this line is 59 bytes, larger than the limit of 40; skipped"), lines.stdout)
    XCTAssertTrue(lines.stdout.hasSuffix("1 problem (1 error, 0 warnings, 0 infos) in 2 documents\n"), lines.stdout)
    // A CR inside a line is white space to JSON: the diagnostics stay on the stream's line.
    try write(#"{"message": {"topic": "a",\#r "token": "t"}}"# + "\n" + #"{"message": {"topic": "a",\#r"token": "t"}}"# + "\n", dir.appendingPathComponent("cr.ndjson"))
    let cr = try fcmlint(["--ndjson", "--max-file-size", "1K", "--max-depth", "3", "--max-string-length", "1M", "cr.ndjson"], in: dir)
    XCTAssertEqual(cr.stdout.split(separator: "\n").dropLast().map { $0.split(separator: ":")[1] }, ["1", "2"], cr.stdout)

    // A bad value stops the run where it is written, like any config error.
    try write("limits:\n  max-depth: 2\n  max-file-size: 2G\n", dir.appendingPathComponent(".fcmlint.yml"))
    let refused = try fcmlint(["--max-file-size", "1K", "a.json"], in: dir)
    XCTAssertEqual(refused.status, 2)
    XCTAssertTrue(refused.stderr.hasPrefix("fcmlint: error: "), refused.stderr)
    XCTAssertTrue(refused.stderr.hasSuffix(".fcmlint.yml:3:18: max-file-size can be at most 1G (1073741824 bytes)\n"), refused.stderr)
    XCTAssertEqual(refused.stdout, "")
  }

  /// A long line through a pipe (64 KB a read) is searched for its end once, not again at every
  /// read: 24 MB took seconds when each read rescanned the line so far. Counted, not timed.
  func testALongLineThroughAPipeIsSearchedOnce() throws {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let lines = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20) + [0x0A] + Array("{}\n".utf8)
    let writeEnd = fds[1]
    let writer = Thread {
      var offset = 0
      while offset < lines.count {
        let n = lines[offset..<min(lines.count, offset + 65536)].withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress!, $0.count) }
        if n <= 0 { break }
        offset += n
      }
      close(writeEnd)
    }
    writer.start()
    var reader = LineReader(fd: fds[0], maxLine: 16 << 20)
    var count = 0
    while case .success(let line?) = reader.next() {
      count += 1
      if count == 1, case .text(_, let bytes) = line { XCTAssertEqual(bytes.count, 8 << 20) }
    }
    close(fds[0])
    XCTAssertEqual(count, 2)
    XCTAssertLessThanOrEqual(reader.bytesSearched, lines.count, "each byte searched once")
  }

  /// The same through the binary, end to end.
  func testALongNDJSONLineThroughAPipeIsReadWhole() throws {
    let executable = try XCTUnwrap(CLITests.executable)
    let line = #"{"message": {"topic": "news", "data": {"k": ""# + String(repeating: "x", count: 24 << 20) + "\"}}}\n"
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--ndjson", "--max-file-size", "32M", "-"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data((line + #"{"message": {"topic": "t"}}"# + "\n").utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 1, text)
    XCTAssertTrue(text.contains("a string longer than the limit of 1048576 bytes"), text)
    XCTAssertTrue(text.hasSuffix("in 2 documents\n"), text)
  }

  /// A newline (or an escape sequence) in a file name is written escaped in the text format, so
  /// a name cannot forge a diagnostic line of its own or repaint the terminal.
  func testControlCharactersInFileNamesCannotForgeTextLines() throws {
    let dir = try temporaryDirectory()
    let name = "x.json:1:1: error: forged [json-syntax]\nreal\u{1B}[2J.json"
    try write(#"{"message": {"topic": "news", "token": "t"}}"#, dir.appendingPathComponent(name))
    let run = try fcmlint(["."], in: dir)
    XCTAssertEqual(run.status, 1, run.stderr)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.count, 3, run.stdout)  // the diagnostic, the summary, and the final newline
    XCTAssertTrue(lines[0].hasPrefix(#"./x.json:1:1: error: forged [json-syntax]\nreal\u{1b}[2J.json:1:"#), run.stdout)
    XCTAssertTrue(lines[0].hasSuffix("[target-exactly-one]"), run.stdout)
    XCTAssertFalse(run.stdout.unicodeScalars.contains("\u{1B}"))
  }

  /// `--fix -` prints the document's own bytes, whatever they are: bytes that are not UTF-8 (which
  /// no fix can touch, the document not being JSON) come back unchanged, not as U+FFFD.
  func testFixOnStandardInputPassesBytesThrough() throws {
    let dir = try temporaryDirectory()
    let bytes = Array(#"{"message": {"topic": ""#.utf8) + [0xFF, 0xC3] + Array(#""}}"#.utf8)
    try write(bytes, dir.appendingPathComponent("in.json"))
    let process = Process()
    process.executableURL = try XCTUnwrap(CLITests.executable)
    process.arguments = ["--fix", "-"]
    process.standardInput = try FileHandle(forReadingFrom: dir.appendingPathComponent("in.json"))
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 1)
    XCTAssertEqual(Array(printed), bytes)
  }

  /// `--output` replaces only regular files: a FIFO (like a device or /proc/self/fd/1) is written
  /// into and stays what it is, and a symbolic link is written through and stays a link. (The
  /// rename used to replace whatever the path was: as root, `--output /dev/null` the device.)
  func testReportsAreWrittenIntoFIFOsAndThroughLinksNotOverThem() throws {
    let dir = try temporaryDirectory()
    try write(#"{"message": {"topic": "news"}}"#, dir.appendingPathComponent("a.json"))
    let fifo = dir.appendingPathComponent("report.fifo").path
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    // The reader: `cat` from the FIFO into a file.
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/sh")
    reader.arguments = ["-c", "timeout 20 cat report.fifo > received.txt"]
    reader.currentDirectoryURL = dir
    try reader.run()
    let run = try fcmlint(["--format", "json", "--output", "report.fifo", "a.json"], in: dir)
    XCTAssertEqual(run.status, 0, run.stderr)
    reader.waitUntilExit()
    XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("received.txt"), encoding: .utf8).hasPrefix(#"{"diagnostics":[]"#))
    var info = stat()
    XCTAssertEqual(lstat(fifo, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")

    try write("old", dir.appendingPathComponent("real.json"))
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: "real.json")
    let linked = try fcmlint(["--format", "json", "--output", "link.json", "a.json"], in: dir)
    XCTAssertEqual(linked.status, 0, linked.stderr)
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.json").path), "real.json")
    XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("real.json"), encoding: .utf8).hasPrefix(#"{"diagnostics":[]"#))
    // No temporary file is left behind.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }, [])
  }

  /// A file whose name is near the 255-byte limit can be fixed: the temporary file beside it has
  /// a short name of its own.
  func testAFileWithALongNameCanBeFixed() throws {
    let dir = try temporaryDirectory()
    let name = String(repeating: "n", count: 250) + ".json"
    try write(#"{"message": {"topic": "/topics/news"}}"#, dir.appendingPathComponent(name))
    let run = try fcmlint(["--fix", name], in: dir)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8), #"{"message": {"topic": "news"}}"#)
  }

  func testAMillionDeepNestingIsOneDiagnostic() throws {
    let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 1_000_000)
    var diagnostics: [Diagnostic] = []
    let seconds = elapsed { diagnostics = lint(bytes) }
    let d = syntaxError(diagnostics)
    XCTAssertEqual(d?.startOffset, 512)
    XCTAssertEqual(d?.message, "nesting is deeper than 512 levels (--max-depth)")
    XCTAssertLessThan(seconds, Sanitizer.seconds(5))
    // With the limit raised past it, the whole tree is parsed and every rule runs over it: nothing
    // in the linter recurses, so nothing overflows the stack.
    let raised = lint(bytes, maxDepth: 2_000_000)
    XCTAssertFalse(raised.contains { $0.rule == "json-syntax" }, "\(raised.map(\.message))")
    let objects = Array(String(repeating: #"{"message":"#, count: 200_000).utf8)
    XCTAssertEqual(syntaxError(lint(objects))?.startOffset, 512 * 11)
  }

  func testA50MegabyteStringIsOneDiagnosticAtItsStart() throws {
    var bytes = Array(#"{"message": {"topic": ""#.utf8)
    let start = bytes.count - 1
    bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 50 << 20)
    bytes += Array(#""}}"#.utf8)
    var diagnostics: [Diagnostic] = []
    let seconds = elapsed { diagnostics = lint(bytes) }
    let d = syntaxError(diagnostics)
    XCTAssertEqual(d?.startOffset, start)
    XCTAssertEqual(d?.message, "a string longer than the limit of 1048576 bytes (--max-string-length)")
    XCTAssertLessThan(seconds, Sanitizer.seconds(5), "the scan stops at the limit")
    // Keys and numbers are limited too.
    let key = Array(("{\"" + String(repeating: "k", count: 2 << 20) + "\": 1}").utf8)
    XCTAssertEqual(syntaxError(lint(key, input: .message))?.startOffset, 1)
    let number = Array(("[" + String(repeating: "9", count: 2 << 20) + "]").utf8)
    XCTAssertTrue(syntaxError(lint(number))?.message.hasPrefix("a number literal of 2097152 bytes is longer than the limit") == true)
    // Exactly at the limit is fine.
    let exact = JSONParser.parse(Array(("\"" + String(repeating: "x", count: 16) + "\"").utf8), options: .init(maxStringLength: 16))
    guard case .success = exact else { return XCTFail("a string of exactly the limit was refused") }
    let escapes = JSONParser.parse(Array(#""\u00e9\u00e9""#.utf8), options: .init(maxStringLength: 11))
    guard case .failure(let error) = escapes else { return XCTFail("escapes count as written") }
    XCTAssertEqual(error.offset, 0)
  }

  func testBinaryAndMisEncodedFilesAreOneDiagnostic() throws {
    let cases: [(String, [UInt8], String)] = [
      ("NUL bytes", [UInt8](repeating: 0, count: 4096), "expected a value, found a NUL byte"),
      ("UTF-16 LE with BOM", [0xFF, 0xFE] + Array("{}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "UTF-16"),
      ("UTF-16 BE with BOM", [0xFE, 0xFF] + Array("{}".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), "UTF-16"),
      ("UTF-16 LE", Array(#"{"a": 1}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "UTF-16"),
      ("UTF-16 BE", Array(#"{"a": 1}"#.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), "UTF-16"),
      ("invalid UTF-8 in a string", Array(#"{"a": ""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), "invalid UTF-8 byte 0xC0"),
      ("invalid UTF-8 outside strings", [0xC3, 0x28], "invalid UTF-8"),
      ("a BOM in the middle", Array("[1, ".utf8) + [0xEF, 0xBB, 0xBF] + Array("2]".utf8), "byte-order mark"),
      ("random bytes", Array("[1,".utf8) + (0..<65536).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }, ""),
    ]
    for (name, bytes, phrase) in cases {
      let diagnostics = lint(bytes, input: .message)
      guard let d = syntaxError(diagnostics) else { continue }
      XCTAssertTrue(phrase.isEmpty || d.message.contains(phrase), "\(name): \(d.message)")
      XCTAssertTrue(d.startOffset <= d.endOffset && d.endOffset <= bytes.count, name)
    }
    // A UTF-8 BOM is skipped and takes no column.
    let bom = lint([0xEF, 0xBB, 0xBF] + Array(#"{"message": {"topic": 5}}"#.utf8))
    XCTAssertEqual(bom.first { $0.rule == "field-type" }?.start, SourcePosition(line: 1, column: 23))
  }

  func testLineEndingsKeepLinesAndColumnsRight() throws {
    for (name, newline) in [("LF", "\n"), ("CRLF", "\r\n"), ("CR", "\r")] {
      let text = ["{", "  \"message\": {", "    \"topic\": 5,", "    \"data\": {\"a\": \"é😀\", \"b\": 1}", "  }", "}"].joined(separator: newline)
      let diagnostics = lint(text)
      let topic = diagnostics.first { $0.rule == "field-type" && $0.pointer == "/message/topic" }
      XCTAssertEqual(topic?.start, SourcePosition(line: 3, column: 14), name)
      let data = diagnostics.first { $0.rule == "data-string-values" }
      // Columns count UTF-16 units: "é" is one, "😀" two, so "b"'s value is at column 31 (the
      // 34th byte of the line).
      XCTAssertEqual(data?.start, SourcePosition(line: 4, column: 31), "\(name): \(diagnostics.map { "\($0.rule) \($0.start)" })")
      let broken = lint(["{", "  \"message\": {", "    \"topic\": \"t\",", "  }", "}"].joined(separator: newline))
      XCTAssertEqual(syntaxError(broken)?.start, SourcePosition(line: 3, column: 17), name)
    }
    // Mixed line endings, as a file edited on several systems has them.
    let mixed = lint("{\r\n\"message\":\r{\n\"topic\": 5}}")
    XCTAssertEqual(mixed.first { $0.rule == "field-type" }?.start, SourcePosition(line: 4, column: 10))
  }

  // MARK: - 3. Paths that are not plain files

  func testPathsThatAreNotPlainFilesAreReportedAndTheRestIsLinted() throws {
    let dir = try temporaryDirectory()
    try write(#"{"message": {"topic": "news"}}"#, dir.appendingPathComponent("ok.json"))
    try write(#"{"message": {"topic": 5}}"#, dir.appendingPathComponent("tree/bad.json"))
    try write(#"{"message": {"topic": 6}}"#, dir.appendingPathComponent("tree/folder.json/inner.json"))
    XCTAssertEqual(mkfifo(dir.appendingPathComponent("fifo.json").path, 0o644), 0)
    XCTAssertEqual(mkfifo(dir.appendingPathComponent("tree/fifo.json").path, 0o644), 0)
    XCTAssertEqual(symlink("missing-target.json", dir.appendingPathComponent("tree/dangling.json").path), 0)
    XCTAssertEqual(symlink(".", dir.appendingPathComponent("tree/loop").path), 0)
    XCTAssertEqual(symlink("b.json", dir.appendingPathComponent("tree/a.json").path), 0)
    XCTAssertEqual(symlink("a.json", dir.appendingPathComponent("tree/b.json").path), 0)

    let run = try fcmlint(["--format", "json", "fifo.json", "ok.json/", "missing.json", "tree", "ok.json"], in: dir, timeout: 30)
    XCTAssertEqual(run.status, 2, run.stderr)
    for expected in [
      "fcmlint: error: fifo.json: is not a regular file",
      "fcmlint: error: ok.json/: not a directory",
      "fcmlint: error: missing.json: no such file or directory",
      "fcmlint: error: tree/dangling.json: no such file or directory",
      "fcmlint: error: tree/a.json: too many levels of symbolic links",
      "fcmlint: error: tree/b.json: too many levels of symbolic links",
      "fcmlint: error: tree/loop: directory visited twice (a symbolic link loop?); skipped",
    ] {
      XCTAssertTrue(run.stderr.contains(expected), "missing '\(expected)' in:\n\(run.stderr)")
    }
    // The FIFO inside the folder is not a *.json file to lint; everything else is linted.
    XCTAssertTrue(run.stdout.contains(#""file":"tree/bad.json""#), run.stdout)
    XCTAssertTrue(run.stdout.contains(#""file":"tree/folder.json/inner.json""#), run.stdout)
    XCTAssertTrue(run.stdout.contains(#""files":3"#), run.stdout)
  }

  func testAnUnreadableFileIsReportedAndTheRestIsLinted() throws {
    let dir = try temporaryDirectory()
    try write(#"{"message": {"topic": 5}}"#, dir.appendingPathComponent("a.json"))
    try write(#"{"message": {"topic": "x"}}"#, dir.appendingPathComponent("secret.json"))
    chmod(dir.appendingPathComponent("secret.json").path, 0o000)
    // Root reads anything: drop to an unprivileged user for the run when running as root.
    var launcher: [String] = []
    if geteuid() == 0 {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("root, and no setpriv to drop privileges") }
      launcher = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
      chmod(dir.path, 0o755)
    }
    let run = try fcmlint(["--format", "json", "."], in: dir, launcher: launcher)
    if run.stderr.contains("setpriv:") { throw XCTSkip("setpriv cannot drop privileges here: \(run.stderr)") }
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("fcmlint: error: ./secret.json: permission denied"), run.stderr)
    XCTAssertTrue(run.stdout.contains(#""file":"./a.json""#), run.stdout)
  }

  /// Files deleted while a run goes on: each is linted (read before it went), reported as gone,
  /// or was never seen; every other file is linted; and the exit code says whether any went.
  func testFilesThatDisappearMidRunAreReportedAndTheRestIsLinted() throws {
    let dir = try temporaryDirectory()
    let count = 1500
    let names = (0..<count).map { String(format: "f%05d.json", $0) }
    for name in names { try write(#"{"message": {"topic": 5}}"#, dir.appendingPathComponent(name)) }
    let executable = try XCTUnwrap(CLITests.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--jobs", "1", "--format", "json", "."]
    process.currentDirectoryURL = dir
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let outBox = CLITests.DataBox(), errBox = CLITests.DataBox()
    let group = DispatchGroup()
    let outHandle = stdout.fileHandleForReading, errHandle = stderr.fileHandleForReading
    DispatchQueue.global().async(group: group) { outBox.set(outHandle.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { errBox.set(errHandle.readDataToEndOfFile()) }
    // Delete the last files of the sorted walk while the first ones are being linted.
    usleep(150_000)
    let deleted = Set(names.suffix(500))
    for name in names.suffix(500).reversed() { unlink(dir.appendingPathComponent(name).path) }
    XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
    process.waitUntilExit()
    let err = String(decoding: errBox.data, as: UTF8.self)
    let output = try JSONDecoder().decode(CLITests.Output.self, from: outBox.data)
    let linted = Set(output.diagnostics.map { String($0.file.dropFirst(2)) })
    var reported = Set<String>()
    for line in err.split(separator: "\n") {
      guard line.hasPrefix("fcmlint: error: ./"), line.hasSuffix(": no such file or directory") else { return XCTFail("unexpected: \(line)") }
      reported.insert(String(line.dropFirst("fcmlint: error: ./".count).dropLast(": no such file or directory".count)))
    }
    XCTAssertTrue(Set(names).subtracting(deleted).isSubset(of: linted), "a file that stayed was not linted")
    XCTAssertTrue(reported.isSubset(of: deleted))
    XCTAssertTrue(linted.isDisjoint(with: reported))
    XCTAssertEqual(process.terminationStatus, reported.isEmpty ? 1 : 2, err)
    XCTAssertEqual(output.summary.files, linted.count, "the summary counts what was linted")
  }

  // MARK: - 4. Rule and config files as hostile input

  func ruleError(_ text: String) -> (error: ConfigurationError?, seconds: Double) {
    var error: ConfigurationError? = nil
    let seconds = elapsed {
      do throws(ConfigurationError) { _ = try RuleLoader.load(text: text, file: "r.yml") } catch let e { error = e }
    }
    return (error, seconds)
  }

  func configError(_ text: String) -> ConfigurationError? {
    do {
      _ = try Config.load(text: text, file: ".fcmlint.yml")
      return nil
    } catch {
      return error
    }
  }

  static let billionLaughs = """
    id: lol
    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
    f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
    g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
    h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
    i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
    """

  func testYAMLAliasBombsAreRejectedFast() throws {
    let (error, seconds) = ruleError(Self.billionLaughs)
    XCTAssertEqual(error?.description, "r.yml:2:4: YAML anchors are not supported here (anchors and aliases can expand a small file into a huge one)")
    XCTAssertLessThan(seconds, Sanitizer.seconds(5), "a hang guard, not a measurement")
    // Keys made of aliases: a duplicate-key check that hashed whole nodes would hash every expansion.
    let keys = "a: &a [x, x, x, x, x, x, x, x]\n" + (0..<40).map { "? [*a, *a, *a, *a]\n: \($0)" }.joined(separator: "\n")
    XCTAssertEqual(configError(keys)?.line, 1)
    XCTAssertEqual(ruleError("x: *undefined").error?.description, "r.yml:1:4: YAML aliases are not supported here (anchors and aliases can expand a small file into a huge one)")
    // Reported where the anchored node starts: its tag, before the anchor.
    XCTAssertEqual(ruleError("- !!str &a x\n- *a").error?.column, 3)
    XCTAssertEqual(configError("rules: {a: &b off}")?.column, 12)
    // The same through the CLI, as a config file and as a rule file.
    let dir = try temporaryDirectory()
    try write(Self.billionLaughs, dir.appendingPathComponent(".fcmlint.yml"))
    try write(Self.billionLaughs, dir.appendingPathComponent("rules/lol.yml"))
    try write("{}", dir.appendingPathComponent("a.json"))
    let config = try fcmlint(["a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(config.status, 2)
    XCTAssertTrue(config.stderr.contains(".fcmlint.yml:2:4: YAML anchors are not supported"), config.stderr)
    try write("", dir.appendingPathComponent("empty.yml"))
    let rules = try fcmlint(["--config", "empty.yml", "--rules", "rules", "a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(rules.status, 2)
    XCTAssertTrue(rules.stderr.contains("rules/lol.yml:2:4: YAML anchors are not supported"), rules.stderr)
  }

  func testAsterisksAndAmpersandsInTextAreNotAliases() throws {
    let rule = """
      id: text-with-stars
      severity: warning
      summary: Uses * and & in text, [brackets] and {braces} too
      description: |
        *Bold* & [not a list] {not a map}
          &indented *more* text
        - not a sequence
      docs: https://example.com/a*b&c
      given: $.message.data
      then:
        field: '@.*'
        function: pattern
        options: { match: '^[*&]?[a-z]+$' }
      message: "value must match ^[*&]?[a-z]+$: {value}"
      examples:
        valid:
          - '{"message": {"data": {"a": "*b"}}}'
          - >-
            {"message":
              {"data": {"a": "&b"}}}
        invalid:
          - json: "{\\"message\\": {\\"data\\": {\\"a\\": \\"1\\"}}}"  # a comment with *stars* & [brackets]
            pointer: /message/data/a
      """
    XCTAssertNil(ruleError(rule).error, "\(String(describing: ruleError(rule).error))")
    let plain = "id: a-b\nseverity: error\nsummary: s\ndescription: A plain scalar\n  *continued* & on\n  [another] line\ndocs: https://e.com\ngiven: $\nthen: {function: present}\n"
    XCTAssertNil(ruleError(plain).error, "\(String(describing: ruleError(plain).error))")
    // The built-in pack (also checked at build time) and the test fixtures' rules read as YAML.
    for directory in [Repository.path("rules"), Repository.path("Tests/Fixtures")] {
      let (files, _) = FileSystem.files(under: directory) { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }
      for file in files {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
        do {
          _ = try DataValue(yaml: text, file: file)
        } catch {
          XCTFail("\(file) does not read as YAML: \(error)")
        }
      }
    }
  }

  func testDeeplyNestedYAMLIsRejectedWithItsPosition() throws {
    let flow = "id: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let (error, seconds) = ruleError(flow)
    XCTAssertEqual(error?.description, "r.yml:1:68: nesting is deeper than 64 levels")
    XCTAssertLessThan(seconds, Sanitizer.seconds(2))
    let block = (0..<10_000).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n")
    XCTAssertEqual(ruleError(block).error?.description, "r.yml:65:65: nesting is deeper than 64 levels")
    let sequences = String(repeating: "- ", count: 5000) + "x"
    XCTAssertEqual(ruleError(sequences).error?.message, "nesting is deeper than 64 levels")
    let mixed = "a:\n  - {b: [" + String(repeating: "{c: [", count: 40) + "]"
    XCTAssertEqual(configError(mixed)?.message, "nesting is deeper than 64 levels")
    // 60 levels are fine (the loader reports what else is wrong).
    let fine = "a: " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
    XCTAssertFalse(ruleError(fine).error?.message.contains("nesting") ?? false)
  }

  /// No pre-scan guards libyaml: it hands out events as it reads, so a file as large as a rule or
  /// config file may be (1 MiB), nested on one line, is refused where the 65th level starts after
  /// libyaml has read little more than its lookahead, not the whole file.
  func testAMillionCharactersOfNestingAreRefusedAtTheTooDeepLevel() throws {
    let million = 1_000_000
    for (text, column) in [
      (String(repeating: "[", count: million), 65),
      (String(repeating: "{", count: million), 65),
      (String(repeating: "{a: ", count: million / 4), 257),
      (String(repeating: "- ", count: million / 2), 129),
      (String(repeating: "? ", count: million / 2), 129),
      // An anchor past the depth limit: the depth is what is reported, where it is broken.
      (String(repeating: "[", count: million - 3) + "&a x", 65),
    ] {
      let (error, seconds) = ruleError(text)
      XCTAssertEqual(error?.description, "r.yml:1:\(column): nesting is deeper than 64 levels", String(text.prefix(8)))
      XCTAssertLessThan(seconds, Sanitizer.seconds(5), "a hang guard, not a measurement: \(text.prefix(8))")
    }
    // Anchors and aliases far down a large file: refused at the first one, in one pass.
    let anchors = String(repeating: "- x\n", count: 200_000) + "- &a x\n" + String(repeating: "- *a\n", count: 20_000)
    let (anchor, anchorSeconds) = ruleError(anchors)
    XCTAssertEqual(anchor?.description, "r.yml:200001:3: YAML anchors \(Self.expansion)")
    XCTAssertLessThan(anchorSeconds, Sanitizer.seconds(5))
    XCTAssertEqual(ruleError("[" + String(repeating: "x, ", count: 100_000) + "*a]").error?.description, "r.yml:1:300002: YAML aliases \(Self.expansion)")
    // The same through the binary, as a rule file and as a config file.
    let dir = try temporaryDirectory()
    try write(String(repeating: "[", count: million), dir.appendingPathComponent("rules/deep.yml"))
    try write(String(repeating: "{", count: million), dir.appendingPathComponent("deep.yml"))
    try write("", dir.appendingPathComponent("empty.yml"))
    try write("{}", dir.appendingPathComponent("a.json"))
    let rules = try fcmlint(["--config", "empty.yml", "--rules", "rules", "a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(rules.status, 2)
    XCTAssertEqual(rules.stderr, "fcmlint: error: rules/deep.yml:1:65: nesting is deeper than 64 levels\n")
    let config = try fcmlint(["--config", "deep.yml", "a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(config.status, 2)
    XCTAssertEqual(config.stderr, "fcmlint: error: deep.yml:1:65: nesting is deeper than 64 levels\n")
  }

  static let expansion = "are not supported here (anchors and aliases can expand a small file into a huge one)"

  func testDuplicateKeysAndWrongTypesInRuleFilesAreReported() throws {
    XCTAssertEqual(ruleError("id: a\nseverity: error\nid: b\n").error?.description, "r.yml:3:1: duplicate key 'id' (first at line 1)")
    XCTAssertEqual(configError("rules:\n  a: off\n  a: error\n")?.description, ".fcmlint.yml:3:3: duplicate key 'a' (first at line 2)")
    let base = "id: a-b\nseverity: error\nsummary: s\ndescription: d\ndocs: https://e.com\ngiven: $\nthen: {function: present}\n"
    for (replace, with, phrase) in [
      ("severity: error", "severity: [error]", "severity must be a string"),
      ("given: $", "given: 5", "given must be a string"),
      ("given: $", "given: {a: b}", "given must be a string"),
      ("then: {function: present}", "then: present", "a check must be a mapping"),
      ("then: {function: present}", "then: {function: 7}", "function must be a string"),
      ("id: a-b", "id: ~", "id must be a string"),
    ] {
      let (error, _) = ruleError(base.replacingOccurrences(of: replace, with: with))
      XCTAssertTrue(error?.message.contains(phrase) ?? false, "\(with): \(String(describing: error))")
      XCTAssertGreaterThanOrEqual(error?.line ?? 0, 1)
    }
    XCTAssertNotNil(configError("rules: [a, b]"))
    XCTAssertNotNil(configError("ignore: {a: 1}"))
    XCTAssertNotNil(configError("- just\n- a list"))
  }

  /// A repeated key is reported where it repeats, with the line of the first; fcmlint finds it
  /// itself, one set of key texts per mapping, so the check stays linear whatever the file holds.
  func testDuplicateKeysAreReportedAtTheRepetition() throws {
    let rule = "id: a-b\nseverity: error\nsummary: s\ndescription: d\ndocs: https://e.com\ngiven: $\nthen: {function: present}\n"
    XCTAssertEqual(ruleError(rule + "severity: warning\n").error?.description, "r.yml:8:1: duplicate key 'severity' (first at line 2)")
    let nested = rule.replacingOccurrences(of: "then: {function: present}", with: "then:\n  function: present\n  field: '@.a'\n  function: defined")
    XCTAssertEqual(ruleError(nested).error?.description, "r.yml:10:3: duplicate key 'function' (first at line 8)")
    let flow = rule.replacingOccurrences(of: "then: {function: present}", with: "then: {function: present, \"function\": x}")
    XCTAssertEqual(ruleError(flow).error?.description, "r.yml:7:27: duplicate key 'function' (first at line 7)")
    // `<<` is a key like any other (no merging: there are no anchors to merge from).
    XCTAssertEqual(configError("<<: {a: 1}\n<<: {b: 2}\n")?.description, ".fcmlint.yml:2:1: duplicate key '<<' (first at line 1)")
    // Keys that are not text are refused as keys, duplicated or not, without comparing them.
    XCTAssertEqual(configError("? [a]\n: 1\n? [a]\n: 2\n")?.message, "keys in the config must be plain strings")
    // 50,000 distinct keys, then one repeated: found in about the time it takes to parse them.
    let many = (0..<50_000).map { "k\($0): 1" }.joined(separator: "\n") + "\nk5: 2\n"
    let (error, seconds) = ruleError(many)
    XCTAssertEqual(error?.description, "r.yml:50001:1: duplicate key 'k5' (first at line 6)")
    XCTAssertLessThan(seconds, Sanitizer.seconds(5))
    // Through the CLI, in a rule folder and in the config.
    let dir = try temporaryDirectory()
    try write("{}", dir.appendingPathComponent("a.json"))
    try write(rule.replacingOccurrences(of: "id: a-b", with: "id: dup-rule") + "docs: https://f.com\n", dir.appendingPathComponent("rules/r.yml"))
    try write("", dir.appendingPathComponent("empty.yml"))
    let rules = try fcmlint(["--config", "empty.yml", "--rules", "rules", "a.json"], in: dir)
    XCTAssertEqual(rules.status, 2)
    XCTAssertEqual(rules.stderr, "fcmlint: error: rules/r.yml:8:1: duplicate key 'docs' (first at line 5)\n")
    try write("rules:\n  image-extension: off\nignore: [x]\nrules: {}\n", dir.appendingPathComponent("dup.yml"))
    let config = try fcmlint(["--config", "dup.yml", "a.json"], in: dir)
    XCTAssertEqual(config.status, 2)
    XCTAssertEqual(config.stderr, "fcmlint: error: dup.yml:4:1: duplicate key 'rules' (first at line 1)\n")
  }

  func testHugeAndBinaryRuleAndConfigFilesAreRefused() throws {
    let dir = try temporaryDirectory()
    try write("{}", dir.appendingPathComponent("a.json"))
    try write("", dir.appendingPathComponent("empty.yml"))
    try write("id: x\ndescription: " + String(repeating: "x", count: 2 << 20) + "\n", dir.appendingPathComponent("big/r.yml"))
    let big = try fcmlint(["--config", "empty.yml", "--rules", "big", "a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(big.status, 2)
    XCTAssertTrue(big.stderr.contains("big/r.yml:1:1: is 2097172 bytes, larger than the limit of 1048576 bytes; not read"), big.stderr)
    try write([0xFF, 0xFE] + Array("id: x".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), dir.appendingPathComponent("utf16/r.yml"))
    let utf16 = try fcmlint(["--config", "empty.yml", "--rules", "utf16", "a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(utf16.status, 2)
    XCTAssertTrue(utf16.stderr.contains("utf16/r.yml:1:1: a rule file must be UTF-8 text"), utf16.stderr)
    try write([UInt8](repeating: 0, count: 100), dir.appendingPathComponent(".fcmlint.yml"))
    let nul = try fcmlint(["a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(nul.status, 2)
    XCTAssertTrue(nul.stderr.contains(".fcmlint.yml:"), nul.stderr)
    try FileManager.default.removeItem(at: dir.appendingPathComponent(".fcmlint.yml"))
    try FileManager.default.createDirectory(at: dir.appendingPathComponent(".fcmlint.yml"), withIntermediateDirectories: true)
    let folder = try fcmlint(["--config", ".fcmlint.yml", "a.json"], in: dir, timeout: Sanitizer.seconds(10))
    XCTAssertEqual(folder.status, 2)
    XCTAssertTrue(folder.stderr.contains(".fcmlint.yml:1:1: cannot read the config: is a directory"), folder.stderr)
  }

  /// A rule file can name no file to read, no program to run and no address to reach: YAML tags
  /// are plain strings, `docs` is only printed, schemas are named, not loaded from paths.
  func testRuleFilesCannotReachOutside() throws {
    let rule = """
      id: tags-are-text
      severity: error
      summary: !include /etc/passwd
      description: !!python/object/apply:os.system "touch /tmp/fcmlint-pwned"
      docs: https://example.com
      given: $
      then: {function: schema, options: {schema: /etc/passwd, check: types}}
      """
    let (error, _) = ruleError(rule)
    XCTAssertTrue(error?.message.contains("schema") ?? false, "\(String(describing: error))")
    XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/fcmlint-pwned"))
    let loaded = try RuleLoader.load(text: rule.replacingOccurrences(of: "then: {function: schema, options: {schema: /etc/passwd, check: types}}", with: "then: {function: present}"), file: "r.yml")
    XCTAssertEqual(loaded.summary, "/etc/passwd", "a tag is no instruction: the text is the value")
    XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/fcmlint-pwned"))
  }

  /// The rule engine's regular expressions run in linear time (Sources/FCMLintEngine/LinearRegex):
  /// the classic catastrophic pattern on a long string finishes at once.
  func testCatastrophicRegularExpressionsStayBounded() throws {
    let rule = try RuleLoader.load(text: """
      id: catastrophic
      severity: error
      summary: s
      description: d
      docs: https://example.com
      given: $.message.topic
      then: {function: pattern, options: {match: '(a+)+$'}}
      """, file: "r.yml")
    var set = RuleSet()
    try set.add(rule)
    let document = Array(("{\"message\": {\"topic\": \"" + String(repeating: "a", count: 50_000) + "!\"}}").utf8)
    var diagnostics: [Diagnostic] = []
    let seconds = elapsed { diagnostics = Linter(rules: set).lint(bytes: document, file: "x.json") }
    XCTAssertEqual(diagnostics.map(\.rule), ["catastrophic"])
    XCTAssertLessThan(seconds, Sanitizer.seconds(5), "(a+)+$ against 50,000 characters took \(seconds) s")
  }

  // MARK: - 5. Fix safety

  static let fixable = """
    {
      "message": {
        "topic": "/topics/news",
        "data": {"count": 3, "flag": true},
        "notification": {"title": "Hi", "image": "https://example.com/a.png"},
        "apns": {"payload": {"aps": {"alert": {"title": "Hi"}}}},
        "padding": "\(String(repeating: "x", count: 8_000))"
      }
    }

    """

  /// `--fix` on 200 files, killed with SIGKILL at random moments: after every kill each file
  /// holds exactly its original or exactly its fixed text.
  func testKilledFixRunsNeverLeaveATruncatedOrMixedFile() throws {
    let dir = try temporaryDirectory()
    let executable = try XCTUnwrap(CLITests.executable)
    let files = (0..<200).map { dir.appendingPathComponent(String(format: "p%03d.json", $0)) }
    // Each file different, so a mix of two files would show.
    let originals = files.indices.map { Array(Self.fixable.replacingOccurrences(of: "news", with: "news\($0)").utf8) }
    // The fixed texts, from one complete run.
    for (url, bytes) in zip(files, originals) { try write(bytes, url) }
    let complete = try fcmlint(["--fix", "--quiet", "."], in: dir)
    XCTAssertNotEqual(complete.status, 2, complete.stderr)
    let fixed = files.map(read)
    for i in files.indices { XCTAssertNotEqual(fixed[i], originals[i], "file \(i) was not fixed") }
    let duration = max(0.05, complete.seconds)

    var generator = SystemRandomNumberGenerator()
    var killedMidway = 0
    // Fewer rounds under a sanitizer, where each run is several times slower; one kill midway
    // is all the check needs.
    for round in 0..<(Sanitizer.active ? 8 : 20) {
      for (url, bytes) in zip(files, originals) { try write(bytes, url) }
      let process = Process()
      process.executableURL = executable
      process.arguments = ["--fix", "--quiet", "--jobs", "2", "."]
      process.currentDirectoryURL = dir
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      if round.isMultiple(of: 2) {
        usleep(UInt32(Double.random(in: 0.02...duration, using: &generator) * 1_000_000))
      } else {
        // Random times alone can miss the writes, which come late in a run (under a sanitizer the
        // start takes most of it): every other round kills as soon as the first files are written.
        let deadline = Date().addingTimeInterval(10 * duration)
        while process.isRunning && Date() < deadline && !files.prefix(4).indices.contains(where: { read(files[$0]) == fixed[$0] }) {
          usleep(200)
        }
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      var fixedCount = 0
      for i in files.indices {
        let now = read(files[i])
        XCTAssertTrue(now == originals[i] || now == fixed[i], "round \(round): \(files[i].lastPathComponent) holds \(now.count) bytes, neither the original nor the fixed text")
        if now == fixed[i] { fixedCount += 1 }
      }
      if fixedCount > 0 && fixedCount < files.count { killedMidway += 1 }
      // A kill may leave a hidden temporary file beside a file; it is never a *.json file.
      for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where !name.hasPrefix("p") {
        XCTAssertTrue(name.hasPrefix(".fcmlint-") && !name.hasSuffix(".json"), "unexpected file \(name)")
        try FileManager.default.removeItem(at: dir.appendingPathComponent(name))
      }
    }
    XCTAssertGreaterThan(killedMidway, 0, "no kill landed while files were being written")
  }

  func testAReadOnlyFileIsReportedAndLeftUntouched() throws {
    let dir = try temporaryDirectory()
    let locked = dir.appendingPathComponent("locked.json"), open = dir.appendingPathComponent("open.json")
    let text = #"{"message": {"topic": "/topics/news"}}"#
    try write(text, locked)
    try write(text, open)
    chmod(locked.path, 0o444)
    let run = try fcmlint(["--fix", "."], in: dir)
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("fcmlint: error: ./locked.json: is read-only; not fixed, left untouched"), run.stderr)
    XCTAssertEqual(read(locked), Array(text.utf8))
    XCTAssertEqual(read(open), Array(#"{"message": {"topic": "news"}}"#.utf8))
    XCTAssertTrue(run.stdout.contains("./locked.json:1:23: error:"), "what remains in the locked file is reported: \(run.stdout)")
  }

  func testAFullDiskIsReportedAndTheFileLeftUntouched() throws {
    // Simulated in-process: every write fails with ENOSPC, as on a full disk.
    let dir = try temporaryDirectory()
    let url = dir.appendingPathComponent("m.json")
    try write("old text", url)
    let full = SafeWriter.IO(write: { _, _, _ in errno = ENOSPC; return -1 }, sync: { fsync($0) })
    let failure = SafeWriter.replace(url.path, expecting: Array("old text".utf8), with: Array("new text".utf8), io: full)
    XCTAssertEqual(failure?.message, "cannot write (No space left on device); the file is unchanged")
    XCTAssertEqual(read(url), Array("old text".utf8))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["m.json"])
    // A write cut short half way, then failing.
    let half = SafeWriter.IO(
      write: { fd, buffer, count in
        if lseek(fd, 0, SEEK_CUR) > 0 { errno = ENOSPC; return -1 }
        return posixWrite(fd, buffer, max(1, count / 2))
      }, sync: { fsync($0) })
    XCTAssertNotNil(SafeWriter.replace(url.path, expecting: Array("old text".utf8), with: Array("new text".utf8), io: half))
    XCTAssertEqual(read(url), Array("old text".utf8))
    let unsynced = SafeWriter.IO(write: SafeWriter.IO.system.write, sync: { _ in errno = EIO; return -1 })
    XCTAssertEqual(
      SafeWriter.replace(url.path, expecting: Array("old text".utf8), with: Array("new text".utf8), io: unsynced)?.message,
      "cannot sync (Input/output error); the file is unchanged")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["m.json"])
  }

  /// The real binary with a file size limit (RLIMIT_FSIZE) a fixed file exceeds: writes fail with
  /// EFBIG, as on a full disk; that file is reported and untouched, the small one fixed. (The
  /// limit is 1 MiB because sanitizer runtimes need that much to start.)
  func testAWriteLimitOnTheRealBinaryIsReportedAndTheFileLeftUntouched() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { throw XCTSkip("no prlimit") }
    let dir = try temporaryDirectory()
    let big = dir.appendingPathComponent("big.json"), small = dir.appendingPathComponent("small.json")
    let padding = "[" + Array(repeating: "\"" + String(repeating: "x", count: 20_000) + "\"", count: 75).joined(separator: ",\n") + "]"
    let bigText = Self.fixable.replacingOccurrences(of: "\"" + String(repeating: "x", count: 8_000) + "\"", with: padding)
    XCTAssertGreaterThan(bigText.utf8.count, 1 << 20)
    try write(bigText, big)
    try write(#"{"message": {"topic": "/topics/news"}}"#, small)
    let run = try fcmlint(["--fix", "--quiet", "big.json", "small.json"], in: dir, launcher: ["/usr/bin/prlimit", "--fsize=\(1 << 20)"])
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("fcmlint: error: big.json: cannot write (File too large); the file is unchanged"), run.stderr)
    XCTAssertEqual(read(big), Array(bigText.utf8))
    XCTAssertEqual(read(small), Array(#"{"message": {"topic": "news"}}"#.utf8))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["big.json", "small.json"])
  }

  /// Another writer changes the file exactly between fcmlint's read and its rename (simulated by
  /// writing it from inside the sync step): the other writer's text wins, fcmlint reports it.
  func testAFileChangedBetweenReadAndWriteIsLeftToTheOtherWriter() throws {
    let dir = try temporaryDirectory()
    let url = dir.appendingPathComponent("m.json")
    try write("as read", url)
    let path = url.path
    let racing = SafeWriter.IO(write: SafeWriter.IO.system.write, sync: { fd in
      try? Data("someone else's edit".utf8).write(to: URL(fileURLWithPath: path))
      return fsync(fd)
    })
    let failure = SafeWriter.replace(path, expecting: Array("as read".utf8), with: Array("fixed".utf8), io: racing)
    XCTAssertEqual(failure?.message, "changed on disk while it was being fixed; left untouched")
    XCTAssertEqual(read(url), Array("someone else's edit".utf8))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["m.json"])
  }

  func testASymbolicLinkIsFixedThroughAndKept() throws {
    let dir = try temporaryDirectory()
    try write(#"{"message": {"topic": "/topics/news"}}"#, dir.appendingPathComponent("real/target.json"))
    XCTAssertEqual(symlink("real/target.json", dir.appendingPathComponent("link.json").path), 0)
    let run = try fcmlint(["--fix", "link.json"], in: dir)
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(read(dir.appendingPathComponent("real/target.json")), Array(#"{"message": {"topic": "news"}}"#.utf8))
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.json").path), "real/target.json")
  }

  // MARK: - 6. Concurrency

  /// Thousands of files linted in parallel give byte-identical output, run after run, whatever
  /// the number of jobs.
  func testParallelLintingIsByteIdenticalRunAfterRun() throws {
    let dir = try temporaryDirectory()
    let corpus = CLITests.jsonFiles(under: Repository.path("corpus")).sorted()
    XCTAssertFalse(corpus.isEmpty)
    var count = 0
    while count < 2000 {
      for file in corpus where count < 2000 {
        try FileManager.default.copyItem(atPath: file, toPath: dir.appendingPathComponent("d\(count % 7)/f\(count).json").path.creatingParent())
        count += 1
      }
    }
    let first = try fcmlint(["--jobs", "8", "--format", "json", "."], in: dir)
    XCTAssertEqual(first.status, 1, first.stderr)
    XCTAssertEqual(first.stderr, "", "nothing on standard error (a sanitizer build reports races there)")
    XCTAssertTrue(first.stdout.contains(#""files":2000"#))
    for jobs in ["8", "1"] {
      let again = try fcmlint(["--jobs", jobs, "--format", "json", "."], in: dir)
      XCTAssertTrue(again.stdout == first.stdout, "--jobs \(jobs) gave different output")
    }
  }
}

/// Whether the suite runs under a sanitizer: `scripts/sanitize.sh` sets FCMLINT_SANITIZER. The
/// address and thread sanitizers make code 2 to 15 times slower, so the tests here that time
/// themselves allow more time, and the killed-`--fix` test runs fewer rounds; what they check stays
/// the same, and no test is skipped.
enum Sanitizer {
  static let active = ProcessInfo.processInfo.environment["FCMLINT_SANITIZER"].map { !$0.isEmpty && $0 != "0" } ?? false

  /// A time bound for this build. The bounds catch superlinear work (a hang, a quadratic scan),
  /// which a factor of 5 does not hide.
  static func seconds(_ bound: Double) -> Double { active ? bound * 5 : bound }
}

extension String {
  /// Creates the folder this path is in; returns the path.
  fileprivate func creatingParent() throws -> String {
    try FileManager.default.createDirectory(atPath: (self as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    return self
  }
}

@inline(__always) private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}

/// Issue 13: time was quadratic in the number of diagnostics of one file (a 540 KB file with
/// 50,000 data values took 106 s): each diagnostic was compared with all before it, its column
/// counted from the start of its (one, long) line, and an array element's index counted by
/// walking its siblings.
extension HostileInputTests {
  func testManyDiagnosticsOnOneLineTakeLinearTime() throws {
    let count = 20_000
    // One line; a non-ASCII key first, so columns must count UTF-16 units, not bytes.
    let members = (0..<count).map { #""k\#($0)": \#($0)"# }.joined(separator: ",")
    let text = #"{"message": {"token": "t", "data": {"é😀": 1,"# + members + "}}}"
    var diagnostics: [Diagnostic] = []
    let seconds = elapsed { diagnostics = lint(Array(text.utf8)) }
    let data = diagnostics.filter { $0.rule == "data-string-values" }
    XCTAssertEqual(data.count, count + 1)
    let last = try XCTUnwrap(data.last)
    XCTAssertEqual(last.pointer, "/message/data/k\(count - 1)")
    // The column of the last value, counted in UTF-16 units: "é" is one, "😀" two, bytes 2 and 4.
    let offset = text.utf8.count - "\(count - 1)}}}".utf8.count
    XCTAssertEqual(last.startOffset, offset)
    XCTAssertEqual(last.start, SourcePosition(line: 1, column: offset - 1 - 2 + 1))
    XCTAssertLessThan(seconds, Sanitizer.seconds(30), "a hang guard: quadratic work took minutes here")
  }

  func testPointersIntoALargeArrayAreCountedOnce() throws {
    let count = 50_000
    let text = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
    guard case .success(let document) = JSONParser.parse(Array(text.utf8)) else { return XCTFail("does not parse") }
    var maker = JSONDocument.PointerMaker(document)
    let elements = Array(document.children(JSONDocument.root))
    XCTAssertEqual(maker.pointer(elements[count - 1]), "/\(count - 1)")
    XCTAssertEqual(maker.pointer(elements[7]), "/7")
    XCTAssertEqual(elements.indices.filter { maker.pointer(elements[$0]) != "/\($0)" }, [])
    XCTAssertEqual(maker.pointer(JSONDocument.root), "")
  }

  func testRepeatedDiagnosticsAreRemovedWhereverTheyAre() throws {
    func make(_ rule: String, _ column: Int, _ message: String) -> Diagnostic {
      Diagnostic(
        file: "a.json", rule: rule, severity: .error, message: message, pointer: "/p", start: SourcePosition(line: 1, column: column),
        end: SourcePosition(line: 1, column: column + 1), startOffset: column, endOffset: column + 1, docs: "")
    }
    let a = make("r", 1, "a"), b = make("r", 1, "b"), c = make("s", 1, "a"), d = make("r", 2, "a")
    let sorted = [a, a, b, a, c, c, d, d].sorted(by: Diagnostic.ordered)
    XCTAssertEqual(Linter.removingRepeats(sorted), [a, b, c, d])
  }
}
