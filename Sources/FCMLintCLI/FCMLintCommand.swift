import ArgumentParser
import FCMLintEngine

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
    do {
      var command = try parseAsRoot(arguments)
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

/// Carries a command's exit status out of `run()`.
struct StatusError: Error {
  var status: ExitStatus
}

/// Loads the built-in pack, the config and the user's rule folders: what every subcommand needs.
struct RuleOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("Config file (default: .fcmlint.yml in the working directory or the nearest parent).", valueName: "file"))
  var config: String?

  @Option(name: .long, help: ArgumentHelp("A folder of extra rule files (*.yml); repeatable.", valueName: "dir"))
  var rules: [String] = []

  func load() throws(ConfigurationError) -> (RuleSet, Config) {
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
    var ruleSet = try BuiltinPack.load()
    for directory in config.ruleDirectories + rules { try ruleSet.addDirectory(directory) }
    try config.validate(against: ruleSet)
    return (ruleSet, config)
  }
}

func reportConfigurationError(_ error: ConfigurationError) -> StatusError {
  Console.err("fcmlint: error: \(error)\n")
  return StatusError(status: .failure)
}
