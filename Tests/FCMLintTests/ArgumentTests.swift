@testable import FCMLintCLI
import XCTest

/// Many file names (what pre-commit passes) are taken out before argument parsing; the option
/// list that makes that safe must match the options `lint` really has.
final class ArgumentTests: XCTestCase {
  func testOptionsWithValuesMatchTheLintOptions() {
    let help = Lint.helpMessage(columns: 400)
    let declared = Set(help.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ")
      guard let name = words.first, name.hasPrefix("--"), words.count > 1, words[1].hasPrefix("<") else { return nil }
      return String(name)
    })
    XCTAssertEqual(declared, Lint.optionsWithValues)
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
