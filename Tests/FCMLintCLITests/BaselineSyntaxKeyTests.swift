import Foundation
import XCTest

/// A baselined syntax error hides that error only, never the same file emptied, cut short or
/// replaced by binary bytes (issue 27).
extension CLITests {
  func testABaselinedSyntaxErrorDoesNotHideADifferentBreakage() throws {
    let root = try temporaryDirectory()
    let file = root.appendingPathComponent("a.json")
    let original = "{\n  \"message\": {\n    \"topic\": \"news\",\n    \"notification\": {\"title\": \"Hi\",}\n  }\n}\n"
    try write(original, to: file)
    let recorded = try fcmlint(["--write-baseline", "b.json", "a.json"], in: root)
    XCTAssertEqual(recorded.status, 0, recorded.stderr)
    let text = try String(contentsOf: root.appendingPathComponent("b.json"), encoding: .utf8)
    XCTAssertTrue(text.contains(#"{"file": "a.json", "rule": "json-syntax", "pointer": "", "syntax": "trailing comma before '}'"}"#), text)
    XCTAssertEqual(try fcmlint(["--baseline", "b.json", "a.json"], in: root).status, 0)

    // Lines added above: the same mistake, still hidden.
    try write("\n\n\n" + original, to: file)
    let moved = try fcmlint(["--baseline", "b.json", "a.json"], in: root)
    XCTAssertEqual(moved.status, 0, moved.stdout)
    XCTAssertTrue(moved.stdout.contains("1 hidden by the baseline"), moved.stdout)

    // Emptied, cut short, replaced by binary bytes: each is a new finding.
    let cut = String(original.prefix(40))
    for (what, bytes) in [("empty", Data()), ("truncated", Data(cut.utf8)), ("binary", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]))] {
      try bytes.write(to: file)
      let run = try fcmlint(["--baseline", "b.json", "a.json"], in: root)
      XCTAssertEqual(run.status, 1, "\(what): \(run.stdout)")
      XCTAssertTrue(run.stdout.contains("a.json:"), "\(what): \(run.stdout)")
      XCTAssertTrue(run.stdout.contains("[json-syntax]"), "\(what): \(run.stdout)")
      XCTAssertFalse(run.stdout.contains("hidden by the baseline"), "\(what): \(run.stdout)")
    }
  }

  /// A baseline written before syntax findings were keyed: its json-syntax entry says nothing of
  /// the error, so it hides none (and is listed as matching nothing), while its other entries
  /// still work.
  func testAnOldSyntaxEntryWithoutItsErrorHidesNothing() throws {
    let root = try temporaryDirectory()
    try write("", to: root.appendingPathComponent("a.json"))
    try write(Self.numberInData, to: root.appendingPathComponent("c.json"))
    try write(
      """
      {
        "fcmlint-baseline": 1,
        "findings": [
          {"file": "a.json", "rule": "json-syntax", "pointer": ""},
          {"file": "c.json", "rule": "data-string-values", "pointer": "/message/data/n"}
        ]
      }

      """, to: root.appendingPathComponent("b.json"))
    let run = try fcmlint(["--baseline", "b.json", "--verbose", "a.json", "c.json"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout)
    XCTAssertTrue(run.stdout.contains("a.json:1:1: error: the document is empty"), run.stdout)
    XCTAssertTrue(run.stdout.contains("1 hidden by the baseline; 1 baseline entry matches nothing any more"), run.stdout)
    XCTAssertTrue(run.stderr.contains("baseline entry matches nothing any more: a.json: json-syntax"), run.stderr)
  }
}
