import FCMLintEngine

/// Everything a report shows: the sorted diagnostics and what was checked.
public struct Report: Sendable {
  public var diagnostics: [Diagnostic]
  public var summary: Summary
  /// Every file linted, in output order (formats that list clean files need them).
  public var files: [String]
  /// The active rules (SARIF lists them as the tool's rules).
  public var rules: [RuleDescriptor]
  public var toolVersion: String

  public init(diagnostics: [Diagnostic], summary: Summary, files: [String] = [], rules: [RuleDescriptor] = [], toolVersion: String = "") {
    self.diagnostics = diagnostics
    self.summary = summary
    self.files = files
    self.rules = rules
    self.toolVersion = toolVersion
  }
}

/// What a report says about a rule.
public struct RuleDescriptor: Sendable {
  public var id: String
  public var summary: String
  public var docs: String
  public var severity: Severity

  public init(id: String, summary: String, docs: String, severity: Severity) {
    self.id = id
    self.summary = summary
    self.docs = docs
    self.severity = severity
  }
}

/// Renders a report. One formatter per file; each knows only `Report` and `Diagnostic`.
public protocol Formatter {
  func format(_ report: Report) -> String
}

/// The formats `--format` accepts.
public enum OutputFormat: String, CaseIterable, Sendable {
  case text, json, sarif, github, junit, checkstyle

  public func formatter(color: Bool = false) -> any Formatter {
    switch self {
    case .text: return TextFormatter(color: color)
    case .json: return JSONFormatter()
    case .sarif: return SARIFFormatter()
    case .github: return GitHubFormatter()
    case .junit: return JUnitFormatter()
    case .checkstyle: return CheckstyleFormatter()
    }
  }
}
