import FCMLintSystem
import FCMLintWorkspace
import FCMLintEngine
import FCMLintFormatters
import FCMLintJSON

/// `fcmlint rules`: the rule list, as a table, JSON, or the README's Markdown.
struct RulesSettings {
  static let usage = "fcmlint rules [--format <format>] [--config <file>] [--rules <dir> ...]"
  static let abstract = "List the rules: id, severity, whether --fix can fix it, and summary."
  static let formats = ["text", "json", "markdown"]
  static let options: [CLIOption<RulesSettings>] =
    [.value("--format", "<format>", values: .choice(formats), "Output format: \(wordList(formats)) (default: text).") { $0.format = $1 }]
    + RuleSources.options.map { $0.lifted(\RulesSettings.ruleSources) }

  var format = "text"
  var ruleSources = RuleSources()

  init(arguments: ArraySlice<String>) throws(UsageError) {
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { _, word throws(UsageError) in
      throw UsageError("'rules' takes no arguments, not '\(word)'")
    }
    guard Self.formats.contains(format) else {
      throw UsageError("unknown format '\(format)' (formats: \(Self.formats.joined(separator: ", ")))")
    }
  }

  func run() throws {
    let (ruleSet, config) = try ruleSources.loadOrReport()
    let rules = ruleSet.rules.sorted { $0.id < $1.id }
    func severity(_ rule: Rule) -> String {
      guard let override = config.severities[rule.id] else { return rule.severity.rawValue }
      return override?.rawValue ?? "off"
    }
    switch format {
    case "json":
      let items = rules.map {
        "{\"id\":\(JSONText.quote($0.id)),\"severity\":\"\(severity($0))\",\"fixable\":\($0.fix != nil),\"summary\":\(JSONText.quote($0.summary)),\"docs\":\(JSONText.quote($0.docs)),\"source\":\(JSONText.quote($0.source))}"
      }
      Console.out("[" + items.joined(separator: ",") + "]\n")
    case "markdown":
      Console.out(RuleDocs.markdownTable(rules))
    default:
      let width = rules.map(\.id.count).max() ?? 0
      for rule in rules {
        let id = rule.id + String(repeating: " ", count: width - rule.id.count)
        let sev = severity(rule) + String(repeating: " ", count: 8 - severity(rule).count)
        // A user's rule file says what it likes: control characters are shown, not sent.
        Console.out("\(id)  \(sev)  \(rule.fix != nil ? "fixable" : "       ")  \(TextFormatter.printable(rule.summary))\n")
      }
    }
  }
}

/// `fcmlint explain ID`: what a rule checks, why, where it is documented, and its examples.
struct ExplainSettings {
  static let usage = "fcmlint explain <id> [--config <file>] [--rules <dir> ...]"
  static let abstract = "Explain a rule: description, docs link and examples."
  static let options: [CLIOption<ExplainSettings>] = RuleSources.options.map { $0.lifted(\ExplainSettings.ruleSources) }

  var id = ""
  var ruleSources = RuleSources()

  init(arguments: ArraySlice<String>) throws(UsageError) {
    var ids: [String] = []
    try ArgumentReader.read(arguments, options: Self.options, into: &self) { _, word in ids.append(word) }
    guard ids.count == 1 else { throw UsageError(ids.isEmpty ? "give the id of a rule (see 'fcmlint rules')" : "give one rule id, not \(ids.count)") }
    id = ids[0]
  }

  func run() throws {
    let (ruleSet, _) = try ruleSources.loadOrReport()
    guard let rule = ruleSet.rule(id) else {
      let hint = closest(to: id, in: ruleSet.ids).map { "; did you mean '\($0)'?" } ?? ""
      Console.err("fcmlint: error: no rule '\(id)'\(hint) (see 'fcmlint rules')\n")
      throw StatusError(status: .failure)
    }
    // Line by line: the explanation's own line breaks stay, any other control character of a
    // user's rule file is shown escaped.
    Console.out(RuleDocs.explanation(rule).split(separator: "\n", omittingEmptySubsequences: false).map { TextFormatter.printable(String($0)) }.joined(separator: "\n"))
  }
}

/// Rule documentation generated from the rule files, never kept by hand.
public enum RuleDocs {
  public static func markdownTable(_ rules: [Rule]) -> String {
    var out = "| Rule | Severity | Fix | What it checks |\n|---|---|---|---|\n"
    for rule in rules.sorted(by: { $0.id < $1.id }) {
      let fix = rule.fix != nil ? "yes" : ""
      out += "| [`\(rule.id)`](\(rule.source)) | \(rule.severity.rawValue) | \(fix) | \(rule.summary.replacingPipes()) ([docs](\(rule.docs))) |\n"
    }
    return out
  }

  public static func explanation(_ rule: Rule) -> String {
    var out = "\(rule.id) (\(rule.severity.rawValue)\(rule.fix != nil ? ", fixable" : "")): \(rule.summary)\n\n"
    out += wrap(rule.description) + "\n\n"
    out += "Docs: \(rule.docs)\nDefined in: \(rule.source)\n"
    if !rule.examples.invalid.isEmpty {
      out += "\nTriggers on:\n"
      for example in rule.examples.invalid {
        out += shown(example) + "    → reported at \(example.pointers.map { $0.isEmpty ? "(the document)" : $0 }.joined(separator: ", "))\n\n"
      }
    }
    if !rule.examples.valid.isEmpty {
      out += "\nDoes not trigger on:\n"
      for example in rule.examples.valid { out += shown(example) + "\n" }
    }
    return out
  }

  /// An example as it is linted: its JSON, or each file it gives (a config, a page) by name.
  private static func shown(_ example: Rule.Example) -> String {
    guard example.needsCommandLine else { return indent(example.json) }
    var out = ""
    if let config = example.config { out += "    .fcmlint.yml:\n" + indent(indent(config)) }
    if let page = example.page {
      out += "    example.md:\n" + indent(indent(page))
    } else {
      out += "    example.json:\n" + indent(indent(example.json))
    }
    return out
  }

  private static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }.map { "    " + $0 }.joined(separator: "\n") + "\n"
  }

  private static func wrap(_ text: String, width: Int = 96) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines.joined(separator: "\n")
  }
}

extension String {
  fileprivate func replacingPipes() -> String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
