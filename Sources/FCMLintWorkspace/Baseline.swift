import FCMLintEngine
import FCMLintJSON

/// A baseline: the findings a team accepted when it adopted fcmlint (`--write-baseline FILE`),
/// which `--baseline FILE` then hides, so only new findings are reported.
///
/// A finding is keyed by its file (relative to the baseline's folder), its rule and its JSON
/// Pointer: not by line, so edits that move lines keep their entries, and a value's own finding
/// stays hidden while its text changes. A syntax finding (`json-syntax`, always at the pointer
/// `""`) is keyed by its error too (`syntax`: the message with its line and column numbers
/// taken out), so one accepted trailing comma does not hide the same file emptied, cut short or
/// replaced by binary bytes later; an entry without `syntax` (written before it was recorded)
/// hides no syntax finding. A key repeats once per finding it stands for. The file is JSON, one
/// entry a line, sorted, so it diffs and merges like code:
///
/// ```json
/// {
///   "fcmlint-baseline": 1,
///   "findings": [
///     {"file": "templates/sale.json", "rule": "image-extension", "pointer": "/message/apns/fcm_options/image"},
///     {"file": "templates/sale.json", "rule": "json-syntax", "pointer": "", "syntax": "trailing comma before '}'"}
///   ]
/// }
/// ```
public struct Baseline: Sendable {
  public struct Entry: Hashable, Sendable, Comparable {
    /// Relative to the baseline's folder, `/`-separated. A name that is not UTF-8 is written as
    /// `FileName` decodes it (each such byte one private-use character), so it reads back to
    /// the same file.
    public var file: String
    public var rule: String
    public var pointer: String
    /// A syntax finding's error, without positions; empty for every other finding.
    public var syntax: String

    public init(file: String, rule: String, pointer: String, syntax: String = "") {
      self.file = file
      self.rule = rule
      self.pointer = pointer
      self.syntax = syntax
    }

    /// The key of a finding in the file keyed `file`.
    public init(file: String, _ diagnostic: Diagnostic) {
      let syntax = diagnostic.rule == Baseline.syntaxRule ? Baseline.syntaxKey(diagnostic.message) : ""
      self.init(file: file, rule: diagnostic.rule, pointer: diagnostic.pointer, syntax: syntax)
    }

    public static func < (a: Entry, b: Entry) -> Bool {
      if a.file != b.file { return a.file.utf8.lexicographicallyPrecedes(b.file.utf8) }
      if a.rule != b.rule { return a.rule < b.rule }
      if a.pointer != b.pointer { return a.pointer.utf8.lexicographicallyPrecedes(b.pointer.utf8) }
      return a.syntax.utf8.lexicographicallyPrecedes(b.syntax.utf8)
    }
  }

  /// The rule whose findings are keyed by their error as well: every one is at the pointer `""`.
  public static let syntaxRule = "json-syntax"

  /// A syntax error as a key: its message with the numbers of `line N` and `column N` taken out
  /// ("the object opened at line 4, column 21" moves when lines are added above it), so the same
  /// mistake keeps its key while a different one (an empty file, a cut, a binary byte) gets its own.
  public static func syntaxKey(_ message: String) -> String {
    var out = ""
    var rest = Substring(message)
    while let next = rest.first {
      if out.last.map({ !$0.isLetter }) ?? true, let word = ["line ", "column "].first(where: { rest.hasPrefix($0) }) {
        let digits = rest.dropFirst(word.count).prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty {
          out += word + "N"
          rest = rest.dropFirst(word.count + digits.count)
          continue
        }
      }
      out.append(next)
      rest = rest.dropFirst()
    }
    return out
  }

  public static let version = 1

  /// Where the baseline is; entries' files are relative to its folder.
  public var path: String
  /// How many findings each key stands for.
  public var counts: [Entry: Int] = [:]

  public init(path: String) { self.path = path }

  /// The folder entries are relative to, absolute.
  public var folder: String { Path.directory(of: Path.absolute(path)) }

  /// The key of `file` (a path as the run names it) in this baseline.
  public func key(ofFile file: String) -> String { Path.relative(Path.absolute(file), to: folder) }

  /// The file a key names, as a path the run can look up.
  public func path(ofKey key: String) -> String { key.hasPrefix("/") ? key : Path.join(folder, key) }

  /// Reads a baseline; a file that is not one is an error at its place.
  public static func load(bytes: [UInt8], path: String) throws(ConfigurationError) -> Baseline {
    func fail(_ offset: Int, _ message: String) -> ConfigurationError {
      let position = SourceLocator(bytes: bytes).position(of: offset)
      return ConfigurationError(file: path, line: position.line, column: position.column, message: message)
    }
    let document: JSONDocument
    switch JSONParser.parse(bytes) {
    case .success(let parsed): document = parsed
    case .failure(let error): throw fail(error.offset, "the baseline is not JSON: \(error.message)")
    }
    let root = JSONDocument.root
    guard document.kind(root) == .object, let findings = document.member(root, "findings"), document.kind(findings) == .array else {
      throw fail(0, #"a baseline is an object with "findings": a list of {"file", "rule", "pointer"} (fcmlint --write-baseline writes one)"#)
    }
    if let version = document.member(root, "fcmlint-baseline"), document.rawText(version) != String(Self.version) {
      throw fail(Int(document[version].start), "this baseline is version \(document.rawText(version)); this fcmlint reads version \(Self.version)")
    }
    var baseline = Baseline(path: path)
    for item in document.children(findings) {
      guard document.kind(item) == .object else { throw fail(Int(document[item].start), "each finding is an object with \"file\", \"rule\" and \"pointer\"") }
      var fields: [String] = []
      for name in ["file", "rule", "pointer"] {
        guard let value = document.member(item, name), let text = document.string(value) else {
          throw fail(Int(document[item].start), "this finding has no \"\(name)\" string")
        }
        fields.append(text)
      }
      var syntax = ""
      if let value = document.member(item, "syntax") {
        guard let text = document.string(value) else { throw fail(Int(document[value].start), "\"syntax\" is a string: the syntax error, without its positions") }
        syntax = text
      }
      baseline.counts[Entry(file: fields[0], rule: fields[1], pointer: fields[2], syntax: syntax), default: 0] += 1
    }
    return baseline
  }

  /// The baseline's text: every entry once per finding, sorted.
  public static func render(_ entries: [Entry]) -> String {
    let lines = entries.sorted().map { entry in
      "    {\"file\": \(JSONText.quote(entry.file)), \"rule\": \(JSONText.quote(entry.rule)), \"pointer\": \(JSONText.quote(entry.pointer))"
        + (entry.syntax.isEmpty ? "" : ", \"syntax\": \(JSONText.quote(entry.syntax))") + "}"
    }
    return "{\n  \"fcmlint-baseline\": \(version),\n  \"findings\": [\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + "  ]\n}\n"
  }

  /// Splits one file's diagnostics into those the baseline does not cover and the count it hides,
  /// with the keys it used (each as often as it was used).
  public func filter(_ diagnostics: [Diagnostic], fileKey: String) -> (kept: [Diagnostic], used: [Entry: Int]) {
    var used: [Entry: Int] = [:]
    var kept: [Diagnostic] = []
    for d in diagnostics {
      let entry = Entry(file: fileKey, d)
      let available = counts[entry, default: 0] - used[entry, default: 0]
      if available > 0 {
        used[entry, default: 0] += 1
      } else {
        kept.append(d)
      }
    }
    return (kept, used)
  }
}
