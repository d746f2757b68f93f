import FCMLintEngine
import FCMLintJSON
import FCMLintSystem

/// One JSON object: `{"diagnostics": [...], "summary": {...}}`, described by
/// `schemas/fcmlint-output.schema.json`. Keys are written in a fixed order, so output is stable.
public struct JSONFormatter: Formatter {
  private var written = 0

  public init() {}

  public mutating func begin(_ header: ReportHeader, to sink: any ReportSink) {
    sink.write("{\"diagnostics\":[")
  }

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    guard !diagnostics.isEmpty else { return }
    var out = ""
    for d in diagnostics {
      if written > 0 { out += "," }
      written += 1
      out += "{\"file\":\(JSONText.quote(FileName.shown(d.file))),\"rule\":\(JSONText.quote(d.rule)),\"severity\":\"\(d.severity.rawValue)\""
      out += ",\"message\":\(JSONText.quote(d.message)),\"pointer\":\(JSONText.quote(d.pointer))"
      out += ",\"line\":\(d.start.line),\"column\":\(d.start.column),\"endLine\":\(d.end.line),\"endColumn\":\(d.end.column)"
      out += ",\"offset\":\(d.startOffset),\"endOffset\":\(d.endOffset),\"docs\":\(JSONText.quote(d.docs))"
      if let fix = d.fix {
        out += ",\"fix\":{\"description\":\(JSONText.quote(fix.description)),\"edits\":["
        out += fix.edits.map { e in
          "{\"offset\":\(e.start),\"endOffset\":\(e.end),\"line\":\(e.startPosition.line),\"column\":\(e.startPosition.column),\"endLine\":\(e.endPosition.line),\"endColumn\":\(e.endPosition.column),\"text\":\(JSONText.quote(e.replacement))}"
        }.joined(separator: ",")
        out += "]}"
      }
      out += "}"
    }
    sink.write(out)
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {
    sink.write(
      "],\"summary\":{\"files\":\(summary.files),\"errors\":\(summary.errors),\"warnings\":\(summary.warnings),\"infos\":\(summary.infos),\"fixed\":\(summary.fixed),\"skipped\":\(summary.skipped),\"baselined\":\(summary.baselined),\"baselineUnmatched\":\(summary.baselineUnmatched),\"suppressed\":\(summary.suppressed)}}\n")
  }
}
