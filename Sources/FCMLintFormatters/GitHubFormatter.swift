import FCMLintEngine
import FCMLintSystem

/// GitHub Actions workflow commands: each diagnostic becomes an annotation on the pull request.
/// `::error file=F,line=L,col=C,endLine=L,endColumn=C,title=RULE::message`, with the escaping the
/// runner requires (`%`, CR and LF everywhere; also `:` and `,` in properties).
public struct GitHubFormatter: Formatter {
  public init() {}

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    guard !diagnostics.isEmpty else { return }
    var out = ""
    for d in diagnostics {
      let command: String
      switch d.severity {
      case .error: command = "error"
      case .warning: command = "warning"
      case .info: command = "notice"
      }
      let properties = [
        "file=\(Self.property(FileName.shown(SARIFFormatter.relativePath(d.file))))", "line=\(d.start.line)", "col=\(d.start.column)",
        "endLine=\(d.end.line)", "endColumn=\(d.end.column)", "title=\(Self.property(d.rule))",
      ].joined(separator: ",")
      out += "::\(command) \(properties)::\(Self.data("\(d.message) (\(d.pointer.isEmpty ? "/" : d.pointer), \(d.docs))"))\n"
    }
    sink.write(out)
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {}

  static func data(_ s: String) -> String {
    var out = ""
    for c in s.unicodeScalars {
      switch c {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default:
        // Other control characters (ESC repaints the log, U+2028 breaks a line in some viewers)
        // are written as text, as the text format writes them.
        if TextFormatter.isControl(c) { out += TextFormatter.controlsEscaped(String(c)) } else { out.unicodeScalars.append(c) }
      }
    }
    return out
  }

  static func property(_ s: String) -> String {
    var out = ""
    for c in data(s).unicodeScalars {
      switch c {
      case ":": out += "%3A"
      case ",": out += "%2C"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }
}
