import ArgumentParser
import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `fcmlint` command: `lint` (the default), `rules` and `explain`.
public struct FCMLintCommand: ParsableCommand {
  public static let version = "0.1.0"

  public static let configuration = CommandConfiguration(
    commandName: "fcmlint",
    abstract: "Lint Firebase Cloud Messaging HTTP v1 send requests.",
    discussion: "Exit codes: 0 no errors, 1 errors (or more warnings than --max-warnings), 2 usage, config or I/O failure.",
    version: version,
    subcommands: [Lint.self, Rules.self, Explain.self],
    defaultSubcommand: Lint.self
  )

  public init() {}

  /// Parses `arguments` (without the program name), runs the command and returns the exit code.
  /// Usage errors exit 2, like configuration and I/O failures; help and version exit 0.
  public static func run(_ arguments: [String]) -> Int32 {
    // Past a file size limit (RLIMIT_FSIZE), a write should fail with EFBIG and be reported like a
    // full disk, not kill the process.
    signal(SIGXFSZ, SIG_IGN)
    do {
      // Most runs are plain `lint` lines, read without the parser's reflection (PlainArguments.swift).
      if let settings = LintSettings(plainArguments: arguments) {
        try settings.run()
        return ExitStatus.clean.rawValue
      }
      var command: any ParsableCommand
      if let (options, paths) = separatePaths(arguments) {
        // Parse the options with one path, then hand the command all of them.
        var lint = try asLint(parseLint(options + ["--", paths[0]]))
        lint.paths = paths
        command = lint
      } else {
        command = try parseLint(arguments)
      }
      try command.run()
      return ExitStatus.clean.rawValue
    } catch let status as StatusError {
      return status.status.rawValue
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        Console.out(fullMessage(for: error) + "\n")
        return 0
      }
      Console.err(fullMessage(for: error) + "\n")
      return ExitStatus.failure.rawValue
    }
  }
}

extension FCMLintCommand {
  /// swift-argument-parser matches positional arguments in quadratic time: a pre-commit hook
  /// passing 20,000 file names would spend seconds before linting anything. For `lint` with many
  /// paths, the paths are taken out before parsing and given to the command afterwards. Returns
  /// nil when there is nothing to gain (another subcommand, or few paths).
  static func separatePaths(_ arguments: [String]) -> (options: [String], paths: [String])? {
    var options: [String] = []
    var paths: [String] = []
    var i = 0
    if let first = arguments.first, !first.hasPrefix("-") {
      guard first == "lint" || !["rules", "explain", "help"].contains(first) else { return nil }
      if first == "lint" {
        options.append(first)
        i = 1
      }
    }
    while i < arguments.count {
      let argument = arguments[i]
      if argument == "--" {
        paths += arguments[(i + 1)...]
        break
      }
      if argument.hasPrefix("-") && argument != "-" {
        options.append(argument)
        if LintSettings.optionsWithValues.contains(argument), i + 1 < arguments.count {
          options.append(arguments[i + 1])
          i += 1
        }
      } else {
        paths.append(argument)
      }
      i += 1
    }
    return paths.count >= 64 ? (options, paths) : nil
  }

  /// Parses `arguments` as the whole command line. Most runs are `lint`, the default subcommand:
  /// parsing them with `Lint` alone skips building the parsers of the root and of every other
  /// subcommand (docs/performance.md has what that saved). Anything `Lint` alone does not accept (another
  /// subcommand, help, --version, a usage error) is parsed again from the root, which gives the
  /// answer and the messages of a full parse.
  static func parseLint(_ arguments: [String]) throws -> any ParsableCommand {
    let others: Set<String> = ["lint", "rules", "explain", "help", "-h", "--help", "--version"]
    if !arguments.contains(where: { others.contains($0) || $0.hasPrefix("--generate-completion") || $0.hasPrefix("--experimental") }),
      let lint = try? Lint.parseAsRoot(arguments) as? Lint
    {
      return lint
    }
    return try parseAsRoot(arguments)
  }

  fileprivate static func asLint(_ command: any ParsableCommand) throws -> Lint {
    guard let lint = command as? Lint else { throw ValidationError("expected file paths") }
    return lint
  }
}

/// Carries a command's exit status out of `run()`.
struct StatusError: Error {
  var status: ExitStatus
}

/// The `--config` and `--rules` options every subcommand has.
struct RuleOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("Config file (default: .fcmlint.yml in the working directory or the nearest parent).", valueName: "file"))
  var config: String?

  @Option(name: .long, help: ArgumentHelp("A folder of extra rule files (*.yml); repeatable.", valueName: "dir"))
  var rules: [String] = []

  var sources: RuleSources { RuleSources(config: config, rules: rules) }

  func loadOrReport(documented: Bool = true) throws -> (RuleSet, Config) {
    try sources.loadOrReport(documented: documented)
  }
}

/// Where a run's rules and config come from: the built-in pack, the config file (given, or
/// discovered) and the user's rule folders.
struct RuleSources: Equatable {
  var config: String? = nil
  var rules: [String] = []

  /// The rules and config of this run; `documented: false` loads the built-in pack without its
  /// descriptions and examples (enough to lint).
  func load(documented: Bool = true) throws(ConfigurationError) -> (RuleSet, Config) {
    var config = Config()
    let configPath = self.config ?? Config.discover(from: FileSystem.currentDirectory())
    if let configPath {
      let bytes: [UInt8]
      switch FileSystem.read(configPath, limit: 1 << 20) {
      case .success(let b): bytes = b
      case .failure(let e): throw ConfigurationError(file: configPath, line: 1, column: 1, message: "cannot read the config: \(e.message)")
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConfigurationError(file: configPath, line: 1, column: 1, message: "the config must be UTF-8 text")
      }
      config = try Config.load(text: text, file: configPath)
    }
    var ruleSet = try BuiltinPack.load(documented: documented)
    for directory in config.ruleDirectories + rules { try ruleSet.addDirectory(directory) }
    try config.validate(against: ruleSet)
    return (ruleSet, config)
  }

  /// `load()`, with a broken rule or config file reported on standard error and exit 2.
  func loadOrReport(documented: Bool = true) throws -> (RuleSet, Config) {
    do {
      return try load(documented: documented)
    } catch {
      throw reportConfigurationError(error)
    }
  }
}

func reportConfigurationError(_ error: ConfigurationError) -> StatusError {
  Console.err("fcmlint: error: \(error)\n")
  return StatusError(status: .failure)
}
