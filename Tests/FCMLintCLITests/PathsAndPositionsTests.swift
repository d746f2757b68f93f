import FCMLintTestSupport
import Foundation
import XCTest

/// Paths and positions as a user reads them: annotations name files as SARIF does, YAML errors
/// point at the mistake, and the README's rule counts are the pack's.
extension CLITests {
  func testGitHubAnnotationsNameFilesAsSARIFDoes() throws {
    let folder = try temporaryDirectory()
    try write(#"{"message": {"topic": "t", "notification": {"image": "https://cdn.acme-sale-banner.png"}}}"#, to: folder.appendingPathComponent("push/a.json"))
    let github = try fcmlint(["--format", "github", "."], in: folder)
    XCTAssertEqual(github.status, 1, github.stderr)
    XCTAssertTrue(github.stdout.contains("::error file=push/a.json,line=1,"), github.stdout)
    XCTAssertFalse(github.stdout.contains("file=./"), github.stdout)
    let sarif = try fcmlint(["--format", "sarif", "."], in: folder)
    XCTAssertTrue(sarif.stdout.contains(#""uri":"push/a.json""#), sarif.stdout)
  }

  /// libyaml finds a stray line (a key without ':') or an unclosed quote where it gives up, lines
  /// later; the error is reported where the mistake starts.
  func testYAMLErrorsAreReportedWhereTheMistakeIs() throws {
    var lines = ["# fcmlint config", "rules:"]
    while lines.count < 18 { lines.append("  # rule \(lines.count)") }
    lines += ["ignore:", "  - legacy/*.json", "  stray line", "", "# suppressions", "", "", "", "suppress: []"]
    let cases: [(config: String, position: String, says: String)] = [
      (lines.joined(separator: "\n") + "\n", "21:3", "could not find expected ':'"),
      ("rules: {}\nignore:\n  - 'legacy/*.json\n\n\nsuppress: []\n", "3:5", "quoted scalar"),
      // Other errors stay where libyaml finds them.
      ("rules:\n  image-extension: warning\n   android-ttl: error\n", "3:15", "mapping values are not allowed"),
    ]
    for (config, position, says) in cases {
      let folder = try temporaryDirectory()
      try write(config, to: folder.appendingPathComponent(".fcmlint.yml"))
      try write(#"{"message": {"topic": "t"}}"#, to: folder.appendingPathComponent("a.json"))
      let run = try fcmlint(["a.json"], in: folder)
      XCTAssertEqual(run.status, 2, config)
      XCTAssertTrue(run.stderr.contains(".fcmlint.yml:\(position): invalid YAML"), "expected \(position) for\n\(config)\ngot: \(run.stderr)")
      XCTAssertTrue(run.stderr.contains(says), run.stderr)
    }
  }

  /// Every number of rules the README states in the present is the pack's, as `fcmlint rules`
  /// lists it. A count in a dated paragraph or table (a measurement of its day) is history.
  func testReadmeRuleCounts() throws {
    let run = try fcmlint(["rules"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let count = run.stdout.split(separator: "\n").count
    XCTAssertGreaterThan(count, 60)
    let path = Self.repo("README.md")
    var readme = try String(contentsOfFile: path, encoding: .utf8)
    let start = "<!-- rule-count: written from the pack; FCMLINT_UPDATE_GOLDEN=1 swift test --filter testReadmeRuleCounts -->\n"
    let end = "<!-- rule-count: end -->"
    guard let startRange = readme.range(of: start), let endRange = readme.range(of: end) else {
      return XCTFail("README.md needs the rule-count markers")
    }
    let sentence = "The built-in pack has \(count) rules (`fcmlint rules` lists them, `fcmlint explain ID` explains one):\n"
    if ProcessInfo.processInfo.environment["FCMLINT_UPDATE_GOLDEN"] == "1" {
      readme.replaceSubrange(startRange.upperBound..<endRange.lowerBound, with: sentence)
      try Data(readme.utf8).write(to: URL(fileURLWithPath: path))
      return
    }
    XCTAssertEqual(String(readme[startRange.upperBound..<endRange.lowerBound]), sentence)
    // Blocks between blank lines; a block is dated when it or the one before it names a day.
    let blocks = readme.components(separatedBy: "\n\n")
    let date = try NSRegularExpression(pattern: #"\b20[0-9]{2}-[0-9]{2}-[0-9]{2}\b"#)
    let stated = try NSRegularExpression(pattern: #"\b([0-9]+) (?:built-in )?rules\b"#)
    func dated(_ text: String) -> Bool { date.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
    var checked = 0
    for (i, block) in blocks.enumerated() where !dated(block) && !(i > 0 && dated(blocks[i - 1])) {
      for match in stated.matches(in: block, range: NSRange(block.startIndex..., in: block)) {
        let number = String(block[Range(match.range(at: 1), in: block)!])
        XCTAssertEqual(number, String(count), "the README says '\(block[Range(match.range, in: block)!])'; the pack has \(count)")
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 0)
  }
}
