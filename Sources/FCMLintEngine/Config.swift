/// `.fcmlint.yml`: per-rule severities, extra rule folders, ignored files.
///
/// ```yaml
/// rules:
///   image-consistency: warning   # error | warning | info | off
/// rule-directories: [fcm-rules]  # relative to this file
/// ignore: ["fixtures/**", "*.draft.json"]
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
  /// The directory ignore globs are relative to.
  public var baseDirectory: String = "."

  public init() {}

  public static func load(text: String, file: String) throws(ConfigurationError) -> Config {
    var config = Config()
    config.file = file
    config.baseDirectory = Path.directory(of: file)
    let root = try DataValue.parse(yaml: text, file: file)
    if root.isNull { return config }  // an empty file
    for (key, _, value) in try root.mapping(allowed: ["rules", "rule-directories", "ignore"], what: "the config") {
      switch key {
      case "rules":
        if value.isNull { break }
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
            config.severities[id] = .some(nil)
          } else if let severity = Severity(rawValue: text) {
            config.severities[id] = severity
          } else {
            throw severityValue.fail("the severity of '\(id)' must be error, warning, info or off, not '\(text)'")
          }
          config.severityPositions[id] = (idValue.line, idValue.column)
        }
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
    return config
  }

  /// Finds `.fcmlint.yml` in `directory` or the nearest ancestor.
  public static func discover(from directory: String) -> String? {
    var current = directory
    while true {
      let candidate = Path.join(current, fileName)
      if FileSystem.kind(candidate) == .file { return candidate }
      let parent = Path.directory(of: current)
      if parent == current { return nil }
      current = parent
    }
  }

  /// Checks that every rule id the config names exists.
  public func validate(against rules: RuleSet) throws(ConfigurationError) {
    for id in severities.keys.sorted() where rules.rule(id) == nil {
      let position = severityPositions[id] ?? (1, 1)
      throw ConfigurationError(
        file: file ?? Config.fileName, line: position.line, column: position.column,
        message: "unknown rule '\(id)'\(DataValue.suggestion(id, rules.ids))")
    }
  }

  /// Whether a file (as named on the command line or found in a walk) is ignored.
  public func isIgnored(_ path: String) -> Bool {
    guard !ignore.isEmpty else { return false }
    let relative = Path.relative(Path.absolute(path), to: Path.absolute(baseDirectory))
    return ignore.contains { $0.matches(relative) }
  }
}

/// Path string helpers (POSIX, `/`-separated).
public enum Path {
  public static func join(_ base: String, _ path: String) -> String {
    if path.hasPrefix("/") || base.isEmpty || base == "." { return path }
    return base.hasSuffix("/") ? base + path : base + "/" + path
  }

  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
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
