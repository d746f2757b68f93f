import FCMLintJSON

/// Reads a rule file. Every mistake (bad YAML, an unknown key, a bad path, an unknown function,
/// bad options, an unknown placeholder) is a `ConfigurationError` with the file's line and column:
/// a rule never silently does nothing.
public enum RuleLoader {
  static let ruleKeys = ["id", "severity", "summary", "description", "docs", "given", "when", "then", "message", "fix", "examples"]
  static let checkKeys = ["field", "function", "options", "message"]
  static let enginePlaceholderNames: Set<String> = ["value", "property", "pointer", "detail"]

  /// Loads a rule from its YAML text.
  public static func load(text: String, file: String, isBuiltin: Bool = false, resources: RuleResources = RuleResources()) throws(ConfigurationError) -> Rule {
    try load(DataValue.parse(yaml: text, file: file), isBuiltin: isBuiltin, resources: resources)
  }

  /// Loads a rule from the JSON form the build embeds for the built-in pack (see `embeddedForms`).
  /// Without `documented`, the rule's description and examples may be absent (the lean form).
  public static func load(embeddedJSON text: String, file: String, resources: RuleResources, documented: Bool = true) throws(ConfigurationError) -> Rule {
    try load(DataValue.parse(json: Array(text.utf8), file: file), isBuiltin: true, resources: resources, documented: documented)
  }

  /// Keys only documentation and tests read: the lean form leaves them out.
  static let documentationKeys: Set<String> = ["description", "examples"]

  /// Checks a rule file completely and returns its JSON forms, which load without a YAML parser:
  /// the build embeds them, so a broken built-in rule fails the build with its line and column.
  /// `full` is the whole rule; `lean` leaves out the description and examples, which are most of
  /// a rule's text and which linting never reads, so a run that only lints loads a third of it.
  public static func embeddedForms(yaml text: String, file: String, resources: RuleResources) throws(ConfigurationError) -> (full: String, lean: String) {
    let value = try DataValue.parse(yaml: text, file: file)
    _ = try load(value, isBuiltin: true, resources: resources)
    var lean = value
    if case .mapping(let members) = value.node {
      lean = DataValue(
        node: .mapping(members.filter { member in
          guard case .scalar(let key, _, _) = member.key.node else { return true }
          return !documentationKeys.contains(key)
        }),
        file: value.file, line: value.line, column: value.column)
    }
    return (value.jsonText, lean.jsonText)
  }

  static func load(_ root: DataValue, isBuiltin: Bool, resources: RuleResources, documented: Bool = true) throws(ConfigurationError) -> Rule {
    let file = root.file
    var fields: [String: (key: DataValue, value: DataValue)] = [:]
    for (key, keyValue, value) in try root.mapping(allowed: ruleKeys, what: "a rule") { fields[key] = (keyValue, value) }
    func required(_ key: String) throws(ConfigurationError) -> DataValue {
      guard let field = fields[key] else { throw root.fail("a rule needs '\(key)'") }
      return field.value
    }

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
    let description = documented || fields["description"] != nil ? try required("description").nonEmptyString(what: "description") : ""
    let docsValue = try required("docs")
    let docs = try docsValue.nonEmptyString(what: "docs")
    guard docs.hasPrefix("https://") else { throw docsValue.fail("docs must be an https:// URL of the page that states the requirement") }

    var given: [JSONPath] = []
    for item in try required("given").oneOrMany(what: "given") {
      let path = try parsePath(item, what: "given")
      guard path.anchor == .root else { throw item.fail("a 'given' path starts at the document root, '$'") }
      given.append(path)
    }
    if given.isEmpty { throw root.fail("'given' needs at least one path") }

    var placeholders = enginePlaceholderNames
    var then: [Rule.Check] = []
    for item in try required("then").oneOrMany(what: "then") {
      let check = try loadCheck(item, resources)
      placeholders.formUnion(type(of: check.function).placeholders)
      then.append(check)
    }
    if then.isEmpty { throw root.fail("'then' needs at least one check") }

    var when: [Rule.Condition] = []
    if let value = fields["when"]?.value {
      for item in value.oneOrMany(what: "when") { when.append(try loadCondition(item, resources)) }
    }

    var message: MessageTemplate? = nil
    if let value = fields["message"]?.value { message = try template(value, allowed: placeholders) }

    var examples = Rule.Examples(valid: [], invalid: [])
    if let value = fields["examples"]?.value { examples = try loadExamples(value) }

    var fix: RuleFix? = nil
    if let value = fields["fix"]?.value { fix = try loadFix(value, placeholders: placeholders) }

    return Rule(
      id: id, severity: severity, summary: summary, description: description, docs: docs, given: given,
      when: when, then: then, message: message, fix: fix, examples: examples,
      source: file, isBuiltin: isBuiltin,
      idLine: idValue.line, idColumn: idValue.column)
  }

  static func loadFix(_ value: DataValue, placeholders: Set<String>) throws(ConfigurationError) -> RuleFix {
    var fields: [String: DataValue] = [:]
    let allowed = ["set", "value", "renameKey", "replaceValue", "moveInto", "replacePattern", "with", "description", "onlyTypes", "onlyValues"]
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
      action = .set(try parsePath(fields["set"]!, what: "set"), try v.literal())
    case "renameKey": action = .renameKey(try template(fields["renameKey"]!, allowed: placeholders))
    case "replaceValue": action = .replaceValue(try template(fields["replaceValue"]!, allowed: placeholders.union(["raw", "rawString"])))
    case "moveInto": action = .moveInto(try parsePath(fields["moveInto"]!, what: "moveInto"))
    default:
      guard let with = fields["with"] else { throw value.fail("'replacePattern' needs 'with'") }
      guard case .pattern(let pattern) = try loadOption(fields["replacePattern"]!, OptionSpec("replacePattern", .pattern, "")) else {
        throw fields["replacePattern"]!.fail("not a regular expression")
      }
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
    return RuleFix(action: action, kinds: onlyTypes, values: onlyValues, description: description)
  }

  static func isRuleID(_ id: String) -> Bool {
    let parts = id.split(separator: "-", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    } && id.unicodeScalars.first.map { ("a"..."z").contains($0) } == true
  }

  static func parsePath(_ value: DataValue, what: String) throws(ConfigurationError) -> JSONPath {
    let text = try value.nonEmptyString(what: what)
    do {
      return try JSONPath(text)
    } catch {
      // Point into the path when it is written on one line, as it nearly always is.
      let quoted = value.isQuoted
      throw ConfigurationError(
        file: value.file, line: value.line, column: value.column + error.offset + (quoted ? 1 : 0),
        message: "invalid path '\(text)': \(error.message)")
    }
  }

  static func template(_ value: DataValue, allowed: Set<String>) throws(ConfigurationError) -> MessageTemplate {
    let text = try value.nonEmptyString(what: "message")
    do {
      return try MessageTemplate(text, allowed: allowed)
    } catch {
      throw value.fail(error.message)
    }
  }

  static func loadCheck(_ value: DataValue, _ resources: RuleResources) throws(ConfigurationError) -> Rule.Check {
    var fields: [String: DataValue] = [:]
    for (key, _, v) in try value.mapping(allowed: checkKeys, what: "a check") { fields[key] = v }
    guard let functionValue = fields["function"] else { throw value.fail("a check needs 'function'") }
    let name = try functionValue.nonEmptyString(what: "function")
    guard let function = FunctionRegistry.function(named: name) else {
      throw functionValue.fail("unknown function '\(name)'\(DataValue.suggestion(name, FunctionRegistry.all.map { $0.name })) (available: \(FunctionRegistry.all.map { $0.name }.sorted().joined(separator: ", ")))")
    }
    let field = try fields["field"].map { v throws(ConfigurationError) in try parsePath(v, what: "field") }
    var options = try loadOptions(fields["options"], for: function, at: functionValue)
    options.resources = resources
    let instance: any RuleFunction
    do {
      instance = try function.init(options: options)
    } catch {
      throw (fields["options"] ?? functionValue).fail("\(name): \(error.message)")
    }
    var message: MessageTemplate? = nil
    if let m = fields["message"] {
      message = try template(m, allowed: enginePlaceholderNames.union(function.placeholders))
    }
    return Rule.Check(field: field, function: instance, functionName: name, message: message)
  }

  static func loadCondition(_ value: DataValue, _ resources: RuleResources) throws(ConfigurationError) -> Rule.Condition {
    if case .mapping(let m) = value.node, m.count == 1, case .scalar(let key, _, _) = m[0].key.node, key == "anyOf" || key == "not" {
      let inner = m[0].value
      if key == "not" { return .not(try loadCondition(inner, resources)) }
      var conditions: [Rule.Condition] = []
      for item in try inner.sequence(what: "anyOf") { conditions.append(try loadCondition(item, resources)) }
      if conditions.isEmpty { throw inner.fail("anyOf needs at least one condition") }
      return .anyOf(conditions)
    }
    return .check(try loadCheck(value, resources))
  }

  static func loadOptions(_ value: DataValue?, for function: any RuleFunction.Type, at functionValue: DataValue) throws(ConfigurationError) -> FunctionOptions {
    let specs = function.options
    var options = FunctionOptions()
    if let value {
      let entries = try value.mapping(allowed: specs.map { $0.name }, what: "the options of '\(function.name)'")
      for (key, keyValue, v) in entries {
        let spec = specs.first { $0.name == key }!
        _ = keyValue
        options.values[key] = try loadOption(v, spec)
      }
    }
    for spec in specs where spec.required && options.values[spec.name] == nil {
      throw (value ?? functionValue).fail("function '\(function.name)' needs the option '\(spec.name)' (\(spec.summary))")
    }
    return options
  }

  static func loadOption(_ v: DataValue, _ spec: OptionSpec) throws(ConfigurationError) -> OptionValue {
    let what = "option '\(spec.name)'"
    switch spec.kind {
    case .string: return .string(try v.string(what: what))
    case .strings: return .strings(try v.oneOrMany(what: what).map { item throws(ConfigurationError) in try item.string(what: "each item of \(what)") })
    case .bool: return .bool(try v.bool(what: what))
    case .number: return .number(try v.number(what: what))
    case .integer: return .number(Double(try v.integer(what: what)))
    case .value: return .value(try v.literal())
    case .path: return .path(try parsePath(v, what: what))
    case .paths: return .paths(try v.oneOrMany(what: what).map { item throws(ConfigurationError) in try parsePath(item, what: what) })
    case .stringMap:
      var map: [String: String] = [:]
      for (key, _, value) in try v.mapping(what: what) { map[key] = try value.string(what: "the value of '\(key)' in \(what)") }
      return .stringMap(map)
    case .pattern:
      let source = try v.nonEmptyString(what: what)
      do {
        return .pattern(CompiledPattern(regex: try LinearRegex(source), source: source))
      } catch {
        let column = v.column + error.offset + (v.isQuoted ? 1 : 0)
        throw ConfigurationError(file: v.file, line: v.line, column: column, message: "\(what) is not a supported regular expression: \(error.message)")
      }
    }
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
      if invalid { throw item.fail("an invalid example needs 'json' and the 'pointer' it must report") }
      return Rule.Example(json: try item.string(what: "an example"), pointers: [], line: item.line)
    }
    var json: String? = nil
    var pointers: [String] = []
    var input: InputKind? = nil
    var fixed: String? = nil
    for (key, _, v) in try item.mapping(allowed: invalid ? ["json", "input", "pointer", "pointers", "fixed"] : ["json", "input"], what: "an example") {
      switch key {
      case "json": json = try v.string(what: "json")
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
    guard let json else { throw item.fail("an example needs 'json'") }
    if invalid, pointers.isEmpty { throw item.fail("an invalid example needs the 'pointer' (or 'pointers') it must report") }
    for p in pointers where !(p.isEmpty || p.hasPrefix("/")) {
      throw item.fail("'\(p)' is not a JSON Pointer (they start with '/', or are empty for the whole document)")
    }
    return Rule.Example(json: json, pointers: pointers, line: item.line, input: input, fixed: fixed)
  }
}
