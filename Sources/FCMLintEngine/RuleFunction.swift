import FCMLintJSON
import LinearRegex

/// A check a rule applies to the values its paths select: small, pure, and declaring its options,
/// so a rule file that misuses it is rejected at load, never at lint time.
public protocol RuleFunction: Sendable {
  /// The name rule files use (`function: equals`).
  static var name: String { get }
  /// One sentence for the generated docs.
  static var summary: String { get }
  static var options: [OptionSpec] { get }
  /// Message placeholders this function fills in, besides the engine's `value`, `property` and `pointer`.
  static var placeholders: [String] { get }
  /// Whether the function judges a template's partly placeholder strings itself (reading
  /// `JSONDocument.templates`), rather than on sample renderings, when its check reads values
  /// (`templates: value`). A target that is wholly a placeholder is still not given to it.
  static var readsTemplates: Bool { get }
  /// Whether the function finds nothing (and passes) wherever its field is missing, whatever its
  /// options: the linter then does not call it for a field a document does not have, which is
  /// most fields of most documents.
  static var ignoresMissing: Bool { get }
  /// Whether the function fails (does not pass) wherever its field is missing, whatever its
  /// options: a condition then needs only to know whether the field is there.
  static var failsWhereMissing: Bool { get }
  /// Whether `passingKinds` may be other than 0 (the linter asks it of functions that say so).
  static var passesByKind: Bool { get }

  init(options: FunctionOptions) throws(OptionError)

  /// The kinds of value (a bit per `JSONKind`) at which the function passes whatever the value
  /// is, with these options: the linter does not call it on a value of those kinds (in a plain
  /// document; a template's checks are always called). A `type` check of strings is most of the
  /// checks a message runs, and most find a string. Never the placeholder kind.
  var passingKinds: UInt16 { get }

  /// Findings for one target (the node a `field` path leads to, or where it breaks off).
  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding]

  /// Whether `check` finds nothing for this target: all a `when` condition asks. Functions
  /// often used in conditions (`present`, `absent`) answer it without building the messages of
  /// findings that would be thrown away.
  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool
}

extension RuleFunction {
  public static var placeholders: [String] { [] }
  public static var readsTemplates: Bool { false }
  public static var ignoresMissing: Bool { false }
  public static var failsWhereMissing: Bool { false }
  public static var passesByKind: Bool { false }
  public var passingKinds: UInt16 { 0 }

  public func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    check(target, in: context).isEmpty
  }
}

/// What a function may look at besides its target: the whole document and the node `given` selected.
public struct FunctionContext {
  public let document: JSONDocument
  /// Set by the linter for each `given` node; one context serves a whole document.
  public internal(set) var given: NodeID
  /// The document is a fragment: its sender adds the target at send time (`--fragment`).
  public let isFragment: Bool
  /// Work one function may share with others on the same document (see `LintScratch`).
  let scratch: LintScratch?

  public init(document: JSONDocument, given: NodeID, isFragment: Bool = false) {
    self.init(document: document, given: given, isFragment: isFragment, scratch: nil)
  }

  init(document: JSONDocument, given: NodeID, isFragment: Bool, scratch: LintScratch?) {
    self.document = document
    self.given = given
    self.isFragment = isFragment
    self.scratch = scratch
  }
}

/// Per-document memo for functions: one per `Linter.lint(document:)` call, so it is only ever
/// used on one thread and dies with the document. The three schema rules share one resolution
/// of the message through the schema here instead of each hashing every key.
final class LintScratch {
  /// Schema walks by where they started: the node, and the schema and type it was read as.
  var schemaTraces: [(node: NodeID, schema: ObjectIdentifier, type: Int32, trace: SchemaTrace)] = []
  /// For a template with partly placeholder strings: its sample renderings (`TemplateSamples`),
  /// made when a check first needs them, each with its own scratch.
  var renderings: [FunctionContext]? = nil
  var render: (() -> [JSONDocument])? = nil
  /// Whether the document is a fragment, for the renderings' contexts.
  var isFragment = false
  var renderedTextPairs: [(String, String)]? = nil

  init(render: (() -> [JSONDocument])? = nil) {
    self.render = render
  }
}

/// One problem a function found.
public struct Finding: Sendable {
  public var node: NodeID
  /// Point at the member's key rather than its value (unknown or misspelt names).
  public var atKey: Bool
  /// Values for the message placeholders; `detail` is the default message.
  public var values: [String: String]
  /// A byte range inside the node to report instead of the whole value (a position inside a string).
  public var range: Range<Int>? = nil
  /// The finding depends on what a template's placeholders will be (two images, one of them a
  /// placeholder, may differ): never reported, and a `when` condition it decides is undecided.
  public var uncertain = false

  public init(node: NodeID, atKey: Bool = false, values: [String: String] = [:]) {
    self.node = node
    self.atKey = atKey
    self.values = values
  }

  public init(_ resolution: JSONPath.Resolution, detail: String, _ extra: [String: String] = [:]) {
    switch resolution {
    case .found(let id): node = id
    case .missing(let nearest, _): node = nearest
    }
    atKey = false
    values = extra
    values["detail"] = detail
  }
}

// MARK: - Options

/// The declaration of one option: its name, type and whether it must be given.
public struct OptionSpec: Sendable {
  public enum Kind: String, Sendable {
    case string, strings, bool, number, integer, value, path, paths, pattern
    /// A mapping of strings to strings (for example misspelling → correct name).
    case stringMap
  }

  public var name: String
  public var kind: Kind
  public var required: Bool
  public var summary: String

  public init(_ name: String, _ kind: Kind, required: Bool = false, _ summary: String) {
    self.name = name
    self.kind = kind
    self.required = required
    self.summary = summary
  }
}

/// A JSON value written in a rule file (the `equals` function's expected value, for instance).
public indirect enum LiteralValue: Sendable, Equatable, CustomStringConvertible {
  case string(String), number(Double), bool(Bool), null
  case array([LiteralValue]), object([(String, LiteralValue)])

  public static func == (a: LiteralValue, b: LiteralValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    case (.null, .null): return true
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// Whether the document's node holds this value (types must match: `1` is not `"1"`).
  public func matches(_ node: NodeID, in document: JSONDocument) -> Bool {
    switch (self, document.kind(node)) {
    case (.string(let s), .string): return document.string(node) == s
    case (.number(let n), .number): return document.number(node) == n
    case (.bool(true), .true), (.bool(false), .false), (.null, .null): return true
    case (.array(let items), .array):
      let children = Array(document.children(node))
      return children.count == items.count && zip(items, children).allSatisfy { $0.matches($1, in: document) }
    case (.object(let members), .object):
      let children = Array(document.children(node))
      return children.count == members.count
        && zip(members, children).allSatisfy { document.key($1) == $0.0 && $0.1.matches($1, in: document) }
    default: return false
    }
  }

  /// The value as JSON text.
  public var description: String {
    switch self {
    case .string(let s): return JSONText.quote(s)
    case .number(let n): return JSONText.number(n)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .object(let members): return "{" + members.map { JSONText.quote($0.0) + ": " + $0.1.description }.joined(separator: ", ") + "}"
    }
  }
}

/// A regular expression from a rule file, compiled once at load into a linear-time matcher.
public struct CompiledPattern: Sendable {
  public let regex: LinearRegex
  public let source: String

  public func matches(_ text: String) -> Bool { regex.matches(text) }
}

public enum OptionValue: Sendable {
  case string(String), strings([String]), bool(Bool), number(Double), value(LiteralValue)
  case path(JSONPath), paths([JSONPath]), pattern(CompiledPattern), stringMap(StringMap)
}

/// An option that maps names to names (`renames`, `hints`): its keys in increasing order, each
/// once, looked up by binary search. A start reads the pack's maps in that order and hashes no
/// key: most runs look none up (a key that breaks no rule never reaches its function's map).
public struct StringMap: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  public private(set) var keys: [String] = []
  private var values: [String] = []

  public init() {}

  public init(_ dictionary: [String: String]) {
    keys = dictionary.keys.sorted()
    values = keys.map { dictionary[$0]! }
  }

  /// Keys already in increasing order, each once (the compiled pack's), with their values.
  init(sortedKeys keys: [String], values: [String]) {
    self.keys = keys
    self.values = values
  }

  /// The last value given for a repeated key, as a dictionary built from the pairs would keep.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }

  public var count: Int { keys.count }
  public var isEmpty: Bool { keys.isEmpty }

  public subscript(key: String) -> String? {
    var low = 0, high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low < keys.count && keys[low] == key ? values[low] : nil
  }

  public struct Iterator: IteratorProtocol {
    let map: StringMap
    var index = 0

    public mutating func next() -> (key: String, value: String)? {
      guard index < map.keys.count else { return nil }
      defer { index += 1 }
      return (map.keys[index], map.values[index])
    }
  }

  public func makeIterator() -> Iterator { Iterator(map: self) }
}

/// A function's options after they were checked against its declaration.
public struct FunctionOptions: Sendable {
  /// The options by name, in the order given. A check has a handful: a list searched by name
  /// costs less than a dictionary's hashing, and every start makes one per built-in check.
  var entries: [(name: String, value: OptionValue)] = []
  /// Schemas and other data the rule files may name.
  public var resources: RuleResources

  public var values: [String: OptionValue] {
    get { Dictionary(entries, uniquingKeysWith: { _, last in last }) }
    set { entries = newValue.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
  }

  public init(_ values: [String: OptionValue] = [:], resources: RuleResources = RuleResources()) {
    self.resources = resources
    if !values.isEmpty { self.values = values }
  }

  /// The value of option `name`, if given.
  public subscript(name: String) -> OptionValue? {
    get { entries.first { $0.name == name }?.value }
    set {
      let index = entries.firstIndex { $0.name == name }
      switch (index, newValue) {
      case (let i?, let value?): entries[i].value = value
      case (let i?, nil): entries.remove(at: i)
      case (nil, let value?): entries.append((name, value))
      case (nil, nil): break
      }
    }
  }

  public func string(_ name: String) -> String? {
    if case .string(let s)? = self[name] { return s }
    return nil
  }
  public func strings(_ name: String) -> [String]? {
    if case .strings(let s)? = self[name] { return s }
    return nil
  }
  public func bool(_ name: String) -> Bool? {
    if case .bool(let b)? = self[name] { return b }
    return nil
  }
  public func number(_ name: String) -> Double? {
    if case .number(let n)? = self[name] { return n }
    return nil
  }
  public func value(_ name: String) -> LiteralValue? {
    if case .value(let v)? = self[name] { return v }
    return nil
  }
  public func path(_ name: String) -> JSONPath? {
    if case .path(let p)? = self[name] { return p }
    return nil
  }
  public func paths(_ name: String) -> [JSONPath]? {
    if case .paths(let p)? = self[name] { return p }
    return nil
  }
  public func pattern(_ name: String) -> CompiledPattern? {
    if case .pattern(let p)? = self[name] { return p }
    return nil
  }
  public func stringMap(_ name: String) -> StringMap? {
    if case .stringMap(let m)? = self[name] { return m }
    return nil
  }
}

/// An option combination a function rejects (beyond what the declarations check).
public struct OptionError: Error, Sendable {
  public var option: String?
  public var message: String
  public init(option: String? = nil, _ message: String) {
    self.option = option
    self.message = message
  }
}

// MARK: - Registry

/// Every function a rule file may name.
public enum FunctionRegistry {
  public static let all: [any RuleFunction.Type] = [
    Present.self, Absent.self, Equals.self, Enumeration.self, Pattern.self, TypeIs.self, Length.self,
    NumberRange.self, DurationCheck.self, KeyName.self, AtLeastOne.self, ExactlyOne.self, URLCheck.self,
    Consistent.self, ByteSize.self, ContentSize.self, TopicCondition.self, SchemaCheck.self,
    NoDuplicateKeys.self, ValidJSON.self, DependentRequired.self, ReportedByFcmlint.self,
  ]

  static let byName: [String: any RuleFunction.Type] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  public static func function(named name: String) -> (any RuleFunction.Type)? { byName[name] }
}

// MARK: - Helpers shared by functions

/// Short, single-line rendering of a value for messages.
func excerpt(_ node: NodeID, in document: JSONDocument, limit: Int = 80) -> String {
  var text = document.rawText(node)
  if text.count > limit { text = String(text.prefix(limit - 1)) + "…" }
  return text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingWhitespace() }.joined(separator: " ")
}

extension Substring {
  func trimmingWhitespace() -> Substring {
    var s = self
    while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
    return s
  }
}
