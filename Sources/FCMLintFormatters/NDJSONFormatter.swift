import FCMLintEngine
import FCMLintJSON
import FCMLintSystem

/// One JSON object per diagnostic, one per line, and nothing else: no opening, no summary. The
/// outputs of runs over parts of a log (Spark partitions, GNU parallel blocks) therefore
/// concatenate into one valid result, and an engine reads it line by line as it reads its input.
///
/// Every line has the same keys in the same order:
/// `{"file":…,"line":…,"column":…,"endLine":…,"endColumn":…,"id":…,"rule":…,"severity":…,"pointer":…,"message":…,"docs":…}`.
/// Under `--ndjson`, `line` is the document's line in its stream, and `id` the value the
/// document holds at `--id-field` (a string or number as written; null when not asked, not
/// found, or not a string, number or boolean).
public struct NDJSONFormatter: Formatter {
  public init() {}

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    write(diagnostics, ids: [], to: sink)
  }

  /// `ids[i]` is the JSON text of the id of `diagnostics[i]`'s document ("null" when unknown);
  /// missing entries are null.
  public mutating func write(_ diagnostics: [Diagnostic], ids: [String], to sink: any ReportSink) {
    guard !diagnostics.isEmpty else { return }
    var out = ""
    for (i, d) in diagnostics.enumerated() {
      out += "{\"file\":\(JSONText.quote(FileName.shown(d.file))),\"line\":\(d.start.line),\"column\":\(d.start.column)"
      out += ",\"endLine\":\(d.end.line),\"endColumn\":\(d.end.column),\"id\":\(i < ids.count ? ids[i] : "null")"
      out += ",\"rule\":\(JSONText.quote(d.rule)),\"severity\":\"\(d.severity.rawValue)\",\"pointer\":\(JSONText.quote(d.pointer))"
      out += ",\"message\":\(JSONText.quote(d.message)),\"docs\":\(JSONText.quote(d.docs))}\n"
    }
    sink.write(out)
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {}
}
