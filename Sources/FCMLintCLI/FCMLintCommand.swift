import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintSystem
import FCMLintWorkspace

/// The `fcmlint` command: `lint` (the default), `rules`, `explain`, `test` and `init`.
public enum FCMLintCommand {
  public static let version = "0.1.0"
  /// What `fcmlint init` writes.
  public static var initStarter: String { InitSettings.starter }
  static let abstract = "Lint Firebase Cloud Messaging HTTP v1 send requests."
  static let exitCodes = "Exit codes: 0 no errors, 1 errors (or more warnings than --max-warnings), 2 usage, config or I/O failure."

  /// The commands besides `lint`, by the word that names them.
  static let commands: [(name: String, usage: String, abstract: String)] = [
    ("lint", LintSettings.usage, LintSettings.abstract),
    ("rules", RulesSettings.usage, RulesSettings.abstract),
    ("explain", ExplainSettings.usage, ExplainSettings.abstract),
    ("test", TestRulesSettings.usage, TestRulesSettings.abstract),
    ("init", InitSettings.usage, InitSettings.abstract),
    ("completion", CompletionSettings.usage, CompletionSettings.abstract),
    ("lsp", LanguageServerSettings.usage, LanguageServerSettings.abstract),
  ]

  /// Parses `arguments` (without the program name), runs the command and returns the exit code.
  /// Usage errors exit 2, like configuration and I/O failures; help and version exit 0.
  public static func run(_ arguments: [String]) -> Int32 {
    // Past a file size limit (RLIMIT_FSIZE), a write should fail with EFBIG and be reported like a
    // full disk, not kill the process.
    POSIX.ignoreFileSizeSignal()
    let status = dispatch(arguments)
    // Whatever the command found, output that was lost (a full disk) is a failure of the run.
    if let failure = Console.standardOutputFailure {
      Console.err("fcmlint: error: cannot write to standard output: \(failure)\n")
      return ExitStatus.failure.rawValue
    }
    return status
  }

  static func dispatch(_ arguments: [String]) -> Int32 {
    var command = arguments.first ?? ""
    var rest = arguments.dropFirst()
    if !["lint", "rules", "explain", "test", "init", "completion", "lsp", "help"].contains(command) {
      command = "lint"
      rest = arguments[...]
    }
    // Help wherever it is asked for, before anything is checked.
    if command == "help" {
      Console.out(help(for: rest.first ?? ""))
      return ExitStatus.clean.rawValue
    }
    let beforeSeparator = rest.prefix { $0 != "--" }
    if beforeSeparator.contains("-h") || beforeSeparator.contains("--help") {
      Console.out(help(for: command == "lint" && arguments.first != "lint" ? "" : command))
      return ExitStatus.clean.rawValue
    }
    if command == "lint", beforeSeparator.contains("--version") {
      Console.out(version + "\n")
      return ExitStatus.clean.rawValue
    }
    do {
      switch command {
      case "rules": try RulesSettings(arguments: rest).run()
      case "explain": try ExplainSettings(arguments: rest).run()
      case "test": try TestRulesSettings(arguments: rest).run()
      case "init": try InitSettings(arguments: rest).run()
      case "completion": try CompletionSettings(arguments: rest).run()
      case "lsp": try LanguageServerSettings(arguments: rest).run()
      default: try LintSettings(arguments: rest).run()
      }
      return ExitStatus.clean.rawValue
    } catch let error as UsageError {
      let usage = commands.first { $0.name == command }?.usage ?? LintSettings.usage
      Console.err("fcmlint: error: \(error.message)\nUsage: \(usage)\n  See 'fcmlint \(command == "lint" ? "" : command + " ")--help' for more.\n")
      return ExitStatus.failure.rawValue
    } catch let status as StatusError {
      return status.status.rawValue
    } catch {
      Console.err("fcmlint: error: \(error)\n")
      return ExitStatus.failure.rawValue
    }
  }

  /// The help of one command, or of fcmlint as a whole (`command` empty).
  static func help(for command: String) -> String {
    switch command {
    case "lint":
      return "\(LintSettings.abstract)\n\nUsage: \(LintSettings.usage)\n\nOptions:\n\(ArgumentReader.help(LintSettings.options))\n\(exitCodes)\n"
    case "rules":
      return "\(RulesSettings.abstract)\n\nUsage: \(RulesSettings.usage)\n\nOptions:\n\(ArgumentReader.help(RulesSettings.options))"
    case "explain":
      return "\(ExplainSettings.abstract)\n\nUsage: \(ExplainSettings.usage)\n\nOptions:\n\(ArgumentReader.help(ExplainSettings.options))"
    case "test":
      return "\(TestRulesSettings.abstract)\n\nUsage: \(TestRulesSettings.usage)\n\nOptions:\n\(ArgumentReader.help(TestRulesSettings.options))"
    case "lsp":
      return "\(LanguageServerSettings.abstract)\n\nUsage: \(LanguageServerSettings.usage)\n\nOptions:\n\(ArgumentReader.help(LanguageServerSettings.options))"
    case "completion":
      return "\(CompletionSettings.abstract)\n\nUsage: \(CompletionSettings.usage)\n\nOptions:\n\(ArgumentReader.help(CompletionSettings.options))"
    case "init":
      return "\(InitSettings.abstract)\n\nUsage: \(InitSettings.usage)\n\nOptions:\n\(ArgumentReader.help(InitSettings.options))"
    default:
      let width = commands.map(\.name.count).max() ?? 0
      let list = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + "  " + $0.abstract + "\n" }.joined()
      return """
        fcmlint \(version): \(abstract)

        Usage: \(LintSettings.usage)
               fcmlint <command> [<options>]

        Commands (lint is the default):
        \(list)
        Options of lint:
        \(ArgumentReader.help(LintSettings.options, more: [("--version", "Print the version.")]))
        See 'fcmlint help <command>' for a command's options. \(exitCodes)

        """
    }
  }
}

/// Carries a command's exit status out of `run()`.
struct StatusError: Error {
  var status: ExitStatus
}

/// Where a run's rules and config come from: the built-in pack, the config file (given, or
/// discovered) and the user's rule folders.
struct RuleSources: Equatable {
  var config: String? = nil
  var rules: [String] = []

  /// The options every command has.
  static let options: [CLIOption<RuleSources>] = [
    .value("--config", "<file>", "Config file (default: .fcmlint.yml in the working directory or the nearest parent).") { $0.config = $1 },
    .value("--rules", "<dir>", repeatable: true, "A folder of extra rule files (*.yml).") { $0.rules.append($1) },
  ]

  /// The rules and config of this run (the config given, or the one nearest to the working
  /// directory).
  func load() throws(ConfigurationError) -> (RuleSet, Config) {
    try load(configPath: self.config ?? Config.discover(from: FileSystem.currentDirectory()))
  }

  /// The rules and config from `configPath` (nil: the defaults) and the `--rules` folders.
  func load(configPath: String?) throws(ConfigurationError) -> (RuleSet, Config) {
    let config = try configPath.map { path throws(ConfigurationError) in try Config.load(file: path) } ?? Config()
    var ruleSet = try BuiltinPack.load()
    // A config's rule folders stay inside its folder; --rules names folders anywhere.
    for (directory, folder) in config.ruleDirectories { try ruleSet.addDirectory(directory, confinedTo: folder) }
    for directory in rules { try ruleSet.addDirectory(directory) }
    try config.validate(against: ruleSet)
    return (ruleSet, config)
  }

  /// `load()`, with a broken rule or config file reported on standard error and exit 2.
  func loadOrReport() throws -> (RuleSet, Config) {
    do {
      return try load()
    } catch {
      throw reportConfigurationError(error)
    }
  }
}

func reportConfigurationError(_ error: ConfigurationError) -> StatusError {
  Console.err("fcmlint: error: \(error)\n")
  return StatusError(status: .failure)
}
