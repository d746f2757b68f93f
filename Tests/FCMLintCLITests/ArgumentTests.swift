@testable import FCMLintCLI
import FCMLintTestSupport
import XCTest

/// The command line is read from the option tables (`CLIOption`): every option of the table is
/// read in both forms, listed in the help, and every malformed line is a usage error.
final class ArgumentTests: XCTestCase {
  /// A value each option accepts.
  func sample(_ option: CLIOption<LintSettings>) -> String {
    switch option.valueName {
    case "<n>": return "3"
    case "<size>": return "2K"
    case "<seconds>": return "2.5"
    case "<kind>": return "message"
    case "<format>": return "json"
    case "<pointer>": return "/message/name"
    default: return "x"
    }
  }

  /// Every option in the table, as `--name value` and `--name=value`, changes the settings, and
  /// both forms give the same settings.
  func testEveryOptionIsReadInBothForms() throws {
    let plain = try LintSettings(arguments: ["a.json"])
    // What an option is refused without.
    let needs = ["--id-field": ["--ndjson", "--format", "ndjson"], "--url-cache-max-age": ["--url-cache", "cache.tsv"]]
    for option in LintSettings.options {
      var spaced = needs[option.name, default: []] + [option.name], joined = needs[option.name, default: []] + [option.name]
      if option.valueName != nil {
        spaced.append(sample(option))
        joined = needs[option.name, default: []] + [option.name + "=" + sample(option)]
      }
      let a = try LintSettings(arguments: (spaced + ["a.json"])[...])
      let b = try LintSettings(arguments: (joined + ["a.json"])[...])
      XCTAssertEqual(a, b, option.name)
      XCTAssertNotEqual(a, plain, "\(option.name) changes nothing")
      XCTAssertEqual(a.paths, ["a.json"], option.name)
    }
  }

  func testHelpListsEveryOption() {
    let help = FCMLintCommand.help(for: "lint")
    for option in LintSettings.options { XCTAssertTrue(help.contains("  " + option.name), option.name) }
    for option in RulesSettings.options { XCTAssertTrue(FCMLintCommand.help(for: "rules").contains(option.name), option.name) }
    XCTAssertTrue(FCMLintCommand.help(for: "").contains("--version"))
  }

  /// Help, dispatch and completion read one table of commands: each command is in the general
  /// help, has its own with each of its options, and each completion script offers it and them.
  func testEveryCommandOfTheTableIsHelpedAndCompleted() {
    let general = FCMLintCommand.help(for: "")
    let scripts = [CompletionSettings.bash(), CompletionSettings.zsh(), CompletionSettings.fish()]
    for command in FCMLintCommand.commands {
      XCTAssertTrue(general.contains("\n  \(command.name) "), command.name)
      let own = FCMLintCommand.help(for: command.name)
      XCTAssertTrue(own.hasPrefix(command.abstract + "\n\nUsage: " + command.usage + "\n"), own)
      for option in command.options { XCTAssertTrue(own.contains("  " + option.name), "\(command.name) \(option.name)") }
      for script in scripts {
        XCTAssertTrue(script.contains(command.name), command.name)
        for option in command.options { XCTAssertTrue(script.contains(option.name.dropFirst(2)), "\(command.name) \(option.name)") }
      }
    }
    XCTAssertEqual(Set(FCMLintCommand.commands.map(\.name)).count, FCMLintCommand.commands.count)
    XCTAssertEqual(FCMLintCommand.command("rules")?.formats, ["text", "json", "markdown"])
    XCTAssertEqual(FCMLintCommand.lint.formats, ["text", "json", "sarif", "github", "junit", "checkstyle", "ndjson"])
    XCTAssertEqual(FCMLintCommand.command("explain")?.operands, .ruleID)
  }

  func testRepeatableOptionsCollectAndOthersKeepTheLast() throws {
    let settings = try LintSettings(arguments: [
      "--format", "text", "--format=json", "--output", "-", "--output", "r.json", "--rules", "a", "--rules", "b",
      "--config", "one.yml", "--config", "two.yml", "--", "-odd.json", "--quiet",
    ])
    XCTAssertEqual(settings.format, ["text", "json"])
    XCTAssertEqual(settings.output, ["-", "r.json"])
    XCTAssertEqual(settings.ruleSources, RuleSources(config: "two.yml", rules: ["a", "b"]))
    XCTAssertEqual(settings.paths, ["-odd.json", "--quiet"], "after '--' every word is a path")
    XCTAssertFalse(settings.quiet)
    XCTAssertEqual(try LintSettings(arguments: ["-"]).paths, ["-"], "'-' is standard input")
  }

  func testMalformedLinesAreUsageErrors() {
    let cases: [([String], String)] = [
      (["--nope", "a.json"], "unknown option '--nope'"),
      (["--qiet", "a.json"], "did you mean '--quiet'?"),
      (["-x", "a.json"], "a path that starts with '-' goes after '--'"),
      (["--format"], "--format needs a value"),
      (["--format=", "a.json"], "--format needs a value"),
      (["--output", "--quiet", "a.json"], "--output needs a value"),
      (["--quiet=yes", "a.json"], "--quiet is a flag and takes no value"),
      (["--quiet", "--quiet", "a.json"], "--quiet is given twice"),
      (["--jobs", "x", "a.json"], "--jobs takes a whole number, not 'x'"),
      (["--jobs", "-1", "a.json"], "--jobs must be 1 or more"),
      (["--max-warnings", "-1", "a.json"], "--max-warnings must be 0 or more"),
      ([], "give at least one file"),
      (["--fix", "--fix-dry-run", "a.json"], "--fix and --fix-dry-run exclude each other"),
    ]
    for (line, message) in cases {
      XCTAssertThrowsError(try LintSettings(arguments: line[...]), "\(line)") { error in
        let text = (error as? UsageError)?.message ?? "\(error)"
        XCTAssertTrue(text.contains(message), "\(line): \(text)")
      }
    }
    XCTAssertThrowsError(try RulesSettings(arguments: ["extra"]))
    XCTAssertThrowsError(try ExplainSettings(arguments: []))
    XCTAssertEqual(try ExplainSettings(arguments: ["image-url", "--config", "c.yml"]).id, "image-url")
  }

  /// Many paths are read in linear time (a pre-commit hook passes every staged file).
  func testManyPaths() throws {
    let paths = (0..<20_000).map { "f\($0).json" }
    XCTAssertEqual(try LintSettings(arguments: (["--quiet"] + paths)[...]).paths, paths)
  }
}
