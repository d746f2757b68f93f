import FCMLintEngine
import FCMLintSystem

/// JUnit XML, as Jenkins and GitLab read it: a test suite per file, a failing test case per
/// diagnostic, and one passing case for a clean file so it shows as checked.
public struct JUnitFormatter: Formatter {
  /// The suites written so far, as text: the root element's counts come first in the file and
  /// are known only at the end, so the suites wait, but as the text they will be, not as
  /// diagnostics.
  private var suites = ""
  /// The file being gathered, and its test cases so far.
  private var current: (name: String?, lines: String) = (nil, "")
  private var currentCases = 0
  private var tests = 0
  private var failures = 0

  public init() {}

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    for (file, diagnostics) in groupedByFile(diagnostics, files: files) {
      if file != current.name { flush(next: file) }
      for d in diagnostics {
        let name = XMLText.escape(FileName.shown(d.file))
        let text = "\(FileName.shown(d.file)):\(d.start.line):\(d.start.column): \(d.severity.rawValue): \(d.message) [\(d.rule)]\nPointer: \(d.pointer.isEmpty ? "/" : d.pointer)\nDocs: \(d.docs)"
        current.lines += "    <testcase classname=\"\(name)\" name=\"\(XMLText.escape("\(d.rule) at \(d.start.line):\(d.start.column)"))\">\n"
        current.lines += "      <failure type=\"\(XMLText.escape(d.rule))\" message=\"\(XMLText.escape("\(d.severity.rawValue): \(d.message)"))\">\(XMLText.escape(text))</failure>\n"
        current.lines += "    </testcase>\n"
        currentCases += 1
      }
    }
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {
    flush(next: nil)
    sink.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fcmlint\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n")
    sink.write(suites)
    sink.write("</testsuites>\n")
  }

  private mutating func flush(next: String?) {
    if let file = current.name {
      let name = XMLText.escape(FileName.shown(file))
      if currentCases == 0 {
        // A clean file: one passing case, so it shows as checked.
        tests += 1
        suites += "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
        suites += "    <testcase classname=\"\(name)\" name=\"fcmlint\"/>\n  </testsuite>\n"
      } else {
        tests += currentCases
        failures += currentCases
        suites += "  <testsuite name=\"\(name)\" tests=\"\(currentCases)\" failures=\"\(currentCases)\" errors=\"0\">\n\(current.lines)  </testsuite>\n"
      }
    }
    current = (next, "")
    currentCases = 0
  }
}
