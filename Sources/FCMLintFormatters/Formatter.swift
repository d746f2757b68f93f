import FCMLintEngine

/// Renders the diagnostics of one run. One formatter per file; each knows only `Diagnostic`.
public protocol Formatter {
  /// The whole report for sorted diagnostics.
  func format(_ diagnostics: [Diagnostic], summary: Summary) -> String
}

/// The formats `--format` accepts.
public enum OutputFormat: String, CaseIterable, Sendable {
  case text, json

  public func formatter(color: Bool) -> any Formatter {
    switch self {
    case .text: return TextFormatter(color: color)
    case .json: return JSONFormatter()
    }
  }
}
