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
}
