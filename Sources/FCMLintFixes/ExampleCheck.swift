import FCMLintEngine

/// A rule's examples are its tests: each valid one must not trigger it, each invalid one must
/// trigger it at exactly the pointers it lists, and, where it shows `fixed:`, `--fix` with the rule
/// alone must give that text and change nothing more when run again. Used by `fcmlint test` on
/// a user's rules and by the test suite on the built-in pack.
public enum ExampleCheck {
  /// An example that does not behave as written, at its place in the rule file (the position
  /// type rule and config files already use).
  public typealias Failure = ConfigurationError

  /// How many examples `rule` has.
  public static func count(_ rule: Rule) -> Int { rule.examples.valid.count + rule.examples.invalid.count }

  /// The examples of `rule` that do not behave as written; empty when all pass.
  public static func check(_ rule: Rule, resources: RuleResources) -> [Failure] {
    var only = RuleSet(resources: resources)
    do {
      try only.add(rule)
    } catch {
      return [error]
    }
    var failures: [Failure] = []
    func fail(_ example: Rule.Example, _ message: String) {
      failures.append(Failure(file: rule.source, line: example.line, column: example.column, message: message))
    }
    func linter(_ example: Rule.Example) -> Linter {
      var options = Linter.Options()
      options.input = example.input
      options.fragment = example.fragment
      return Linter(rules: only, options: options)
    }
    func quoted(_ diagnostics: [Diagnostic]) -> String {
      diagnostics.map { "\($0.pointer.isEmpty ? "\"\"" : $0.pointer) (\($0.message))" }.joined(separator: "; ")
    }
    // A page or a config is read by the command line: those examples are run through it by the
    // test suite (the rules fcmlint reports itself have them).
    for example in rule.examples.valid where !example.needsCommandLine {
      let found = linter(example).lint(bytes: Array(example.json.utf8), file: "example.json")
      if !found.isEmpty { fail(example, "valid example triggers \(rule.id) at \(quoted(found))") }
    }
    for example in rule.examples.invalid where !example.needsCommandLine {
      let linter = linter(example)
      let found = linter.lint(bytes: Array(example.json.utf8), file: "example.json")
      let pointers = found.map(\.pointer)
      if pointers != example.pointers {
        let expected = example.pointers.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: ", ")
        fail(example, found.isEmpty
          ? "invalid example does not trigger \(rule.id) (expected at \(expected))"
          : "invalid example triggers \(rule.id) at \(quoted(found)), expected at \(expected)")
      }
      guard let expected = example.fixed else { continue }
      let fixer = Fixer(linter: linter)
      let output = fixer.fix(bytes: Array(example.json.utf8), file: "example.json").bytes
      let text = String(decoding: output, as: UTF8.self)
      if text != expected {
        fail(example, "--fix gives \(text), not the example's fixed: \(expected)")
      } else if fixer.fix(bytes: output, file: "example.json").bytes != output {
        fail(example, "--fix changes the fixed text again: a fix must resolve what it is attached to")
      }
    }
    return failures
  }
}
