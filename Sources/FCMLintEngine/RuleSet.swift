/// The rules of one run: the built-in pack plus the user's rule folders.
///
/// A user rule may not reuse a built-in rule's id: ids are the stable contract of the output, and
/// a silent replacement would make the same id mean different checks in different projects. To
/// change a built-in check, turn the rule `off` in `.fcmlint.yml` and add a rule with a new id.
public struct RuleSet: Sendable {
  public private(set) var rules: [Rule] = []
  /// The schemas rule files may name (the built-in fcm-v1 among them).
  public private(set) var resources = RuleResources()
  private var index: [String: Int] = [:]

  public init(resources: RuleResources = RuleResources()) { self.resources = resources }

  /// Loads the built-in pack from (path, JSON form) pairs, as the build embeds them.
  public init(builtin files: [(path: String, json: String)], schemas: [(path: String, json: String)]) throws(ConfigurationError) {
    resources = try Self.loadSchemas(schemas)
    for file in files {
      try add(RuleLoader.load(embeddedJSON: file.json, file: file.path, resources: resources))
    }
  }

  /// Builds the built-in pack from the specs the build wrote as code (see `RuleSpec`): no rule
  /// text is read, only compiled.
  public init(builtin specs: [RuleSpec], schemas: [(path: String, json: String)]) throws(ConfigurationError) {
    resources = try Self.loadSchemas(schemas)
    let cache = CompileCache()
    for spec in specs { try add(spec.compile(resources: resources, cache: cache)) }
  }

  /// Reads schema files (name: their `name` member).
  public static func loadSchemas(_ files: [(path: String, json: String)]) throws(ConfigurationError) -> RuleResources {
    var resources = RuleResources()
    for file in files {
      let schema = try Schema(json: Array(file.json.utf8), file: file.path)
      resources.schemas[schema.name] = schema
    }
    return resources
  }

  public mutating func add(_ rule: Rule) throws(ConfigurationError) {
    if let existing = index[rule.id] {
      let other = rules[existing]
      let why = other.isBuiltin
        ? "it is a built-in rule's id; turn the built-in off in .fcmlint.yml and give yours a new id"
        : "it is already defined in \(other.source)"
      throw ConfigurationError(file: rule.source, line: rule.idLine, column: rule.idColumn, message: "duplicate rule id '\(rule.id)': \(why)")
    }
    index[rule.id] = rules.count
    rules.append(rule)
  }

  public func rule(_ id: String) -> Rule? { index[id].map { rules[$0] } }

  public var ids: [String] { rules.map(\.id).sorted() }
}
