import Foundation
import XCTest

/// Pages with samples around the size limits, and pages written as other editors save them
/// (issue 27, classes 1 and 5), through the real binary.
extension CLITests {
  /// The file and rule of every finding of a JSON report, in output order.
  func fileRules(_ run: Run) throws -> [(file: String, rule: String)] {
    struct Report: Decodable {
      struct D: Decodable {
        var file: String
        var rule: String
      }
      var diagnostics: [D]
    }
    return try JSONDecoder().decode(Report.self, from: run.stdoutData).diagnostics.map { ($0.file, $0.rule) }
  }

  /// A message of more than 1 MiB.
  static let bigMessage = #"{"message": {"topic": "t", "data": {"k": ""# + String(repeating: "x", count: 1 << 20) + #""}}}"#

  /// A message over 1 MiB in a page's plain text, a curl command or a `sh` or `text` block is
  /// reported, page by page and in a walk, and never ends the process.
  func testAMessageOverOneMebibyteInAPageIsReportedWithoutACrash() throws {
    let root = try temporaryDirectory()
    let pages = [
      "plain.txt": "Send this:\n" + Self.bigMessage + "\n",
      "curl.md": "```sh\ncurl -X POST https://fcm.googleapis.com/v1/projects/p/messages:send -d '" + Self.bigMessage + "'\n```\n",
      "text.md": "```text\n" + Self.bigMessage + "\n```\n",
    ]
    for (name, text) in pages { try write(text, to: root.appendingPathComponent(name)) }
    for name in pages.keys.sorted() {
      let run = try fcmlint(["--docs", "--format", "json", name], in: root)
      XCTAssertEqual(run.status, 1, "\(name): \(run.stderr.suffix(1500))")
      XCTAssertFalse(try fileRules(run).isEmpty, name)
    }
    let walk = try fcmlint(["--docs", "--format", "json", "."], in: root)
    XCTAssertEqual(walk.status, 1, String(walk.stderr.suffix(1500)))
    XCTAssertEqual(Set(try fileRules(walk).map(\.file)), Set(pages.keys.map { "./" + $0 }))
  }

  /// The same end of input in a file: 8 KiB on one line, cut inside a string, with a trailing
  /// comma to repair (many positions are then asked for).
  func testASyntaxErrorAtTheEndOfAFileOfWholeKibibytesIsReported() throws {
    let root = try temporaryDirectory()
    let start = #"{"message": {"data": {"a": "b",}, "topic": ""#
    try write(start + String(repeating: "x", count: 8192 - start.utf8.count), to: root.appendingPathComponent("cut.json"))
    let run = try fcmlint(["--format", "json", "cut.json"], in: root)
    XCTAssertEqual(run.status, 1, String(run.stderr.suffix(1500)))
    XCTAssertEqual(try fileRules(run).map(\.rule), ["json-syntax", "json-syntax"])
  }

  /// A fenced or `<pre>` sample over 1 MiB gets what the same bytes get as a file, at the page's
  /// place, `--fix` included; a limit inside it (a string longer than 1 MiB) is a diagnostic at
  /// the place, as in a file; a page over `--max-file-size` is refused as a file is.
  func testASampleOverOneMebibyteGetsWhatTheSameFileGets() throws {
    let root = try temporaryDirectory()
    try write(Self.bigMessage, to: root.appendingPathComponent("big.json"))
    try write("# Big\n\n```json\n" + Self.bigMessage + "\n```\n", to: root.appendingPathComponent("big.md"))
    try write("<p>Big</p>\n<pre>" + Self.bigMessage + "</pre>\n", to: root.appendingPathComponent("big.html"))
    let file = try found(fcmlint(["--format", "json", "big.json"], in: root))
    XCTAssertEqual(file.map(\.rule), ["payload-size"])
    for (page, line) in [("big.md", 4), ("big.html", 2)] {
      let run = try fcmlint(["--docs", "--format", "json", page], in: root)
      XCTAssertEqual(run.status, 1, page + ": " + run.stderr)
      XCTAssertEqual(try found(run).map(\.rule), file.map(\.rule), page)
      XCTAssertEqual(try found(run).map(\.line), [line], page)
    }
    // --fix writes into the big sample what it writes into the file.
    let fixable = String(Self.bigMessage.replacingOccurrences(of: #""topic": "t""#, with: #""topic": "/topics/t""#).dropLast(3)) + "},}}"
    try write(fixable, to: root.appendingPathComponent("fix.json"))
    try write("```json\n" + fixable + "\n```\n", to: root.appendingPathComponent("fix.md"))
    XCTAssertEqual(try fcmlint(["--fix", "fix.json"], in: root).status, 1)
    let fixedFile = try String(contentsOf: root.appendingPathComponent("fix.json"), encoding: .utf8)
    XCTAssertNotEqual(fixedFile, fixable)
    let run = try fcmlint(["--docs", "--fix", "fix.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("fix.md"), encoding: .utf8), "```json\n" + fixedFile + "\n```\n")
    // A string over the limit: one json-syntax error at its opening quote, in the page as in the file.
    let long = #"{"message": {"topic": "t", "data": {"k": ""# + String(repeating: "x", count: (1 << 20) + 1) + #""}}}"#
    try write(long, to: root.appendingPathComponent("long.json"))
    try write("```json\n" + long + "\n```\n", to: root.appendingPathComponent("long.md"))
    let longFile = try found(fcmlint(["--format", "json", "long.json"], in: root))
    let longPage = try found(fcmlint(["--docs", "--format", "json", "long.md"], in: root))
    XCTAssertEqual(longFile.map(\.rule), ["json-syntax"])
    XCTAssertEqual(longPage.map(\.rule), longFile.map(\.rule))
    XCTAssertEqual(longPage.map(\.column), longFile.map(\.column))
    XCTAssertEqual(longPage.map(\.line), [2])
    // The page itself is read under --max-file-size, as a file is.
    let refused = try fcmlint(["--docs", "--max-file-size", "512K", "big.md"], in: root)
    XCTAssertEqual(refused.status, 2)
    XCTAssertTrue(refused.stderr.contains("big.md"), refused.stderr)
  }

  /// A page saved with a byte order mark: UTF-8 (before a fence, before JSON on the first line)
  /// or UTF-16 (either byte order) is read as a file with one is, and fixed in its own encoding.
  func testPagesWithAByteOrderMarkAreReadAsFilesAre() throws {
    let root = try temporaryDirectory()
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let fence = "```json\n{\"message\": {\"topic\": \"a b\",}}\n```\n"
    try Data(bom + Array(fence.utf8)).write(to: root.appendingPathComponent("fence.md"))
    try Data(bom + Array("{\"message\": {\"topic\": \"a b\",}}\nText.\n".utf8)).write(to: root.appendingPathComponent("first.txt"))
    try Data(bom + Array("{\"message\": {\"topic\": \"a b\",}}".utf8)).write(to: root.appendingPathComponent("file.json"))
    let file = try found(fcmlint(["--format", "json", "file.json"], in: root))
    XCTAssertEqual(file.map(\.rule), ["topic-name", "json-syntax"])
    XCTAssertEqual(try found(fcmlint(["--docs", "--format", "json", "first.txt"], in: root)), file)
    XCTAssertEqual(try found(fcmlint(["--docs", "--format", "json", "fence.md"], in: root)).map { [$0.rule, "\($0.line):\($0.column)"] },
                   file.map { [$0.rule, "2:\($0.column)"] })
    // --fix keeps the mark and fixes what follows it.
    for name in ["fence.md", "first.txt"] {
      let before = try Data(contentsOf: root.appendingPathComponent(name))
      XCTAssertEqual(try fcmlint(["--docs", "--fix", name], in: root).status, 1, name)
      let after = try Data(contentsOf: root.appendingPathComponent(name))
      XCTAssertEqual(Array(after), Array(String(decoding: before, as: UTF8.self).replacingOccurrences(of: "\"a b\",}", with: "\"a b\"}").utf8), name)
      XCTAssertEqual(Array(after.prefix(3)), bom, name)
    }
    // UTF-16, little- and big-endian: the same findings at the same lines and columns (UTF-16
    // units, as for any page), and --fix writes the page back in UTF-16.
    let page = "# Guide\n\nÉté 😀\n\n" + fence
    let utf8Findings = try found({
      try write(page, to: root.appendingPathComponent("utf8.md"))
      return try fcmlint(["--docs", "--format", "json", "utf8.md"], in: root)
    }())
    XCTAssertEqual(utf8Findings.map(\.rule), ["topic-name", "json-syntax"])
    for (name, encoding, mark) in [("le.md", String.Encoding.utf16LittleEndian, [UInt8(0xFF), 0xFE]), ("be.md", .utf16BigEndian, [0xFE, 0xFF])] {
      let url = root.appendingPathComponent(name)
      try Data(mark + Array(page.data(using: encoding)!)).write(to: url)
      let run = try fcmlint(["--docs", "--format", "json", name], in: root)
      XCTAssertEqual(run.status, 1, name + ": " + run.stderr)
      XCTAssertEqual(try found(run), utf8Findings, name)
      XCTAssertEqual(try fcmlint(["--docs", "--fix", name], in: root).status, 1, name)
      let fixed = try Data(contentsOf: url)
      XCTAssertEqual(Array(fixed.prefix(2)), mark, name)
      XCTAssertEqual(String(data: fixed.dropFirst(2), encoding: encoding), page.replacingOccurrences(of: "\"a b\",}", with: "\"a b\"}"), name)
    }
  }

  /// A fence opened on a list item's line (in a block quote too) is a sample, and is fixed there.
  func testFencesOnListItemLinesAreSamples() throws {
    let root = try temporaryDirectory()
    let pages = [
      "dash.md": "- ```json\n  {\"message\": {\"topic\": \"/topics/news\",}}\n  ```\n",
      "number.md": "Steps:\n\n1. ```json\n   {\"message\": {\"topic\": \"/topics/news\",}}\n   ```\n",
      "quote.md": "> - ```json\n>   {\"message\": {\"topic\": \"/topics/news\",}}\n>   ```\n",
    ]
    for (name, text) in pages.sorted(by: { $0.key < $1.key }) {
      try write(text, to: root.appendingPathComponent(name))
      let findings = try found(fcmlint(["--docs", "--format", "json", name], in: root))
      XCTAssertEqual(findings.map(\.rule), ["topic-name", "json-syntax"], name)
      let line = text.hasPrefix("Steps") ? 4 : 2
      XCTAssertEqual(findings.map(\.line), [line, line], name)
      XCTAssertEqual(try fcmlint(["--docs", "--fix", name], in: root).status, 0, name)
      XCTAssertEqual(try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8),
                     text.replacingOccurrences(of: "\"/topics/news\",}", with: "\"news\"}"), name)
    }
  }
}
