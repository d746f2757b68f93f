import LinearRegex

/// A rule as its file states it: checked, but not yet compiled into the `Rule` that lints.
///
/// Loading a rule goes text → `DataValue` → `RuleSpec` → `Rule`. The first two steps check the
/// file's shape (keys, types, function names and their options); `compile` builds the paths,
/// patterns, messages and functions. User rule files take every step at each run. The built-in
/// pack takes the first two at build time: embed-rules writes its specs as Swift code, so a run
/// that only lints starts from `compile` and reads no rule text at all.
///
/// Values compiled later keep where they are written (`Located`), so a path or pattern that does
/// not compile is still reported at its line and column.
public struct RuleSpec: Sendable, Equatable {
  public var id: String
  public var severity: Severity
  public var summary: String
  /// Empty in the built-in pack's lint-only specs, like `examples`.
  public var description: String
  public var docs: String
  public var given: [Located<String>]
  public var when: [ConditionSpec]
  public var then: [CheckSpec]
  public var message: Located<String>?
  public var fix: FixSpec?
  public var examples: Rule.Examples
  /// The file the rule was read from (`rules/...` for the built-in pack).
  public var source: String
  public var isBuiltin: Bool
  /// Where the id is written, to report a duplicate id there.
  public var idLine: Int
  public var idColumn: Int

  public init(
    id: String, severity: Severity, summary: String, description: String, docs: String, given: [Located<String>],
    when: [ConditionSpec], then: [CheckSpec], message: Located<String>?, fix: FixSpec?, examples: Rule.Examples,
    source: String, isBuiltin: Bool, idLine: Int, idColumn: Int
  ) {
    self.id = id
    self.severity = severity
    self.summary = summary
    self.description = description
    self.docs = docs
    self.given = given
    self.when = when
    self.then = then
    self.message = message
    self.fix = fix
    self.examples = examples
    self.source = source
    self.isBuiltin = isBuiltin
    self.idLine = idLine
    self.idColumn = idColumn
  }
}

/// A value and where it is written in its file (`quoted`: after an opening quote, which moves
/// the columns of positions inside it by one).
public struct Located<Value: Sendable & Equatable>: Sendable, Equatable {
  public var value: Value
  public var line: Int
  public var column: Int
  public var quoted: Bool

  public init(_ value: Value, line: Int, column: Int, quoted: Bool = false) {
    self.value = value
    self.line = line
    self.column = column
    self.quoted = quoted
  }
}

/// One check of `then` or `when`: a function, its options and where it applies.
public struct CheckSpec: Sendable, Equatable {
  public var field: Located<String>?
  public var function: String
  public var options: [String: OptionSource]
  /// Where a problem the function itself finds with its options is reported: the options, or
  /// the function's name when there are none.
  public var optionsLine: Int
  public var optionsColumn: Int
  public var message: Located<String>?

  public init(
    field: Located<String>?, function: String, options: [String: OptionSource], optionsLine: Int, optionsColumn: Int,
    message: Located<String>?
  ) {
    self.field = field
    self.function = function
    self.options = options
    self.optionsLine = optionsLine
    self.optionsColumn = optionsColumn
    self.message = message
  }
}

public indirect enum ConditionSpec: Sendable, Equatable {
  case check(CheckSpec)
  case anyOf([ConditionSpec])
  case not(ConditionSpec)
}

/// An option value as written, checked against the function's declaration of it: paths and
/// patterns are still text (with their positions) until `compile`.
public enum OptionSource: Sendable, Equatable {
  case string(String), strings([String]), bool(Bool), number(Double), value(LiteralValue)
  case path(Located<String>), paths([Located<String>]), pattern(Located<String>), stringMap([String: String])
}

/// A rule's `fix:` as written.
public struct FixSpec: Sendable, Equatable {
  public enum Action: Sendable, Equatable {
    case set(Located<String>, LiteralValue)
    case renameKey(Located<String>)
    case replaceValue(Located<String>)
    case moveInto(Located<String>)
    case replacePattern(Located<String>, with: String)
  }

  public var action: Action
  public var kinds: [String]?
  public var values: [LiteralValue]?
  public var description: Located<String>?

  public init(action: Action, kinds: [String]?, values: [LiteralValue]?, description: Located<String>?) {
    self.action = action
    self.kinds = kinds
    self.values = values
    self.description = description
  }
}

// MARK: - Compiling

/// What compiling a rule pack shares between its rules: each distinct pattern and path is compiled
/// once (the built-in pack writes 250 paths, 144 of them distinct, and 35 patterns, 19 distinct).
/// Only the thread loading the pack uses it.
public final class CompileCache {
  var patterns: [String: LinearRegex] = [:]
  var paths: [String: JSONPath] = [:]
  public init() {}
}

extension RuleSpec {
  /// The rule that lints: paths, patterns and messages compiled, functions built from their
  /// options. Fails, with the position, on what only compiling can tell (a path that does not
  /// parse, a placeholder the functions do not fill in, options a function rejects).
  public func compile(resources: RuleResources, cache: CompileCache = CompileCache()) throws(ConfigurationError) -> Rule {
    var given: [JSONPath] = []
    for item in self.given {
      let path = try compilePath(item, what: "given", cache)
      guard path.anchor == .root else { throw fail(item, "a 'given' path starts at the document root, '$'") }
      given.append(path)
    }
    var placeholders = RuleLoader.enginePlaceholderNames
    var then: [Rule.Check] = []
    for check in self.then {
      let compiled = try compileCheck(check, resources, cache)
      placeholders.formUnion(type(of: compiled.function).placeholders)
      then.append(compiled)
    }
    var when: [Rule.Condition] = []
    for condition in self.when { when.append(try compileCondition(condition, resources, cache)) }
    let message = try self.message.map { m throws(ConfigurationError) in try compileTemplate(m, allowed: placeholders) }
    let fix = try self.fix.map { f throws(ConfigurationError) in try compileFix(f, placeholders: placeholders, cache) }
    return Rule(
      id: id, severity: severity, summary: summary, description: description, docs: docs, given: given,
      when: when, then: then, message: message, fix: fix, examples: examples,
      source: source, isBuiltin: isBuiltin, idLine: idLine, idColumn: idColumn)
  }

  func fail<Value>(_ at: Located<Value>, _ message: String) -> ConfigurationError {
    ConfigurationError(file: source, line: at.line, column: at.column, message: message)
  }

  func compileCheck(_ spec: CheckSpec, _ resources: RuleResources, _ cache: CompileCache) throws(ConfigurationError) -> Rule.Check {
    // Parsing the rule checked the name against the registry.
    guard let function = FunctionRegistry.function(named: spec.function) else {
      throw ConfigurationError(file: source, line: spec.optionsLine, column: spec.optionsColumn, message: "unknown function '\(spec.function)'")
    }
    let field = try spec.field.map { f throws(ConfigurationError) in try compilePath(f, what: "field", cache) }
    var options = FunctionOptions(resources: resources)
    for (name, value) in spec.options { options.values[name] = try compileOption(name, value, cache) }
    let instance: any RuleFunction
    do {
      instance = try function.init(options: options)
    } catch {
      throw ConfigurationError(file: source, line: spec.optionsLine, column: spec.optionsColumn, message: "\(spec.function): \(error.message)")
    }
    let message = try spec.message.map { m throws(ConfigurationError) in
      try compileTemplate(m, allowed: RuleLoader.enginePlaceholderNames.union(function.placeholders))
    }
    return Rule.Check(field: field, function: instance, functionName: spec.function, message: message)
  }

  func compileCondition(_ spec: ConditionSpec, _ resources: RuleResources, _ cache: CompileCache) throws(ConfigurationError) -> Rule.Condition {
    switch spec {
    case .check(let check): return .check(try compileCheck(check, resources, cache))
    case .not(let inner): return .not(try compileCondition(inner, resources, cache))
    case .anyOf(let items):
      var conditions: [Rule.Condition] = []
      for item in items { conditions.append(try compileCondition(item, resources, cache)) }
      return .anyOf(conditions)
    }
  }

  func compileOption(_ name: String, _ source: OptionSource, _ cache: CompileCache) throws(ConfigurationError) -> OptionValue {
    switch source {
    case .string(let s): return .string(s)
    case .strings(let s): return .strings(s)
    case .bool(let b): return .bool(b)
    case .number(let n): return .number(n)
    case .value(let v): return .value(v)
    case .stringMap(let m): return .stringMap(m)
    case .path(let p): return .path(try compilePath(p, what: "option '\(name)'", cache))
    case .paths(let items):
      var paths: [JSONPath] = []
      for p in items { paths.append(try compilePath(p, what: "option '\(name)'", cache)) }
      return .paths(paths)
    case .pattern(let p): return .pattern(try compilePattern(p, what: "option '\(name)'", cache))
    }
  }

  func compilePath(_ text: Located<String>, what: String, _ cache: CompileCache) throws(ConfigurationError) -> JSONPath {
    if let path = cache.paths[text.value] { return path }
    do {
      let path = try JSONPath(text.value)
      cache.paths[text.value] = path
      return path
    } catch {
      // Point into the path when it is written on one line, as it nearly always is.
      throw ConfigurationError(
        file: source, line: text.line, column: text.column + error.offset + (text.quoted ? 1 : 0),
        message: "invalid path '\(text.value)': \(error.message)")
    }
  }

  func compilePattern(_ text: Located<String>, what: String, _ cache: CompileCache) throws(ConfigurationError) -> CompiledPattern {
    if let regex = cache.patterns[text.value] { return CompiledPattern(regex: regex, source: text.value) }
    do {
      let regex = try LinearRegex(text.value)
      cache.patterns[text.value] = regex
      return CompiledPattern(regex: regex, source: text.value)
    } catch {
      throw ConfigurationError(
        file: source, line: text.line, column: text.column + error.offset + (text.quoted ? 1 : 0),
        message: "\(what) is not a supported regular expression: \(error.message)")
    }
  }

  func compileTemplate(_ text: Located<String>, allowed: Set<String>) throws(ConfigurationError) -> MessageTemplate {
    do {
      return try MessageTemplate(text.value, allowed: allowed)
    } catch {
      throw fail(text, error.message)
    }
  }

  func compileFix(_ spec: FixSpec, placeholders: Set<String>, _ cache: CompileCache) throws(ConfigurationError) -> RuleFix {
    let action: FixAction
    switch spec.action {
    case .set(let path, let value): action = .set(try compilePath(path, what: "set", cache), value)
    case .renameKey(let template): action = .renameKey(try compileTemplate(template, allowed: placeholders))
    case .replaceValue(let template):
      action = .replaceValue(try compileTemplate(template, allowed: placeholders.union(["raw", "rawString"])))
    case .moveInto(let path): action = .moveInto(try compilePath(path, what: "moveInto", cache))
    case .replacePattern(let pattern, let with):
      action = .replacePattern(try compilePattern(pattern, what: "option 'replacePattern'", cache), with: with)
    }
    let description = try spec.description.map { d throws(ConfigurationError) in try compileTemplate(d, allowed: placeholders) }
    return RuleFix(action: action, kinds: spec.kinds, values: spec.values, description: description)
  }
}
