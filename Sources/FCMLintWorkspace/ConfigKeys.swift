import FCMLintEngine

extension Config {
  /// The keys of `.fcmlint.yml`, each declared once. Loading, `extends:` and `overrides:` read and
  /// combine a key only through its entry; the JSON Schema (`schemas/fcmlint-config.schema.json`)
  /// and the README's table of keys are checked against this table by ConfigKeyTableTests, and
  /// `FCMLINT_UPDATE_GOLDEN=1 swift test --filter ConfigKeyTableTests` writes them again.
  /// A new key is an entry here, a field of `Settings` for its value, and its use.
  public static let table: [Key] = [
    .value(
      "root", .bool, \.root, merge: .notInherited, .config, read: { value, context throws(ConfigurationError) in try value.bool(what: context.key) },
      "The top of the project: folder walks below it read .gitignore files from here down, not from the top of a larger repository."),
    .list(
      "extends", .paths, \.extends, merge: .notInherited, .config,
      read: { value, _ throws(ConfigurationError) in try loadExtends(value) },
      "Configs this one inherits (relative to this file), followed depth first in the order listed; this file's settings win over theirs, and a config reached twice counts once, at its last place."),
    .map(
      "rules", .severities, \.rules, .configAndOverrides, read: { value, _ throws(ConfigurationError) in try loadSeverities(value) },
      "Per-rule severity: error, warning, info or off."),
    .list(
      "rule-directories", .paths, \.ruleDirectories, merge: .append, .config,
      read: { value, context throws(ConfigurationError) in try loadRuleDirectories(value, context) },
      "Folders of extra rule files (*.yml), inside this config's folder."),
    .list(
      "ignore", .globs, \.ignore, merge: .append, .config,
      read: { value, context throws(ConfigurationError) in try loadIgnore(value, context) },
      "Gitignore-style patterns of files and folders not to lint."),
    .flag("respect-gitignore", \.respectGitignore, .config, "Whether folder walks skip what .gitignore files exclude (default true)."),
    .flag(
      "fragment", \.fragment, .configAndOverrides,
      "The files are message fragments: the sender adds the target (token, topic, condition), as --fragment says."),
    .flag(
      "docs", \.docs, .config,
      "Folder walks also read documentation pages (.md, .markdown, .mdx, .html, .htm) and lint the message samples in them, as --docs does."),
    .flag(
      "check-urls", \.checkURLs, .configAndOverrides,
      "Fetch the image URLs of the files (HEAD and the first bytes) and report those a device could not show, as --check-urls does (default false: fcmlint stays offline)."),
    .map(
      "limits", .limits, \.limits, .configAndOverrides,
      read: { value, _ throws(ConfigurationError) in value.isNull ? [:] : try loadLimitValues(value) },
      "Bounds on the work one input can cause, as the options of the same names set them."),
    .value(
      "placeholders", .placeholderPatterns, \.placeholders, merge: .replaces(dropping: ["extend-placeholders"]), .configAndOverrides,
      read: { value, context throws(ConfigurationError) in try loadPlaceholders(value, what: context.key) },
      "Regular expressions of a template's placeholders, replacing the defaults ([] turns templates off)."),
    .list(
      "extend-placeholders", .placeholderPatterns, \.extendPlaceholders, merge: .append, .configAndOverrides,
      read: { value, context throws(ConfigurationError) in try loadPlaceholders(value, what: context.key) },
      "Regular expressions of placeholders added to the defaults."),
    .value(
      "input", .inputKind, \.input, merge: .ownWins, .overridesOnly,
      read: { value, _ throws(ConfigurationError) in try loadInput(value) },
      "What the files hold, whatever their keys say, as --input says."),
    .list(
      "overrides", .overrides, \.overrides, merge: .append, .config,
      read: { value, context throws(ConfigurationError) in try loadOverrides(value, context) },
      "Settings for the files some patterns match; later entries win."),
    .list(
      "suppress", .suppressions, \.suppress, merge: .append, .config,
      read: { value, context throws(ConfigurationError) in try loadSuppressions(value, context) },
      "Findings accepted on purpose, each with its reason (JSON files cannot carry comments); one that matches nothing in a run that linted its files is reported as unused-suppression."),
  ]

  /// The keys a config may have, in the table's order.
  public static let keys = table.filter(\.inConfig).map(\.name)
  static let configKeys = table.filter(\.inConfig)
  static let overrideKeys = table.filter(\.inOverrides)

  /// What one config file, or one entry of its `overrides:`, writes: a field per key, nil or empty
  /// where the key is absent. A loaded config holds its own over those it extends.
  struct Settings: Sendable {
    var root: Bool? = nil
    var extends: [(path: String, line: Int, column: Int)] = []
    var rules = Severities()
    var ruleDirectories: [(directory: String, confinedTo: String)] = []
    var ignore: [IgnoreList] = []
    var respectGitignore: Bool? = nil
    var fragment: Bool? = nil
    var docs: Bool? = nil
    var checkURLs: Bool? = nil
    var limits: [Limits.Setting: String] = [:]
    var placeholders: [String]? = nil
    var extendPlaceholders: [String] = []
    var input: InputKind? = nil
    var overrides: [Override] = []
    var suppress: [Suppression] = []

    /// Reads a mapping of keys (the config's, or an override's less `files`).
    static func read(_ value: DataValue, keys: [Key], what: String, _ context: ReadContext) throws(ConfigurationError) -> Settings {
      var settings = Settings()
      for (name, keyValue, item) in try value.mapping(allowed: keys.map(\.name), what: what) {
        try Key.named(name, in: keys, at: keyValue, what: what).read(item, context.reading(name), &settings)
      }
      return settings
    }

    /// These settings over `base` (what they inherit, or the settings an override applies over),
    /// key by key as each key's entry says.
    func merged(over base: Settings, keys: [Key]) -> Settings {
      var base = base
      for key in keys {
        guard case .replaces(let dropped) = key.merge, key.isSet(self) else { continue }
        for name in dropped { Config.table.first { $0.name == name }?.clear(&base) }
      }
      var out = self
      for key in keys { key.combine(&out, base) }
      return out
    }
  }

  /// `rules:`: rule id → severity (nil for off), and where each id is written, to report an
  /// unknown one there.
  struct Severities: MergedByKey, Sendable {
    var values: [String: Severity?] = [:]
    var positions: [String: (file: String, line: Int, column: Int)] = [:]

    var isEmpty: Bool { values.isEmpty }

    func overlaid(with own: Severities) -> Severities {
      Severities(values: values.merging(own.values) { $1 }, positions: positions.merging(own.positions) { $1 })
    }
  }

  /// What a key's reader knows besides its value.
  struct ReadContext: Sendable {
    var key = ""
    /// The folder of the config file, as it was named and absolute.
    var directory: String
    var absoluteDirectory: String

    func reading(_ key: String) -> ReadContext {
      var context = self
      context.key = key
      return context
    }
  }

  /// One key of `.fcmlint.yml`: what it holds, how a config's value combines with what it
  /// inherits, where it may be written, and what it does.
  public struct Key: Sendable {
    /// What a key's value is written as.
    public enum ValueType: Sendable {
      case bool
      /// A path or a list of paths, relative to the config.
      case paths
      /// A gitignore-style pattern or a list of them, relative to the config.
      case globs
      /// Rule id → error, warning, info or off.
      case severities
      /// `Limits.Setting` → its value.
      case limits
      /// A regular expression or a list of them.
      case placeholderPatterns
      /// One of `InputKind`'s names.
      case inputKind
      /// A list of mappings: `files` and the keys that `overrides` may set.
      case overrides
      /// A list of mappings: `files`, `rule`, `pointer`, `reason`.
      case suppressions
    }

    /// How a config's own value combines with the one it inherits through `extends:` (and an
    /// override's with the settings before it).
    public enum Merge: Sendable, Equatable {
      /// Only the file that writes it counts.
      case notInherited
      /// Its own value when it has one, else the inherited one.
      case ownWins
      /// As `ownWins`; with its own value, the inherited values of these keys go too (a list that
      /// replaces the defaults takes the additions to them with it).
      case replaces(dropping: [String])
      /// The inherited list, then its own.
      case append
      /// The inherited entries with its own over them.
      case mergeKeys
    }

    /// Where the key may be written.
    public enum Scope: Sendable {
      case config, configAndOverrides, overridesOnly
    }

    public let name: String
    public let type: ValueType
    public let merge: Merge
    public let scope: Scope
    public let description: String

    public var inConfig: Bool { scope != .overridesOnly }
    public var inOverrides: Bool { scope != .config }

    // Each made by one of the constructors below from the key's field in `Settings`.
    let read: @Sendable (DataValue, ReadContext, inout Settings) throws(ConfigurationError) -> Void
    let isSet: @Sendable (Settings) -> Bool
    let clear: @Sendable (inout Settings) -> Void
    /// Puts the inherited value (from the second settings) under the first's own.
    let combine: @Sendable (inout Settings, Settings) -> Void

    /// The entry for `name`; an error at the key if there is none (`mapping(allowed:)` has
    /// refused every other name already).
    static func named(_ name: String, in keys: [Key], at keyValue: DataValue, what: String) throws(ConfigurationError) -> Key {
      guard let key = keys.first(where: { $0.name == name }) else { throw keyValue.fail("unknown key '\(name)' in \(what)") }
      return key
    }

    /// A key with one value, nil when absent.
    static func value<V: Sendable>(
      _ name: String, _ type: ValueType, _ field: WritableKeyPath<Settings, V?> & Sendable, merge: Merge, _ scope: Scope,
      read: @escaping @Sendable (DataValue, ReadContext) throws(ConfigurationError) -> V, _ description: String
    ) -> Key {
      let combine: @Sendable (inout Settings, Settings) -> Void
      switch merge {
      case .notInherited: combine = { _, _ in }
      case .ownWins, .replaces: combine = { own, base in if own[keyPath: field] == nil { own[keyPath: field] = base[keyPath: field] } }
      case .append, .mergeKeys: preconditionFailure("\(name): one value is not combined by \(merge)")
      }
      return Key(
        name: name, type: type, merge: merge, scope: scope, description: description,
        read: { value, context, settings throws(ConfigurationError) in settings[keyPath: field] = try read(value, context) },
        isSet: { $0[keyPath: field] != nil }, clear: { $0[keyPath: field] = nil }, combine: combine)
    }

    /// `true` or `false`, its own value winning.
    static func flag(_ name: String, _ field: WritableKeyPath<Settings, Bool?> & Sendable, _ scope: Scope, _ description: String) -> Key {
      value(name, .bool, field, merge: .ownWins, scope, read: { value, context throws(ConfigurationError) in try value.bool(what: context.key) }, description)
    }

    /// A list, empty when absent.
    static func list<E: Sendable>(
      _ name: String, _ type: ValueType, _ field: WritableKeyPath<Settings, [E]> & Sendable, merge: Merge, _ scope: Scope,
      read: @escaping @Sendable (DataValue, ReadContext) throws(ConfigurationError) -> [E], _ description: String
    ) -> Key {
      let combine: @Sendable (inout Settings, Settings) -> Void
      switch merge {
      case .notInherited: combine = { _, _ in }
      case .append: combine = { own, base in own[keyPath: field] = base[keyPath: field] + own[keyPath: field] }
      case .ownWins, .replaces, .mergeKeys: preconditionFailure("\(name): a list is not combined by \(merge)")
      }
      return Key(
        name: name, type: type, merge: merge, scope: scope, description: description,
        read: { value, context, settings throws(ConfigurationError) in settings[keyPath: field] = try read(value, context) },
        isSet: { !$0[keyPath: field].isEmpty }, clear: { $0[keyPath: field] = [] }, combine: combine)
    }

    /// A map, empty when absent, merged key by key.
    static func map<M: MergedByKey & Sendable>(
      _ name: String, _ type: ValueType, _ field: WritableKeyPath<Settings, M> & Sendable, _ scope: Scope,
      read: @escaping @Sendable (DataValue, ReadContext) throws(ConfigurationError) -> M, _ description: String
    ) -> Key {
      Key(
        name: name, type: type, merge: .mergeKeys, scope: scope, description: description,
        read: { value, context, settings throws(ConfigurationError) in settings[keyPath: field] = try read(value, context) },
        isSet: { !$0[keyPath: field].isEmpty }, clear: { $0[keyPath: field] = M() },
        combine: { own, base in own[keyPath: field] = base[keyPath: field].overlaid(with: own[keyPath: field]) })
    }
  }
}

/// A value a config's key merges entry by entry with the one it inherits.
protocol MergedByKey {
  init()
  var isEmpty: Bool { get }
  /// These entries with `own`'s over them.
  func overlaid(with own: Self) -> Self
}

extension Dictionary: MergedByKey {
  func overlaid(with own: Self) -> Self { merging(own) { $1 } }
}
