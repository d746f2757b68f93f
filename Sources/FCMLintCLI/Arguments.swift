import FCMLintEngine
import FCMLintWorkspace

/// The command line, read from tables of options: each option is declared once, as a `CLIOption`
/// (its name, its value, its help, and where its value goes), and the same table reads the
/// arguments, writes the help, completes it in the shell and names it in messages. A new option is
/// one entry in its command's table (`LintSettings.options`, `RulesSettings.options`,
/// `RuleSources.options`); a new command is one entry in `FCMLintCommand.commands`.
///
/// Why not swift-argument-parser: it imports FoundationEssentials, which would put Foundation back
/// into a binary whose own code uses none of it, and it builds its parsers by reflection at every
/// start (docs/performance.md). The conventions are the usual ones: `--name value` or
/// `--name=value`, flags take no value, repeatable options collect every value and others keep
/// the last, `--` ends the options, and `-` is a path (standard input).
struct CLIOption<Settings>: Sendable {
  /// `--name`.
  let name: String
  /// The placeholder of the value in the help (`<file>`); nil for a flag.
  let valueName: String?
  let repeatable: Bool
  let help: String
  /// What the value is, for shell completion.
  let values: WordKind
  /// Stores the value (`""` for a flag), or explains why it is not one.
  let apply: @Sendable (inout Settings, String) throws(UsageError) -> Void

  static func flag(_ name: String, _ help: String, _ apply: @escaping @Sendable (inout Settings) -> Void) -> CLIOption {
    CLIOption(name: name, valueName: nil, repeatable: false, help: help, values: .none) { settings, _ in apply(&settings) }
  }

  /// An option with a value. Without `values`, the placeholder says what it is: `<file>` and
  /// `<name>` a file name, `<dir>` a folder, `<id>` a rule id, anything else free text.
  static func value(
    _ name: String, _ valueName: String, repeatable: Bool = false, values: WordKind? = nil, _ help: String,
    _ apply: @escaping @Sendable (inout Settings, String) throws(UsageError) -> Void
  ) -> CLIOption {
    let implied: WordKind
    switch valueName {
    case "<file>", "<name>": implied = .file
    case "<dir>": implied = .folder
    case "<id>": implied = .ruleID
    default: implied = .text
    }
    return CLIOption(name: name, valueName: valueName, repeatable: repeatable, help: help, values: values ?? implied, apply: apply)
  }

  /// The same option for other settings that hold these (`--config` in every command).
  func lifted<Outer>(_ path: WritableKeyPath<Outer, Settings> & Sendable) -> CLIOption<Outer> {
    let apply = self.apply
    return CLIOption<Outer>(name: name, valueName: valueName, repeatable: repeatable, help: help, values: values) { outer, value throws(UsageError) in
      try apply(&outer[keyPath: path], value)
    }
  }

  /// The option without its settings: what help and completion read.
  var summary: OptionSummary { OptionSummary(name: name, valueName: valueName, repeatable: repeatable, help: help, values: values) }
}

/// An option as help and completion see it (a `CLIOption` without the settings it fills).
struct OptionSummary: Sendable, Equatable {
  let name: String
  let valueName: String?
  let repeatable: Bool
  let help: String
  let values: WordKind
}

/// What a word on the command line is (an option's value, or what a command takes besides its
/// options), so that completion can offer the right ones.
enum WordKind: Sendable, Equatable {
  /// No word: a flag, or a command that takes nothing but options.
  case none
  /// A path: files and folders.
  case file
  case folder
  /// The id of a rule (`fcmlint rules` lists them).
  case ruleID
  /// One of these words.
  case choice([String])
  /// The name of a command.
  case command
  /// Free text, such as a number or a size: nothing to offer.
  case text
}

/// A command line that cannot be run: exit 2, with the message and the command's usage.
struct UsageError: Error, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}

/// A whole number for an option (`--jobs 2`); negative numbers are read, and refused by the
/// command's own checks with a message that says what is allowed.
func integer(_ text: String, for option: String) throws(UsageError) -> Int {
  guard let value = Int(text) else { throw UsageError("\(option) takes a whole number, not '\(text)'") }
  return value
}

enum ArgumentReader {
  /// Reads `arguments` into `settings`: options from `options`, everything else (and all after
  /// `--`) to `positional`. `-h` and `--help` are answered by the caller before this.
  static func read<Settings>(
    _ arguments: ArraySlice<String>, options: [CLIOption<Settings>], into settings: inout Settings,
    positional: (inout Settings, String) throws(UsageError) -> Void
  ) throws(UsageError) {
    var seen: Set<String> = []
    var i = arguments.startIndex
    while i < arguments.endIndex {
      let argument = arguments[i]
      i += 1
      if argument == "--" {
        for path in arguments[i...] { try positional(&settings, path) }
        return
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        try positional(&settings, argument)
        continue
      }
      // A file named like an option (a hook passes staged names after its own arguments) must
      // not act as one: the word is refused, as git refuses one that is both a revision and a path.
      if FileSystem.kind(argument) != .missing {
        throw UsageError("'\(argument)' is both an option and a file here; a path that starts with '-' goes after '--'")
      }
      var name = argument
      var inlineValue: String? = nil
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      // Found by a scan of the table, not through a dictionary of it: a run names a few options,
      // and the dictionary, made for every run, hashed every option's name.
      guard let option = options.first(where: { $0.name == name }) else {
        let suggestion = closest(to: name, in: options.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
        let hint = name.hasPrefix("--") ? "" : " (a path that starts with '-' goes after '--')"
        throw UsageError("unknown option '\(name)'\(suggestion)\(hint)")
      }
      let value: String
      if let valueName = option.valueName {
        if let inlineValue {
          guard !inlineValue.isEmpty else { throw UsageError("\(name) needs a value: \(name) \(valueName)") }
          value = inlineValue
        } else {
          // A following word that is another option is not this one's value; a negative
          // number is (and is then refused with what the option allows).
          guard i < arguments.endIndex, !isOption(arguments[i]) else { throw UsageError("\(name) needs a value: \(name) \(valueName)") }
          value = arguments[i]
          i += 1
        }
      } else {
        guard inlineValue == nil else { throw UsageError("\(name) is a flag and takes no value") }
        guard seen.insert(name).inserted else { throw UsageError("\(name) is given twice") }
        value = ""
      }
      try option.apply(&settings, value)
    }
  }

  private static func isOption(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word != "-" else { return false }
    let second = word.dropFirst().first
    return !(second.map { $0.isNumber } ?? false)
  }

  /// The options part of a command's help, one option a line, help texts aligned.
  static func help(_ options: [OptionSummary]) -> String {
    let entries = options.map { option in
      (option.name + (option.valueName.map { " \($0)" } ?? ""), option.help + (option.repeatable ? " (repeatable)" : ""))
    } + [("-h, --help", "Show this help.")]
    let width = entries.map(\.0.count).max() ?? 0
    return entries.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 + "\n" }.joined()
  }
}

/// "a, b or c": choices as a help text lists them.
func wordList(_ words: [String]) -> String {
  guard let last = words.last, words.count > 1 else { return words.first ?? "" }
  return words.dropLast().joined(separator: ", ") + " or " + last
}
