import FCMLintJSON

/// One rule, loaded from one YAML file: where it applies (`given`), when (`when`), what it checks
/// (`then`), what it says (`message`) and the examples that are both its docs and its tests.
public struct Rule: Sendable {
  public var id: String
  public var severity: Severity
  public var summary: String
  /// The description and examples, built when first asked for (see `DocumentationSource`).
  public var documentation: Documentation { documentationSource.documentation }
  public var description: String { documentation.description }
  public var examples: Examples { documentation.examples }
  let documentationSource: DocumentationSource
  public var docs: String
  public var given: [JSONPath]
  public var when: [Condition]
  public var then: [Check]
  public var message: MessageTemplate?
  /// The mechanical correction offered for each finding, if the right change is unambiguous.
  public var fix: RuleFix?
  /// The file the rule was read from (`rules/...` for the built-in pack).
  public var source: String
  public var isBuiltin: Bool
  /// Where the id is written in `source`, to report a duplicate id there.
  public var idLine: Int = 1
  public var idColumn: Int = 1

  /// A check: a function applied to the value at `field` (relative to the `given` node with `@`,
  /// absolute with `$`; the `given` node itself when absent).
  public final class Check: Sendable {
    public let field: JSONPath?
    public let function: any RuleFunction
    public let functionName: String
    public let message: MessageTemplate?
    /// How the check reads a template's placeholders (the rule file's `templates:`).
    public let templates: TemplateHandling

    public init(
      field: JSONPath?, function: any RuleFunction, functionName: String, message: MessageTemplate?, templates: TemplateHandling = .structure
    ) {
      self.field = field
      self.function = function
      self.functionName = functionName
      self.message = message
      self.templates = templates
    }
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
    self.id = id
    self.severity = severity
    self.summary = summary
    self.documentationSource = documentation
    self.docs = docs
    self.given = given
    self.when = when
    self.then = then
    self.message = message
    self.fix = fix
    self.source = source
    self.isBuiltin = isBuiltin
    self.idLine = idLine
    self.idColumn = idColumn
  }

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
  }

  /// Whether this is the rule that reports unparseable documents (see `ValidJSON`).
  public var reportsSyntax: Bool { then.contains { $0.function is ValidJSON } }
}

/// A message with `{placeholder}`s, checked at load against what the rule's functions provide.
public struct MessageTemplate: Sendable {
  enum Part: Sendable {
    case text(String)
    case placeholder(String)
  }

  let parts: [Part]
  public let source: String

  /// Parses `text`; `{{` and `}}` stand for literal braces. Works on the UTF-8 bytes: the braces
  /// are ASCII, and every built-in message is parsed at each start.
  init(_ text: String, allowed: Set<String>) throws(OptionError) {
    let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
    let bytes = Array(text.utf8)
    var parts: [Part] = []
    var literal: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      if (c == open || c == close), i + 1 < bytes.count, bytes[i + 1] == c {
        literal.append(c)
        i += 2
      } else if c == open {
        guard let end = bytes[(i + 1)...].firstIndex(of: close) else { throw OptionError("unclosed '{' in message") }
        let name = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
        guard allowed.contains(name) else {
          throw OptionError("unknown placeholder '{\(name)}' in message (available: \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")))")
        }
        if !literal.isEmpty { parts.append(.text(String(decoding: literal, as: UTF8.self))) }
        literal.removeAll(keepingCapacity: true)
        parts.append(.placeholder(name))
        i = end + 1
      } else {
        // The run of ordinary bytes up to the next brace, at once.
        var end = i + 1
        while end < bytes.count, bytes[end] != open, bytes[end] != close { end += 1 }
        literal += bytes[i..<end]
        i = end
      }
    }
    if !literal.isEmpty { parts.append(.text(String(decoding: literal, as: UTF8.self))) }
    self.parts = parts
    self.source = text
  }

  /// The text with every placeholder filled, or nil when a value is missing: a fix whose
  /// replacement needs a value the finding does not give (a number with no exact Duration) is
  /// not offered.
  func renderComplete(_ values: [String: String]) -> String? {
    var out = ""
    for part in parts {
      switch part {
      case .text(let t): out += t
      case .placeholder(let name):
        guard let value = values[name] else { return nil }
        out += value
      }
    }
    return out
  }

  func render(_ values: [String: String]) -> String {
    var out = ""
    for part in parts {
      switch part {
      case .text(let t): out += t
      case .placeholder(let name): out += values[name] ?? ""
      }
    }
    return out
  }
}
