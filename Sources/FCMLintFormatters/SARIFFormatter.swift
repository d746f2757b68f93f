import FCMLintEngine
import FCMLintJSON
import FCMLintSystem

/// SARIF 2.1.0 (what GitHub code scanning and many IDEs read): the rules as the tool's
/// `reportingDescriptor`s with their docs as `helpUri` (a page of the repository as `help`), each
/// result with a physical location (artifact URI relative to the working directory, 1-based
/// region with its end, columns in UTF-16 code units) and the JSON Pointer as a logical location.
public struct SARIFFormatter: Formatter {
  private var ruleIndex: [String: Int] = [:]
  private var wroteResult = false

  public init() {}

  /// The run's tool and rules, then the results as they come (the rules are known before any
  /// file is linted), so a report never holds more than one file's results.
  public mutating func begin(_ header: ReportHeader, to sink: any ReportSink) {
    let rules = header.rules.sorted { $0.id < $1.id }
    for (i, r) in rules.enumerated() { ruleIndex[r.id] = i }
    var out = #"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"fcmlint""#
    if !header.toolVersion.isEmpty { out += ",\"version\":\(JSONText.quote(header.toolVersion))" }
    out += ",\"rules\":["
    out += rules.map { r in
      // helpUri is an absolute URI; a page of the rule's repository, named by its path, is named in help.
      let help = Rule.isWebAddress(r.docs)
        ? "\"helpUri\":\(JSONText.quote(r.docs))"
        : "\"help\":{\"text\":\(JSONText.quote("See \(r.docs) in the rule's repository, or run: fcmlint explain \(r.id)"))}"
      return "{\"id\":\(JSONText.quote(r.id)),\"shortDescription\":{\"text\":\(JSONText.quote(r.summary))},\(help),\"defaultConfiguration\":{\"level\":\"\(Self.level(r.severity))\"}}"
    }.joined(separator: ",")
    out += "]}},\"columnKind\":\"utf16CodeUnits\",\"results\":["
    sink.write(out)
  }

  public mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink) {
    guard !diagnostics.isEmpty else { return }
    var out = ""
    for d in diagnostics {
      if wroteResult { out += "," }
      wroteResult = true
      out += "{\"ruleId\":\(JSONText.quote(d.rule))"
      if let index = ruleIndex[d.rule] { out += ",\"ruleIndex\":\(index)" }
      out += ",\"level\":\"\(Self.level(d.severity))\",\"message\":{\"text\":\(JSONText.quote(d.message))}"
      out += ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\(JSONText.quote(Self.uri(d.file)))}"
      out += ",\"region\":{\"startLine\":\(d.start.line),\"startColumn\":\(d.start.column),\"endLine\":\(d.end.line),\"endColumn\":\(d.end.column),\"byteOffset\":\(d.startOffset),\"byteLength\":\(d.endOffset - d.startOffset)}}"
      out += ",\"logicalLocations\":[{\"fullyQualifiedName\":\(JSONText.quote(d.pointer.isEmpty ? "/" : d.pointer)),\"kind\":\"value\"}]}]"
      if let fix = d.fix {
        let replacements = fix.edits.map { e in
          "{\"deletedRegion\":{\"startLine\":\(e.startPosition.line),\"startColumn\":\(e.startPosition.column),\"endLine\":\(e.endPosition.line),\"endColumn\":\(e.endPosition.column)},\"insertedContent\":{\"text\":\(JSONText.quote(e.replacement))}}"
        }.joined(separator: ",")
        out += ",\"fixes\":[{\"description\":{\"text\":\(JSONText.quote(fix.description))},\"artifactChanges\":[{\"artifactLocation\":{\"uri\":\(JSONText.quote(Self.uri(d.file)))},\"replacements\":[\(replacements)]}]}]"
      }
      out += "}"
    }
    sink.write(out)
  }

  public mutating func finish(_ summary: Summary, to sink: any ReportSink) {
    sink.write("]}]}\n")
  }

  static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: return "error"
    case .warning: return "warning"
    case .info: return "note"
    }
  }

  /// A path as reports name it to code hosts: without the leading "./" a walk of "." gives it
  /// (GitHub annotations and SARIF results name the same file the same way).
  static func relativePath(_ path: String) -> String {
    var p = Substring(path)
    while p.hasPrefix("./") { p.removeFirst(2) }
    return String(p)
  }

  /// A relative URI reference for a path: each segment's bytes percent-encoded (RFC 3986
  /// unreserved characters kept; a byte that is not UTF-8 is itself, `%FF`), absolute paths as
  /// file:// URIs.
  static func uri(_ path: String) -> String {
    let p = relativePath(path)
    let encoded = p.split(separator: "/", omittingEmptySubsequences: false).map { segment in
      var out = ""
      for byte in FileName.bytes(String(segment)) {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
          UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
          out.unicodeScalars.append(UnicodeScalar(byte))
        default:
          let hex = Array("0123456789ABCDEF")
          out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
        }
      }
      return out
    }.joined(separator: "/")
    return p.hasPrefix("/") ? "file://" + encoded : encoded
  }
}
