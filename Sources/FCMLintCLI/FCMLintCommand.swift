import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintFormatters
import FCMLintSystem
import FCMLintWorkspace

/// What every command's settings have: the table that reads its arguments, its help, and a run.
protocol CommandSettings: SendableMetatype {
  static var usage: String { get }
  static var abstract: String { get }
  static var options: [CLIOption<Self>] { get }
  init(arguments: ArraySlice<String>) throws(UsageError)
  func run() throws
}

extension LintSettings: CommandSettings {}
extension RulesSettings: CommandSettings {}
extension ExplainSettings: CommandSettings {}
extension TestRulesSettings: CommandSettings {}
extension InitSettings: CommandSettings {}
extension CompletionSettings: CommandSettings {}
extension LanguageServerSettings: CommandSettings {}

/// A command as help, dispatch and shell completion read it; `FCMLintCommand.commands` is the one
/// place a command is named.
struct Command: Sendable {
  let name: String
  let usage: String
  let abstract: String
  /// Its options, as its settings' table declares them (read by help and completion only, so a
  /// run does not build every command's table).
  var options: [OptionSummary] { readOptions() }
  private let readOptions: @Sendable () -> [OptionSummary]
  /// What it takes besides options: paths, rule folders, a rule id, one of some words, or nothing.
  let operands: WordKind
  /// Reads the arguments after the command's name and runs it.
  let run: @Sendable (ArraySlice<String>) throws -> Void

  init<Settings: CommandSettings>(_ name: String, _ settings: Settings.Type, operands: WordKind) {
    self.init(name, usage: Settings.usage, abstract: Settings.abstract, options: { Settings.options.map { $0.summary } }, operands: operands) {
      try Settings(arguments: $0).run()
    }
  }

  init(
    _ name: String, usage: String, abstract: String, options: @escaping @Sendable () -> [OptionSummary], operands: WordKind,
    run: @escaping @Sendable (ArraySlice<String>) throws -> Void
  ) {
    (self.name, self.usage, self.abstract, self.readOptions, self.operands, self.run) = (name, usage, abstract, options, operands, run)
  }

  /// The formats its `--format` takes (none without one).
  var formats: [String] {
    guard case .choice(let formats)? = options.first(where: { $0.name == "--format" })?.values else { return [] }
    return formats
  }
}

/// The `fcmlint` command: `lint` (the default), `rules`, `explain`, `test`, `init`, `completion`,
/// `lsp` and `help`.
public enum FCMLintCommand {
  public static let version = "0.1.0"
  /// What `fcmlint init` writes.
  public static var initStarter: String { InitSettings.starter }
  static let abstract = "Lint Firebase Cloud Messaging HTTP v1 send requests."
  static let exitCodes = "Exit codes: 0 no errors, 1 errors (or more warnings than --max-warnings), 2 usage, config or I/O failure."
  /// `--version`, read before `lint`'s own options (only where `lint` is the command).
  static let versionOption = OptionSummary(name: "--version", valueName: nil, repeatable: false, help: "Print the version.", values: .none)

  /// Every command, in the order help lists them. Its name, options and operands here are what
  /// dispatch runs, help prints and the completion scripts offer.
  static let commands: [Command] = [
    Command("lint", LintSettings.self, operands: .file),
    Command("rules", RulesSettings.self, operands: .none),
    Command("explain", ExplainSettings.self, operands: .ruleID),
    Command("test", TestRulesSettings.self, operands: .folder),
    Command("init", InitSettings.self, operands: .none),
    Command("completion", CompletionSettings.self, operands: .choice(CompletionSettings.shells)),
    Command("lsp", LanguageServerSettings.self, operands: .none),
    Command(
      "help", usage: "fcmlint help [<command>]", abstract: "Show the help of fcmlint or of a command.", options: { [] },
      operands: .command
    ) { words in Console.out(help(for: words.first ?? "")) },
  ]

  static func command(_ name: String) -> Command? { commands.first { $0.name == name } }
  static var lint: Command { command("lint")! }

  /// Runs the command line this process was started with: its words as `FileName` reads them,
  /// so a file name that is not UTF-8 (a glob's expansion) names its file.
  public static func run() -> Int32 { run(Array(FileName.commandLine.dropFirst())) }

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
    // The first word names the command, or it is lint's and lint runs.
    let named = arguments.first.flatMap(command)
    let command = named ?? lint
    let rest = named == nil ? arguments[...] : arguments.dropFirst()
    // Help wherever it is asked for, before anything is checked.
    // A file named `--help` (a hook passes staged names after its arguments) is not a request
    // for help: the argument reader refuses it as both an option and a file.
    // Only those words are looked for on disk: a hook's or xargs' thousands of file names are not.
    let beforeSeparator = rest.prefix { $0 != "--" }.filter {
      ($0 == "-h" || $0 == "--help" || $0 == versionOption.name) && FileSystem.kind($0) == .missing
    }
    if command.name != "help", beforeSeparator.contains("-h") || beforeSeparator.contains("--help") {
      Console.out(help(for: named == nil ? "" : command.name))
      return ExitStatus.clean.rawValue
    }
    if command.name == "lint", beforeSeparator.contains(versionOption.name) {
      Console.out(version + "\n")
      return ExitStatus.clean.rawValue
    }
    do {
      try command.run(rest)
      return ExitStatus.clean.rawValue
    } catch let error as UsageError {
      Console.err("fcmlint: error: \(TextFormatter.printable(error.message))\nUsage: \(command.usage)\n  See 'fcmlint \(command.name == "lint" ? "" : command.name + " ")--help' for more.\n")
      return ExitStatus.failure.rawValue
    } catch let status as StatusError {
      return status.status.rawValue
    } catch {
      Console.err("fcmlint: error: \(TextFormatter.printable("\(error)"))\n")
      return ExitStatus.failure.rawValue
    }
  }

  /// The help of one command, or of fcmlint as a whole (`name` empty, or not a command).
  static func help(for name: String) -> String {
    guard let command = command(name) else {
      let width = commands.map(\.name.count).max() ?? 0
      let list = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + "  " + $0.abstract + "\n" }.joined()
      return """
        fcmlint \(version): \(abstract)

        Usage: \(lint.usage)
               fcmlint <command> [<options>]

        Commands (lint is the default):
        \(list)
        Options of lint:
        \(ArgumentReader.help(lint.options + [versionOption]))
        See 'fcmlint help <command>' for a command's options. \(exitCodes)

        """
    }
    let options = command.name == "help" ? "" : "\nOptions:\n\(ArgumentReader.help(command.options))"
    return "\(command.abstract)\n\nUsage: \(command.usage)\n\(options)" + (command.name == "lint" ? "\n\(exitCodes)\n" : "")
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
  /// directory), as the lint command reads them.
  func load() throws(ConfigurationError) -> (RuleSet, Config) {
    var settings = RunSettings()
    settings.configFile = config
    settings.ruleDirectories = rules
    var discovery = ConfigDiscovery()
    let loaded = try Workspace.load(
      config ?? discovery.configFile(governing: FileSystem.currentDirectory()), settings: settings, pack: BuiltinPack.load)
    return (loaded.ruleSet, loaded.config)
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
  // A config's keys and values, and file names, are anyone's text: one line each.
  Console.err("fcmlint: error: \(TextFormatter.printable(error.description))\n")
  return StatusError(status: .failure)
}

/// `body`, with a broken config or rule file reported on standard error and exit 2.
func reportingConfigurationErrors<T>(_ body: () throws(ConfigurationError) -> T) throws -> T {
  do {
    return try body()
  } catch {
    throw reportConfigurationError(error)
  }
}

extension Workspace {
  /// The workspace of a run with the built-in pack, or exit 2 with the config's error.
  static func openOrReport(_ settings: RunSettings) throws -> Workspace {
    try reportingConfigurationErrors { () throws(ConfigurationError) in try Workspace(settings: settings, pack: BuiltinPack.load) }
  }
}
