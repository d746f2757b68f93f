import FCMLintEngine
import FCMLintSystem

/// `FILE:LINE:COL: SEVERITY: MESSAGE [RULE-ID]`, one line per diagnostic, as compilers print, so
/// every editor's error parser reads it; then a one-line summary. Colour only when asked (a TTY).
public struct TextFormatter: Formatter {
  public var color: Bool
  /// What the summary counts: files, or the documents of a stream.
  public var unit: String
  /// Whether the summary says how many problems `--fix` would fix (not for streams, which are
  /// never fixed).
  public var mentionsFixes = true
  /// `--fix-dry-run`: the fixes were not written, so they "would be fixed".
  public var dryRun = false
  private var fixable = 0

  public init(color: Bool = false, unit: String = "file") {
    self.color = color
    self.unit = unit
  }

  /// The regular expression docs/integrations.md documents for editors; tests check every line against it.
  public static let linePattern = #"^(.+):(\d+):(\d+): (error|warning|info): (.*) \[([a-z0-9-]+)\]$"#

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    guard !diagnostics.isEmpty else { return }
    var out = ""
    for d in diagnostics {
      out += "\(Self.printable(d.file)):\(d.start.line):\(d.start.column): \(paint(d.severity)): \(oneLine(d.message)) [\(d.rule)]\n"
      if d.fix != nil { fixable += 1 }
    }
    sink.write(out)
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {
    var line = Self.summaryLine(summary, unit: unit)
    if summary.fixed > 0 { line += dryRun ? "; \(summary.fixed) would be fixed" : "; \(summary.fixed) fixed" }
    if summary.hidden > 0 { line += "; \(summary.hidden) more hidden by \(summary.hiddenBy)" }
    if summary.baselined > 0 { line += "; \(summary.baselined) hidden by the baseline" }
    if summary.baselineUnmatched > 0 {
      line += "; \(summary.baselineUnmatched) baseline \(summary.baselineUnmatched == 1 ? "entry matches" : "entries match") nothing any more (--verbose lists them)"
    }
    if summary.suppressed > 0 { line += "; \(summary.suppressed) suppressed by the config" }
    if summary.skipped > 0 {
      line += "; \(summary.skipped) \(summary.skipped == 1 ? "file" : "files") skipped, not FCM documents (--verbose lists them)"
    }
    if fixable > 0 && mentionsFixes { line += "; \(fixable) fixable with --fix" }
    sink.write(line + "\n")
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

  /// Messages stay on one line, whatever a rule's template or a value contains, and carry no
  /// control characters (a key with an escape sequence must not repaint the terminal).
  private func oneLine(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: Self.isControl) else { return s }
    return Self.controlsEscaped(String(s.map { $0.isNewline ? " " : $0 }))
  }

  /// A file name as one line of text: a byte that is not UTF-8 as `\xff` (`FileName.shown`),
  /// control characters (a newline in a name would forge a diagnostic line of its own) as `\n`,
  /// `\r`, `\t` or `\u{1b}`.
  public static func printable(_ s: String) -> String { controlsEscaped(FileName.shown(s)) }

  /// Control characters written as `\n`, `\r`, `\t` or `\u{1b}`.
  static func controlsEscaped(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: isControl) else { return s }
    var out = ""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if isControl(scalar) { out += "\\u{" + String(scalar.value, radix: 16) + "}" } else { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
  }
}
