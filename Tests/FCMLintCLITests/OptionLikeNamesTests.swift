import Foundation
import XCTest

/// A file named like an option is linted as a file and never acts as one: `--` ends the options,
/// and the pre-commit hooks end theirs with it (issue 27).
extension CLITests {

  static let trailingComma = "{\"message\": {\"topic\": \"t\", \"notification\": {\"title\": \"Hi\",}}}\n"

  func testEveryWordAfterDoubleDashIsAPathEvenOneNamedLikeAnOption() throws {
    let root = try temporaryDirectory()
    let packageJSON = "{\"name\": \"app\"}\n"
    try write(packageJSON, to: root.appendingPathComponent("package.json"))
    try write("# Notes\n", to: root.appendingPathComponent("NOTES.md"))
    try write(Self.trailingComma, to: root.appendingPathComponent("--write-baseline=package.json"))
    try write(Self.trailingComma, to: root.appendingPathComponent("--fix"))
    try write("# Page\n\n```json\n" + Self.trailingComma + "```\n", to: root.appendingPathComponent("--output=NOTES.md"))

    let run = try fcmlint(["--", "--write-baseline=package.json", "--fix", "-"], in: root, input: .bytes(Data(Self.trailingComma.utf8)))
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stdout.contains("--write-baseline=package.json:1:58: error: trailing comma before '}' [json-syntax]"), run.stdout)
    XCTAssertTrue(run.stdout.contains("--fix:1:58: error: trailing comma"), run.stdout)
    XCTAssertTrue(run.stdout.contains("<stdin>:1:58: error: trailing comma"), run.stdout)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("--fix"), encoding: .utf8), Self.trailingComma, "--fix after -- is a file, not the flag")

    let docs = try fcmlint(["--docs", "--", "--output=NOTES.md"], in: root)
    XCTAssertEqual(docs.status, 1, docs.stderr)
    XCTAssertTrue(docs.stdout.contains("--output=NOTES.md:4:58: error: trailing comma"), docs.stdout)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("package.json"), encoding: .utf8), packageJSON)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("NOTES.md"), encoding: .utf8), "# Notes\n")
  }

  /// A hook whose `args:` a user replaced without `--`: a word that is both an option and a file
  /// here is refused, as git refuses an argument that is both a revision and a path.
  func testAWordThatIsBothAnOptionAndAFileHereIsRefused() throws {
    let root = try temporaryDirectory()
    let packageJSON = "{\"name\": \"app\"}\n"
    try write(packageJSON, to: root.appendingPathComponent("package.json"))
    try write(Self.trailingComma, to: root.appendingPathComponent("--write-baseline=package.json"))
    try write(Self.trailingComma, to: root.appendingPathComponent("payload.json"))
    let run = try fcmlint(["payload.json", "--write-baseline=package.json"], in: root)
    XCTAssertEqual(run.status, 2, run.stdout)
    XCTAssertTrue(run.stderr.contains("'--write-baseline=package.json' is both an option and a file here"), run.stderr)
    XCTAssertTrue(run.stderr.contains("after '--'"), run.stderr)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("package.json"), encoding: .utf8), packageJSON)
    // Nor is a file named --help or --version a request for help or the version.
    for word in ["--help", "-h", "--version"] {
      try write(Self.trailingComma, to: root.appendingPathComponent(word))
      let asked = try fcmlint(["payload.json", word], in: root)
      XCTAssertEqual(asked.status, 2, "\(word): \(asked.stdout)")
      XCTAssertTrue(asked.stderr.contains("'\(word)' is both an option and a file here"), asked.stderr)
      XCTAssertEqual(try fcmlint(["--", word], in: root).status, 1, word)
    }
    // An option that names no file here is read as usual.
    XCTAssertEqual(try fcmlint(["--format=json", "payload.json"], in: root).status, 1)
  }
}
