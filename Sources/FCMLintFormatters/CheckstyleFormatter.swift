import FCMLintEngine
import FCMLintSystem

/// Checkstyle XML (what reviewdog, Jenkins' warnings plugin and many CI tools read): a `<file>`
/// per linted file, an `<error>` per diagnostic with `source` set to `fcmlint.<rule>`.
public struct CheckstyleFormatter: Formatter {
  /// The file being written, and whether its element is open (it had a diagnostic).
  private var current: String? = nil
  private var open = false

  public init() {}

  public mutating func begin(_ header: ReportHeader, to sink: any ReportSink) {
    sink.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n")
  }

  /// Streams: a file's element opens at its first diagnostic and closes when the next file
  /// comes; a clean file is one empty element.
  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    for (file, diagnostics) in groupedByFile(diagnostics, files: files) {
      if file != current { close(to: sink, next: file) }
      var out = ""
      for d in diagnostics {
        if !open {
          out += "  <file name=\"\(XMLText.escape(FileName.shown(file)))\">\n"
          open = true
        }
        out += "    <error line=\"\(d.start.line)\" column=\"\(d.start.column)\" severity=\"\(d.severity.rawValue)\" message=\"\(XMLText.escape(d.message))\" source=\"fcmlint.\(XMLText.escape(d.rule))\"/>\n"
      }
      if !out.isEmpty { sink.write(out) }
    }
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {
    close(to: sink, next: nil)
    sink.write("</checkstyle>\n")
  }

  private mutating func close(to sink: any ReportSink, next: String?) {
    if let current { sink.write(open ? "  </file>\n" : "  <file name=\"\(XMLText.escape(FileName.shown(current)))\"/>\n") }
    current = next
    open = false
  }
}
