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
}
