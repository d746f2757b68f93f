import FCMLintEngine
import FCMLintFormatters
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The public CLI contract, checked on the real `fcmlint` binary run as a subprocess: output
/// formats, exit codes, standard input, folders, config files and user rule folders.
///
/// Every run gets a fresh temporary working directory (unless a test sets one up), so no
/// `.fcmlint.yml` of this repository is picked up by accident.
final class CLITests: XCTestCase {

  // MARK: - Running the binary

  struct Run {
    var status: Int32
    var stdoutData: Data
    var stderr: String
    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
  }

  enum Input {
    /// /dev/null: standard input is empty.
    case none
    /// A pipe whose writing end is closed before the binary starts reading.
    case closedPipe
    /// These bytes, from a file.
    case bytes(Data)
  }

  /// The repository, found from this file.
  static let repository: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func repo(_ relative: String) -> String { repository.appendingPathComponent(relative).path }
  static func fixture(_ relative: String) -> String { repo("Tests/Fixtures/cli/" + relative) }

  /// The `fcmlint` the test target depends on: built into the same folder as the test bundle.
  static let executable: URL? = {
    var starts: [URL] = [Bundle(for: CLITests.self).bundleURL, Bundle.main.bundleURL]
    if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
    for start in starts {
      var directory = start.deletingLastPathComponent()
      for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("fcmlint")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
          FileManager.default.isExecutableFile(atPath: candidate.path)
        {
          return candidate
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path == directory.path { break }
        directory = parent
      }
    }
    return nil
  }()

  override func setUp() {
    super.setUp()
    // A write to a pipe the child has closed must fail, not kill the test runner.
    signal(SIGPIPE, SIG_IGN)
  }

  /// A fresh temporary folder, removed after the test. Fails if a `.fcmlint.yml` sits above it,
  /// since discovery would find it.
  func temporaryDirectory(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let created = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true)
    // The real path (macOS' /var is /private/var), as the binary's getcwd() sees it.
    let url = created.resolvingSymlinksInPath()
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    var ancestor = url.deletingLastPathComponent()
    while true {
      let stray = ancestor.appendingPathComponent(".fcmlint.yml").path
      if FileManager.default.fileExists(atPath: stray) {
        XCTFail("\(stray) would be discovered by every run; remove it", file: file, line: line)
      }
      let parent = ancestor.deletingLastPathComponent()
      if parent.path == ancestor.path { break }
      ancestor = parent
    }
    return url
  }

  func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  /// Runs `fcmlint arguments` in `directory` (a fresh temporary folder by default) and returns its
  /// exit status and output. Both pipes are drained concurrently, so a full pipe never blocks it;
  /// a run that takes longer than `timeout` is killed and fails the test.
  func fcmlint(
    _ arguments: [String], in directory: URL? = nil, input: Input = .none, timeout: TimeInterval = 60,
    environment changes: [String: String?] = [:], file: StaticString = #filePath, line: UInt = #line
  ) throws -> Run {
    let executable = try XCTUnwrap(Self.executable, "no fcmlint executable next to the test bundle", file: file, line: line)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = try directory ?? temporaryDirectory()
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil  // colour must be off because stdout is a pipe, not because of NO_COLOR
    for (name, value) in changes { environment[name] = value }
    process.environment = environment

    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    var inputPipe: Pipe? = nil
    switch input {
    case .none:
      process.standardInput = FileHandle.nullDevice
    case .closedPipe:
      let pipe = Pipe()
      process.standardInput = pipe
      inputPipe = pipe
    case .bytes(let data):
      let url = try temporaryDirectory().appendingPathComponent("stdin")
      try data.write(to: url)
      process.standardInput = try FileHandle(forReadingFrom: url)
    }

    try process.run()
    if let inputPipe { try inputPipe.fileHandleForWriting.close() }

    let outBox = DataBox()
    let errBox = DataBox()
    let group = DispatchGroup()
    let outHandle = stdout.fileHandleForReading
    let errHandle = stderr.fileHandleForReading
    DispatchQueue.global().async(group: group) { outBox.set(outHandle.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { errBox.set(errHandle.readDataToEndOfFile()) }
    if group.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      _ = group.wait(timeout: .now() + 10)
      XCTFail("fcmlint \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s", file: file, line: line)
    }
    process.waitUntilExit()
    try? outHandle.close()
    try? errHandle.close()
    if process.terminationStatus != 2 {
      try checkConfigsAgainstSchema(in: process.currentDirectoryURL!, arguments: arguments, file: file, line: line)
    }
    return Run(status: process.terminationStatus, stdoutData: outBox.data, stderr: String(decoding: errBox.data, as: UTF8.self))
  }

  /// Every config a run accepted (it did not exit 2) must be valid against the config's JSON
  /// Schema: the `.fcmlint.yml` files of the test's folder and a `--config` file.
  func checkConfigsAgainstSchema(in directory: URL, arguments: [String], file: StaticString, line: UInt) throws {
    // Only the tests' own temporary folders: never a walk of the repository.
    guard directory.path.hasPrefix(FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path) else { return }
    var configs: [URL] = []
    if let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) {
      for case let url as URL in walker where url.lastPathComponent == ".fcmlint.yml" { configs.append(url) }
    }
    if let index = arguments.firstIndex(of: "--config"), index + 1 < arguments.count {
      configs.append(URL(fileURLWithPath: arguments[index + 1], relativeTo: directory))
    }
    let validator = try ConfigSchemaTests.validator()
    for url in configs {
      guard let text = try? String(contentsOf: url, encoding: .utf8), let value = try? ConfigSchemaTests.value(yaml: text) else { continue }
      let violations = validator.validate(value: value)
      XCTAssertEqual(violations, [], "\(url.path) was accepted by fcmlint but not by schemas/fcmlint-config.schema.json:\n\(text)", file: file, line: line)
    }
  }

  final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Data()
    func set(_ data: Data) { lock.lock(); value = data; lock.unlock() }
    var data: Data { lock.lock(); defer { lock.unlock() }; return value }
  }

  // MARK: - JSON output

  struct Output: Decodable, Equatable {
    struct Diagnostic: Decodable, Equatable {
      var file, rule, severity, message, pointer, docs: String
      var line, column, endLine, endColumn, offset, endOffset: Int
    }
    struct Counts: Decodable, Equatable {
      var files, errors, warnings, infos: Int
    }
    var diagnostics: [Diagnostic]
    var summary: Counts
  }

  func decode(_ run: Run, file: StaticString = #filePath, line: UInt = #line) throws -> Output {
    do {
      return try JSONDecoder().decode(Output.self, from: run.stdoutData)
    } catch {
      XCTFail("stdout is not the JSON output (\(error)):\n\(run.stdout)\nstderr:\n\(run.stderr)", file: file, line: line)
      throw error
    }
  }

  static let schemaPath = repo("schemas/fcmlint-output.schema.json")

  func assertMatchesSchema(_ run: Run, file: StaticString = #filePath, line: UInt = #line) throws {
    let validator = try JSONSchemaValidator(schemaFile: Self.schemaPath)
    let violations = try validator.validate(run.stdoutData)
    XCTAssertEqual(violations, [], "output:\n\(run.stdout)", file: file, line: line)
  }

  static let corpus = repo("corpus")

  /// The `*.json` files below `path` (hidden folders skipped, as the CLI does).
  static func jsonFiles(under path: String) -> [String] {
    let url = URL(fileURLWithPath: path)
    guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else {
      return []
    }
    return walker.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".json") }
  }

  /// The built-in rule ids, read from the rule files themselves.
  static func builtinRuleIDs() -> [String] {
    let url = URL(fileURLWithPath: repo("rules"))
    let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
    var ids: [String] = []
    while let item = walker?.nextObject() as? URL {
      guard item.pathExtension == "yml" || item.pathExtension == "yaml",
        let text = try? String(contentsOf: item, encoding: .utf8)
      else { continue }
      for line in text.split(separator: "\n") where line.hasPrefix("id:") {
        ids.append(line.dropFirst(3).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'\"")))
      }
    }
    return ids.sorted()
  }

  // MARK: - The schema and its validator

  static let validDocument = """
    {"diagnostics":[{"file":"a.json","rule":"json-syntax","severity":"error","message":"m","pointer":"/message/a~1b",
    "line":1,"column":2,"endLine":1,"endColumn":3,"offset":1,"endOffset":2,"docs":"https://example.com/x"}],
    "summary":{"files":1,"errors":1,"warnings":0,"infos":0,"fixed":0}}
    """

  func validate(_ text: String) throws -> [JSONSchemaViolation] {
    try JSONSchemaValidator(schemaFile: Self.schemaPath).validate(Data(text.utf8))
  }

  func testSchemaAcceptsAWellFormedDocument() throws {
    XCTAssertEqual(try validate(Self.validDocument), [])
    XCTAssertEqual(try validate(#"{"diagnostics":[],"summary":{"files":0,"errors":0,"warnings":0,"infos":0,"fixed":0}}"#), [])
  }

  func testValidatorReportsAMissingKey() throws {
    let violations = try validate(Self.validDocument.replacingOccurrences(of: #""rule":"json-syntax","#, with: ""))
    XCTAssertEqual(violations.map(\.instancePath), ["/diagnostics/0"])
    XCTAssertEqual(violations.map(\.keyword), ["required"])
    XCTAssertTrue(violations[0].message.contains("'rule'"), "\(violations)")
  }

  func testValidatorReportsAWrongType() throws {
    let violations = try validate(Self.validDocument.replacingOccurrences(of: #""line":1,"#, with: #""line":"1","#))
    XCTAssertEqual(violations, [JSONSchemaViolation(instancePath: "/diagnostics/0/line", keyword: "type", message: "expected integer, found string")])
    // Booleans are not integers, and 1.5 is not an integer.
    XCTAssertEqual(try validate(Self.validDocument.replacingOccurrences(of: #""files":1"#, with: #""files":true"#)).map(\.instancePath), ["/summary/files"])
    XCTAssertEqual(try validate(Self.validDocument.replacingOccurrences(of: #""column":2"#, with: #""column":1.5"#)).map(\.keyword), ["type"])
    XCTAssertEqual(try validate(#"{"diagnostics":{},"summary":{"files":0,"errors":0,"warnings":0,"infos":0,"fixed":0}}"#).map(\.instancePath), ["/diagnostics"])
  }

  func testValidatorReportsAnExtraKey() throws {
    let violations = try validate(Self.validDocument.replacingOccurrences(of: #""infos":0"#, with: #""infos":0,"fatal":0"#))
    XCTAssertEqual(violations.map(\.instancePath), ["/summary/fatal"])
    XCTAssertEqual(violations.map(\.keyword), ["additionalProperties"])
    XCTAssertEqual(try validate(#"{"diagnostics":[],"summary":{"files":0,"errors":0,"warnings":0,"infos":0,"fixed":0},"x":1}"#).map(\.instancePath), ["/x"])
  }

  func testValidatorReportsABadEnumValue() throws {
    let violations = try validate(Self.validDocument.replacingOccurrences(of: #""severity":"error""#, with: #""severity":"fatal""#))
    XCTAssertEqual(violations.map(\.instancePath), ["/diagnostics/0/severity"])
    XCTAssertEqual(violations.map(\.keyword), ["enum"])
  }

  func testValidatorReportsMinimumPatternAndFormat() throws {
    func violations(_ from: String, _ to: String) throws -> [String] {
      try validate(Self.validDocument.replacingOccurrences(of: from, with: to)).map { "\($0.instancePath) \($0.keyword)" }.sorted()
    }
    XCTAssertEqual(try violations(#""line":1,"#, #""line":0,"#), ["/diagnostics/0/line minimum"])
    XCTAssertEqual(try violations(#""errors":1"#, #""errors":-1"#), ["/summary/errors minimum"])
    XCTAssertEqual(try violations(#""json-syntax""#, #""JSON_syntax""#), ["/diagnostics/0/rule pattern"])
    XCTAssertEqual(try violations(#""json-syntax""#, #""json--syntax""#), ["/diagnostics/0/rule pattern"])
    XCTAssertEqual(try violations(#""/message/a~1b""#, #""message/a""#), ["/diagnostics/0/pointer pattern"])
    XCTAssertEqual(try violations(#""/message/a~1b""#, #""/message/a~2b""#), ["/diagnostics/0/pointer pattern"])
    XCTAssertEqual(try violations(#""/message/a~1b""#, #""""#), [])
    XCTAssertEqual(try violations(#""https://example.com/x""#, #""http://example.com/x""#), ["/diagnostics/0/docs pattern"])
    XCTAssertEqual(try violations(#""https://example.com/x""#, #""not a uri""#), ["/diagnostics/0/docs format", "/diagnostics/0/docs pattern"])
  }

  func testValidatorRefusesKeywordsItDoesNotImplement() throws {
    let schema = #"{"type": "string", "maxLength": 3}"#
    let violations = try JSONSchemaValidator(schema: Data(schema.utf8)).validate(Data(#""abcdef""#.utf8))
    XCTAssertEqual(violations.map(\.keyword), ["maxLength"])
  }

  // MARK: - JSON output against the schema

  func testCorpusJSONOutputMatchesTheSchema() throws {
    let run = try fcmlint(["--format", "json", Self.corpus])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(run.stderr, "")
    try assertMatchesSchema(run)
    let output = try decode(run)
    XCTAssertFalse(output.diagnostics.isEmpty)
    XCTAssertEqual(output.summary.files, Self.jsonFiles(under: Self.corpus).count)
    XCTAssertEqual(output.summary.errors, output.diagnostics.filter { $0.severity == "error" }.count)
    XCTAssertEqual(output.summary.warnings, output.diagnostics.filter { $0.severity == "warning" }.count)
    XCTAssertEqual(output.summary.infos, output.diagnostics.filter { $0.severity == "info" }.count)
    XCTAssertTrue(run.stdout.hasSuffix("}\n"), "one JSON document and a newline")
  }

  func testJSONOutputWithoutDiagnosticsMatchesTheSchema() throws {
    let run = try fcmlint(["--format", "json", Self.repo("corpus/valid/topic-image-all-platforms.json")])
    XCTAssertEqual(run.status, 0, run.stderr)
    try assertMatchesSchema(run)
    let output = try decode(run)
    XCTAssertEqual(output, Output(diagnostics: [], summary: .init(files: 1, errors: 0, warnings: 0, infos: 0)))
  }

  // MARK: - Diagnostics of known files

  func testRESTSampleReportsTheTrailingComma() throws {
    let path = Self.repo("corpus/docs-samples/send-image-rest.json")
    let run = try fcmlint(["--format", "json", path])
    XCTAssertEqual(run.status, 1, run.stderr)
    let output = try decode(run)
    // The comma, and past it (the parser keeps going) the image in webpush.headers.
    XCTAssertEqual(output.diagnostics.map(\.rule), ["json-syntax", "webpush-image-header"], run.stdout)
    let d = try XCTUnwrap(output.diagnostics.first)
    XCTAssertEqual(d.file, path)
    XCTAssertEqual(d.rule, "json-syntax")
    XCTAssertEqual(d.severity, "error")
    XCTAssertEqual(d.pointer, "")
    XCTAssertEqual([d.line, d.column], [5, 36], "the trailing comma after \"title\":\"Sparky says hello!\"")
    XCTAssertEqual(output.summary, .init(files: 1, errors: 1, warnings: 1, infos: 0))
  }

  func testCleanFilesExitZero() throws {
    let one = try fcmlint([Self.repo("corpus/valid/token-notification-basic.json")])
    XCTAssertEqual(one.status, 0, one.stdout + one.stderr)
    XCTAssertFalse(one.stdout.contains(": error: "), one.stdout)

    // All of corpus/valid: no errors and no warnings (a token target may get an info).
    let all = try fcmlint(["--format", "json", Self.repo("corpus/valid")])
    XCTAssertEqual(all.status, 0, all.stdout + all.stderr)
    let output = try decode(all)
    XCTAssertEqual(output.diagnostics.filter { $0.severity != "info" }.map { "\($0.file) \($0.rule)" }, [])
    XCTAssertEqual(output.summary.files, Self.jsonFiles(under: Self.repo("corpus/valid")).count)
  }

  // MARK: - Text output

  func testTextOutputFollowsTheDocumentedLinePattern() throws {
    let regex = try NSRegularExpression(pattern: TextFormatter.linePattern)
    let text = try fcmlint([Self.corpus])
    let json = try decode(try fcmlint(["--format", "json", Self.corpus]))
    XCTAssertEqual(text.status, 1, text.stderr)
    XCTAssertFalse(text.stdout.contains("\u{1B}"), "no ANSI escapes when stdout is a pipe")
    XCTAssertTrue(text.stdout.hasSuffix("\n"))

    var lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(lines.removeLast(), "")
    let summary = try XCTUnwrap(lines.popLast())
    var expected = Summary()
    expected.files = json.summary.files
    expected.errors = json.summary.errors
    expected.warnings = json.summary.warnings
    expected.infos = json.summary.infos
    // The counts, then possibly how many are fixable.
    XCTAssertTrue(summary.hasPrefix(TextFormatter.summaryLine(expected)), summary)
    XCTAssertNil(regex.firstMatch(in: summary, range: NSRange(summary.startIndex..., in: summary)), "the summary is not a diagnostic")

    XCTAssertEqual(lines.count, json.diagnostics.count)
    for (line, d) in zip(lines, json.diagnostics) {
      guard let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else {
        XCTFail("does not match TextFormatter.linePattern: \(line)")
        continue
      }
      let groups = (1..<match.numberOfRanges).map { String(line[Range(match.range(at: $0), in: line)!]) }
      XCTAssertEqual(groups[0], d.file)
      XCTAssertEqual(groups[1], String(d.line))
      XCTAssertEqual(groups[2], String(d.column))
      XCTAssertEqual(groups[3], d.severity)
      XCTAssertEqual(groups[5], d.rule)
    }

    let clean = try fcmlint([Self.repo("corpus/valid/fid-target.json")])
    XCTAssertEqual(clean.stdout, TextFormatter.summaryLine(Summary(files: 1)) + "\n")
  }

  // MARK: - Exit codes

  func testMissingPathExitsTwoButTheOtherFilesAreStillReported() throws {
    let present = Self.repo("corpus/invalid/no-target.json")
    let run = try fcmlint([present, "no-such-file.json"])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.stderr.contains("no such file"), run.stderr)
    XCTAssertTrue(run.stderr.contains("no-such-file.json"), run.stderr)
    XCTAssertTrue(run.stdout.contains("\(present):"), run.stdout)
    XCTAssertTrue(run.stdout.contains("[target-exactly-one]"), run.stdout)
    XCTAssertTrue(run.stdout.hasSuffix(" in 1 file\n"), run.stdout)
  }

  /// `--ndjson` writes every format through the same formatters as a folder run: the JSON report
  /// of a stream longer than one batch is one valid document with the run's summary, and the text
  /// report ends with one summary line that counts documents.
  func testNDJSONReportsAreWholeReports() throws {
    let dir = try temporaryDirectory()
    let bad = #"{"message": {"topic": "news", "token": "t"}}"#
    let good = #"{"message": {"topic": "news", "notification": {"title": "Hi"}}}"#
    let lines = (0..<9000).map { $0 % 1000 == 0 ? bad : good }
    try write(lines.joined(separator: "\n") + "\n", to: dir.appendingPathComponent("log.ndjson"))
    let json = try fcmlint(["--ndjson", "--format", "json", "log.ndjson"], in: dir)
    XCTAssertEqual(json.status, 1, json.stderr)
    let output = try decode(json)
    XCTAssertEqual(output.summary, Output.Counts(files: 9000, errors: 9, warnings: 0, infos: 0))
    XCTAssertEqual(output.diagnostics.map(\.line), (0..<9).map { $0 * 1000 + 1 })
    try assertMatchesSchema(json)
    let text = try fcmlint(["--ndjson", "log.ndjson"], in: dir)
    let textLines = text.stdout.split(separator: "\n")
    XCTAssertEqual(textLines.count, 10, text.stdout)
    XCTAssertEqual(textLines.last, "9 problems (9 errors, 0 warnings, 0 infos) in 9000 documents")
    let sarif = try fcmlint(["--ndjson", "--format", "sarif", "log.ndjson"], in: dir)
    let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: sarif.stdoutData) as? [String: Any])
    let runs = try XCTUnwrap(results["runs"] as? [[String: Any]])
    XCTAssertEqual((runs[0]["results"] as? [Any])?.count, 9)
  }

  /// A report that cannot be written to standard output (a full disk: /dev/full) is an I/O
  /// failure, exit 2 with the reason on standard error, whatever the lint found; so is a fixed
  /// document that cannot be written, and the help.
  func testWriteErrorsOnStandardOutputExitTwo() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full") }
    let executable = try XCTUnwrap(Self.executable)
    for (arguments, input) in [
      ([Self.repo("corpus/valid")], nil), ([Self.repo("corpus/invalid")], nil), (["--help"], nil),
      (["--fix", "-"], #"{"message": {"topic": "/topics/news"}}"#),
    ] as [([String], String?)] {
      let process = Process()
      process.executableURL = executable
      process.arguments = arguments
      let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
      process.standardOutput = full
      let stderr = Pipe()
      process.standardError = stderr
      let stdin = Pipe()
      process.standardInput = stdin
      try process.run()
      if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
      try stdin.fileHandleForWriting.close()
      let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 2, "\(arguments): \(message)")
      XCTAssertTrue(message.contains("cannot write to standard output"), "\(arguments): \(message)")
    }
  }

  func testUsageErrorsExitTwo() throws {
    let file = Self.repo("corpus/valid/fid-target.json")
    let usageErrors = [
      ["--no-such-flag", file], ["--format", "xml", file], ["--max-warnings", "many", file], ["--max-warnings", "-1", file],
      ["--jobs", "0", file], ["-", "-"], [], ["rules", "--format", "xml"],
    ]
    for arguments in usageErrors {
      let run = try fcmlint(arguments)
      XCTAssertEqual(run.status, 2, "fcmlint \(arguments)")
      XCTAssertFalse(run.stderr.isEmpty, "fcmlint \(arguments) explains itself on stderr")
      XCTAssertEqual(run.stdout, "", "fcmlint \(arguments)")
    }
    XCTAssertTrue(try fcmlint(["--format", "xml", file]).stderr.contains("xml"))
  }

  /// image-inconsistent-android.json has exactly one finding, a warning.
  static let warningOnly = repo("corpus/invalid/image-inconsistent-android.json")

  func testMaxWarnings() throws {
    let output = try decode(try fcmlint(["--format", "json", Self.warningOnly]))
    XCTAssertEqual(output.diagnostics.map { "\($0.severity) \($0.rule)" }, ["warning image-consistency"])

    XCTAssertEqual(try fcmlint([Self.warningOnly]).status, 0, "warnings alone do not fail a run")
    XCTAssertEqual(try fcmlint(["--max-warnings", "0", Self.warningOnly]).status, 1)
    XCTAssertEqual(try fcmlint(["--max-warnings", "1", Self.warningOnly]).status, 0, "only more than N warnings fail")
    XCTAssertEqual(try fcmlint(["--max-warnings", "5", Self.warningOnly]).status, 0)
  }

  func testQuietHidesWarnings() throws {
    let withError = Self.repo("corpus/invalid/no-target.json")
    let run = try fcmlint(["--quiet", "--format", "json", Self.warningOnly, withError])
    XCTAssertEqual(run.status, 1)
    let output = try decode(run)
    XCTAssertEqual(output.diagnostics.map { "\($0.severity) \($0.rule)" }, ["error target-exactly-one"])
    XCTAssertEqual(output.summary.warnings, 0)

    let text = try fcmlint(["--quiet", Self.warningOnly])
    XCTAssertEqual(text.status, 0)
    XCTAssertFalse(text.stdout.contains("warning"), text.stdout)
  }

  func testHelpAndVersionExitZero() throws {
    for arguments in [["--help"], ["lint", "--help"], ["-h"]] {
      let help = try fcmlint(arguments)
      XCTAssertEqual(help.status, 0, "fcmlint \(arguments): \(help.stderr)")
      XCTAssertTrue(help.stdout.contains("fcmlint"), help.stdout)
      XCTAssertTrue(help.stdout.lowercased().contains("usage"), help.stdout)
    }
    let version = try fcmlint(["--version"])
    XCTAssertEqual(version.status, 0, version.stderr)
    XCTAssertNotNil(version.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression), version.stdout)
  }

  // MARK: - Standard input

  func testStandardInput() throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.repo("corpus/docs-samples/send-image-rest.json")))

    let unnamed = try decode(try fcmlint(["--format", "json", "-"], input: .bytes(bytes)))
    XCTAssertEqual(unnamed.diagnostics.map { "\($0.file):\($0.line):\($0.column) \($0.rule)" }, ["<stdin>:5:36 json-syntax", "<stdin>:24:10 webpush-image-header"])

    let run = try fcmlint(["--format", "json", "--stdin-filename", "x.json", "-"], input: .bytes(bytes))
    XCTAssertEqual(run.status, 1)
    let named = try decode(run)
    XCTAssertEqual(named.diagnostics.map { "\($0.file):\($0.line):\($0.column) \($0.rule)" }, ["x.json:5:36 json-syntax", "x.json:24:10 webpush-image-header"])
    XCTAssertEqual(named.summary.files, 1)

    let clean = try fcmlint(["--stdin-filename", "ok.json", "-"], input: .bytes(Data(#"{"message": {"topic": "news"}}"#.utf8)))
    XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
  }

  func testEmptyOrClosedStandardInputIsASyntaxError() throws {
    for input in [Input.none, .closedPipe, .bytes(Data())] {
      let run = try fcmlint(["--format", "json", "-"], input: input)
      XCTAssertEqual(run.status, 1, "\(input): \(run.stderr)")
      let output = try decode(run)
      XCTAssertEqual(output.diagnostics.count, 1, "\(input)")
      let d = try XCTUnwrap(output.diagnostics.first)
      XCTAssertEqual(d.rule, "json-syntax")
      XCTAssertEqual([d.line, d.column], [1, 1])
      XCTAssertTrue(d.message.contains("empty"), d.message)
    }
  }

  // MARK: - Folders

  func testFoldersAreWalkedRecursivelyForJSONFilesInSortedOrder() throws {
    let root = try temporaryDirectory()
    // Every file is broken JSON, so every file linted shows up in the output.
    let linted = ["tree/b.json", "tree/B.json", "tree/a.json", "tree/a/z.json", "tree/a/deep/er/x.json", "tree/a-b/y.json"]
    let skipped = ["tree/notes.txt", "tree/a/rules.yml", "tree/c.json.bak", "tree/a/jsonfile"]
    for path in linted + skipped { try write("{\n", to: root.appendingPathComponent(path)) }

    let run = try fcmlint(["--format", "json", "tree"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    let output = try decode(run)
    let expected = linted.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    XCTAssertEqual(output.diagnostics.map(\.file), expected)
    XCTAssertEqual(output.summary.files, linted.count)
  }

  func testOutputDoesNotDependOnParallelism() throws {
    let serial = try fcmlint(["--jobs", "1", "--format", "json", Self.corpus])
    XCTAssertEqual(serial.status, 1, serial.stderr)
    for attempt in 1...3 {
      let parallel = try fcmlint(["--format", "json", Self.corpus])
      XCTAssertEqual(parallel.status, serial.status)
      XCTAssertEqual(parallel.stdoutData, serial.stdoutData, "attempt \(attempt): the default run differs from --jobs 1")
    }
    let many = try fcmlint(["--jobs", "8", Self.corpus])
    let serialText = try fcmlint(["--jobs", "1", Self.corpus])
    XCTAssertEqual(many.stdoutData, serialText.stdoutData)
  }

  /// Files given out of order, one twice and one missing, with two reports: standard output gets
  /// the files in output order (the name given twice linted once), the report file the same, whatever
  /// the number of jobs; the missing file is an error after the report.
  func testReportsWrittenFileByFileInOutputOrder() throws {
    let dir = try temporaryDirectory()
    try write("{\n", to: dir.appendingPathComponent("a.json"))
    try write("{\n", to: dir.appendingPathComponent("b.json"))
    try write(#"{"message": {"topic": "news"}}"#, to: dir.appendingPathComponent("c.json"))
    let files = ["c.json", "b.json", "missing.json", "a.json", "b.json"]
    var outputs: [Data] = []
    for jobs in ["1", "4"] {
      let run = try fcmlint(["--jobs", jobs, "--format", "text", "--format", "json", "--output", "-", "--output", "r.json"] + files, in: dir)
      XCTAssertEqual(run.status, 2, run.stderr)
      XCTAssertEqual(run.stderr, "fcmlint: error: missing.json: no such file or directory\n")
      let lines = run.stdout.split(separator: "\n")
      XCTAssertEqual(lines.map { $0.split(separator: ":").first ?? "" }, ["a.json", "b.json", "2 problems (2 errors, 0 warnings, 0 infos) in 3 files"])
      let report = try JSONDecoder().decode(Output.self, from: Data(contentsOf: dir.appendingPathComponent("r.json")))
      XCTAssertEqual(report.diagnostics.map(\.file), ["a.json", "b.json"])
      XCTAssertEqual(report.summary, Output.Counts(files: 3, errors: 2, warnings: 0, infos: 0))
      outputs.append(run.stdoutData)
    }
    XCTAssertEqual(outputs[0], outputs[1])
  }

  /// Names out of order that agree for eight bytes and more, differ only in length, or differ
  /// past a word (names are sorted eight bytes at a time): the report follows their byte order.
  func testNamedFilesAreReportedInTheOrderOfTheirBytes() throws {
    let dir = try temporaryDirectory()
    let names = ["requests-b.json", "requests-a.json", "requests-a.json.json", "r.json", "requests-aa.json", "Z.json", "é.json", "requests-ab.json"]
    for name in names { try write("{\n", to: dir.appendingPathComponent(name)) }
    let run = try fcmlint(["--format", "json"] + names, in: dir)
    XCTAssertEqual(run.status, 1, run.stderr)
    let expected = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    XCTAssertEqual(try decode(run).diagnostics.map(\.file), expected)
  }

  // MARK: - Config

  /// A folder with `.fcmlint.yml` holding `config`, and a child folder to run in.
  func projectWithConfig(_ config: String) throws -> (root: URL, child: URL) {
    let root = try temporaryDirectory()
    try write(config, to: root.appendingPathComponent(".fcmlint.yml"))
    let child = root.appendingPathComponent("child/grandchild")
    try FileManager.default.createDirectory(at: child, withIntermediateDirectories: true)
    return (root, child)
  }

  func testConfigIsDiscoveredInAParentFolder() throws {
    let (_, child) = try projectWithConfig("rules: {image-consistency: off}\n")
    let before = try decode(try fcmlint(["--format", "json", Self.warningOnly]))
    XCTAssertEqual(before.diagnostics.map(\.rule), ["image-consistency"])

    let run = try fcmlint(["--format", "json", Self.warningOnly], in: child)
    XCTAssertEqual(run.status, 0, run.stderr)
    let after = try decode(run)
    XCTAssertEqual(after.diagnostics.map(\.rule), [])
    XCTAssertEqual(after.summary.warnings, 0)

    // The block style, as the README shows it.
    let (_, blockChild) = try projectWithConfig("rules:\n  image-consistency: off\n")
    XCTAssertEqual(try decode(try fcmlint(["--format", "json", Self.warningOnly], in: blockChild)).diagnostics.map(\.rule), [])
  }

  func testConfigChangesASeverity() throws {
    let file = Self.repo("corpus/invalid/image-extension-in-host.json")
    let before = try fcmlint(["--format", "json", file])
    XCTAssertEqual(before.status, 1)
    XCTAssertEqual(try decode(before).diagnostics.map { "\($0.severity) \($0.rule)" }, ["error image-extension-android"])

    let (_, child) = try projectWithConfig("rules:\n  image-extension-android: warning\n")
    let run = try fcmlint(["--format", "json", file], in: child)
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(try decode(run).diagnostics.map { "\($0.severity) \($0.rule)" }, ["warning image-extension-android"])
  }

  func testBrokenConfigExitsTwoWithItsPosition() throws {
    let cases: [(config: String, position: String, says: String)] = [
      ("rulez:\n  image-extension-android: warning\n", "1:1", "did you mean 'rules'"),
      ("rules:\n  image-extensoin: warning\n", "2:3", "did you mean 'image-extension'"),
      ("# severities\nrules:\n  image-extension: fatal\n", "3:20", "'fatal'"),
      ("rules:\n\timage-extension-android: off\n", "2:1", "invalid YAML"),
      ("ignore: ['[z-a]']\n", "1:10", "ignore pattern"),
    ]
    for (config, position, says) in cases {
      let (root, child) = try projectWithConfig(config)
      let run = try fcmlint([Self.warningOnly], in: child)
      let file = root.appendingPathComponent(".fcmlint.yml").path
      XCTAssertEqual(run.status, 2, config)
      XCTAssertTrue(run.stderr.contains("\(file):\(position): "), "expected \(file):\(position) for\n\(config)\ngot: \(run.stderr)")
      XCTAssertTrue(run.stderr.contains(says), "expected '\(says)' for\n\(config)\ngot: \(run.stderr)")
      XCTAssertEqual(run.stdout, "", "nothing is linted with a broken config")
    }
  }

  func testExplicitConfigFile() throws {
    let file = Self.repo("corpus/invalid/image-extension-in-host.json")
    // The discovered config turns the rule off; --config wins and makes it a warning.
    let (root, child) = try projectWithConfig("rules:\n  image-extension-android: off\n")
    try write("rules:\n  image-extension-android: warning\n", to: root.appendingPathComponent("configs/relaxed.yml"))

    let discovered = try fcmlint(["--format", "json", file], in: child)
    XCTAssertEqual(try decode(discovered).diagnostics.map(\.rule), [])

    let explicit = try fcmlint(["--format", "json", "--config", "../../configs/relaxed.yml", file], in: child)
    XCTAssertEqual(explicit.status, 0, explicit.stderr)
    XCTAssertEqual(try decode(explicit).diagnostics.map { "\($0.severity) \($0.rule)" }, ["warning image-extension-android"])

    let missing = try fcmlint(["--config", "nowhere.yml", file], in: child)
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("nowhere.yml"), missing.stderr)
  }

  func testIgnoredFilesAreSkipped() throws {
    let (root, _) = try projectWithConfig("ignore: [\"skip/**\"]\n")
    for path in ["skip/a.json", "skip/deeper/b.json", "keep/c.json", "keep/skip/d.json"] {
      try write("{\n", to: root.appendingPathComponent(path))
    }
    let run = try fcmlint(["--format", "json", "."], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    let output = try decode(run)
    // A pattern with '/' is anchored at the config file's folder.
    XCTAssertEqual(output.diagnostics.map(\.file), ["./keep/c.json", "./keep/skip/d.json"])
    XCTAssertEqual(output.summary.files, 2)
  }

  // MARK: - User rules

  func testUserRuleFolderAddsDiagnostics() throws {
    let rules = Self.fixture("rules/valid")
    let messages = Self.fixture("messages")
    let normal = messages + "/android-priority-normal.json"

    let without = try decode(try fcmlint(["--format", "json", messages]))
    XCTAssertEqual(without.diagnostics.map(\.rule), [])

    let run = try fcmlint(["--format", "json", "--rules", rules, messages])
    XCTAssertEqual(run.status, 0, "a warning: \(run.stderr)")
    try assertMatchesSchema(run)
    let output = try decode(run)
    XCTAssertEqual(output.diagnostics.count, 1, run.stdout)
    let d = try XCTUnwrap(output.diagnostics.first)
    XCTAssertEqual(d.file, normal)
    XCTAssertEqual(d.rule, "android-priority-high")
    XCTAssertEqual(d.severity, "warning")
    XCTAssertEqual(d.pointer, "/message/android/priority")
    XCTAssertEqual([d.line, d.column], [5, 29])
    XCTAssertEqual(d.docs, "https://firebase.google.com/docs/cloud-messaging/android/message-priority")
    XCTAssertTrue(d.message.hasPrefix("set android.priority to \"HIGH\""), d.message)
    XCTAssertEqual(output.summary.files, 2)

    // The config can change a user rule's severity like a built-in's.
    let (_, child) = try projectWithConfig("rules:\n  android-priority-high: error\n")
    XCTAssertEqual(try fcmlint(["--rules", rules, normal], in: child).status, 1)

    let listed = try fcmlint(["rules", "--rules", rules])
    XCTAssertEqual(listed.status, 0, listed.stderr)
    XCTAssertTrue(listed.stdout.split(separator: "\n").contains { $0.hasPrefix("android-priority-high ") }, listed.stdout)
  }

  func testBrokenUserRulesExitTwoWithTheirPosition() throws {
    let cases: [(folder: String, position: String, says: String)] = [
      ("unknown-function", "12:13", "unknown function 'equalz'"),
      ("unknown-key", "4:1", "unknown key 'sumary'"),
      ("bad-path", "11:20", "invalid path '@.android-priority'"),
      ("bad-options", "14:5", "'valeu'"),
      ("builtin-id", "2:5", "'image-extension'"),
    ]
    for (folder, position, says) in cases {
      let directory = Self.fixture("rules/" + folder)
      let run = try fcmlint(["--rules", directory, Self.repo("corpus/valid/fid-target.json")])
      XCTAssertEqual(run.status, 2, folder)
      XCTAssertTrue(run.stderr.contains("\(directory)/rule.yml:\(position): "), "\(folder): expected rule.yml:\(position), got: \(run.stderr)")
      XCTAssertTrue(run.stderr.contains(says), "\(folder): expected '\(says)', got: \(run.stderr)")
      XCTAssertEqual(run.stdout, "", folder)
    }
    let missing = try fcmlint(["--rules", "no-such-folder", Self.repo("corpus/valid/fid-target.json")])
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("no-such-folder"), missing.stderr)
  }

  // MARK: - rules, explain, lint

  func testRulesListsEveryRule() throws {
    let run = try fcmlint(["rules"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let ids = run.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    let expected = Self.builtinRuleIDs()
    XCTAssertFalse(expected.isEmpty)
    XCTAssertEqual(ids, expected)
  }

  func testRulesSaysWhichRulesAreFixableInEveryFormat() throws {
    let text = try fcmlint(["rules"]).stdout
    let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("apns-aps-key ") })
    XCTAssertTrue(line.contains(" fixable "), String(line))
    let plain = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("target-exactly-one ") })
    XCTAssertFalse(plain.contains("fixable"), String(plain))
    let json = try fcmlint(["rules", "--format", "json"])
    let rules = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
    let fixable = Dictionary(uniqueKeysWithValues: rules.map { ($0["id"] as! String, $0["fixable"] as? Bool) })
    XCTAssertEqual(fixable["apns-aps-key"], true)
    XCTAssertEqual(fixable["target-exactly-one"], false)
    XCTAssertTrue(try fcmlint(["rules", "--format", "markdown"]).stdout.contains("| Rule | Severity | Fix | What it checks |"))
  }

  func testExplain() throws {
    let run = try fcmlint(["explain", "image-extension"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.hasPrefix("image-extension"), run.stdout)
    XCTAssertTrue(run.stdout.contains("https://firebase.google.com/docs/cloud-messaging/ios/send-image"), run.stdout)

    let unknown = try fcmlint(["explain", "nope"])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(unknown.stderr.contains("'nope'"), unknown.stderr)
    XCTAssertEqual(unknown.stdout, "")

    let typo = try fcmlint(["explain", "image-extensoin"])
    XCTAssertEqual(typo.status, 2)
    XCTAssertTrue(typo.stderr.contains("did you mean 'image-extension'"), typo.stderr)
  }

  func testLintSubcommandIsTheDefault() throws {
    for format in ["text", "json"] {
      let implicit = try fcmlint(["--format", format, Self.corpus])
      let explicit = try fcmlint(["lint", "--format", format, Self.corpus])
      XCTAssertEqual(explicit.status, implicit.status)
      XCTAssertEqual(explicit.stdoutData, implicit.stdoutData, format)
      XCTAssertEqual(explicit.stderr, implicit.stderr)
    }
  }
}
