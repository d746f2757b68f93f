import FCMLintEngine

/// Checkstyle XML (what reviewdog, Jenkins' warnings plugin and many CI tools read): a `<file>`
/// per linted file, an `<error>` per diagnostic with `source` set to `fcmlint.<rule>`.
public struct CheckstyleFormatter: Formatter {
  private var gathered = Gathered()

  public init() {}

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    gathered.add(diagnostics, files: files)
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {
    let (files, byFile) = gathered.byFile()
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
    for file in files {
      let diagnostics = byFile[file] ?? []
      if diagnostics.isEmpty {
        out += "  <file name=\"\(XMLText.escape(file))\"/>\n"
        continue
      }
      out += "  <file name=\"\(XMLText.escape(file))\">\n"
      for d in diagnostics {
        out += "    <error line=\"\(d.start.line)\" column=\"\(d.start.column)\" severity=\"\(d.severity.rawValue)\" message=\"\(XMLText.escape(d.message))\" source=\"fcmlint.\(XMLText.escape(d.rule))\"/>\n"
      }
      out += "  </file>\n"
    }
    sink.write(out + "</checkstyle>\n")
  }
}
