/// The rules of one run: the built-in pack plus the user's rule folders.
///
/// A user rule may not reuse a built-in rule's id: ids are the stable contract of the output, and
/// a silent replacement would make the same id mean different checks in different projects. To
/// change a built-in check, turn the rule `off` in `.fcmlint.yml` and add a rule with a new id.
public struct RuleSet: Sendable {
  public private(set) var rules: [Rule] = []
  /// The schemas rule files may name (the built-in fcm-v1 among them).
  public private(set) var resources = RuleResources()
  /// The names the built-in pack's rules use (`rules/aliases.yml`), which user rules may use too.
  public var aliases: Aliases { aliasesSource.aliases }
  private(set) var aliasesSource = AliasesSource.loaded(Aliases())
  /// Where each rule added one by one is (`add`).
  private var index: [String: Int] = [:]
  /// The first `sortedCount` rules are in id order (the built-in pack, as the build wrote it):
  /// found by a binary search, not hashed into `index` at each start.
  private var sortedCount = 0
  /// The linter's tables for these rules as the build laid them out (the built-in pack alone);
  /// nil once a rule is added.
  var compiledPlan: CompiledPlan?

  public init(resources: RuleResources = RuleResources()) { self.resources = resources }

  /// The built-in pack's start (see `init(compiled:)`): its aliases are read when first asked for.
  init(resources: RuleResources, aliases: @escaping @Sendable () -> Aliases) {
    self.resources = resources
    aliasesSource = .later(aliases)
  }

  /// Aliases as loaded, or read from the compiled pack each time they are asked for (a user's
  /// rule folder, a documentation page's vocabulary: never per document).
  enum AliasesSource: Sendable {
    case loaded(Aliases)
    case later(@Sendable () -> Aliases)

    var aliases: Aliases {
      switch self {
      case .loaded(let aliases): return aliases
      case .later(let read): return read()
      }
    }
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

  /// Adds the rule files of one user rule folder, given as (path, text) pairs in sorted order (the
  /// workspace reads them). An `aliases.yml` directly in `folder` is not a rule: it adds names for
  /// the rules of this folder (see `Aliases`).
  public mutating func addFolder(_ folder: String, files: [(path: String, text: String)]) throws(ConfigurationError) {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    let aliasesFile = prefix + Aliases.fileName
    var aliases = self.aliases
    if let file = files.first(where: { $0.path == aliasesFile }) {
      aliases = try aliases.adding(DataValue.parse(yaml: file.text, file: file.path))
    }
    let cache = CompileCache()
    for file in files where file.path != aliasesFile {
      try add(RuleLoader.load(DataValue.parse(yaml: file.text, file: file.path), isBuiltin: false, resources: resources, aliases: aliases, cache: cache))
    }
  }

  public mutating func add(_ rule: Rule) throws(ConfigurationError) {
    if let existing = position(of: rule.id) {
      let other = rules[existing]
      let why = other.isBuiltin
        ? "it is a built-in rule's id; turn the built-in off in .fcmlint.yml and give yours a new id"
        : "it is already defined in \(other.source)"
      throw ConfigurationError(file: rule.source, line: rule.idLine, column: rule.idColumn, message: "duplicate rule id '\(rule.id)': \(why)")
    }
    index[rule.id] = rules.count
    rules.append(rule)
    compiledPlan = nil
  }

  /// Sets out with `sorted`, rules in strictly increasing id order (checked), as the first rules.
  mutating func start(withSorted sorted: [Rule]) {
    precondition(rules.isEmpty && sorted.indices.dropFirst().allSatisfy { sorted[$0 - 1].id < sorted[$0].id }, "rules out of id order")
    rules = sorted
    sortedCount = sorted.count
  }

  private func position(of id: String) -> Int? {
    var low = 0, high = sortedCount
    while low < high {
      let middle = (low + high) / 2
      if rules[middle].id < id { low = middle + 1 } else { high = middle }
    }
    if low < sortedCount, rules[low].id == id { return low }
    return index[id]
  }

  public func rule(_ id: String) -> Rule? { position(of: id).map { rules[$0] } }

  /// Whether `rules` are in id order as they are (the built-in pack alone): known, not checked.
  var isInIDOrder: Bool { sortedCount == rules.count }

  public var ids: [String] { rules.map(\.id).sorted() }
}
