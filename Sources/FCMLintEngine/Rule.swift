import FCMLintJSON
import Synchronization

/// One rule, loaded from one YAML file: where it applies (`given`), when (`when`), what it checks
/// (`then`), what it says (`message`) and the examples that are both its docs and its tests.
public struct Rule: Sendable {
  public var severity: Severity
  /// Everything else, behind one reference: rules are copied into every rule set and linter,
  /// and a copy then retains one object rather than each string and list. Written (rarely) by
  /// copying it.
  private var storage: Storage

  private final class Storage: Sendable {
    let id: String
    let summary: String
    let documentationSource: DocumentationSource
    let docs: String
    let body: BodySource
    let source: String
    let isBuiltin: Bool
    let idLine: Int
    let idColumn: Int

    init(
      id: String, summary: String, documentationSource: DocumentationSource, docs: String, body: BodySource, source: String,
      isBuiltin: Bool, idLine: Int, idColumn: Int
    ) {
      self.id = id
      self.summary = summary
      self.documentationSource = documentationSource
      self.docs = docs
      self.body = body
      self.source = source
      self.isBuiltin = isBuiltin
      self.idLine = idLine
      self.idColumn = idColumn
    }

    /// This storage with some of its values changed (the body read first when one of its parts is).
    func with(
      id: String? = nil, summary: String? = nil, docs: String? = nil, given: [JSONPath]? = nil, when: [Condition]? = nil,
      then: [Check]? = nil, message: MessageTemplate?? = nil, fix: RuleFix?? = nil, source: String? = nil, isBuiltin: Bool? = nil,
      idLine: Int? = nil, idColumn: Int? = nil
    ) -> Storage {
      var body = self.body
      if given != nil || when != nil || then != nil || message != nil || fix != nil {
        let old = body.body
        body = BodySource(
          Body(
            given: given ?? old.given, when: when ?? old.when, then: then ?? old.then, message: message ?? old.message,
            fix: fix ?? old.fix))
      }
      return Storage(
        id: id ?? self.id, summary: summary ?? self.summary, documentationSource: documentationSource, docs: docs ?? self.docs,
        body: body, source: source ?? self.source, isBuiltin: isBuiltin ?? self.isBuiltin, idLine: idLine ?? self.idLine,
        idColumn: idColumn ?? self.idColumn)
    }
  }

  /// Where a rule applies (`given`), when, what it checks (`then`), what it says and how it fixes:
  /// what only linting reads, and a built-in rule's only when first asked (`BodySource`).
  final class Body: Sendable {
    let given: [JSONPath]
    let when: [Condition]
    let then: [Check]
    let message: MessageTemplate?
    let fix: RuleFix?

    init(given: [JSONPath], when: [Condition], then: [Check], message: MessageTemplate?, fix: RuleFix?) {
      self.given = given
      self.when = when
      self.then = then
      self.message = message
      self.fix = fix
    }

    /// Whether a check of `then` is of `function`.
    func checks(with function: any RuleFunction.Type) -> Bool { then.contains { $0.functionType == function } }
  }

  public var id: String {
    get { storage.id }
    set { storage = storage.with(id: newValue) }
  }
  public var summary: String {
    get { storage.summary }
    set { storage = storage.with(summary: newValue) }
  }
  /// The description and examples, built when first asked for (see `DocumentationSource`).
  public var documentation: Documentation { documentationSource.documentation }
  public var description: String { documentation.description }
  public var examples: Examples { documentation.examples }
  var documentationSource: DocumentationSource { storage.documentationSource }
  public var docs: String {
    get { storage.docs }
    set { storage = storage.with(docs: newValue) }
  }
  public var given: [JSONPath] {
    get { storage.body.body.given }
    set { storage = storage.with(given: newValue) }
  }
  public var when: [Condition] {
    get { storage.body.body.when }
    set { storage = storage.with(when: newValue) }
  }
  public var then: [Check] {
    get { storage.body.body.then }
    set { storage = storage.with(then: newValue) }
  }
  public var message: MessageTemplate? {
    get { storage.body.body.message }
    set { storage = storage.with(message: .some(newValue)) }
  }
  /// The mechanical correction offered for each finding, if the right change is unambiguous.
  public var fix: RuleFix? {
    get { storage.body.body.fix }
    set { storage = storage.with(fix: .some(newValue)) }
  }
  /// The file the rule was read from (`rules/...` for the built-in pack).
  public var source: String {
    get { storage.source }
    set { storage = storage.with(source: newValue) }
  }
  public var isBuiltin: Bool {
    get { storage.isBuiltin }
    set { storage = storage.with(isBuiltin: newValue) }
  }
  /// Where the id is written in `source`, to report a duplicate id there.
  public var idLine: Int {
    get { storage.idLine }
    set { storage = storage.with(idLine: newValue) }
  }
  public var idColumn: Int {
    get { storage.idColumn }
    set { storage = storage.with(idColumn: newValue) }
  }

  /// A check: a function applied to the value at `field` (relative to the `given` node with `@`,
  /// absolute with `$`; the `given` node itself when absent).
  public final class Check: Sendable {
    public let field: JSONPath?
    public var function: any RuleFunction { made.function }
    /// `function`'s type, kept apart: asked of the existential, each question copied it.
    public let functionType: any RuleFunction.Type
    public let functionName: String
    public let message: MessageTemplate?
    /// How the check reads a template's placeholders (the rule file's `templates:`).
    public let templates: TemplateHandling
    /// The options `function` was made with, as the loader checked them (what the compiled pack
    /// keeps of a check, and what tells two checks that do the same apart from two that do not).
    var options: FunctionOptions { made.options }
    /// In the compiled pack, the number shared by the checks that do the same (equal
    /// `signature`); -1 for a check loaded from a rule file.
    let kind: Int32
    /// The function and its options when made with the check (a rule file's check); nil for a
    /// check of the built-in pack, whose function is made from `pack` when the check first runs
    /// (`made`, in CompiledPack.swift). One object per check: a start reads every check of the pack.
    let ready: MadeFunction?
    /// The pack a check of the built-in pack makes its function from, and where its options are.
    let pack: PackTables?
    let optionsOffset: Int
    /// The function made from the pack, once it is (see `Atomic.stored(_:)`).
    let madeSlot = Atomic<UInt>(0)

    public convenience init(
      field: JSONPath?, function: any RuleFunction, functionName: String, message: MessageTemplate?, templates: TemplateHandling = .structure
    ) {
      self.init(field: field, function: function, functionName: functionName, options: FunctionOptions(), message: message, templates: templates)
    }

    init(
      field: JSONPath?, function: any RuleFunction, functionName: String, options: FunctionOptions, message: MessageTemplate?,
      templates: TemplateHandling, kind: Int32 = -1
    ) {
      self.kind = kind
      self.field = field
      ready = MadeFunction(function: function, options: options)
      pack = nil
      optionsOffset = 0
      functionType = type(of: function)
      self.functionName = functionName
      self.message = message
      self.templates = templates
    }

    /// A check whose function is made from `pack`'s options at `optionsOffset` when first asked for.
    init(
      field: JSONPath?, reading pack: PackTables, at optionsOffset: Int, functionType: any RuleFunction.Type, message: MessageTemplate?,
      templates: TemplateHandling, kind: Int32
    ) {
      self.kind = kind
      self.field = field
      ready = nil
      self.pack = pack
      self.optionsOffset = optionsOffset
      self.functionType = functionType
      functionName = functionType.name
      self.message = message
      self.templates = templates
    }

    deinit { madeSlot.releaseObject(MadeFunction.self) }
  }

  /// How a check treats a template's placeholders (`templates:` in a rule file, for the rule or
  /// one check).
  public enum TemplateHandling: String, Sendable, CaseIterable {
    /// The check judges the value: a value that is a placeholder is of the right type and not
    /// known yet, so it is not checked; a string with placeholders among literal text is reported
    /// only when every sample rendering of it is (`TemplateSamples`).
    case value
    /// The check judges where values are and which are there (names, presence, counts): it runs
    /// on the template as written.
    case structure
  }

  init(
    id: String, severity: Severity, summary: String, documentation: DocumentationSource, docs: String, given: [JSONPath],
    when: [Condition], then: [Check], message: MessageTemplate?, fix: RuleFix?, source: String, isBuiltin: Bool,
    idLine: Int, idColumn: Int
  ) {
    self.init(
      id: id, severity: severity, summary: summary, documentation: documentation, docs: docs,
      body: BodySource(Body(given: given, when: when, then: then, message: message, fix: fix)), source: source, isBuiltin: isBuiltin,
      idLine: idLine, idColumn: idColumn)
  }

  /// A rule whose body `body` gives, when first asked for.
  init(
    id: String, severity: Severity, summary: String, documentation: DocumentationSource, docs: String, body: BodySource,
    source: String, isBuiltin: Bool, idLine: Int, idColumn: Int
  ) {
    self.severity = severity
    storage = Storage(
      id: id, summary: summary, documentationSource: documentation, docs: docs, body: body, source: source, isBuiltin: isBuiltin,
      idLine: idLine, idColumn: idColumn)
  }

  /// The rule's body as it is held: read or not yet (for the compiled pack and the tests).
  var bodySource: BodySource { storage.body }

  /// What only `rules`, `explain` and the tests read.
  public struct Documentation: Sendable, Equatable {
    public var description: String
    public var examples: Examples
  }

  /// A user's rule file is read whole, so its documentation is checked when it loads. The
  /// built-in pack embeds its documentation apart, as code that builds the tree of those keys:
  /// a run that only lints never builds it. The build loaded that tree, so it cannot fail here.
  enum DocumentationSource: Sendable {
    case loaded(Documentation)
    case later(@Sendable () -> DataValue)

    var documentation: Documentation {
      switch self {
      case .loaded(let documentation): return documentation
      case .later(let tree):
        let root = tree()
        do {
          return try RuleLoader.documentation(root)
        } catch {
          preconditionFailure("embed-rules checked this documentation: \(error)")
        }
      }
    }
  }

  public struct Examples: Sendable, Equatable {
    public var valid: [Example]
    public var invalid: [Example]

    public init(valid: [Example] = [], invalid: [Example] = []) {
      self.valid = valid
      self.invalid = invalid
    }
  }

  public struct Example: Sendable, Equatable {
    public var json: String
    /// The pointers the rule must report, in order (empty for valid examples).
    public var pointers: [String]
    /// Line and column of the example in the rule file, for test failures.
    public var line: Int
    public var column: Int = 1
    /// What the example holds, when it is not detected (a bare APNs payload, say).
    public var input: InputKind? = nil
    /// Linted as a fragment (`--fragment`): the sender adds the target.
    public var fragment = false
    /// The document after `--fix` with this rule alone, for invalid examples of fixable rules.
    public var fixed: String? = nil
    /// A documentation page (Markdown) linted instead of `json`, which is then empty.
    public var page: String? = nil
    /// The `.fcmlint.yml` beside the example. An example with a page or a config is run through
    /// the command line (only rules fcmlint reports itself have them), not by `ExampleCheck`.
    public var config: String? = nil

    /// Whether the example needs the command line: a page or a config.
    public var needsCommandLine: Bool { page != nil || config != nil }
  }

  /// Whether this is the rule that reports unparseable documents (see `ValidJSON`).
  public var reportsSyntax: Bool { storage.body.reportsSyntax }

  /// Whether `docs` is a web address (an https:// URL); else it is a page of the rule's
  /// repository by its path, which formats that need an absolute URI (SARIF's `helpUri`, LSP's
  /// `codeDescription`) name in text instead.
  public static func isWebAddress(_ docs: String) -> Bool { docs.hasPrefix("https://") }

  /// Whether fcmlint reports this rule itself, outside a document's walk (see `ReportedByFcmlint`).
  public var isReportedByFcmlint: Bool { storage.body.isReportedByFcmlint }

  /// A diagnostic of this rule, with its severity and docs, that the reporting code places itself:
  /// the parser's syntax errors, and what `isReportedByFcmlint` rules report. `detail` fills the
  /// message's `{detail}`.
  public func diagnostic(
    file: String, detail: String, start: SourcePosition, end: SourcePosition, startOffset: Int = 0, endOffset: Int = 0
  ) -> Diagnostic {
    let message = self.message?.render(["detail": detail, "value": "", "property": "", "pointer": ""]) ?? detail
    return Diagnostic(
      file: file, rule: id, severity: severity, message: message, pointer: "", start: start, end: end,
      startOffset: startOffset, endOffset: endOffset, docs: docs)
  }
}

/// A message with `{placeholder}`s, checked at load against what the rule's functions provide.
/// Kept as written and rendered from its text: a start reads every built-in message, and only a
/// finding renders one.
public struct MessageTemplate: Sendable {
  public let source: String

  /// A message the build checked already (the compiled pack).
  init(checked source: String) {
    self.source = source
  }

  /// Checks `text`: `{{` and `}}` stand for literal braces, and every `{name}` must be one of
  /// `allowed`.
  init(_ text: String, allowed: Set<String>) throws(OptionError) {
    var unknown: String? = nil
    let closed = Self.scan(text) { name in
      if unknown == nil, !allowed.contains(name) { unknown = name }
    }
    // The first problem in the text: the scan stops at an unclosed brace.
    if let unknown {
      throw OptionError("unknown placeholder '{\(unknown)}' in message (available: \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")))")
    }
    guard closed else { throw OptionError("unclosed '{' in message") }
    source = text
  }

  /// The text with every placeholder filled, or nil when a value is missing: a fix whose
  /// replacement needs a value the finding does not give (a number with no exact Duration) is
  /// not offered.
  func renderComplete(_ values: [String: String]) -> String? {
    render(values, complete: true)
  }

  /// The text with every placeholder filled, a missing value with nothing.
  func render(_ values: [String: String]) -> String {
    render(values, complete: false) ?? ""
  }

  private func render(_ values: [String: String], complete: Bool) -> String? {
    var out: [UInt8] = []
    var missing = false
    let closed = Self.scan(source, literal: { out += $0 }) { name in
      if let value = values[name] { out += value.utf8 } else { missing = true }
    }
    guard closed, !(complete && missing) else { return nil }
    return String(decoding: out, as: UTF8.self)
  }

  /// Reads `text` in order: runs of literal bytes (a doubled brace as one) to `literal`, each
  /// placeholder's name to `placeholder`. False when a `{` is never closed. Works on the UTF-8
  /// bytes: the braces are ASCII.
  private static func scan(
    _ text: String, literal: (ArraySlice<UInt8>) -> Void = { _ in }, _ placeholder: (String) -> Void
  ) -> Bool {
    let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      if c == open || c == close, i + 1 < bytes.count, bytes[i + 1] == c {
        literal(bytes[i..<(i + 1)])
        i += 2
      } else if c == open {
        guard let end = bytes[(i + 1)...].firstIndex(of: close) else { return false }
        placeholder(String(decoding: bytes[(i + 1)..<end], as: UTF8.self))
        i = end + 1
      } else {
        // The run of ordinary bytes up to the next brace, at once (a lone `}` is one of them).
        var end = i + 1
        while end < bytes.count, bytes[end] != open, bytes[end] != close { end += 1 }
        literal(bytes[i..<end])
        i = end
      }
    }
    return true
  }
}

extension Rule.Check {
  /// What the check does, as text: equal for two checks that find the same everywhere (the same
  /// function, options, field and template handling; not the message, which is the rule's to
  /// say). Every part is quoted or tagged, so different checks never write the same text.
  var signature: String {
    var out = "\(functionName) \(templates.rawValue) \(field.map { JSONText.quote($0.description) } ?? "-")"
    for (name, value) in options.entries.sorted(by: { $0.name < $1.name }) {
      out += " \(name)=" + value.signature
    }
    return out
  }
}

extension OptionValue {
  var signature: String {
    func list(_ items: [String]) -> String { "[" + items.map(JSONText.quote).joined(separator: ",") + "]" }
    switch self {
    case .string(let s): return "s" + JSONText.quote(s)
    case .strings(let s): return "S" + list(s)
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return "n\(n.bitPattern)"
    case .value(let v): return "v" + v.signature
    case .path(let p): return "p" + JSONText.quote(p.description)
    case .paths(let p): return "P" + list(p.map(\.description))
    case .pattern(let p): return "r" + JSONText.quote(p.source)
    case .stringMap(let m): return "m" + list(m.keys.sorted().flatMap { [$0, m[$0]!] })
    }
  }
}

extension LiteralValue {
  var signature: String {
    switch self {
    case .string(let s): return "s" + JSONText.quote(s)
    case .number(let n): return "n\(n.bitPattern)"
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let items): return "[" + items.map(\.signature).joined(separator: ",") + "]"
    case .object(let members): return "{" + members.map { JSONText.quote($0.0) + ":" + $0.1.signature }.joined(separator: ",") + "}"
    }
  }
}
