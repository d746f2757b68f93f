import FCMLintSystem
import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintFixes
import FCMLintFormatters
import FCMLintWorkspace

/// `fcmlint test DIR...`: runs every example of the rules in the folders, as the test suite
/// does for the built-in pack, and reports each example that does not behave as written.
struct TestRulesSettings {
  static let usage = "fcmlint test <rule-folder> ..."
  static let abstract = "Run the valid and invalid examples of your rules (exit 1 when one fails)."
  static let options: [CLIOption<TestRulesSettings>] = []

  var folders: [String] = []

  init(arguments: ArraySlice<String>) throws(UsageError) {
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { settings, word in settings.folders.append(word) }
    if folders.isEmpty { throw UsageError("give the folder of your rules (the one you pass to --rules)") }
  }

  func run() throws {
    var failures: [ExampleCheck.Failure] = []
    var rules = 0, examples = 0
    for folder in folders {
      // The built-in pack first: the user's rules may use its aliases and schemas.
      let loaded: (RuleSet, [Rule])
      do {
        var set = try BuiltinPack.load()
        let builtin = Set(set.ids)
        try set.addDirectory(folder)
        loaded = (set, set.rules.filter { !builtin.contains($0.id) })
      } catch {
        throw reportConfigurationError(error)
      }
      let (set, own) = loaded
      for rule in own.sorted(by: { $0.source < $1.source }) {
        rules += 1
        examples += ExampleCheck.count(rule)
        if rule.examples.valid.isEmpty || rule.examples.invalid.isEmpty {
          let kind = rule.examples.valid.isEmpty ? "valid" : "invalid"
          failures.append(ExampleCheck.Failure(file: rule.source, line: 1, column: 1, message: "\(rule.id) has no \(kind) example: give it one under examples.\(kind)"))
        }
        failures += ExampleCheck.check(rule, resources: set.resources)
      }
    }
    for failure in failures { Console.out("\(TextFormatter.printable(failure.file)):\(failure.line):\(failure.column): error: \(TextFormatter.printable(failure.message))\n") }
    let summary = "\(rules) \(rules == 1 ? "rule" : "rules"), \(examples) \(examples == 1 ? "example" : "examples")"
    Console.out(failures.isEmpty ? "\(summary): all pass\n" : "\(summary): \(failures.count) failed\n")
    if !failures.isEmpty { throw StatusError(status: .problems) }
  }
}

/// `fcmlint init`: a commented starter `.fcmlint.yml` in the working directory.
struct InitSettings {
  static let usage = "fcmlint init"
  static let abstract = "Write a commented starter .fcmlint.yml in the working directory (never over an existing one)."
  static let options: [CLIOption<InitSettings>] = []

  init(arguments: ArraySlice<String>) throws(UsageError) {
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { _, word throws(UsageError) in
      throw UsageError("'init' takes no arguments, not '\(word)'")
    }
  }

  static let starter = """
    # fcmlint settings for this folder and those below it (the nearest .fcmlint.yml wins).
    # Every key is optional; see the README's "Config" section.

    # rules:                          # severities: error, warning, info or off
    #   image-consistency: warning

    # ignore:                         # gitignore-style patterns, relative to this file
    #   - "fixtures/**"

    # fragment: true                  # the files are fragments: the sender adds the target

    # docs: true                      # also lint the message samples in Markdown, HTML and .txt pages

    # overrides:                      # settings for some files; later entries win
    #   - files: ["templates/**"]
    #     rules: {data-string-values: warning}

    # suppress:                       # accept one finding on purpose (JSON has no comments)
    #   - files: ["legacy/old.json"]
    #     rule: image-extension
    #     pointer: /message/apns/fcm_options/image
    #     reason: our CDN sends Content-Type image/png

    # extends: ../shared/fcmlint.yml  # inherit another config; this file's settings win

    """

  func run() throws {
    let path = Config.fileName
    if FileSystem.kind(path) != .missing {
      Console.err("fcmlint: error: \(path) already exists here; not overwritten\n")
      throw StatusError(status: .failure)
    }
    if case .failure(let error) = FileSystem.write(Self.starter, to: path) {
      Console.err("fcmlint: error: \(path): \(error.message)\n")
      throw StatusError(status: .failure)
    }
    Console.out("wrote \(path)\n")
  }
}
