import FCMLintEngine

/// `FILE:LINE:COL: SEVERITY: MESSAGE [RULE-ID]`, one line per diagnostic, as compilers print, so
/// every editor's error parser reads it; then a one-line summary. Colour only when asked (a TTY).
public struct TextFormatter: Formatter {
  public var color: Bool

  public init(color: Bool = false) { self.color = color }

  /// The regular expression the README documents for editors; tests check every line against it.
  public static let linePattern = #"^(.+):(\d+):(\d+): (error|warning|info): (.*) \[([a-z0-9-]+)\]$"#

  public func format(_ report: Report) -> String {
    var out = ""
    for d in report.diagnostics {
      out += "\(d.file):\(d.start.line):\(d.start.column): \(paint(d.severity)): \(oneLine(d.message)) [\(d.rule)]\n"
    }
    var summary = Self.summaryLine(report.summary)
    let fixable = report.diagnostics.filter { $0.fix != nil }.count
    if report.summary.fixed > 0 { summary += "; \(report.summary.fixed) fixed" }
    if fixable > 0 { summary += "; \(fixable) fixable with --fix" }
    out += summary + "\n"
    return out
  }

  public static func summaryLine(_ s: Summary, unit: String = "file") -> String {
    let problems = s.errors + s.warnings + s.infos
    let files = "\(s.files) \(unit)\(s.files == 1 ? "" : "s")"
    if problems == 0 { return "no problems in \(files)" }
    func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    return "\(count(problems, "problem")) (\(count(s.errors, "error")), \(count(s.warnings, "warning")), \(count(s.infos, "info"))) in \(files)"
  }

  private func paint(_ severity: Severity) -> String {
    guard color else { return severity.rawValue }
    let code: String
    switch severity {
    case .error: code = "31"
    case .warning: code = "33"
    case .info: code = "36"
    }
    return "\u{1B}[1;\(code)m\(severity.rawValue)\u{1B}[0m"
  }

  /// Messages stay on one line, whatever a rule's template or a value contains.
  private func oneLine(_ s: String) -> String {
    guard s.contains(where: { $0.isNewline }) else { return s }
    return String(s.map { $0.isNewline ? " " : $0 })
  }
}
