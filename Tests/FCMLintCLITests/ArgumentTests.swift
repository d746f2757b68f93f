@testable import FCMLintCLI
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

/// Command lines read three ways: plainly (`LintSettings(plainArguments:)`), with the paths taken
/// out first (`separatePaths`, for many file names), and by swift-argument-parser. All must agree.
final class ArgumentTests: XCTestCase {
  /// The options `lint`'s help lists, with whether each takes a value.
  private var declaredOptions: [String: Bool] {
    let help = Lint.helpMessage(columns: 400)
    var options: [String: Bool] = [:]
    for line in help.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard let name = words.first, name.hasPrefix("--"), !["--help", "--version"].contains(name) else { continue }
      options[String(name)] = words.count > 1 && words[1].hasPrefix("<")
    }
    return options
  }

  func testOptionsWithValuesMatchTheLintOptions() {
    XCTAssertEqual(Set(declaredOptions.filter(\.value).keys), LintSettings.optionsWithValues)
  }

  /// The plain reader knows every option `Lint` declares, and only those.
  func testPlainOptionsAreTheLintOptions() {
    let declared = declaredOptions
    XCTAssertEqual(Set(declared.keys), Set(LintSettings.plainOptions.keys))
    for (name, takesValue) in declared {
      XCTAssertEqual(LintSettings.plainOptions[name]?.kind != .flag, takesValue, name)
    }
  }

  /// Plain command lines (what hooks and CI steps run) skip swift-argument-parser.
  func testPlainCommandLinesAreReadWithoutTheParser() throws {
    let lines: [[String]] = [
      ["a.json"], ["--format", "json", "a.json"], ["lint", "--format=sarif", "--output", "r.sarif", "dir"],
      ["--quiet", "--jobs", "2", "--", "-odd.json"], ["--fix", "-"], ["--ndjson", "--input", "message", "log.ndjson"],
      ["--config", "c.yml", "--rules", "extra", "--rules", "more", "--max-warnings", "0", "x.json"],
      ["--max-depth", "64", "--max-file-size", "2M", "--max-string-length", "4K", "--stdin-filename", "in.json", "-"],
      ["--format", "text", "--format", "json", "--output", "-", "--output", "out.json", "a.json"],
      ["--fix-dry-run", "a.json", "b.json"] + (0..<200).map { "f\($0).json" },
    ]
    for line in lines {
      let plain = try XCTUnwrap(LintSettings(plainArguments: line), "\(line)")
      if line.count < 20 {
        XCTAssertEqual(try XCTUnwrap(FCMLintCommand.parseAsRoot(line) as? Lint).settings, plain, "\(line)")
      }
    }
    // Everything else is swift-argument-parser's.
    for line in [
      ["rules"], ["explain", "android-color"], ["--help"], ["-h"], ["--version"], ["help", "lint"], ["a.json", "rules"],
      ["--jobs", "x", "a.json"], ["--jobs", "-1", "a.json"], ["--quiet", "--quiet", "a.json"], ["--quiet=yes", "a.json"],
      ["--config", "a.yml", "--config", "b.yml", "a.json"], ["--format"], [], ["--format", "json"], ["-odd.json"],
      ["--fix", "--fix-dry-run", "a.json"], ["--unknown", "a.json"], ["--output", "--quiet", "a.json"],
      ["--generate-completion-script", "bash"],
    ] {
      XCTAssertNil(LintSettings(plainArguments: line), "\(line)")
    }
  }

  /// Generated command lines, read both ways: where the plain reader answers, swift-argument-parser
  /// must accept the line as `lint` with the same settings.
  func testPlainReaderAgreesWithTheParser() {
    // Every option the plain reader knows (so a new one is exercised too), in both forms, among
    // paths, values and words that must send the line to the parser.
    let options = LintSettings.plainOptions.keys.sorted()
    let words = options + options.map { $0 + "=" } + [
      "a.json", "b.json", "dir", "-", "--", "lint", "rules", "help", "-x", "--format=json", "--jobs=2", "--quiet=1",
      "--output=-", "--output=-x", "--rules=a=b", "json", "sarif", "text", "2", "0", "-3", "+4", "x", "", "request", "apns",
      "1K", "r.out", "--nope", "--help", "-h",
    ]
    var random = XorShift64(seed: 0x5eed_a46)
    var agreed = 0
    var acceptedByParser = 0
    for _ in 0..<800 {
      let line = (0..<(1 + random.below(7))).map { _ in words[random.below(words.count)] }
      let plain = LintSettings(plainArguments: line)
      let parsed = (try? FCMLintCommand.parseAsRoot(line)).flatMap { $0 as? Lint }
      if parsed != nil { acceptedByParser += 1 }
      guard let plain else { continue }
      XCTAssertEqual(parsed?.settings, plain, "\(line)")
      agreed += 1
    }
    // Not a vacuous check: most lines the parser accepts (about four in five) are read plainly.
    XCTAssertGreaterThan(agreed * 3, acceptedByParser * 2, "\(agreed) of \(acceptedByParser)")
  }

  func testSeparatingPaths() throws {
    let paths = (0..<100).map { "f\($0).json" }
    let (options, separated) = try XCTUnwrap(FCMLintCommand.separatePaths(["--format", "json", "--quiet"] + paths + ["--", "-odd.json"]))
    XCTAssertEqual(options, ["--format", "json", "--quiet"])
    XCTAssertEqual(separated, paths + ["-odd.json"])
    XCTAssertNil(FCMLintCommand.separatePaths(["rules"] + paths), "other subcommands are parsed as usual")
    XCTAssertNil(FCMLintCommand.separatePaths(["a.json", "b.json"]), "few paths need no help")
    XCTAssertEqual(FCMLintCommand.separatePaths(["lint", "--config", "c.yml"] + paths)?.options, ["lint", "--config", "c.yml"])
  }

  /// `parseLint` takes a shortcut for plain lint command lines; it must give the command a parse
  /// from the root gives, and leave everything else to the root.
  func testLintShortcutParsesAsTheRootDoes() throws {
    let lines: [[String]] = [
      ["a.json"], ["--format", "json", "a.json", "b.json"], ["--quiet", "--jobs", "2", "--", "-odd.json"],
      ["--format", "sarif", "--output", "r.sarif", "--format", "text", "dir"], ["--input", "apns", "--max-depth", "64", "-"],
      ["--fix-dry-run", "--config", "c.yml", "--rules", "extra", "x.json"],
    ]
    for line in lines {
      let shortcut = try XCTUnwrap(FCMLintCommand.parseLint(line) as? Lint, "\(line)")
      let root = try XCTUnwrap(FCMLintCommand.parseAsRoot(line) as? Lint, "\(line)")
      XCTAssertEqual(shortcut.paths, root.paths, "\(line)")
      XCTAssertEqual(shortcut.format, root.format, "\(line)")
      XCTAssertEqual(shortcut.output, root.output, "\(line)")
      XCTAssertEqual(shortcut.quiet, root.quiet, "\(line)")
      XCTAssertEqual(shortcut.jobs, root.jobs, "\(line)")
      XCTAssertEqual(shortcut.input, root.input, "\(line)")
      XCTAssertEqual(shortcut.maxDepth, root.maxDepth, "\(line)")
      XCTAssertEqual(shortcut.fixDryRun, root.fixDryRun, "\(line)")
      XCTAssertEqual(shortcut.ruleOptions.config, root.ruleOptions.config, "\(line)")
      XCTAssertEqual(shortcut.ruleOptions.rules, root.ruleOptions.rules, "\(line)")
    }
    // Other subcommands and help go to the root parser.
    XCTAssertTrue(try FCMLintCommand.parseLint(["rules"]) is Rules)
    XCTAssertTrue(try FCMLintCommand.parseLint(["explain", "android-color"]) is Explain)
    XCTAssertFalse(try FCMLintCommand.parseLint(["--help"]) is Lint)
    // A usage error is the root's error.
    XCTAssertThrowsError(try FCMLintCommand.parseLint(["--jobs", "x", "a.json"]))
  }
}
