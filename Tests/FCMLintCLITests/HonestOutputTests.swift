import Foundation
import XCTest

/// What fcmlint prints says what is true and cannot be forged: messages cite the page's lines,
/// streams report in line order with the documented exit code, and control characters in names,
/// keys and values are escaped in every format (issue 27).
extension CLITests {
  // MARK: - Messages cite the page

  func testASyntaxMessageOnAPageCitesThePagesLine() throws {
    let root = try temporaryDirectory()
    try write("# Send\n\nSome text.\n\n```json\n{\n  \"message\": {\"topic\": \"t\"}\n```\n", to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stdout.contains("opened at line 6, column 1"), run.stdout)
    XCTAssertFalse(run.stdout.contains("opened at line 1,"), run.stdout)
    // A duplicate key names the line of the first: the page's too.
    try write("# Send\n\ntext\n\n```json\n{\"message\": {\"topic\": \"t\",\n  \"topic\": \"u\"}}\n```\n", to: root.appendingPathComponent("twice.md"))
    let twice = try fcmlint(["--docs", "twice.md"], in: root)
    XCTAssertTrue(twice.stdout.contains("twice.md:7:3: error: duplicate key 'topic' (also on line 6)"), twice.stdout)
  }

  // MARK: - NDJSON: line order and exit codes

  func testAnOverLimitNDJSONLineIsReportedInLineOrderAndExitsTwo() throws {
    let root = try temporaryDirectory()
    let long = "{\"message\": {\"topic\": \"t\", \"data\": {\"k\": \"" + String(repeating: "x", count: 300) + "\"}}}"
    let lines = [String(Self.trailingComma.dropLast()), long, String(Self.trailingComma.dropLast())].joined(separator: "\n") + "\n"
    try write(lines, to: root.appendingPathComponent("s.ndjson"))
    let run = try fcmlint(["--ndjson", "--max-file-size", "200", "s.ndjson"], in: root)
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    let reported = run.stdout.split(separator: "\n").filter { $0.hasPrefix("s.ndjson:") }.map { $0.split(separator: ":")[1] }
    XCTAssertEqual(reported, ["1", "2", "3"], run.stdout)
    XCTAssertTrue(run.stderr.contains("fcmlint: error: s.ndjson:2: the document on this line is 346 bytes, larger than the limit of 200 bytes (--max-file-size); not read"), run.stderr)
    // Many lines over: the first are named, the rest counted (standard error stays bounded).
    try write(String(repeating: long + "\n", count: 25), to: root.appendingPathComponent("many.ndjson"))
    let many = try fcmlint(["--ndjson", "--max-file-size", "200", "many.ndjson"], in: root)
    XCTAssertEqual(many.status, 2)
    XCTAssertEqual(many.stdout.split(separator: "\n").count, 26, many.stdout)
    XCTAssertTrue(many.stderr.contains("many.ndjson:20: the document"), many.stderr)
    XCTAssertFalse(many.stderr.contains("many.ndjson:21:"), many.stderr)
    XCTAssertTrue(many.stderr.contains("5 more lines are larger than --max-file-size; not read"), many.stderr)
  }

  // MARK: - Report text cannot be forged

  static let forging = "x\n::error file=forged.json,line=1::forged\u{1B}[2J"

  /// Every line of standard output and standard error, checked: no ESC or other control
  /// character, and no line a workflow runner or an editor would read as a diagnostic of its own.
  func assertNotForged(_ run: Run, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    for (stream, text) in [("stdout", run.stdout), ("stderr", run.stderr)] {
      XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B }, "\(what): ESC on \(stream):\n\(text)", file: file, line: line)
      for row in text.split(separator: "\n", omittingEmptySubsequences: false) {
        XCTAssertFalse(row.hasPrefix("::error file=forged"), "\(what): a forged annotation on \(stream):\n\(text)", file: file, line: line)
        XCTAssertFalse(row.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }, "\(what): a control character on \(stream): \(row.debugDescription)", file: file, line: line)
      }
    }
  }

  func testControlCharactersInNamesKeysAndValuesAreEscapedInEveryFormat() throws {
    let root = try temporaryDirectory()
    let key = Self.forging.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u001b")
    // A value in a message (data values must be strings), a key name in a pointer, and a file name.
    let payload = "{\"message\": {\"topic\": \"t\", \"data\": {\"\(key)\": 1}, \"android\": {\"priority\": \"\(key)\"}}}\n"
    try write(payload, to: root.appendingPathComponent(Self.forging + ".json"))
    try write(Self.trailingComma, to: root.appendingPathComponent("ok.json"))
    // A baseline entry whose pointer forges a line when listed by --verbose.
    let pointer = "/message/data/" + Self.forging.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u001b")
    try write(
      "{\"fcmlint-baseline\": 1, \"findings\": [{\"file\": \"ok.json\", \"rule\": \"data-string-values\", \"pointer\": \"\(pointer)\"}]}\n",
      to: root.appendingPathComponent("b.json"))
    for format in ["text", "github"] {
      let run = try fcmlint(["--format", format, "--baseline", "b.json", "--verbose", "."], in: root)
      XCTAssertEqual(run.status, 1, run.stderr)
      XCTAssertTrue(run.stderr.contains("baseline entry matches nothing any more"), run.stderr)
      XCTAssertTrue(run.stdout.contains("forged"), run.stdout)
      assertNotForged(run, format)
    }
    // The formats whose syntax escapes: each parses, and holds the text as it was.
    let json = try fcmlint(["--format", "json", "."], in: root)
    XCTAssertTrue(try decode(json).diagnostics.contains { $0.file == "./" + Self.forging + ".json" || $0.file == Self.forging + ".json" }, json.stdout)
    for format in ["sarif", "junit", "checkstyle"] {
      let run = try fcmlint(["--format", format, "."], in: root)
      XCTAssertEqual(run.status, 1, run.stderr)
      XCTAssertFalse(run.stdout.unicodeScalars.contains { $0.value == 0x1B }, "\(format): raw ESC:\n\(run.stdout)")
      XCTAssertFalse(run.stdout.contains("\n::error"), "\(format):\n\(run.stdout)")
    }
    // A file that cannot be read, named with a newline: the I/O error is one line too.
    let unreadable = try fcmlint([Self.forging + ".missing"], in: root)
    XCTAssertEqual(unreadable.status, 2)
    assertNotForged(unreadable, "I/O error")
    let usage = try fcmlint(["--" + Self.forging], in: root)
    XCTAssertEqual(usage.status, 2)
    assertNotForged(usage, "usage error")
  }
}

extension CLITests {
  /// A user's rule file is text anyone could write: `rules`, `explain` and `test` show its
  /// summary, description and messages with control characters escaped, never raw (an ESC
  /// sequence would reach the terminal).
  func testAUsersRuleTextIsShownEscaped() throws {
    let root = try temporaryDirectory()
    let rules = root.appendingPathComponent("myrules")
    try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
    try write(
      """
      id: no-esc
      severity: warning
      summary: "Topic \\e[31mred\\e[0m"
      description: "Line one\\e]0;title\\u0007 done"
      docs: https://example.com/esc
      given: $.message
      then:
        field: '@.topic'
        function: absent
      examples:
        valid:
          - '{"message": {"token": "t"}}'
        invalid:
          - json: '{"message": {"topic": "t"}}'
            pointer: /message/topic

      """, to: rules.appendingPathComponent("no-esc.yml"))
    let listed = try fcmlint(["rules", "--rules", "myrules"], in: root)
    XCTAssertEqual(listed.status, 0, listed.stderr)
    XCTAssertFalse(listed.stdout.contains("\u{1b}"), listed.stdout)
    XCTAssertTrue(listed.stdout.contains("Topic \\u{1b}[31mred"), listed.stdout)
    let explained = try fcmlint(["explain", "--rules", "myrules", "no-esc"], in: root)
    XCTAssertEqual(explained.status, 0, explained.stderr)
    XCTAssertFalse(explained.stdout.contains("\u{1b}") || explained.stdout.contains("\u{07}"), explained.stdout)
  }
}
