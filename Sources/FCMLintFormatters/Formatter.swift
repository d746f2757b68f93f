import FCMLintEngine

/// Everything a report shows: the sorted diagnostics and what was checked.
public struct Report: Sendable {
  public var diagnostics: [Diagnostic]
  public var summary: Summary
  /// Every file linted, in output order (formats that list clean files need them).
  public var files: [String]
  /// The active rules (SARIF lists them as the tool's rules).
  public var rules: [RuleDescriptor]
  public var toolVersion: String

  public init(diagnostics: [Diagnostic], summary: Summary, files: [String] = [], rules: [RuleDescriptor] = [], toolVersion: String = "") {
    self.diagnostics = diagnostics
    self.summary = summary
    self.files = files
    self.rules = rules
    self.toolVersion = toolVersion
  }
}

/// What a report says about a rule.
public struct RuleDescriptor: Sendable {
  public var id: String
  public var summary: String
  public var docs: String
  public var severity: Severity

  public init(id: String, summary: String, docs: String, severity: Severity) {
    self.id = id
    self.summary = summary
    self.docs = docs
    self.severity = severity
  }

  /// What a report says about an active rule.
  public init(_ rule: Rule) {
    self.init(id: rule.id, summary: rule.summary, docs: rule.docs, severity: rule.severity)
  }
}

/// Where a report's text goes, in order. The CLI writes to standard output or gathers a report
/// file's text; `StringSink` gathers it in memory.
///
/// A write that fails (a full disk, a closed pipe) does not stop the formatter: the sink keeps
/// the first failure in `failure`, and whoever owns the sink checks it once the report is done.
public protocol ReportSink: AnyObject {
  func write(_ text: String)
  /// Why the first failed write failed; nil while every write went through.
  var failure: String? { get }
}

extension ReportSink {
  public var failure: String? { nil }
}

/// Gathers a report's text.
public final class StringSink: ReportSink {
  public private(set) var text = ""
  public init() {}
  public func write(_ text: String) { self.text += text }
}

/// What a report says besides the diagnostics: the rules (SARIF lists them as the tool's rules)
/// and the tool's version.
public struct ReportHeader: Sendable {
  public var rules: [RuleDescriptor]
  public var toolVersion: String

  public init(rules: [RuleDescriptor] = [], toolVersion: String = "") {
    self.rules = rules
    self.toolVersion = toolVersion
  }
}

/// Renders a report as the lint goes: `begin` once, `write` for the diagnostics of each file (or
/// each batch of a stream) in output order, `finish` with the run's summary. Formats whose syntax
/// lets them write as they go (text, JSON, GitHub annotations) do; formats that must see
/// everything first keep as little as they can: SARIF streams its results too (its rules are
/// known at `begin`), Checkstyle holds one file's lines at a time, and JUnit holds its suites as
/// text until `finish` (its root element counts them). None keeps a document.
///
/// A new format is one file with a type conforming to this protocol, and its case in
/// `OutputFormat` (its `--format` name and how to make it).
public protocol Formatter {
  mutating func begin(_ header: ReportHeader, to sink: any ReportSink)
  /// `diagnostics` are those of `files` (the files they cover, clean ones included, which some
  /// formats list), sorted; a stream's batches name no files.
  mutating func write(_ diagnostics: [Diagnostic], files: [String], to sink: any ReportSink)
  mutating func finish(_ summary: Summary, to sink: any ReportSink)
}

extension Formatter {
  public mutating func begin(_ header: ReportHeader, to sink: any ReportSink) {}

  /// The whole report at once: begin, one write, finish.
  public func format(_ report: Report) -> String {
    var formatter = self
    let sink = StringSink()
    formatter.begin(ReportHeader(rules: report.rules, toolVersion: report.toolVersion), to: sink)
    formatter.write(report.diagnostics, files: report.files, to: sink)
    formatter.finish(report.summary, to: sink)
    return sink.text
  }
}

/// A batch's diagnostics by file, for the formats that group them: the files listed (clean ones
/// included), then any other file a diagnostic names, in the order of first appearance.
func groupedByFile(_ diagnostics: [Diagnostic], files: [String]) -> [(file: String, diagnostics: [Diagnostic])] {
  var order = files
  var index: [String: Int] = [:]
  for (i, file) in files.enumerated() where index[file] == nil { index[file] = i }
  var groups = [[Diagnostic]](repeating: [], count: files.count)
  for d in diagnostics {
    if let i = index[d.file] {
      groups[i].append(d)
    } else {
      index[d.file] = order.count
      order.append(d.file)
      groups.append([d])
    }
  }
  return zip(order, groups).map { ($0, $1) }
}

/// The formats `--format` accepts.
public enum OutputFormat: String, CaseIterable, Sendable {
  case text, json, sarif, github, junit, checkstyle, ndjson

  /// Whether the format lists the run's rules (`ReportHeader.rules`), which are gathered only then.
  public var listsRules: Bool { self == .sarif }

  public func formatter(color: Bool = false) -> any Formatter {
    switch self {
    case .text: return TextFormatter(color: color)
    case .json: return JSONFormatter()
    case .sarif: return SARIFFormatter()
    case .github: return GitHubFormatter()
    case .junit: return JUnitFormatter()
    case .checkstyle: return CheckstyleFormatter()
    case .ndjson: return NDJSONFormatter()
    }
  }
}
