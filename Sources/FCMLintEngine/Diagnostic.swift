import FCMLintJSON

/// How bad a finding is. error: FCM rejects the request or a platform drops the content;
/// warning: it is delivered but not as intended; info: advice.
public enum Severity: String, Sendable, CaseIterable, Comparable {
  case error, warning, info

  var rank: Int {
    switch self {
    case .error: return 0
    case .warning: return 1
    case .info: return 2
    }
  }

  public static func < (a: Severity, b: Severity) -> Bool { a.rank > b.rank }
}

/// The one diagnostic type every stage after the rules speaks.
public struct Diagnostic: Sendable, Equatable {
  /// The path as given on the command line (or the `--stdin-filename`).
  public var file: String
  public var rule: String
  public var severity: Severity
  public var message: String
  /// RFC 6901 JSON Pointer of the offending value ("" for the whole document).
  public var pointer: String
  public var start: SourcePosition
  public var end: SourcePosition
  /// Byte range in the file, for editors and fixes.
  public var startOffset: Int
  public var endOffset: Int
  /// Where the requirement is documented.
  public var docs: String
  /// The correction `--fix` applies, as edits of the original text.
  public var fix: Fix?

  public init(
    file: String, rule: String, severity: Severity, message: String, pointer: String,
    start: SourcePosition, end: SourcePosition, startOffset: Int, endOffset: Int, docs: String, fix: Fix? = nil
  ) {
    self.file = file
    self.rule = rule
    self.severity = severity
    self.message = message
    self.pointer = pointer
    self.start = start
    self.end = end
    self.startOffset = startOffset
    self.endOffset = endOffset
    self.docs = docs
    self.fix = fix
  }

  /// The output order: file, line, column, rule id, then message, so that output is identical
  /// whatever order files and rules were checked in.
  public static func ordered(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
    if a.file != b.file { return a.file.utf8.lexicographicallyPrecedes(b.file.utf8) }
    if a.start != b.start { return a.start < b.start }
    if a.rule != b.rule { return a.rule < b.rule }
    if a.pointer != b.pointer { return a.pointer < b.pointer }
    return a.message < b.message
  }
}

/// Counts of one run, as every formatter prints them.
public struct Summary: Sendable, Equatable {
  public var files = 0
  public var errors = 0
  public var warnings = 0
  public var infos = 0
  /// Problems `--fix` corrected (they are no longer among the diagnostics).
  public var fixed = 0
  /// Files read but not linted: they are not FCM documents (`DocumentClassifier`).
  public var skipped = 0
  /// Diagnostics found but not shown (`--quiet` hides all but errors, `--fix-only` all), and
  /// the option that hid them; not counted above.
  public var hidden = 0
  public var hiddenBy = ""
  /// Findings the baseline hid (`--baseline`; all of them with `--write-baseline`), the
  /// baseline's entries that match nothing any more, and findings the config's `suppress:`
  /// turned off. None is counted above.
  public var baselined = 0
  public var baselineUnmatched = 0
  public var suppressed = 0

  public init(files: Int = 0, diagnostics: [Diagnostic] = []) {
    self.files = files
    for d in diagnostics {
      switch d.severity {
      case .error: errors += 1
      case .warning: warnings += 1
      case .info: infos += 1
      }
    }
  }
}
