import FCMLintEngine

/// One JSON object: `{"diagnostics": [...], "summary": {...}}`, described by
/// `schemas/fcmlint-output.schema.json`. Keys are written in a fixed order, so output is stable.
public struct JSONFormatter: Formatter {
  public init() {}

  public func format(_ report: Report) -> String {
    let summary = report.summary
    var out = "{\"diagnostics\":["
    for (i, d) in report.diagnostics.enumerated() {
      if i > 0 { out += "," }
      out += "{\"file\":\(JSONText.quote(d.file)),\"rule\":\(JSONText.quote(d.rule)),\"severity\":\"\(d.severity.rawValue)\""
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
    out += "],\"summary\":{\"files\":\(summary.files),\"errors\":\(summary.errors),\"warnings\":\(summary.warnings),\"infos\":\(summary.infos),\"fixed\":\(summary.fixed)}}\n"
    return out
  }
}
