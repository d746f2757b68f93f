import FCMLintEngine

/// JUnit XML, as Jenkins and GitLab read it: a test suite per file, a failing test case per
/// diagnostic, and one passing case for a clean file so it shows as checked.
public struct JUnitFormatter: Formatter {
  private var gathered = Gathered()

  public init() {}

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    gathered.add(diagnostics, files: files)
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {
    let (files, byFile) = gathered.byFile()

    var suites = ""
    var total = 0
    for file in files {
      let diagnostics = byFile[file] ?? []
      let name = XMLText.escape(file)
      if diagnostics.isEmpty {
        total += 1
        suites += "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
        suites += "    <testcase classname=\"\(name)\" name=\"fcmlint\"/>\n  </testsuite>\n"
        continue
      }
      total += diagnostics.count
      suites += "  <testsuite name=\"\(name)\" tests=\"\(diagnostics.count)\" failures=\"\(diagnostics.count)\" errors=\"0\">\n"
      for d in diagnostics {
        let text = "\(d.file):\(d.start.line):\(d.start.column): \(d.severity.rawValue): \(d.message) [\(d.rule)]\nPointer: \(d.pointer.isEmpty ? "/" : d.pointer)\nDocs: \(d.docs)"
        suites += "    <testcase classname=\"\(name)\" name=\"\(XMLText.escape("\(d.rule) at \(d.start.line):\(d.start.column)"))\">\n"
        suites += "      <failure type=\"\(XMLText.escape(d.rule))\" message=\"\(XMLText.escape("\(d.severity.rawValue): \(d.message)"))\">\(XMLText.escape(text))</failure>\n"
        suites += "    </testcase>\n"
      }
      suites += "  </testsuite>\n"
    }
    sink.write(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fcmlint\" tests=\"\(total)\" failures=\"\(gathered.diagnostics.count)\" errors=\"0\">\n\(suites)</testsuites>\n")
  }
}
