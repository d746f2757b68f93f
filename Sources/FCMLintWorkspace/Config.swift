import FCMLintEngine
import FCMLintJSON

/// `.fcmlint.yml`: per-rule severities, extra rule folders, ignored files, limits, per-path
/// overrides, suppressions, and other configs it extends.
///
/// ```yaml
/// root: true                     # the project's top: .gitignore files are read from here down
/// extends: ../shared/fcmlint.yml # or a list; this file's settings win over theirs
/// rules:
///   image-consistency: warning   # error | warning | info | off
/// rule-directories: [fcm-rules]  # relative to this file
/// ignore: ["fixtures/**", "*.draft.json"]
/// limits: {max-depth: 64, max-file-size: 1M, max-string-length: 64K}
/// placeholders: ['\{\{[^{}]*\}\}']     # a template's placeholders; [] turns templates off
/// extend-placeholders: ['%[A-Z_]+%']  # or: added to the defaults
/// overrides:
///   - files: ["fragments/**"]
///     fragment: true
/// docs: true                     # folder walks lint the samples in Markdown and HTML pages too
/// suppress:
///   - {files: ["legacy/*.json"], rule: image-extension, pointer: /message/apns/fcm_options/image, reason: "CDN adds the type"}
/// ```
///
/// Paths and globs are relative to the file that writes them, an extended config's included.
public struct Config: Sendable {
  public static let fileName = ".fcmlint.yml"

  /// Where the config was read from, or nil for the defaults.
  public var file: String?
  /// The directory of the config file.
  public var baseDirectory: String = "."
  /// Its own settings over those of the configs it extends (`Config.table` says how each key
  /// combines); the properties below read them.
  var settings = Settings()
  /// The defaults, changed by `limits:`; command-line options change them further.
  public var limits = Limits()
  /// A template's placeholder syntaxes (`placeholders:`, `extend-placeholders:`).
  public var placeholders: PlaceholderSyntax = .default

  /// `root: true`: this folder is the top of the project: folder walks below it read `.gitignore`
  /// files from here down, not from the top of a repository that holds it.
  public var root: Bool {
    get { settings.root ?? false }
    set { settings.root = newValue }
  }
  /// Rule id → severity, or nil for `off`.
  public var severities: [String: Severity?] {
    get { settings.rules.values }
    set { settings.rules.values = newValue }
  }
  /// Extra rule folders, each with the folder of the config that names it, which it must stay in.
  public var ruleDirectories: [(directory: String, confinedTo: String)] {
    get { settings.ruleDirectories }
    set { settings.ruleDirectories = newValue }
  }
  /// `ignore:` of this config and those it extends, each relative to the config that wrote it.
  public var ignoreLists: [IgnoreList] {
    get { settings.ignore }
    set { settings.ignore = newValue }
  }
  /// Whether folder walks include documentation pages (`.md`, `.markdown`, `.mdx`, `.html`,
  /// `.htm`) and lint their message samples (`docs:`, `--docs`; default false, so a repository's
  /// README is not linted by surprise).
  public var docs: Bool {
    get { settings.docs ?? false }
    set { settings.docs = newValue }
  }
  /// Whether folder walks read `.gitignore` files (`respect-gitignore:`, default true).
  public var respectGitignore: Bool {
    get { settings.respectGitignore ?? true }
    set { settings.respectGitignore = newValue }
  }
  /// The files are message fragments, whose sender adds the target (`fragment:`, `--fragment`).
  public var fragment: Bool {
    get { settings.fragment ?? false }
    set { settings.fragment = newValue }
  }
  /// Whether the files' image URLs are fetched and checked (`check-urls:`, `--check-urls`).
  public var checkURLs: Bool {
    get { settings.checkURLs ?? false }
    set { settings.checkURLs = newValue }
  }
  /// Settings for the files some globs match (`overrides:`), later entries winning.
  public var overrides: [Override] {
    get { settings.overrides }
    set { settings.overrides = newValue }
  }
  /// Findings turned off on purpose (`suppress:`), each with its reason.
  public var suppressions: [Suppression] {
    get { settings.suppress }
    set { settings.suppress = newValue }
  }
  /// `extends:` as written: paths relative to this file, with their positions.
  var extendsPaths: [(path: String, line: Int, column: Int)] { settings.extends }
  /// The config files this config was read from: its own, then those it extends.
  public internal(set) var files: [String] = []

  /// One entry of `overrides:`.
  public struct Override: Sendable {
    /// Gitignore-style patterns relative to `base`, the folder of the config that wrote them
    /// (absolute: matched against every file of a walk).
    public var files: [Glob]
    public var base: String = "/"
    /// What it sets: only the keys `Config.table` allows in overrides.
    var settings = Settings()

    public var severities: [String: Severity?] {
      get { settings.rules.values }
      set { settings.rules.values = newValue }
    }
    public var input: InputKind? {
      get { settings.input }
      set { settings.input = newValue }
    }
    public var fragment: Bool? {
      get { settings.fragment }
      set { settings.fragment = newValue }
    }

    func matches(_ absolutePath: String) -> Bool {
      IgnoreList(base: base, globs: files).excludes(absolutePath, isDirectory: false)
    }
  }

  /// One entry of `suppress:`: a rule's findings (at one JSON Pointer and below, or anywhere) in
  /// the files the globs match (every file the config governs when there are none).
  public struct Suppression: Sendable {
    public var files: [Glob]
    /// The folder of the config that wrote it, absolute.
    public var base: String
    public var rule: String
    public var pointer: String?
    public var reason: String
    /// Where it is written, for the warning when it suppresses nothing.
    public var file: String
    public var line: Int
    public var column: Int

    public func appliesTo(_ absolutePath: String) -> Bool {
      files.isEmpty ? IgnoreList.relative(absolutePath, to: base) != nil || base == "/"
        : IgnoreList(base: base, globs: files).excludes(absolutePath, isDirectory: false)
    }

    public func covers(_ diagnostic: Diagnostic) -> Bool {
      guard diagnostic.rule == rule else { return false }
      guard let pointer else { return true }
      return diagnostic.pointer == pointer || diagnostic.pointer.hasPrefix(pointer == "" ? "/" : pointer + "/")
    }

    /// Identifies it within a run (config file and position).
    public var key: String { "\(file):\(line):\(column)" }
  }

  /// What applies to one file: the config's settings, then every override whose `files` match
  /// it, in order (`overrides` holds their indices, which name the combination).
  public struct FileSettings: Sendable {
    public var severities: [String: Severity?]
    public var input: InputKind?
    public var fragment: Bool
    public var checkURLs: Bool = false
    public var placeholders: PlaceholderSyntax
    public var limits: Limits
    public var overrides: [Int]
  }

  /// `absolute`: when the caller knows the file's absolute path already (a walk does, folder by
  /// folder), it is not worked out again.
  public func settings(for path: String, absolute known: String? = nil) -> FileSettings {
    var result = FileSettings(
      severities: severities, input: nil, fragment: fragment, placeholders: placeholders, limits: limits, overrides: [])
    result.checkURLs = checkURLs
    guard !overrides.isEmpty else { return result }
    let absolute = known ?? Path.absolute(path)
    var applied = settings
    for (index, override) in overrides.enumerated() where override.matches(absolute) {
      result.overrides.append(index)
      applied = override.settings.merged(over: applied, keys: Self.overrideKeys)
    }
    guard !result.overrides.isEmpty else { return result }
    result.severities = applied.rules.values
    result.input = applied.input
    result.fragment = applied.fragment ?? false
    result.checkURLs = applied.checkURLs ?? false
    // Compiled only when an override changes them (this runs for every file of a walk); every
    // pattern and value was checked when the config was read.
    if applied.placeholders != settings.placeholders || applied.extendPlaceholders != settings.extendPlaceholders {
      result.placeholders = (try? Self.placeholderSyntax(applied.placeholders, applied.extendPlaceholders)) ?? placeholders
    }
    if applied.limits != settings.limits { result.limits = (try? Self.limits(applied.limits)) ?? limits }
    return result
  }

  public init() {}

  static func placeholderSyntax(_ patterns: [String]?, _ extra: [String]) throws -> PlaceholderSyntax {
    let all = (patterns ?? PlaceholderSyntax.defaultPatterns) + extra
    return all == PlaceholderSyntax.defaultPatterns ? .default : try PlaceholderSyntax(patterns: all)
  }

  static func limits(_ values: [Limits.Setting: String]) throws(Limits.Problem) -> Limits {
    var limits = Limits()
    for setting in Limits.Setting.allCases {
      if let text = values[setting] { try limits.set(setting, to: text, name: setting.rawValue) }
    }
    return limits
  }

  /// `rules:` (in the config or an override): rule id → severity, nil for off.
  static func loadSeverities(_ value: DataValue) throws(ConfigurationError) -> Severities {
    var severities = Severities()
    if value.isNull { return severities }
    for (id, idValue, severityValue) in try value.mapping(what: "'rules'") {
      let text: String
      if case .scalar(let s, .bool, _) = severityValue.node, s.lowercased() == "off" {
        text = "off"  // YAML 1.1 resolves a plain `off` to the boolean false
      } else {
        guard case .scalar(let s, .string, _) = severityValue.node else {
          throw severityValue.fail("the severity of '\(id)' must be error, warning, info or off")
        }
        text = s
      }
      if text == "off" {
        severities.values[id] = .some(nil)
      } else if let severity = Severity(rawValue: text) {
        severities.values[id] = severity
      } else {
        throw severityValue.fail("the severity of '\(id)' must be error, warning, info or off, not '\(text)'")
      }
      severities.positions[id] = (idValue.file, idValue.line, idValue.column)
    }
    return severities
  }

  static func loadGlobs(_ value: DataValue, what: String) throws(ConfigurationError) -> [Glob] {
    var globs: [Glob] = []
    for glob in value.oneOrMany(what: what) {
      let pattern = try glob.nonEmptyString(what: "a file pattern")
      do {
        globs.append(try Glob(pattern))
      } catch {
        throw glob.fail("invalid file pattern '\(pattern)': \(error.message)")
      }
    }
    return globs
  }

  static func loadPlaceholders(_ value: DataValue, what: String) throws(ConfigurationError) -> [String] {
    var patterns: [String] = []
    for item in value.oneOrMany(what: what) {
      let pattern = try item.nonEmptyString(what: "a placeholder pattern")
      do {
        _ = try PlaceholderSyntax(patterns: [pattern])
      } catch {
        throw item.fail("placeholder pattern '\(pattern)' is not a supported regular expression: \(error.error)")
      }
      patterns.append(pattern)
    }
    return patterns
  }

  // The readers of the keys that take more than a line in `Config.table`.

  static func loadExtends(_ value: DataValue) throws(ConfigurationError) -> [(path: String, line: Int, column: Int)] {
    var paths: [(path: String, line: Int, column: Int)] = []
    for item in value.oneOrMany(what: "extends") { paths.append((try item.nonEmptyString(what: "a config to extend"), item.line, item.column)) }
    return paths
  }

  static func loadRuleDirectories(_ value: DataValue, _ context: ReadContext) throws(ConfigurationError) -> [(directory: String, confinedTo: String)] {
    var directories: [(directory: String, confinedTo: String)] = []
    for item in value.oneOrMany(what: context.key) {
      let directory = Path.join(context.directory, try item.nonEmptyString(what: "a rule directory"))
      // A config in a cloned repository must not make fcmlint read rule files elsewhere.
      let base = context.absoluteDirectory, target = Path.absolute(directory)
      guard target == base || target.hasPrefix(base == "/" ? "/" : base + "/") else {
        throw item.fail("rule directories must be inside the config file's folder (use --rules for others)")
      }
      directories.append((directory, context.directory))
    }
    return directories
  }

  static func loadIgnore(_ value: DataValue, _ context: ReadContext) throws(ConfigurationError) -> [IgnoreList] {
    var globs: [Glob] = []
    for item in value.oneOrMany(what: context.key) {
      let pattern = try item.nonEmptyString(what: "an ignore pattern")
      do {
        globs.append(try Glob(pattern))
      } catch {
        throw item.fail("invalid ignore pattern '\(pattern)': \(error.message)")
      }
    }
    return globs.isEmpty ? [] : [IgnoreList(base: context.absoluteDirectory, globs: globs)]
  }

  static func loadInput(_ value: DataValue) throws(ConfigurationError) -> InputKind {
    let text = try value.nonEmptyString(what: "input")
    guard let kind = InputKind(rawValue: text) else {
      throw value.fail("input must be \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
    }
    return kind
  }

  static func loadOverrides(_ value: DataValue, _ context: ReadContext) throws(ConfigurationError) -> [Override] {
    var overrides: [Override] = []
    for item in try value.sequence(what: "'overrides'") { overrides.append(try loadOverride(item, context)) }
    return overrides
  }

  static func loadSuppressions(_ value: DataValue, _ context: ReadContext) throws(ConfigurationError) -> [Suppression] {
    var suppressions: [Suppression] = []
    for item in try value.sequence(what: "'suppress'") { suppressions.append(try loadSuppression(item, base: context.absoluteDirectory)) }
    return suppressions
  }

  /// One entry of `overrides:`: `files`, then the keys `Config.table` allows there.
  static func loadOverride(_ value: DataValue, _ context: ReadContext) throws(ConfigurationError) -> Override {
    var override = Override(files: [], base: context.absoluteDirectory)
    var sawFiles = false
    let what = "an override"
    for (key, keyValue, item) in try value.mapping(allowed: ["files"] + overrideKeys.map(\.name), what: what) {
      if key == "files" {
        sawFiles = true
        override.files = try loadGlobs(item, what: key)
      } else {
        try Key.named(key, in: overrideKeys, at: keyValue, what: what).read(item, context.reading(key), &override.settings)
      }
    }
    if !sawFiles || override.files.isEmpty { throw value.fail("an override needs 'files': the patterns of the files it applies to") }
    return override
  }

  static func loadSuppression(_ value: DataValue, base: String) throws(ConfigurationError) -> Suppression {
    var files: [Glob] = []
    var rule: String? = nil, pointer: String? = nil, reason: String? = nil
    let what = "a suppression"
    for (key, keyValue, item) in try value.mapping(allowed: ["files", "rule", "pointer", "reason"], what: what) {
      switch key {
      case "files": files = try loadGlobs(item, what: key)
      case "rule": rule = try item.nonEmptyString(what: "rule")
      case "pointer":
        guard case .scalar(let text, .string, _) = item.node, text.isEmpty || text.hasPrefix("/") else {
          throw item.fail("pointer must be a JSON Pointer such as /message/apns/payload/aps (or \"\" for the whole document)")
        }
        pointer = text
      case "reason":
        let text = try item.nonEmptyString(what: "reason")
        guard text.contains(where: { $0 != " " }) else { throw item.fail("a suppression's reason must say why") }
        reason = text
      default:
        throw keyValue.fail("unknown key '\(key)' in \(what)")
      }
    }
    guard let rule else { throw value.fail("a suppression needs 'rule': the id of the rule whose findings it turns off") }
    guard let reason else { throw value.fail("a suppression needs 'reason': why the finding is accepted (it is shown when the suppression goes unused)") }
    return Suppression(files: files, base: base, rule: rule, pointer: pointer, reason: reason, file: value.file, line: value.line, column: value.column)
  }

  /// Reads one config file's text, without following `extends:` (see `load(file:)`).
  public static func load(text: String, file: String) throws(ConfigurationError) -> Config {
    var config = Config()
    config.file = file
    config.baseDirectory = Path.directory(of: file)
    let root = try DataValue.parse(yaml: text, file: file)
    if root.isNull { return config }  // an empty file
    let context = ReadContext(directory: config.baseDirectory, absoluteDirectory: Path.absolute(config.baseDirectory))
    config.settings = try Settings.read(root, keys: configKeys, what: "the config", context)
    config.finish()
    return config
  }

  /// Derives `limits` and `placeholders` from what was written (each value already checked).
  mutating func finish() {
    limits = (try? Self.limits(settings.limits)) ?? Limits()
    placeholders = (try? Self.placeholderSyntax(settings.placeholders, settings.extendPlaceholders)) ?? .default
  }

  /// This config over `base` (a config it extends), each key combined as its entry in
  /// `Config.table` says: its own settings win, lists append after the base's, and maps merge
  /// key by key.
  func merged(over base: Config) -> Config {
    var out = self
    out.settings = settings.merged(over: base.settings, keys: Self.table)
    out.finish()
    return out
  }

  /// The deepest chain of `extends:` followed; deeper is a mistake (or a loop through links).
  public static let maxExtendsDepth = 32

  /// Reads the config at `path` and every config it extends (depth first, in the order listed),
  /// each merged under the one that extends it. A config extended more than once (`a` extends `b`
  /// and `c`, which both extend `d`) is read once, and counts at its last place in that order,
  /// where its values won when it was read again for every path to it (2^depth reads in a
  /// chain of diamonds).
  public static func load(file path: String) throws(ConfigurationError) -> Config {
    try load(file: path, reading: { FileSystem.read($0, limit: 1 << 20) })
  }

  /// `read` reads one config file (tests count the reads through it).
  static func load(file path: String, reading read: (String) -> Result<[UInt8], FileSystem.IOError>) throws(ConfigurationError) -> Config {
    var graph = ExtendsGraph()
    let top = Path.absolute(path)
    try graph.visit(path, absolute: top, chain: [], read)
    var result = graph.nodes[top]!.config
    result.files = graph.order(from: top).reversed().map { graph.nodes[$0]!.path }
    guard !result.extendsPaths.isEmpty else { return result }
    var merged = Settings()
    for absolute in graph.order(from: top) { merged = graph.nodes[absolute]!.config.settings.merged(over: merged, keys: table) }
    result.settings = merged
    result.finish()
    return result
  }

  /// The configs one load reads, by absolute path, each read once.
  private struct ExtendsGraph {
    struct Node {
      /// As read, without what it extends.
      var config: Config
      /// As the first chain that reached it names it.
      var path: String
      var extends: [String] = []
      /// The longest chain of `extends:` below it (0 when it extends nothing).
      var height = 0
    }

    var nodes: [String: Node] = [:]

    mutating func visit(
      _ path: String, absolute: String, chain: [String], _ read: (String) -> Result<[UInt8], FileSystem.IOError>
    ) throws(ConfigurationError) {
      let bytes: [UInt8]
      switch read(path) {
      case .success(let b): bytes = b
      case .failure(let e): throw ConfigurationError(file: path, line: 1, column: 1, message: "cannot read the config: \(e.message)")
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConfigurationError(file: path, line: 1, column: 1, message: "the config must be UTF-8 text")
      }
      var node = Node(config: try Config.load(text: text, file: path), path: path)
      let chain = chain + [absolute]
      for entry in node.config.extendsPaths {
        let target = Path.join(node.config.baseDirectory, entry.path), targetAbsolute = Path.absolute(target)
        func fail(_ message: String) -> ConfigurationError {
          ConfigurationError(file: path, line: entry.line, column: entry.column, message: message)
        }
        if chain.contains(targetAbsolute) { throw fail("'\(entry.path)' extends itself (through \(chain.count) config\(chain.count == 1 ? "" : "s"))") }
        guard chain.count < maxExtendsDepth else { throw fail("extends is nested more than \(maxExtendsDepth) deep") }
        guard FileSystem.kind(target) != .missing else { throw fail("cannot extend '\(entry.path)': no such file") }
        if let known = nodes[targetAbsolute] {
          // Read through another chain: nothing below it leads back into this chain (that loop
          // would have been found then), but this chain may make what it extends too deep.
          if chain.count + known.height >= maxExtendsDepth { throw tooDeep(below: known, distance: maxExtendsDepth - 1 - chain.count) }
        } else {
          try visit(target, absolute: targetAbsolute, chain: chain, read)
        }
        node.extends.append(targetAbsolute)
        node.height = max(node.height, nodes[targetAbsolute]!.height + 1)
      }
      nodes[absolute] = node
    }

    /// The error reading every path again gave: at the first config, depth first, `distance`
    /// below `start` that extends another (the one that would be the deepest config followed).
    func tooDeep(below start: Node, distance: Int) -> ConfigurationError {
      var node = start
      for remaining in stride(from: distance, to: 0, by: -1) {
        node = node.extends.lazy.map { nodes[$0]! }.first { $0.height >= remaining }!
      }
      let entry = node.config.extendsPaths[0]
      return ConfigurationError(file: node.path, line: entry.line, column: entry.column, message: "extends is nested more than \(maxExtendsDepth) deep")
    }

    /// `top` and the configs below it, each at its last place in the depth-first order in which
    /// they are merged, `top` last: the reverse of a walk that takes each config's extends last
    /// first and skips the configs it has seen.
    func order(from top: String) -> [String] {
      var reversed: [String] = [], seen: Set<String> = []
      func walk(_ absolute: String) {
        guard seen.insert(absolute).inserted else { return }
        reversed.append(absolute)
        for next in nodes[absolute]!.extends.reversed() { walk(next) }
      }
      walk(top)
      return reversed.reversed()
    }
  }

  /// `limits:` as written, each value checked by the same function as its command-line option
  /// and a bad one reported where it is written.
  static func loadLimitValues(_ value: DataValue) throws(ConfigurationError) -> [Limits.Setting: String] {
    var values: [Limits.Setting: String] = [:]
    var limits = Limits()
    for (key, _, item) in try value.mapping(allowed: Limits.Setting.allCases.map(\.rawValue), what: "'limits'") {
      let setting = Limits.Setting(rawValue: key)!
      let text: String
      switch (setting, item.node) {
      case (.maxDepth, _): text = String(try item.integer(what: key))
      // A size is a YAML integer (`1048576`) or text (`64M`); other scalars are refused as written.
      case (_, .scalar(let s, _, _)): text = s
      case (_, .sequence): throw item.fail(Limits.notASize(key, "a list").message)
      case (_, .mapping): throw item.fail(Limits.notASize(key, "a mapping").message)
      }
      do {
        try limits.set(setting, to: text, name: key)
      } catch {
        throw item.fail(error.message)
      }
      values[setting] = text
    }
    return values
  }

  /// Checks that every rule id the config names exists.
  public func validate(against rules: RuleSet) throws(ConfigurationError) {
    for written in [settings.rules] + overrides.map(\.settings.rules) {
      for id in written.values.keys.sorted() where rules.rule(id) == nil {
        let position = written.positions[id] ?? (file ?? Config.fileName, 1, 1)
        throw ConfigurationError(
          file: position.file, line: position.line, column: position.column,
          message: "unknown rule '\(id)'\(DataValue.suggestion(id, rules.ids))")
      }
    }
    for suppression in suppressions where rules.rule(suppression.rule) == nil {
      throw ConfigurationError(
        file: suppression.file, line: suppression.line, column: suppression.column,
        message: "this suppression names an unknown rule '\(suppression.rule)'\(DataValue.suggestion(suppression.rule, rules.ids))")
    }
    // Its findings are about configs, which no suppression covers: one would only be reported unused.
    for suppression in suppressions where suppression.rule == Waivers.unusedSuppressionRule {
      throw ConfigurationError(
        file: suppression.file, line: suppression.line, column: suppression.column,
        message: "\(suppression.rule) cannot be suppressed: set it in rules: (off, info, warning or error), for all files or in overrides")
    }
  }

  /// Whether a file named on the command line is ignored (`ignore:`; `.gitignore` files apply
  /// to folder walks only, as a file named is one the user means).
  public func isIgnored(_ path: String) -> Bool {
    guard !ignoreLists.isEmpty else { return false }
    return isIgnored(absolute: Path.absolute(path))
  }

  /// `isIgnored` for a path already made absolute.
  public func isIgnored(absolute: String) -> Bool {
    ignoreLists.contains { $0.excludes(absolute, isDirectory: false) }
  }
}

/// The limits that bound the work one hostile input can cause (docs/hostile-input.md). Set from
/// the config (`limits:`) and the command line (`--max-depth` ...), both through
/// `set(_:to:name:)`, so both accept and refuse the same values with the same words.
public struct Limits: Sendable, Equatable {
  /// Real payloads are a few KB: the defaults are far above any of them.
  public var maxDepth = JSONParser.Options.defaultMaxDepth
  public var maxFileSize = 64 << 20
  public var maxStringLength = JSONParser.Options.defaultMaxStringLength
  /// Byte offsets are 32-bit in the parsed tree; 1 GiB keeps far from that.
  public static let largestFileSize = 1 << 30

  public init() {}

  /// The settings, by their config key; the command-line option is the key with `--`.
  public enum Setting: String, CaseIterable, Sendable {
    case maxDepth = "max-depth"
    case maxFileSize = "max-file-size"
    case maxStringLength = "max-string-length"
  }

  public struct Problem: Error, Sendable {
    public var message: String
  }

  /// Sets one limit from its text; `name` is the setting as the user wrote it (`max-depth` in the
  /// config, `--max-depth` on the command line), for the message when the value is refused.
  public mutating func set(_ setting: Setting, to text: String, name: String) throws(Problem) {
    switch setting {
    case .maxDepth:
      guard let depth = Int(text), depth >= 1 else { throw Problem(message: "\(name) must be 1 or more") }
      maxDepth = depth
    case .maxFileSize:
      let size = try Self.size(text, name: name)
      if size > Self.largestFileSize { throw Problem(message: "\(name) can be at most 1G (\(Self.largestFileSize) bytes)") }
      maxFileSize = size
    case .maxStringLength:
      maxStringLength = try Self.size(text, name: name)
    }
  }

  /// A size of at least one byte, as `parseSize` reads it.
  static func size(_ text: String, name: String) throws(Problem) -> Int {
    guard let size = parseSize(text), size >= 1 else { throw notASize(name, "'\(text)'") }
    return size
  }

  static func notASize(_ name: String, _ written: String) -> Problem {
    Problem(message: "\(name) takes a size in bytes, like 1048576, 512K, 64M or 1G; not \(written)")
  }

  /// `1048576`, `512K`, `64M`, `1G` (powers of 1024; `KB`, `MiB` and lower case accepted too).
  public static func parseSize(_ text: String) -> Int? {
    var digits = Substring(text.trimmingSpaces())
    var unit = 1
    let suffixes: [(String, Int)] = [("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("b", 1)]
    for (suffix, factor) in suffixes where digits.lowercased().hasSuffix(suffix) {
      digits = digits.dropLast(suffix.count)
      unit = factor
      break
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
    let (product, overflow) = value.multipliedReportingOverflow(by: unit)
    return overflow ? nil : product
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

/// Path string helpers (POSIX, `/`-separated).
public enum Path {
  public static func join(_ base: String, _ path: String) -> String {
    if path.hasPrefix("/") || base.isEmpty || base == "." { return path }
    return base.hasSuffix("/") ? base + path : base + "/" + path
  }

  public static func directory(of path: String) -> String {
    // On the bytes: a walk asks this of every file it finds.
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    if slash == path.utf8.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// Whether `directory(of: path)` is `folder`, asked without making a String: a walk hands
  /// over a folder's files one after another, and each asks it of the folder before.
  public static func isEntry(_ path: String, of folder: String) -> Bool {
    let answer = path.utf8.withContiguousStorageIfAvailable { file in
      folder.utf8.withContiguousStorageIfAvailable { folder -> Bool in
        let slash = UInt8(ascii: "/")
        var last = -1
        for i in file.indices where file[i] == slash { last = i }
        if last < 0 { return folder.count == 1 && folder[0] == UInt8(ascii: ".") }
        if last == 0 { return folder.count == 1 && folder[0] == slash }
        return last == folder.count && file[..<last].elementsEqual(folder)
      }
    }
    return (answer ?? nil) ?? (directory(of: path) == folder)
  }

  /// `path` made absolute against the working directory, with `.` and `..` resolved textually.
  public static func absolute(_ path: String) -> String {
    let full = path.utf8.first == UInt8(ascii: "/") ? path : FileSystem.currentDirectory() + "/" + path
    // Most paths have nothing to resolve.
    if isNormal(full.utf8) { return full }
    // On the bytes: `[Substring].joined(separator:)` is not specialised, and its first call
    // costs the runtime a generic lookup as large as the rest of a one-file run's path work.
    let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
    let bytes = Array(full.utf8)
    var out: [UInt8] = [], partStarts: [Int] = []
    out.reserveCapacity(bytes.count + 1)
    var start = 0
    while start <= bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != slash { end += 1 }
      let length = end - start
      if length == 2, bytes[start] == dot, bytes[start + 1] == dot {
        if let last = partStarts.popLast() { out.removeSubrange(last...) }
      } else if length > 0, !(length == 1 && bytes[start] == dot) {
        partStarts.append(out.count)
        out.append(slash)
        out.append(contentsOf: bytes[start..<end])
      }
      start = end + 1
    }
    return out.isEmpty ? "/" : String(decoding: out, as: UTF8.self)
  }

  /// Whether a path is already as `absolute` writes it: it starts at `/`, and has no `.` or `..`
  /// part, no empty part (`//`) and no `/` at the end.
  private static func isNormal(_ utf8: String.UTF8View) -> Bool {
    let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
    guard utf8.first == slash else { return false }
    if utf8.count == 1 { return true }
    // Each part, ended by the next '/' or the end: its length and how many of its bytes are dots.
    var length = 0, dots = 0
    for byte in utf8.dropFirst() {
      if byte != slash {
        length += 1
        if byte == dot { dots += 1 }
        continue
      }
      if length == 0 || (length <= 2 && dots == length) { return false }
      length = 0
      dots = 0
    }
    return length > 0 && !(length <= 2 && dots == length)
  }

  /// `path` relative to `base` (both absolute); `path` itself when it is not below `base`.
  public static func relative(_ path: String, to base: String) -> String {
    if base == "/" { return String(path.dropFirst()) }
    if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
    return path
  }
}
