/// A plain `lint` command line, read without swift-argument-parser.
///
/// Why: swift-argument-parser builds its parsers by reflection. On Linux each first reflection of
/// a type scans every protocol conformance record in the binary (the standard library, Foundation
/// through Yams, the parser itself), and one parse makes dozens of such scans: a large part of a
/// one-file run, which a pre-commit hook waits for (docs/performance.md has the counts).
///
/// So a command line made only of `lint`'s own long options (`--name value`, `--name=value`),
/// flags and paths is read here, straight into `LintSettings`. Anything else (another subcommand,
/// help, a short or unknown option, a repeated single-value option, a value that looks like an
/// option or is missing, a number that does not parse, a line that fails validation) returns nil
/// and goes to swift-argument-parser, which gives its usual answer and messages. ArgumentTests
/// checks that both read every line alike, and that this table names every option `Lint` declares.
extension LintSettings {
  /// How one option is read: whether it takes a value, may repeat, and where it goes (false: a
  /// value swift-argument-parser would refuse, such as a number that does not parse).
  struct PlainOption: Sendable {
    enum Kind: Sendable { case flag, value, repeatable }
    let kind: Kind
    let apply: @Sendable (inout LintSettings, String) -> Bool
  }

  static let plainOptions: [String: PlainOption] = [
    "--format": .init(kind: .repeatable) { $0.format.append($1); return true },
    "--output": .init(kind: .repeatable) { $0.output.append($1); return true },
    "--config": .init(kind: .value) { $0.ruleSources.config = $1; return true },
    "--rules": .init(kind: .repeatable) { $0.ruleSources.rules.append($1); return true },
    "--max-warnings": .init(kind: .value) { $0.maxWarnings = Int($1); return $0.maxWarnings != nil },
    "--quiet": .init(kind: .flag) { s, _ in s.quiet = true; return true },
    "--stdin-filename": .init(kind: .value) { $0.stdinFilename = $1; return true },
    "--jobs": .init(kind: .value) { $0.jobs = Int($1); return $0.jobs != nil },
    "--fix": .init(kind: .flag) { s, _ in s.fix = true; return true },
    "--fix-dry-run": .init(kind: .flag) { s, _ in s.fixDryRun = true; return true },
    "--ndjson": .init(kind: .flag) { s, _ in s.ndjson = true; return true },
    "--input": .init(kind: .value) { $0.input = $1; return true },
    "--max-depth": .init(kind: .value) { $0.maxDepth = Int($1); return $0.maxDepth != nil },
    "--max-file-size": .init(kind: .value) { $0.maxFileSize = $1; return true },
    "--max-string-length": .init(kind: .value) { $0.maxStringLength = $1; return true },
  ]

  /// The options that take a value (for `FCMLintCommand.separatePaths`).
  static let optionsWithValues: Set<String> = Set(plainOptions.filter { $0.value.kind != .flag }.keys)

  /// The words swift-argument-parser may take for a subcommand (or help) wherever they stand.
  private static let commandWords: Set<String> = ["lint", "rules", "explain", "help"]

  /// Reads `arguments` (without the program name) when every one is plain, and the settings
  /// pass `validate()`; nil otherwise.
  init?(plainArguments arguments: [String]) {
    self.init()
    var seen: Set<String> = []
    var i = arguments.first == "lint" ? 1 : 0
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      if argument == "--" {
        let rest = arguments[i...]
        guard !rest.contains(where: Self.commandWords.contains) else { return nil }
        paths += rest
        break
      }
      guard !Self.commandWords.contains(argument) else { return nil }
      guard argument.hasPrefix("-") && argument != "-" else {
        paths.append(argument)
        continue
      }
      var name = argument
      var inlineValue: String? = nil
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = Self.plainOptions[name] else { return nil }
      guard option.kind == .repeatable || seen.insert(name).inserted else { return nil }
      let value: String
      if option.kind == .flag {
        guard inlineValue == nil else { return nil }
        value = ""
      } else if let inlineValue {
        // swift-argument-parser reads "--name=" as a missing value.
        guard !inlineValue.isEmpty else { return nil }
        value = inlineValue
      } else {
        guard i < arguments.count else { return nil }
        value = arguments[i]
        i += 1
        // swift-argument-parser reads "--x" or "-x" after an option as another option.
        guard !(value.hasPrefix("-") && value != "-"), !Self.commandWords.contains(value) else { return nil }
      }
      guard option.apply(&self, value) else { return nil }
    }
    guard (try? validate()) != nil else { return nil }
  }
}
