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

  /// Loads a rule from the JSON form the build embeds for the built-in pack (see `embeddedJSON`).
  public static func load(embeddedJSON text: String, file: String, resources: RuleResources) throws(ConfigurationError) -> Rule {
    try load(DataValue.parse(json: Array(text.utf8), file: file), isBuiltin: true, resources: resources)
  }

  /// The spec of a rule file (what embed-rules writes as Swift for the built-in pack).
  public static func spec(yaml text: String, file: String, isBuiltin: Bool = false) throws(ConfigurationError) -> RuleSpec {
    try spec(DataValue.parse(yaml: text, file: file), isBuiltin: isBuiltin)
  }

  /// Checks a rule file completely and returns its JSON form, which loads without a YAML parser:
  /// the build embeds it for the docs and `explain`, so a broken built-in rule fails the build
  /// with its line and column.
  public static func embeddedJSON(yaml text: String, file: String, resources: RuleResources) throws(ConfigurationError) -> String {
    let value = try DataValue.parse(yaml: text, file: file)
    _ = try load(value, isBuiltin: true, resources: resources)
    return value.jsonText
  }

  static func load(_ root: DataValue, isBuiltin: Bool, resources: RuleResources) throws(ConfigurationError) -> Rule {
    try spec(root, isBuiltin: isBuiltin).compile(resources: resources)
  }

  /// Checks a rule file's shape and returns what it states (see `RuleSpec`); `compile` does the rest.
  static func spec(_ root: DataValue, isBuiltin: Bool) throws(ConfigurationError) -> RuleSpec {
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
    let description = try required("description").nonEmptyString(what: "description")
    let docsValue = try required("docs")
    let docs = try docsValue.nonEmptyString(what: "docs")
    guard docs.hasPrefix("https://") else { throw docsValue.fail("docs must be an https:// URL of the page that states the requirement") }

    var given: [Located<String>] = []
    for item in try required("given").oneOrMany(what: "given") { given.append(try located(item, what: "given")) }
    if given.isEmpty { throw root.fail("'given' needs at least one path") }

    var then: [CheckSpec] = []
    for item in try required("then").oneOrMany(what: "then") { then.append(try loadCheck(item)) }
    if then.isEmpty { throw root.fail("'then' needs at least one check") }

    var when: [ConditionSpec] = []
    if let value = fields["when"]?.value {
      for item in value.oneOrMany(what: "when") { when.append(try loadCondition(item)) }
    }

    let message = try fields["message"].map { field throws(ConfigurationError) in try located(field.value, what: "message") }

    var examples = Rule.Examples(valid: [], invalid: [])
    if let value = fields["examples"]?.value { examples = try loadExamples(value) }

    let fix = try fields["fix"].map { field throws(ConfigurationError) in try loadFix(field.value) }

    return RuleSpec(
      id: id, severity: severity, summary: summary, description: description, docs: docs, given: given,
      when: when, then: then, message: message, fix: fix, examples: examples,
      source: file, isBuiltin: isBuiltin, idLine: idValue.line, idColumn: idValue.column)
  }

  /// A non-empty string and where it is written.
  static func located(_ value: DataValue, what: String) throws(ConfigurationError) -> Located<String> {
    Located(try value.nonEmptyString(what: what), line: value.line, column: value.column, quoted: value.isQuoted)
  }

  static func loadFix(_ value: DataValue) throws(ConfigurationError) -> FixSpec {
    var fields: [String: DataValue] = [:]
    let allowed = ["set", "value", "renameKey", "replaceValue", "moveInto", "replacePattern", "with", "description", "onlyTypes", "onlyValues"]
    for (key, _, v) in try value.mapping(allowed: allowed, what: "fix") { fields[key] = v }
    let kinds = ["set", "renameKey", "replaceValue", "moveInto", "replacePattern"].filter { fields[$0] != nil }
    guard kinds.count == 1 else { throw value.fail("a fix needs exactly one of set, renameKey, replaceValue, moveInto, replacePattern") }
    let kind = kinds[0]
    if fields["value"] != nil && kind != "set" { throw fields["value"]!.fail("'value' goes with 'set'") }
    if fields["with"] != nil && kind != "replacePattern" { throw fields["with"]!.fail("'with' goes with 'replacePattern'") }
    let action: FixSpec.Action
    switch kind {
    case "set":
      guard let v = fields["value"] else { throw value.fail("'set' needs 'value'") }
      action = .set(try located(fields["set"]!, what: "set"), try v.literal())
    case "renameKey": action = .renameKey(try located(fields["renameKey"]!, what: "message"))
    case "replaceValue": action = .replaceValue(try located(fields["replaceValue"]!, what: "message"))
    case "moveInto": action = .moveInto(try located(fields["moveInto"]!, what: "moveInto"))
    default:
      guard let with = fields["with"] else { throw value.fail("'replacePattern' needs 'with'") }
      action = .replacePattern(try located(fields["replacePattern"]!, what: "option 'replacePattern'"), with: try with.string(what: "with"))
    }
    let description = try fields["description"].map { v throws(ConfigurationError) in try located(v, what: "message") }
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
    return FixSpec(action: action, kinds: onlyTypes, values: onlyValues, description: description)
  }

  static func isRuleID(_ id: String) -> Bool {
    let parts = id.split(separator: "-", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    } && id.unicodeScalars.first.map { ("a"..."z").contains($0) } == true
  }

  static func loadCheck(_ value: DataValue) throws(ConfigurationError) -> CheckSpec {
    var fields: [String: DataValue] = [:]
    for (key, _, v) in try value.mapping(allowed: checkKeys, what: "a check") { fields[key] = v }
    guard let functionValue = fields["function"] else { throw value.fail("a check needs 'function'") }
    let name = try functionValue.nonEmptyString(what: "function")
    guard let function = FunctionRegistry.function(named: name) else {
      throw functionValue.fail("unknown function '\(name)'\(DataValue.suggestion(name, FunctionRegistry.all.map { $0.name })) (available: \(FunctionRegistry.all.map { $0.name }.sorted().joined(separator: ", ")))")
    }
    let field = try fields["field"].map { v throws(ConfigurationError) in try located(v, what: "field") }
    let options = try loadOptions(fields["options"], for: function, at: functionValue)
    let optionsAt = fields["options"] ?? functionValue
    let message = try fields["message"].map { m throws(ConfigurationError) in try located(m, what: "message") }
    return CheckSpec(
      field: field, function: name, options: options, optionsLine: optionsAt.line, optionsColumn: optionsAt.column, message: message)
  }

  static func loadCondition(_ value: DataValue) throws(ConfigurationError) -> ConditionSpec {
    if case .mapping(let m) = value.node, m.count == 1, case .scalar(let key, _, _) = m[0].key.node, key == "anyOf" || key == "not" {
      let inner = m[0].value
      if key == "not" { return .not(try loadCondition(inner)) }
      var conditions: [ConditionSpec] = []
      for item in try inner.sequence(what: "anyOf") { conditions.append(try loadCondition(item)) }
      if conditions.isEmpty { throw inner.fail("anyOf needs at least one condition") }
      return .anyOf(conditions)
    }
    return .check(try loadCheck(value))
  }

  static func loadOptions(_ value: DataValue?, for function: any RuleFunction.Type, at functionValue: DataValue) throws(ConfigurationError) -> [String: OptionSource] {
    let specs = function.options
    var options: [String: OptionSource] = [:]
    if let value {
      let entries = try value.mapping(allowed: specs.map { $0.name }, what: "the options of '\(function.name)'")
      for (key, _, v) in entries {
        let spec = specs.first { $0.name == key }!
        options[key] = try loadOption(v, spec)
      }
    }
    for spec in specs where spec.required && options[spec.name] == nil {
      throw (value ?? functionValue).fail("function '\(function.name)' needs the option '\(spec.name)' (\(spec.summary))")
    }
    return options
  }

  static func loadOption(_ v: DataValue, _ spec: OptionSpec) throws(ConfigurationError) -> OptionSource {
    let what = "option '\(spec.name)'"
    switch spec.kind {
    case .string: return .string(try v.string(what: what))
    case .strings: return .strings(try v.oneOrMany(what: what).map { item throws(ConfigurationError) in try item.string(what: "each item of \(what)") })
    case .bool: return .bool(try v.bool(what: what))
    case .number: return .number(try v.number(what: what))
    case .integer: return .number(Double(try v.integer(what: what)))
    case .value: return .value(try v.literal())
    case .path: return .path(try located(v, what: what))
    case .paths: return .paths(try v.oneOrMany(what: what).map { item throws(ConfigurationError) in try located(item, what: what) })
    case .stringMap:
      var map: [String: String] = [:]
      for (key, _, value) in try v.mapping(what: what) { map[key] = try value.string(what: "the value of '\(key)' in \(what)") }
      return .stringMap(map)
    case .pattern: return .pattern(try located(v, what: what))
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
