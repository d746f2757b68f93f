import FCMLintJSON
import LinearRegex

/// Reads a rule: the one way from a rule file's tree (`DataValue`, from a user's YAML or from the
/// code the build writes for the built-in pack) to the `Rule` that lints. Each key is checked and
/// compiled (paths, patterns, messages, functions) where it is read, so a new rule key is read
/// here and nowhere else. Every mistake (bad YAML, an unknown key, a bad path, an unknown function,
/// bad options, an unknown placeholder or alias) is a `ConfigurationError` with the file's line
/// and column: a rule never silently does nothing.
public enum RuleLoader {
  static let ruleKeys = ["id", "severity", "summary", "description", "docs", "given", "when", "then", "message", "fix", "examples", "templates"]
  /// The keys only `rules`, `explain` and the tests read. The built-in pack embeds them apart
  /// from the rest (see `EmbeddedRule`), so a run that only lints never builds them.
  public static let documentationKeys = ["description", "examples"]
  static let checkKeys = ["field", "function", "options", "message", "templates"]
  static let enginePlaceholderNames: Set<String> = ["value", "property", "pointer", "detail"]

  /// Loads a rule from its YAML text.
  public static func load(
    text: String, file: String, isBuiltin: Bool = false, resources: RuleResources = RuleResources(), aliases: Aliases = Aliases()
  ) throws(ConfigurationError) -> Rule {
    try load(DataValue.parse(yaml: text, file: file), isBuiltin: isBuiltin, resources: resources, aliases: aliases)
  }

  /// Loads a rule from its tree. With `documentation`, the tree leaves out the description and
  /// examples, and `documentation` builds them (a tree of just those keys) when they are asked for.
  public static func load(
    _ root: DataValue, documentation: (@Sendable () -> DataValue)? = nil, isBuiltin: Bool, resources: RuleResources,
    aliases: Aliases, cache: CompileCache = CompileCache()
  ) throws(ConfigurationError) -> Rule {
    var fields: [String: DataValue] = [:]
    let allowed = documentation == nil ? ruleKeys : ruleKeys.filter { !documentationKeys.contains($0) }
    for (key, _, value) in try root.mapping(allowed: allowed, what: "a rule") { fields[key] = value }
    func required(_ key: String) throws(ConfigurationError) -> DataValue {
      guard let field = fields[key] else { throw root.fail("a rule needs '\(key)'") }
      return field
    }
    let templates = try fields["templates"].map(RuleReader.templates) ?? .structure
    let reader = RuleReader(file: root.file, resources: resources, aliases: aliases, cache: cache, templates: templates)

    let idValue = try required("id")
    let id = try idValue.nonEmptyString(what: "id")
    guard isRuleID(id) else {
      throw idValue.fail("rule id '\(id)' must be lower-case words joined by '-', like 'image-extension'")
    }
    let severityValue = try required("severity")
    let severityText = try severityValue.string(what: "severity")
    guard let severity = Severity(rawValue: severityText) else {
      throw severityValue.fail("severity must be error, warning or info, not '\(severityText)'")
    }
    let summary = try required("summary").nonEmptyString(what: "summary")
    let documentationSource: Rule.DocumentationSource
    if let documentation {
      documentationSource = .later(documentation)
    } else {
      documentationSource = .loaded(try loadDocumentation(fields, at: root))
    }
    let docsValue = try required("docs")
    let docs = try docsValue.nonEmptyString(what: "docs")
    guard Rule.isWebAddress(docs) || isRepositoryPage(docs) else {
      throw docsValue.fail(
        "docs must be an https:// URL of the page that states the requirement, or a page of the rule's repository by its path (docs/rules/my-rule.md)")
    }

    var given: [JSONPath] = []
    for item in try required("given").oneOrMany(what: "given") {
      for path in try reader.paths(item, what: "given") {
        guard path.anchor == .root else { throw item.fail("a 'given' path starts at the document root, '$'") }
        given.append(path)
      }
    }
    if given.isEmpty { throw root.fail("'given' needs at least one path") }

    var placeholders = enginePlaceholderNames
    var then: [Rule.Check] = []
    for item in try required("then").oneOrMany(what: "then") {
      let checks = try reader.checks(item)
      for check in checks { placeholders.formUnion(check.functionType.placeholders) }
      then += checks
    }
    if then.isEmpty { throw root.fail("'then' needs at least one check") }
    let reportedByFcmlint = then.contains { $0.functionType == ReportedByFcmlint.self }
    if reportedByFcmlint {
      guard ReportedRules.all.contains(id) else {
        throw idValue.fail("fcmlint reports only \(ReportedRules.all.joined(separator: ", ")) itself ('\(ReportedByFcmlint.name)'), not '\(id)'")
      }
      guard then.count == 1, fields["when"] == nil, fields["fix"] == nil else {
        throw root.fail("a rule fcmlint reports itself ('\(ReportedByFcmlint.name)') has no other check, no 'when' and no 'fix'")
      }
    }
    if case .loaded(let documentation) = documentationSource, !reportedByFcmlint {
      // A page or a config is read by the command line, which only these rules' tests run.
      for example in documentation.examples.valid + documentation.examples.invalid where example.page != nil || example.config != nil {
        throw ConfigurationError(
          file: root.file, line: example.line, column: example.column,
          message: "'page' and 'config' examples are for the rules fcmlint reports itself ('\(ReportedByFcmlint.name)'); give 'json'")
      }
    }

    var when: [Rule.Condition] = []
    if let value = fields["when"] {
      for item in value.oneOrMany(what: "when") { when.append(try reader.condition(item)) }
    }

    let message = try fields["message"].map { value throws(ConfigurationError) in try reader.template(value, allowed: placeholders) }
    let fix = try fields["fix"].map { value throws(ConfigurationError) in try reader.fix(value, placeholders: placeholders) }

    return Rule(
      id: id, severity: severity, summary: summary, documentation: documentationSource, docs: docs, given: given,
      when: when, then: then, message: message, fix: fix, source: root.file, isBuiltin: isBuiltin,
      idLine: idValue.line, idColumn: idValue.column)
  }

  /// The description and examples of a tree holding just those keys (see `load`'s `documentation`).
  public static func documentation(_ root: DataValue) throws(ConfigurationError) -> Rule.Documentation {
    var fields: [String: DataValue] = [:]
    for (key, _, value) in try root.mapping(allowed: documentationKeys, what: "a rule's documentation") { fields[key] = value }
    return try loadDocumentation(fields, at: root)
  }

  static func loadDocumentation(_ fields: [String: DataValue], at root: DataValue) throws(ConfigurationError) -> Rule.Documentation {
    guard let descriptionValue = fields["description"] else { throw root.fail("a rule needs 'description'") }
    let description = try descriptionValue.nonEmptyString(what: "description")
    let examples = try fields["examples"].map(loadExamples) ?? Rule.Examples()
    return Rule.Documentation(description: description, examples: examples)
  }

  /// A page of the rule's repository named by its path: relative, without '..', a scheme or blanks.
  static func isRepositoryPage(_ docs: String) -> Bool {
    !docs.hasPrefix("/") && !docs.contains(":") && !docs.contains(where: \.isWhitespace)
      && !docs.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
  }

  static func isRuleID(_ id: String) -> Bool {
    let parts = id.split(separator: "-", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    } && id.unicodeScalars.first.map { ("a"..."z").contains($0) } == true
  }

  static func loadExamples(_ value: DataValue) throws(ConfigurationError) -> Rule.Examples {
    var examples = Rule.Examples(valid: [], invalid: [])
    for (key, _, list) in try value.mapping(allowed: ["valid", "invalid"], what: "examples") {
      for item in try list.sequence(what: "examples.\(key)") {
        let example = try loadExample(item, invalid: key == "invalid")
        if key == "valid" { examples.valid.append(example) } else { examples.invalid.append(example) }
      }
    }
    return examples
  }

  static func loadExample(_ item: DataValue, invalid: Bool) throws(ConfigurationError) -> Rule.Example {
    if case .scalar = item.node {
      if invalid { throw item.fail("an invalid example needs 'json' (or 'page') and the 'pointer' it must report") }
      return Rule.Example(json: try item.string(what: "an example"), pointers: [], line: item.line, column: item.column)
    }
    var json: String? = nil
    var pointers: [String] = []
    var input: InputKind? = nil
    var fixed: String? = nil
    var fragment = false
    var page: String? = nil
    var config: String? = nil
    let allowed = ["json", "page", "config", "input", "fragment"] + (invalid ? ["pointer", "pointers", "fixed"] : [])
    for (key, _, v) in try item.mapping(allowed: allowed, what: "an example") {
      switch key {
      case "json": json = try v.string(what: "json")
      case "page": page = try v.string(what: "page")
      case "config": config = try v.string(what: "config")
      case "fragment": fragment = try v.bool(what: "fragment")
      case "fixed": fixed = try v.string(what: "fixed")
      case "input":
        let text = try v.string(what: "input")
        guard let kind = InputKind(rawValue: text) else {
          throw v.fail("input must be \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        input = kind
      case "pointer": pointers = [try v.string(what: "pointer")]
      default: pointers = try v.strings(what: "pointers")
      }
    }
    if json != nil && page != nil { throw item.fail("an example is 'json' or a 'page', not both") }
    guard let json = json ?? page.map({ _ in "" }) else { throw item.fail("an example needs 'json'") }
    if invalid, pointers.isEmpty { throw item.fail("an invalid example needs the 'pointer' (or 'pointers') it must report") }
    for p in pointers where !(p.isEmpty || p.hasPrefix("/")) {
      throw item.fail("'\(p)' is not a JSON Pointer (they start with '/', or are empty for the whole document)")
    }
    return Rule.Example(
      json: json, pointers: pointers, line: item.line, column: item.column, input: input, fragment: fragment, fixed: fixed, page: page,
      config: config)
  }
}

/// What loading a rule pack shares between its rules: each distinct pattern and path is compiled
/// once (the built-in pack writes many paths and patterns more than once). Only the thread loading
/// the pack uses it.
public final class CompileCache {
  var patterns: [String: LinearRegex] = [:]
  var paths: [String: JSONPath] = [:]
  public init() {}
}

/// Reads the parts of one rule file that compile: checks, conditions, paths, options, messages
/// and fixes, each failing at the position it is written.
struct RuleReader {
  let file: String
  let resources: RuleResources
  let aliases: Aliases
  let cache: CompileCache
  /// The rule's `templates:`, for the checks that do not say.
  var templates: Rule.TemplateHandling = .structure

  static func templates(_ value: DataValue) throws(ConfigurationError) -> Rule.TemplateHandling {
    let text = try value.string(what: "templates")
    guard let handling = Rule.TemplateHandling(rawValue: text) else {
      throw value.fail("templates must be \(Rule.TemplateHandling.allCases.map(\.rawValue).joined(separator: " or ")), not '\(text)'")
    }
    return handling
  }

  /// A check, once at each path its `field` stands for: an alias of several paths
  /// (`'#AndroidNotifications.color'`) checks each of them, with the same function and message.
  func checks(_ value: DataValue) throws(ConfigurationError) -> [Rule.Check] {
    var fields: [String: DataValue] = [:]
    for (key, _, v) in try value.mapping(allowed: RuleLoader.checkKeys, what: "a check") { fields[key] = v }
    guard let functionValue = fields["function"] else { throw value.fail("a check needs 'function'") }
    let name = try functionValue.nonEmptyString(what: "function")
    guard let function = FunctionRegistry.function(named: name) else {
      let names = FunctionRegistry.all.map { $0.name }
      throw functionValue.fail("unknown function '\(name)'\(DataValue.suggestion(name, names)) (available: \(names.sorted().joined(separator: ", ")))")
    }
    var fieldPaths: [JSONPath?] = [nil]
    if let v = fields["field"] { fieldPaths = try paths(v, what: "field").map { Optional($0) } }
    let options = try self.options(fields["options"], for: function, at: functionValue)
    // A problem the function itself finds with its options is reported at the options, or at
    // the function's name when there are none.
    let optionsAt = fields["options"] ?? functionValue
    let instance: any RuleFunction
    do {
      instance = try function.init(options: options)
    } catch {
      throw optionsAt.fail("\(name): \(error.message)")
    }
    let message = try fields["message"].map { m throws(ConfigurationError) in
      try template(m, allowed: RuleLoader.enginePlaceholderNames.union(function.placeholders))
    }
    let templates = try fields["templates"].map(Self.templates) ?? self.templates
    return fieldPaths.map { Rule.Check(field: $0, function: instance, functionName: name, options: options, message: message, templates: templates) }
  }

  func options(_ value: DataValue?, for function: any RuleFunction.Type, at functionValue: DataValue) throws(ConfigurationError) -> FunctionOptions {
    let specs = function.options
    var options = FunctionOptions(resources: resources)
    if let value {
      let entries = try value.mapping(allowed: specs.map { $0.name }, what: "the options of '\(function.name)'")
      for (key, _, v) in entries {
        let spec = specs.first { $0.name == key }!
        options[key] = try option(v, spec)
      }
    }
    for spec in specs where spec.required && options[spec.name] == nil {
      throw (value ?? functionValue).fail("function '\(function.name)' needs the option '\(spec.name)' (\(spec.summary))")
    }
    return options
  }

  func option(_ written: DataValue, _ spec: OptionSpec) throws(ConfigurationError) -> OptionValue {
    // Named only when a message needs it.
    func what() -> String { "option '\(spec.name)'" }
    switch spec.kind {
    case .string: return .string(try written.string(what: what()))
    case .strings:
      var strings: [String] = []
      for item in try aliases.definition(written).oneOrMany(what: what()) {
        // An item naming a list definition stands for its items, one naming a mapping for its keys.
        let named = try aliases.definition(item)
        if case .scalar = item.node, case .mapping = named.node {
          for (key, _, _) in try named.mapping(what: what()) { strings.append(key) }
          continue
        }
        for item in named.oneOrMany(what: what()) { strings.append(try item.string(what: "each item of \(what())")) }
      }
      return .strings(strings)
    case .bool: return .bool(try written.bool(what: what()))
    case .number: return .number(try written.number(what: what()))
    case .integer: return .number(Double(try written.integer(what: what())))
    case .value: return .value(try written.literal())
    case .path: return .path(try path(written, what: what()))
    case .paths:
      var paths: [JSONPath] = []
      for item in written.oneOrMany(what: what()) { paths += try self.paths(item, what: what()) }
      return .paths(paths)
    case .stringMap:
      var map: [String: String] = [:]
      for (key, _, value) in try aliases.definition(written).mapping(what: what()) { map[key] = try value.string(what: "the value of '\(key)' in \(what())") }
      return .stringMap(StringMap(map))
    case .pattern: return .pattern(try pattern(try aliases.definition(written), what: what()))
    }
  }

  func fix(_ value: DataValue, placeholders: Set<String>) throws(ConfigurationError) -> RuleFix {
    var fields: [String: DataValue] = [:]
    let allowed = ["set", "value", "renameKey", "replaceValue", "moveInto", "replacePattern", "with", "description", "onlyTypes", "onlyValues", "onlyMatching"]
    for (key, _, v) in try value.mapping(allowed: allowed, what: "fix") { fields[key] = v }
    let kinds = ["set", "renameKey", "replaceValue", "moveInto", "replacePattern"].filter { fields[$0] != nil }
    guard kinds.count == 1 else { throw value.fail("a fix needs exactly one of set, renameKey, replaceValue, moveInto, replacePattern") }
    let kind = kinds[0]
    if fields["value"] != nil && kind != "set" { throw fields["value"]!.fail("'value' goes with 'set'") }
    if fields["with"] != nil && kind != "replacePattern" { throw fields["with"]!.fail("'with' goes with 'replacePattern'") }
    let action: FixAction
    switch kind {
    case "set":
      guard let v = fields["value"] else { throw value.fail("'set' needs 'value'") }
      let target = try path(fields["set"]!, what: "set")
      action = .set(target, try v.literal())
    case "renameKey": action = .renameKey(try template(fields["renameKey"]!, allowed: placeholders))
    case "replaceValue": action = .replaceValue(try template(fields["replaceValue"]!, allowed: placeholders.union(["raw", "rawString"])))
    case "moveInto": action = .moveInto(try path(fields["moveInto"]!, what: "moveInto"))
    default:
      guard let with = fields["with"] else { throw value.fail("'replacePattern' needs 'with'") }
      let pattern = try pattern(try aliases.definition(fields["replacePattern"]!), what: "option 'replacePattern'")
      action = .replacePattern(pattern, with: try with.string(what: "with"))
    }
    let description = try fields["description"].map { v throws(ConfigurationError) in try template(v, allowed: placeholders) }
    var onlyTypes: [String]? = nil
    if let v = fields["onlyTypes"] {
      onlyTypes = try v.strings(what: "onlyTypes")
      for t in onlyTypes! where !["object", "array", "string", "number", "boolean", "null"].contains(t) {
        throw v.fail("unknown type '\(t)' in onlyTypes (types: object, array, string, number, boolean, null)")
      }
    }
    var onlyValues: [LiteralValue]? = nil
    if let v = fields["onlyValues"] {
      onlyValues = []
      for item in try v.sequence(what: "onlyValues") { onlyValues!.append(try item.literal()) }
    }
    let onlyMatching = try fields["onlyMatching"].map { v throws(ConfigurationError) in
      try pattern(try aliases.definition(v), what: "option 'onlyMatching'")
    }
    return RuleFix(action: action, kinds: onlyTypes, values: onlyValues, matching: onlyMatching, description: description)
  }

  /// The one path `value` stands for (a path, or an alias of one path).
  func path(_ value: DataValue, what: @autoclosure () -> String) throws(ConfigurationError) -> JSONPath {
    let paths = try self.paths(value, what: what())
    guard paths.count == 1 else {
      throw value.fail("\(what()) takes one path; '\(try value.string(what: what()))' stands for \(paths.count)")
    }
    return paths[0]
  }

  /// The paths `value` stands for: itself, or an alias's paths (see `Aliases`).
  func paths(_ value: DataValue, what: @autoclosure () -> String) throws(ConfigurationError) -> [JSONPath] {
    var out: [JSONPath] = []
    for text in try aliases.expand(value, what: what()) {
      if let path = cache.paths[text] {
        out.append(path)
        continue
      }
      do {
        let path = try JSONPath(text)
        cache.paths[text] = path
        out.append(path)
      } catch {
        // Point into the path when it is written on one line, as it nearly always is.
        throw ConfigurationError(
          file: value.file, line: value.line, column: value.column + error.offset + (value.isQuoted ? 1 : 0),
          message: "invalid path '\(text)': \(error.message)")
      }
    }
    return out
  }

  func pattern(_ value: DataValue, what: @autoclosure () -> String) throws(ConfigurationError) -> CompiledPattern {
    let text = try value.nonEmptyString(what: what())
    if let regex = cache.patterns[text] { return CompiledPattern(regex: regex, source: text) }
    do {
      let regex = try LinearRegex(text)
      cache.patterns[text] = regex
      return CompiledPattern(regex: regex, source: text)
    } catch {
      throw ConfigurationError(
        file: value.file, line: value.line, column: value.column + error.offset + (value.isQuoted ? 1 : 0),
        message: "\(what()) is not a supported regular expression: \(error.message)")
    }
  }

  func template(_ value: DataValue, allowed: Set<String>) throws(ConfigurationError) -> MessageTemplate {
    let text = try value.nonEmptyString(what: "message")
    do {
      return try MessageTemplate(text, allowed: allowed)
    } catch {
      throw value.fail(error.message)
    }
  }
}
