import FCMLintEngine
import FCMLintJSON

/// `.fcmlint.yml`: per-rule severities, extra rule folders, ignored files, limits.
///
/// ```yaml
/// rules:
///   image-consistency: warning   # error | warning | info | off
/// rule-directories: [fcm-rules]  # relative to this file
/// ignore: ["fixtures/**", "*.draft.json"]
/// limits: {max-depth: 64, max-file-size: 1M, max-string-length: 64K}
/// placeholders: ['\{\{[^{}]*\}\}']     # a template's placeholders; [] turns templates off
/// extend-placeholders: ['%[A-Z_]+%']  # or: added to the defaults
/// ```
public struct Config: Sendable {
  public static let fileName = ".fcmlint.yml"

  /// Where the config was read from, or nil for the defaults.
  public var file: String?
  /// Rule id → severity, or nil for `off`.
  public var severities: [String: Severity?] = [:]
  /// Positions of the ids in `severities`, to report an unknown id where it is written.
  var severityPositions: [String: (line: Int, column: Int)] = [:]
  /// Absolute paths (or relative to the working directory) of extra rule folders.
  public var ruleDirectories: [String] = []
  public var ignore: [Glob] = []
  /// Whether folder walks read `.gitignore` files (`respect-gitignore:`, default true).
  public var respectGitignore = true
  /// The files are message fragments, whose sender adds the target (`fragment:`, `--fragment`).
  public var fragment = false
  /// The directory ignore globs are relative to.
  public var baseDirectory: String = "."
  /// The defaults, changed by `limits:`; command-line options change them further.
  public var limits = Limits()
  /// A template's placeholder syntaxes (`placeholders:`, `extend-placeholders:`).
  public var placeholders: PlaceholderSyntax = .default
  /// Settings for the files some globs match (`overrides:`), later entries winning.
  public var overrides: [Override] = []

  /// One entry of `overrides:`.
  public struct Override: Sendable {
    /// Gitignore-style patterns relative to the config's folder.
    public var files: [Glob]
    public var severities: [String: Severity?] = [:]
    var severityPositions: [String: (line: Int, column: Int)] = [:]
    public var input: InputKind? = nil
    public var fragment: Bool? = nil
  }

  /// What applies to one file: the config's settings, then every override whose `files` match
  /// it, in order (`overrides` holds their indices, which name the combination).
  public struct FileSettings: Sendable {
    public var severities: [String: Severity?]
    public var input: InputKind?
    public var fragment: Bool
    public var overrides: [Int]
  }

  public func settings(for path: String) -> FileSettings {
    var settings = FileSettings(severities: severities, input: nil, fragment: fragment, overrides: [])
    guard !overrides.isEmpty else { return settings }
    let absolute = Path.absolute(path)
    let base = Path.absolute(baseDirectory)
    for (index, override) in overrides.enumerated() where IgnoreList(base: base, globs: override.files).excludes(absolute, isDirectory: false) {
      settings.overrides.append(index)
      settings.severities.merge(override.severities) { $1 }
      if let input = override.input { settings.input = input }
      if let fragment = override.fragment { settings.fragment = fragment }
    }
    return settings
  }

  public init() {}

  /// `rules:` (in the config or an override): rule id → severity, nil for off.
  static func loadSeverities(_ value: DataValue) throws(ConfigurationError) -> ([String: Severity?], [String: (line: Int, column: Int)]) {
    var severities: [String: Severity?] = [:]
    var positions: [String: (line: Int, column: Int)] = [:]
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
      positions[id] = (idValue.line, idValue.column)
    }
    return (severities, positions)
  }

  static func loadOverride(_ value: DataValue) throws(ConfigurationError) -> Override {
    var override = Override(files: [])
    var sawFiles = false
    for (key, _, item) in try value.mapping(allowed: ["files", "rules", "input", "fragment"], what: "an override") {
      switch key {
      case "files":
        sawFiles = true
        for glob in item.oneOrMany(what: key) {
          let pattern = try glob.nonEmptyString(what: "a file pattern")
          do {
            override.files.append(try Glob(pattern))
          } catch {
            throw glob.fail("invalid file pattern '\(pattern)': \(error.message)")
          }
        }
      case "rules":
        (override.severities, override.severityPositions) = try loadSeverities(item)
      case "input":
        let text = try item.nonEmptyString(what: "input")
        guard let kind = InputKind(rawValue: text) else {
          throw item.fail("input must be \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        override.input = kind
      default:
        override.fragment = try item.bool(what: key)
      }
    }
    if !sawFiles || override.files.isEmpty { throw value.fail("an override needs 'files': the patterns of the files it applies to") }
    return override
  }

  public static func load(text: String, file: String) throws(ConfigurationError) -> Config {
    var config = Config()
    config.file = file
    config.baseDirectory = Path.directory(of: file)
    let root = try DataValue.parse(yaml: text, file: file)
    if root.isNull { return config }  // an empty file
    var placeholders: [String]? = nil, extraPlaceholders: [String] = []
    for (key, _, value) in try root.mapping(
      allowed: ["rules", "rule-directories", "ignore", "respect-gitignore", "fragment", "limits", "placeholders", "extend-placeholders", "overrides"],
      what: "the config")
    {
      switch key {
      case "rules":
        (config.severities, config.severityPositions) = try loadSeverities(value)
      case "overrides":
        for item in try value.sequence(what: "'overrides'") { config.overrides.append(try loadOverride(item)) }
      case "rule-directories":
        for item in value.oneOrMany(what: key) {
          let directory = Path.join(config.baseDirectory, try item.nonEmptyString(what: "a rule directory"))
          // A config in a cloned repository must not make fcmlint read rule files elsewhere.
          let base = Path.absolute(config.baseDirectory), target = Path.absolute(directory)
          guard target == base || target.hasPrefix(base == "/" ? "/" : base + "/") else {
            throw item.fail("rule directories must be inside the config file's folder (use --rules for others)")
          }
          config.ruleDirectories.append(directory)
        }
      case "limits":
        if value.isNull { break }
        config.limits = try loadLimits(value)
      case "respect-gitignore":
        config.respectGitignore = try value.bool(what: key)
      case "fragment":
        config.fragment = try value.bool(what: key)
      case "placeholders", "extend-placeholders":
        var patterns: [String] = []
        for item in value.oneOrMany(what: key) {
          let pattern = try item.nonEmptyString(what: "a placeholder pattern")
          do {
            _ = try PlaceholderSyntax(patterns: [pattern])
          } catch {
            throw item.fail("placeholder pattern '\(pattern)' is not a supported regular expression: \(error.error)")
          }
          patterns.append(pattern)
        }
        if key == "placeholders" { placeholders = patterns } else { extraPlaceholders = patterns }
      default:
        for item in value.oneOrMany(what: key) {
          let pattern = try item.nonEmptyString(what: "an ignore pattern")
          do {
            config.ignore.append(try Glob(pattern))
          } catch {
            throw item.fail("invalid ignore pattern '\(pattern)': \(error.message)")
          }
        }
      }
    }
    let patterns = (placeholders ?? PlaceholderSyntax.defaultPatterns) + extraPlaceholders
    if patterns != PlaceholderSyntax.defaultPatterns {
      // Each pattern compiled above.
      config.placeholders = try! PlaceholderSyntax(patterns: patterns)
    }
    return config
  }

  /// `limits:` over the defaults. Each value is checked by the same function as its command-line
  /// option, and a bad one is reported where it is written.
  static func loadLimits(_ value: DataValue) throws(ConfigurationError) -> Limits {
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
    }
    return limits
  }

  /// Finds `.fcmlint.yml` in `directory` or the nearest ancestor. Whatever is there counts, a
  /// FIFO or a link to a device included (reading it then fails with a clear error): skipping it
  /// would silently apply a parent folder's config instead.
  public static func discover(from directory: String) -> String? {
    var current = directory
    while true {
      let candidate = Path.join(current, fileName)
      if FileSystem.exists(candidate) { return candidate }
      let parent = Path.directory(of: current)
      if parent == current { return nil }
      current = parent
    }
  }

  /// Checks that every rule id the config names exists.
  public func validate(against rules: RuleSet) throws(ConfigurationError) {
    for (ids, positions) in [(severities, severityPositions)] + overrides.map({ ($0.severities, $0.severityPositions) }) {
      for id in ids.keys.sorted() where rules.rule(id) == nil {
        let position = positions[id] ?? (1, 1)
        throw ConfigurationError(
          file: file ?? Config.fileName, line: position.line, column: position.column,
          message: "unknown rule '\(id)'\(DataValue.suggestion(id, rules.ids))")
      }
    }
  }

  /// The `ignore:` patterns, relative to the config's folder; nil when there are none.
  public var ignoreList: IgnoreList? {
    ignore.isEmpty ? nil : IgnoreList(base: Path.absolute(baseDirectory), globs: ignore)
  }

  /// Whether a file named on the command line is ignored (`ignore:`; `.gitignore` files apply
  /// to folder walks only, as a file named is one the user means).
  public func isIgnored(_ path: String) -> Bool {
    ignoreList?.excludes(Path.absolute(path), isDirectory: false) ?? false
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
