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
  /// The keys a config may have.
  public static let keys = [
    "root", "extends", "rules", "rule-directories", "ignore", "respect-gitignore", "fragment", "docs", "limits", "placeholders",
    "extend-placeholders", "overrides", "suppress",
  ]

  /// Where the config was read from, or nil for the defaults.
  public var file: String?
  /// `root: true`: this folder is the top of the project: folder walks below it read `.gitignore`
  /// files from here down, not from the top of a repository that holds it.
  public var root = false
  /// Rule id → severity, or nil for `off`.
  public var severities: [String: Severity?] = [:]
  /// Positions of the ids in `severities`, to report an unknown id where it is written.
  var severityPositions: [String: (file: String, line: Int, column: Int)] = [:]
  /// Extra rule folders, each with the folder of the config that names it, which it must stay in.
  public var ruleDirectories: [(directory: String, confinedTo: String)] = []
  /// `ignore:` of this config and those it extends, each relative to the config that wrote it.
  public var ignoreLists: [IgnoreList] = []
  var respectGitignoreSetting: Bool? = nil
  var fragmentSetting: Bool? = nil
  var docsSetting: Bool? = nil
  /// Whether folder walks include documentation pages (`.md`, `.markdown`, `.mdx`, `.html`,
  /// `.htm`) and lint their message samples (`docs:`, `--docs`; default false, so a repository's
  /// README is not linted by surprise).
  public var docs: Bool {
    get { docsSetting ?? false }
    set { docsSetting = newValue }
  }
  /// Whether folder walks read `.gitignore` files (`respect-gitignore:`, default true).
  public var respectGitignore: Bool {
    get { respectGitignoreSetting ?? true }
    set { respectGitignoreSetting = newValue }
  }
  /// The files are message fragments, whose sender adds the target (`fragment:`, `--fragment`).
  public var fragment: Bool {
    get { fragmentSetting ?? false }
    set { fragmentSetting = newValue }
  }
  /// The directory of the config file.
  public var baseDirectory: String = "."
  /// `limits:` as written (checked), by setting; `limits` is them over the defaults.
  var limitValues: [Limits.Setting: String] = [:]
  /// The defaults, changed by `limits:`; command-line options change them further.
  public var limits = Limits()
  /// `placeholders:` (replacing the defaults) and `extend-placeholders:` (added to them).
  var placeholderPatterns: [String]? = nil
  var extraPlaceholders: [String] = []
  /// A template's placeholder syntaxes (`placeholders:`, `extend-placeholders:`).
  public var placeholders: PlaceholderSyntax = .default
  /// Settings for the files some globs match (`overrides:`), later entries winning.
  public var overrides: [Override] = []
  /// Findings turned off on purpose (`suppress:`), each with its reason.
  public var suppressions: [Suppression] = []
  /// `extends:` as written: paths relative to this file, with their positions.
  var extendsPaths: [(path: String, line: Int, column: Int)] = []
  /// The config files this config was read from: its own, then those it extends.
  public internal(set) var files: [String] = []

  /// One entry of `overrides:`.
  public struct Override: Sendable {
    /// Gitignore-style patterns relative to `base`, the folder of the config that wrote them
    /// (absolute: matched against every file of a walk).
    public var files: [Glob]
    public var base: String = "/"
    public var severities: [String: Severity?] = [:]
    var severityPositions: [String: (file: String, line: Int, column: Int)] = [:]
    public var input: InputKind? = nil
    public var fragment: Bool? = nil
    var placeholderPatterns: [String]? = nil
    var extraPlaceholders: [String] = []
    var limitValues: [Limits.Setting: String] = [:]

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
    public var placeholders: PlaceholderSyntax
    public var limits: Limits
    public var overrides: [Int]
  }

  /// `absolute`: when the caller knows the file's absolute path already (a walk does, folder by
  /// folder), it is not worked out again.
  public func settings(for path: String, absolute known: String? = nil) -> FileSettings {
    var settings = FileSettings(
      severities: severities, input: nil, fragment: fragment, placeholders: placeholders, limits: limits, overrides: [])
    guard !overrides.isEmpty else { return settings }
    let absolute = known ?? Path.absolute(path)
    var patterns = placeholderPatterns, extra = extraPlaceholders, limitValues = self.limitValues
    var placeholdersChanged = false, limitsChanged = false
    for (index, override) in overrides.enumerated() where override.matches(absolute) {
      settings.overrides.append(index)
      settings.severities.merge(override.severities) { $1 }
      if let input = override.input { settings.input = input }
      if let fragment = override.fragment { settings.fragment = fragment }
      if let replaced = override.placeholderPatterns {
        patterns = replaced
        extra = override.extraPlaceholders
      } else {
        extra += override.extraPlaceholders
      }
      placeholdersChanged = placeholdersChanged || override.placeholderPatterns != nil || !override.extraPlaceholders.isEmpty
      limitValues.merge(override.limitValues) { $1 }
      limitsChanged = limitsChanged || !override.limitValues.isEmpty
    }
    // Compiled only when an override changes them (this runs for every file of a walk); every
    // pattern and value was checked when the config was read.
    if placeholdersChanged { settings.placeholders = (try? Self.placeholderSyntax(patterns, extra)) ?? placeholders }
    if limitsChanged { settings.limits = (try? Self.limits(limitValues)) ?? limits }
    return settings
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
  static func loadSeverities(_ value: DataValue) throws(ConfigurationError) -> ([String: Severity?], [String: (file: String, line: Int, column: Int)]) {
    var severities: [String: Severity?] = [:]
    var positions: [String: (file: String, line: Int, column: Int)] = [:]
    if value.isNull { return (severities, positions) }
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
        severities[id] = .some(nil)
      } else if let severity = Severity(rawValue: text) {
        severities[id] = severity
      } else {
        throw severityValue.fail("the severity of '\(id)' must be error, warning, info or off, not '\(text)'")
      }
      positions[id] = (idValue.file, idValue.line, idValue.column)
    }
    return (severities, positions)
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

  static func loadOverride(_ value: DataValue, base: String) throws(ConfigurationError) -> Override {
    var override = Override(files: [], base: base)
    var sawFiles = false
    let allowed = ["files", "rules", "input", "fragment", "placeholders", "extend-placeholders", "limits"]
    for (key, _, item) in try value.mapping(allowed: allowed, what: "an override") {
      switch key {
      case "files":
        sawFiles = true
        override.files = try loadGlobs(item, what: key)
      case "rules":
        (override.severities, override.severityPositions) = try loadSeverities(item)
      case "input":
        let text = try item.nonEmptyString(what: "input")
        guard let kind = InputKind(rawValue: text) else {
          throw item.fail("input must be \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        override.input = kind
      case "placeholders":
        override.placeholderPatterns = try loadPlaceholders(item, what: key)
      case "extend-placeholders":
        override.extraPlaceholders = try loadPlaceholders(item, what: key)
      case "limits":
        if !item.isNull { override.limitValues = try loadLimitValues(item) }
      default:
        override.fragment = try item.bool(what: key)
      }
    }
    if !sawFiles || override.files.isEmpty { throw value.fail("an override needs 'files': the patterns of the files it applies to") }
    return override
  }

  static func loadSuppression(_ value: DataValue, base: String) throws(ConfigurationError) -> Suppression {
    var files: [Glob] = []
    var rule: String? = nil, pointer: String? = nil, reason: String? = nil
    for (key, _, item) in try value.mapping(allowed: ["files", "rule", "pointer", "reason"], what: "a suppression") {
      switch key {
      case "files": files = try loadGlobs(item, what: key)
      case "rule": rule = try item.nonEmptyString(what: "rule")
      case "pointer":
        guard case .scalar(let text, .string, _) = item.node, text.isEmpty || text.hasPrefix("/") else {
          throw item.fail("pointer must be a JSON Pointer such as /message/apns/payload/aps (or \"\" for the whole document)")
        }
        pointer = text
      default:
        let text = try item.nonEmptyString(what: "reason")
        guard text.contains(where: { $0 != " " }) else { throw item.fail("a suppression's reason must say why") }
        reason = text
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
    var ignore: [Glob] = []
    for (key, _, value) in try root.mapping(allowed: keys, what: "the config") {
      switch key {
      case "root":
        config.root = try value.bool(what: key)
      case "extends":
        for item in value.oneOrMany(what: key) {
          config.extendsPaths.append((try item.nonEmptyString(what: "a config to extend"), item.line, item.column))
        }
      case "rules":
        (config.severities, config.severityPositions) = try loadSeverities(value)
      case "overrides":
        for item in try value.sequence(what: "'overrides'") { config.overrides.append(try loadOverride(item, base: Path.absolute(config.baseDirectory))) }
      case "suppress":
        for item in try value.sequence(what: "'suppress'") { config.suppressions.append(try loadSuppression(item, base: Path.absolute(config.baseDirectory))) }
      case "rule-directories":
        for item in value.oneOrMany(what: key) {
          let directory = Path.join(config.baseDirectory, try item.nonEmptyString(what: "a rule directory"))
          // A config in a cloned repository must not make fcmlint read rule files elsewhere.
          let base = Path.absolute(config.baseDirectory), target = Path.absolute(directory)
          guard target == base || target.hasPrefix(base == "/" ? "/" : base + "/") else {
            throw item.fail("rule directories must be inside the config file's folder (use --rules for others)")
          }
          config.ruleDirectories.append((directory, config.baseDirectory))
        }
      case "limits":
        if value.isNull { break }
        config.limitValues = try loadLimitValues(value)
      case "respect-gitignore":
        config.respectGitignoreSetting = try value.bool(what: key)
      case "fragment":
        config.fragmentSetting = try value.bool(what: key)
      case "docs":
        config.docsSetting = try value.bool(what: key)
      case "placeholders":
        config.placeholderPatterns = try loadPlaceholders(value, what: key)
      case "extend-placeholders":
        config.extraPlaceholders = try loadPlaceholders(value, what: key)
      default:
        for item in value.oneOrMany(what: key) {
          let pattern = try item.nonEmptyString(what: "an ignore pattern")
          do {
            ignore.append(try Glob(pattern))
          } catch {
            throw item.fail("invalid ignore pattern '\(pattern)': \(error.message)")
          }
        }
      }
    }
    if !ignore.isEmpty { config.ignoreLists = [IgnoreList(base: Path.absolute(config.baseDirectory), globs: ignore)] }
    config.finish()
    return config
  }

  /// Derives `limits` and `placeholders` from what was written (each value already checked).
  mutating func finish() {
    limits = (try? Self.limits(limitValues)) ?? Limits()
    placeholders = (try? Self.placeholderSyntax(placeholderPatterns, extraPlaceholders)) ?? .default
  }

  /// This config over `base` (a config it extends): its own settings win, lists append after the
  /// base's, and maps merge key by key.
  func merged(over base: Config) -> Config {
    var out = self
    out.severities = base.severities.merging(severities) { $1 }
    out.severityPositions = base.severityPositions.merging(severityPositions) { $1 }
    out.ruleDirectories = base.ruleDirectories + ruleDirectories
    out.ignoreLists = base.ignoreLists + ignoreLists
    out.respectGitignoreSetting = respectGitignoreSetting ?? base.respectGitignoreSetting
    out.fragmentSetting = fragmentSetting ?? base.fragmentSetting
    out.docsSetting = docsSetting ?? base.docsSetting
    out.limitValues = base.limitValues.merging(limitValues) { $1 }
    if placeholderPatterns == nil {
      out.placeholderPatterns = base.placeholderPatterns
      out.extraPlaceholders = base.extraPlaceholders + extraPlaceholders
    }
    out.overrides = base.overrides + overrides
    out.suppressions = base.suppressions + suppressions
    out.finish()
    return out
  }

  /// The deepest chain of `extends:` followed; deeper is a mistake (or a loop through links).
  public static let maxExtendsDepth = 32

  /// Reads the config at `path` and every config it extends (depth first, in the order listed),
  /// each merged under the one that extends it.
  public static func load(file path: String) throws(ConfigurationError) -> Config {
    try load(file: path, chain: [])
  }

  private static func load(file path: String, chain: [String]) throws(ConfigurationError) -> Config {
    let bytes: [UInt8]
    switch FileSystem.read(path, limit: 1 << 20) {
    case .success(let b): bytes = b
    case .failure(let e): throw ConfigurationError(file: path, line: 1, column: 1, message: "cannot read the config: \(e.message)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ConfigurationError(file: path, line: 1, column: 1, message: "the config must be UTF-8 text")
    }
    let own = try load(text: text, file: path)
    var merged = Config()
    var files = [path]
    let chain = chain + [Path.absolute(path)]
    for entry in own.extendsPaths {
      let target = Path.join(own.baseDirectory, entry.path)
      if chain.contains(Path.absolute(target)) {
        throw ConfigurationError(file: path, line: entry.line, column: entry.column, message: "'\(entry.path)' extends itself (through \(chain.count) config\(chain.count == 1 ? "" : "s"))")
      }
      guard chain.count < maxExtendsDepth else {
        throw ConfigurationError(file: path, line: entry.line, column: entry.column, message: "extends is nested more than \(maxExtendsDepth) deep")
      }
      guard FileSystem.kind(target) != .missing else {
        throw ConfigurationError(file: path, line: entry.line, column: entry.column, message: "cannot extend '\(entry.path)': no such file")
      }
      let extended = try load(file: target, chain: chain)
      files += extended.files
      merged = extended.merged(over: merged)
    }
    var result = own.extendsPaths.isEmpty ? own : own.merged(over: merged)
    result.root = own.root
    result.file = own.file
    result.baseDirectory = own.baseDirectory
    result.files = files
    return result
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
    for (ids, positions) in [(severities, severityPositions)] + overrides.map({ ($0.severities, $0.severityPositions) }) {
      for id in ids.keys.sorted() where rules.rule(id) == nil {
        let position = positions[id] ?? (file ?? Config.fileName, 1, 1)
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
  }

  /// Whether a file named on the command line is ignored (`ignore:`; `.gitignore` files apply
  /// to folder walks only, as a file named is one the user means).
  public func isIgnored(_ path: String) -> Bool {
    guard !ignoreLists.isEmpty else { return false }
    let absolute = Path.absolute(path)
    return ignoreLists.contains { $0.excludes(absolute, isDirectory: false) }
  }
}

/// The limits that bound the work one hostile input can cause (README: "Limits and hostile
/// input"). Set from the config (`limits:`) and the command line (`--max-depth` ...), both through
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

  /// `path` made absolute against the working directory, with `.` and `..` resolved textually.
  public static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileSystem.currentDirectory() + "/" + path
    var parts: [Substring] = []
    for part in full.split(separator: "/") {
      if part == "." || part.isEmpty { continue }
      if part == ".." { _ = parts.popLast() } else { parts.append(part) }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `path` relative to `base` (both absolute); `path` itself when it is not below `base`.
  public static func relative(_ path: String, to base: String) -> String {
    if base == "/" { return String(path.dropFirst()) }
    if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
    return path
  }
}
