import FCMLintSystem
import FCMLintWorkspace

/// `fcmlint completion bash|zsh|fish`: a completion script written from the command table
/// (`FCMLintCommand.commands`) and each command's option table, so it offers every command,
/// every option of the command on the line, the formats that command takes, rule ids where a
/// rule id goes and paths elsewhere, and never goes stale.
struct CompletionSettings {
  static let usage = "fcmlint completion <bash|zsh|fish>"
  static let abstract = "Print a shell completion script for bash, zsh or fish."
  static let options: [CLIOption<CompletionSettings>] = []
  static let shells = ["bash", "zsh", "fish"]

  var shell = ""

  init(arguments: ArraySlice<String>) throws(UsageError) {
    var words: [String] = []
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { _, word in words.append(word) }
    guard words.count == 1, Self.shells.contains(words[0]) else {
      throw UsageError("give a shell: \(wordList(Self.shells))")
    }
    shell = words[0]
  }

  func run() throws {
    switch shell {
    case "bash": Console.out(Self.bash())
    case "zsh": Console.out(Self.zsh())
    default: Console.out(Self.fish())
    }
  }

  static let help = OptionSummary(name: "--help", valueName: nil, repeatable: false, help: "Show this help.", values: .none)

  /// The options completion offers for `command`: its table's, `--version` for lint, and `--help`.
  static func options(of command: Command) -> [OptionSummary] {
    command.options + (command.name == "lint" ? [FCMLintCommand.versionOption] : []) + (command.name == "help" ? [] : [help])
  }

  /// The options that choose the rules a run loads: completing a rule id passes them on to
  /// `fcmlint rules`, so that the ids of the line's own rule folders are offered too.
  static var ruleSourceOptions: [String] { RuleSources.options.map(\.name) }

  static var commandNames: [String] { FCMLintCommand.commands.map(\.name) }

  // MARK: - bash

  static func bash() -> String {
    let commands = FCMLintCommand.commands
    // The value of each option, by command and option name.
    var valueCases = ""
    var byAction: [(action: String, patterns: [String])] = []
    for command in commands {
      for option in command.options where option.values != .none {
        let action = bashAction(option.values)
        let pattern = "\"\(command.name) \(option.name)\""
        if let index = byAction.firstIndex(where: { $0.action == action }) {
          byAction[index].patterns.append(pattern)
        } else {
          byAction.append((action, [pattern]))
        }
      }
    }
    for (action, patterns) in byAction {
      valueCases += "      \(patterns.joined(separator: "|"))) \(action); return ;;\n"
    }
    var optionCases = ""
    for command in commands where !options(of: command).isEmpty {
      optionCases += "        \(command.name)) _fcmlint_add \(options(of: command).map(\.name).joined(separator: " ")) ;;\n"
    }
    var operandCases = ""
    for command in commands where command.operands != .none {
      // A command that takes one word (a rule id, a shell) offers no second.
      let once = takesOneOperand(command) ? "(( operands )) || " : ""
      operandCases += "    \(command.name)) \(once)\(bashAction(command.operands)) ;;\n"
    }
    let valued = commands.flatMap { command in command.options.filter { $0.valueName != nil }.map { "\"\(command.name) \($0.name)\"" } }
    return """
      # fcmlint completion for bash, written by 'fcmlint completion bash' from fcmlint's own
      # command and option tables. Load it with:
      #   source <(fcmlint completion bash)

      # Adds to COMPREPLY each of the words that starts with $cur.
      _fcmlint_add() {
        local word
        for word in "$@"; do [[ "$word" == "$cur"* ]] && COMPREPLY+=("$word"); done
      }

      # Adds the names of files and folders (-f) or of folders (-d) that start with $cur, one
      # reply each: a name with blanks or glob characters stays one word, quoted by bash.
      _fcmlint_paths() {
        local line word="${cur//\\\\/}"
        word="${word#[\\"\\']}"
        compopt -o filenames 2>/dev/null
        while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen "$1" -- "$word")
      }

      # Adds the rule ids that start with $cur, as 'fcmlint rules' lists them with the line's
      # \(ruleSourceOptions.joined(separator: " and ")) (so a rule folder's own rules too).
      _fcmlint_rule_ids() {
        local -a sources=()
        local i id rest
        for ((i = 1; i < COMP_CWORD - 1; i++)); do
          case "${COMP_WORDS[i]}" in
            \(ruleSourceOptions.joined(separator: "|")))
              [[ "${COMP_WORDS[i+1]}" == "=" ]] && sources+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+2]}") || sources+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}") ;;
          esac
        done
        while read -r id rest; do
          [[ -n "$id" && "$id" == "$cur"* ]] && COMPREPLY+=("$id")
        done < <("${COMP_WORDS[0]}" rules "${sources[@]}" 2>/dev/null)
      }

      _fcmlint() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command=lint first=1 options=1 i
        COMPREPLY=()
        (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
        # bash splits --name=value at '=' into three words.
        if [[ "$cur" == "=" ]]; then
          cur=""
        elif [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then
          prev="${COMP_WORDS[COMP_CWORD-2]}"
        fi
        # The first word names the command, or lint runs and it is one of lint's.
        case "${COMP_WORDS[1]}" in
          \(commandNames.joined(separator: "|"))) (( COMP_CWORD > 1 )) && command="${COMP_WORDS[1]}" && first=2 ;;
        esac
        # The operands already on the line (not the options' values); after '--' every word is one.
        local operands=0
        for ((i = first; i < COMP_CWORD; i++)); do
          case "${COMP_WORDS[i]}" in
            --) options=0; (( operands += COMP_CWORD - i - 1 )); break ;;
            -) (( operands++ )) ;;
            -*)
              case "$command ${COMP_WORDS[i]}" in
                \(valued.joined(separator: "|"))) [[ "${COMP_WORDS[i+1]}" == "=" ]] && (( i++ )); (( i++ )) ;;
              esac ;;
            *) (( operands++ )) ;;
          esac
        done
        if (( options )); then
          case "$command $prev" in
      \(valueCases)    esac
          if [[ "$cur" == -* ]]; then
            case "$command" in
      \(optionCases)      esac
            return
          fi
        fi
        if (( COMP_CWORD == 1 )); then
          _fcmlint_add \(commandNames.joined(separator: " "))
          _fcmlint_paths -f
          return
        fi
        case "$command" in
      \(operandCases)  esac
      }
      complete -F _fcmlint fcmlint

      """
  }

  /// Whether the command takes one word besides its options (paths and folders are many).
  static func takesOneOperand(_ command: Command) -> Bool {
    switch command.operands {
    case .none, .file, .folder: return false
    default: return true
    }
  }

  static func bashAction(_ kind: WordKind) -> String {
    switch kind {
    case .none, .text: return ":"
    case .file: return "_fcmlint_paths -f"
    case .folder: return "_fcmlint_paths -d"
    case .ruleID: return "_fcmlint_rule_ids"
    case .choice(let words): return "_fcmlint_add " + words.joined(separator: " ")
    case .command: return "_fcmlint_add " + commandNames.joined(separator: " ")
    }
  }

  // MARK: - zsh

  static func zsh() -> String {
    var cases = ""
    for command in FCMLintCommand.commands {
      var specs = options(of: command).map(zshSpec)
      switch command.operands {
      case .none: break
      case .file: specs.append("'*:path:_files'")
      default: specs.append("'1:\(zshMessage(command.operands)):\(zshAction(command.operands))'")
      }
      cases += "    (\(command.name))\n      _arguments -S : \\\n        " + specs.joined(separator: " \\\n        ") + " ;;\n"
    }
    let described = FCMLintCommand.commands.map { quote($0.name + ":" + $0.abstract) }.joined(separator: "\n    ")
    return """
      #compdef fcmlint
      # fcmlint completion for zsh, written by 'fcmlint completion zsh' from fcmlint's own command
      # and option tables. Load it with (after compinit):
      #   source <(fcmlint completion zsh)
      # or save it as _fcmlint in a folder of $fpath.

      # The rule ids, with their summaries, as 'fcmlint rules' lists them with the line's
      # \(ruleSourceOptions.joined(separator: " and ")) (so a rule folder's own rules too).
      _fcmlint_rule_ids() {
        local -a sources described
        local i line
        for (( i = 2; i < CURRENT; i++ )); do
          case $words[i] in
            (\(ruleSourceOptions.joined(separator: "|"))) sources+=($words[i] $words[i+1]) ;;
          esac
        done
        for line in ${(f)"$($_fcmlint_program rules $sources 2>/dev/null)"}; do
          [[ $line =~ '^([^ ]+) +[^ ]+ +(fixable +)?(.*)$' ]] && described+=("${match[1]}:${match[3]}")
        done
        _describe -t rules 'rule id' described
      }

      _fcmlint() {
        local _fcmlint_program=$words[1]
        local -a commands=(
          \(described)
        )
        # The first word names the command, or lint runs and it is one of lint's.
        if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
          _describe -t commands 'fcmlint command' commands
          _files
          return
        fi
        local command=lint
        case $words[2] in
          (\(commandNames.joined(separator: "|")))
            command=$words[2]
            shift words
            (( CURRENT-- )) ;;
        esac
        case $command in
      \(cases)  esac
      }

      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        _fcmlint "$@"
      else
        compdef _fcmlint fcmlint
      fi

      """
  }

  /// An option as `_arguments` reads it: `'*--format=[help]:format:(text json)'`.
  static func zshSpec(_ option: OptionSummary) -> String {
    let help = "[" + zshEscape(option.help) + "]"
    if option.name == "--help" || option.name == FCMLintCommand.versionOption.name {
      let names = option.name == "--help" ? ["-h", "--help"] : [option.name]
      return names.map { quote("(- *)" + $0 + help) }.joined(separator: " ")
    }
    guard option.valueName != nil else { return quote(option.name + help) }
    let message = option.valueName.map { String($0.dropFirst().dropLast()) } ?? zshMessage(option.values)
    let spec = (option.repeatable ? "*" : "") + option.name + "=" + help + ":" + message + ":" + zshAction(option.values)
    return quote(spec)
  }

  static func zshMessage(_ kind: WordKind) -> String {
    switch kind {
    case .none, .text: return "value"
    case .file: return "file"
    case .folder: return "folder"
    case .ruleID: return "rule id"
    case .choice: return "word"
    case .command: return "command"
    }
  }

  static func zshAction(_ kind: WordKind) -> String {
    switch kind {
    case .none, .text: return " "
    case .file: return "_files"
    case .folder: return "_path_files -/"
    case .ruleID: return "_fcmlint_rule_ids"
    case .choice(let words): return "(" + words.joined(separator: " ") + ")"
    case .command: return "(" + commandNames.joined(separator: " ") + ")"
    }
  }

  /// Help text inside `_arguments`' brackets, where `[`, `]`, `:` and `\` are special.
  static func zshEscape(_ text: String) -> String {
    var out = ""
    for character in text {
      if "[]:\\".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }

  // MARK: - fish

  static func fish() -> String {
    let names = commandNames.joined(separator: " ")
    var fishValued = ""
    for command in FCMLintCommand.commands {
      let valued = command.options.filter { $0.valueName != nil }.map(\.name)
      if !valued.isEmpty { fishValued += "        case \(command.name)\n            set valued \(valued.joined(separator: " "))\n" }
    }
    var out = """
      # fcmlint completion for fish, written by 'fcmlint completion fish' from fcmlint's own command
      # and option tables. Load it with:
      #   fcmlint completion fish | source
      # or save it as ~/.config/fish/completions/fcmlint.fish.

      # The command the line runs: its first word when that names one, otherwise lint.
      function __fcmlint_command
          set -l words (commandline -opc)
          if set -q words[2]; and contains -- $words[2] \(names)
              echo $words[2]
          else
              echo lint
          end
      end

      function __fcmlint_is
          test (__fcmlint_command) = $argv[1]
      end

      # Whether the cursor is on the first word: a command, or a path or option of lint.
      function __fcmlint_first
          test (count (commandline -opc)) -eq 1
      end

      # How many operands the line has after its command (the options' values are not).
      function __fcmlint_operands
          set -l words (commandline -opc)
          set -e words[1]
          set -l command (__fcmlint_command)
          test $command = lint; and test "$words[1]" != lint; or set -e words[1]
          set -l valued
          switch $command
      \(fishValued)    end
          set -l count 0
          set -l skip 0
          set -l rest 0
          for word in $words
              if test $skip = 1
                  set skip 0
              else if test $rest = 0; and test "$word" = --
                  set rest 1
              else if test $rest = 0; and contains -- $word $valued
                  set skip 1
              else if test $rest = 1; or not string match -q -- '-?*' $word
                  set count (math $count + 1)
              end
          end
          echo $count
      end

      # The rule ids, with their summaries, as 'fcmlint rules' lists them with the line's
      # \(ruleSourceOptions.joined(separator: " and ")) (so a rule folder's own rules too).
      function __fcmlint_rule_ids
          set -l words (commandline -opc)
          set -l sources
          for i in (seq 2 (math (count $words) - 1))
              if contains -- $words[$i] \(ruleSourceOptions.joined(separator: " "))
                  set -a sources $words[$i] $words[(math $i + 1)]
              end
          end
          command -q $words[1]; or return
          command $words[1] rules $sources 2>/dev/null | string replace -r '^(\\S+)\\s+\\S+\\s+(?:fixable\\s+)?' '$1'\\t
      end

      complete -c fcmlint -e

      """
    for command in FCMLintCommand.commands {
      out += "complete -c fcmlint -n __fcmlint_first -a \(command.name) -d \(quote(command.abstract))\n"
    }
    for command in FCMLintCommand.commands {
      let condition = "-n " + quote("__fcmlint_is \(command.name)")
      for option in options(of: command) {
        var line = "complete -c fcmlint \(condition)"
        if option.name == "--help" { line += " -s h" }
        line += " -l \(option.name.dropFirst(2))"
        switch option.values {
        case .none: break
        case .text: line += " -x"
        case .file: line += " -r -F"
        default: line += " -x -a " + quote(fishArguments(option.values))
        }
        out += line + " -d \(quote(option.help))\n"
      }
      switch command.operands {
      case .file: break
      case .none: out += "complete -c fcmlint \(condition) -f\n"
      default:
        out += "complete -c fcmlint \(condition) -f\n"
        let once = takesOneOperand(command) ? "; and test (__fcmlint_operands) = 0" : ""
        out += "complete -c fcmlint -n \(quote("__fcmlint_is \(command.name)" + once)) -f -a \(quote(fishArguments(command.operands)))\n"
      }
    }
    return out
  }

  static func fishArguments(_ kind: WordKind) -> String {
    switch kind {
    case .none, .text, .file: return ""
    case .folder: return "(__fish_complete_directories (commandline -ct))"
    case .ruleID: return "(__fcmlint_rule_ids)"
    case .choice(let words): return words.joined(separator: " ")
    case .command: return commandNames.joined(separator: " ")
    }
  }

  /// A single-quoted word for bash, zsh and fish alike (`'` written as `'\''`; fish reads `\'`
  /// inside single quotes, and `'\''` ends, escapes and reopens the same way).
  static func quote(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }
}
