import FCMLintWorkspace
import FCMLintEngine
import FCMLintFormatters

/// `fcmlint completion bash|fish`: a completion script written from the option tables, so it
/// knows every option of every command and never goes stale. zsh loads the bash one through
/// `bashcompinit`.
struct CompletionSettings {
  static let usage = "fcmlint completion <bash|fish>"
  static let abstract = "Print a shell completion script (zsh: load the bash one with bashcompinit)."
  static let options: [CLIOption<CompletionSettings>] = []
  static let shells = ["bash", "fish"]

  var shell = ""

  init(arguments: ArraySlice<String>) throws(UsageError) {
    var words: [String] = []
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { _, word in words.append(word) }
    guard words.count == 1, Self.shells.contains(words[0]) else {
      throw UsageError("give a shell: \(Self.shells.joined(separator: " or ")) (zsh: autoload -U bashcompinit && bashcompinit, then the bash script)")
    }
    shell = words[0]
  }

  /// Each command's options, and the values an option takes when there is a fixed set.
  static var commandOptions: [(command: String, options: [String])] {
    [
      ("lint", LintSettings.options.map(\.name) + ["--version"]),
      ("rules", RulesSettings.options.map(\.name)),
      ("explain", ExplainSettings.options.map(\.name)),
      ("test", TestRulesSettings.options.map(\.name)),
      ("init", InitSettings.options.map(\.name)),
      ("completion", CompletionSettings.options.map(\.name)),
    ].map { ($0.0, $0.1 + ["--help"]) }
  }

  static let values: [String: [String]] = [
    "--format": OutputFormat.allCases.map(\.rawValue) + ["markdown"],
    "--input": InputKind.allCases.map(\.rawValue),
  ]
  static let folderOptions: Set<String> = ["--rules"]

  /// Whether an option's value is a file name (`<file>`, `<name>`), not a number or a size.
  static func fileOptions(_ name: String) -> Bool {
    guard let option = LintSettings.options.first(where: { $0.name == name }) else { return false }
    return option.valueName == "<file>" || option.valueName == "<name>"
  }

  func run() throws {
    Console.out(shell == "bash" ? Self.bash() : Self.fish())
  }

  static func bash() -> String {
    let commands = FCMLintCommand.commands.map(\.name) + ["help"]
    var perCommand = ""
    for (command, options) in commandOptions {
      perCommand += "    \(command)) options=\"\(options.joined(separator: " "))\" ;;\n"
    }
    var valueCases = ""
    for (option, list) in values.sorted(by: { $0.key < $1.key }) {
      valueCases += "    \(option)) COMPREPLY=($(compgen -W \"\(list.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
    }
    let valued = Set(LintSettings.options.filter { $0.valueName != nil }.map(\.name)).subtracting(values.keys).subtracting(folderOptions)
    let files = valued.filter { name in fileOptions(name) }, others = valued.subtracting(files)
    return """
      # fcmlint completion for bash (and zsh through bashcompinit). Load it with:
      #   source <(fcmlint completion bash)
      _fcmlint() {
        local cur prev command options
        cur="${COMP_WORDS[COMP_CWORD]}"
        prev="${COMP_WORDS[COMP_CWORD-1]}"
        case "$prev" in
      \(valueCases)    \(folderOptions.sorted().joined(separator: "|"))) COMPREPLY=($(compgen -d -- "$cur")); return ;;
          \(files.sorted().joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
          \(others.sorted().joined(separator: "|"))) COMPREPLY=(); return ;;
        esac
        command="lint"
        case "${COMP_WORDS[1]}" in
          \(commands.joined(separator: "|"))) command="${COMP_WORDS[1]}" ;;
        esac
        case "$command" in
      \(perCommand)    *) options="" ;;
        esac
        if [[ "$cur" == -* ]]; then
          COMPREPLY=($(compgen -W "$options" -- "$cur"))
        elif [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(commands.joined(separator: " "))" -- "$cur") $(compgen -f -- "$cur"))
        else
          COMPREPLY=($(compgen -f -- "$cur"))
        fi
      }
      complete -o filenames -F _fcmlint fcmlint

      """
  }

  static func fish() -> String {
    var out = "# fcmlint completion for fish. Load it with: fcmlint completion fish | source\n"
    let commands = FCMLintCommand.commands
    for command in commands where command.name != "lint" {
      out += "complete -c fcmlint -n __fish_use_subcommand -a \(command.name) -d \(quote(command.abstract))\n"
    }
    for option in LintSettings.options {
      let name = String(option.name.dropFirst(2))
      var line = "complete -c fcmlint -l \(name)"
      if let list = values[option.name] {
        line += " -x -a \(quote(list.joined(separator: " ")))"
      } else if folderOptions.contains(option.name) {
        line += " -x -a '(__fish_complete_directories)'"
      } else if fileOptions(option.name) {
        line += " -r -F"
      } else if option.valueName != nil {
        line += " -x"
      }
      out += line + " -d \(quote(option.help))\n"
    }
    return out
  }

  private static func quote(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }
}
