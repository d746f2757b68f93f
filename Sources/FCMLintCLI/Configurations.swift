import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintWorkspace

/// The config of each file and the linter it gets. With `--config`, one config serves every
/// file; otherwise each file uses the `.fcmlint.yml` nearest to it (its folder, then upward), so a
/// folder of fragments or templates can carry settings of its own. A config's `overrides:` then
/// refine the settings for the files their globs match. Every distinct combination gets its own
/// `Linter`, made once. A file with no config above it (one outside the working directory's
/// project, say) uses the config nearest to the working directory, as before per-file configs.
final class Configurations {
  struct Loaded {
    let ruleSet: RuleSet
    let config: Config
  }

  private let sources: RuleSources
  /// What the command line sets for every file, over any config.
  private let base: (Config) throws -> (options: Linter.Options, maxFileSize: Int)
  /// Folder (absolute) → the config file that governs it ("" for none).
  private var nearest: [String: String] = [:]
  /// Config file ("" for none) → its rules and settings.
  private var loaded: [String: Loaded] = [:]
  /// A config file and the overrides that apply → the index of its linter in `linters`.
  private var linterIndex: [String: Int] = [:]
  private(set) var linters: [Linter] = []
  /// The largest file each linter's files may be (`limits:` can differ per config and override).
  private(set) var maxFileSizes: [Int] = []
  /// The `suppress:` entries of each linter's config.
  private(set) var suppressions: [[Config.Suppression]] = []
  /// A folder as the walk names it → its files' linter, for configs without overrides (a folder
  /// of 20,000 files looks its config up once, not once per file).
  private var folderLinter: [String: Int] = [:]
  private var lastFolder: (folder: String, linter: Int)? = nil
  /// A folder as a walk or the command line names it → its config, and its absolute path.
  private var folderConfig: [String: Loaded] = [:]
  private var absoluteFolder: [String: String] = [:]

  /// `file` made absolute, its folder's part worked out once per folder.
  private func absolutePath(of file: String) -> String {
    let folder = Path.directory(of: file)
    let base: String
    if let known = absoluteFolder[folder] {
      base = known
    } else {
      base = Path.absolute(folder)
      absoluteFolder[folder] = base
    }
    let name = file.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(file[file.utf8.index(after: $0)...]) } ?? file
    return name == "." || name == ".." ? Path.absolute(file) : (base == "/" ? "/" + name : base + "/" + name)
  }

  /// Whether the linters are kept until the process exits (see `ProcessLifetime`): a run's are;
  /// the language server's are freed when a config change makes it read its configs again.
  private let keptUntilExit: Bool

  /// `loaded` is the working directory's config, already read (the run reads the built-in pack
  /// once); its linter, made from `base` without overrides, is `linters[0]`.
  init(
    sources: RuleSources, base: @escaping (Config) throws -> (options: Linter.Options, maxFileSize: Int), loaded entry: Loaded,
    keptUntilExit: Bool = true
  ) throws {
    self.sources = sources
    self.base = base
    self.keptUntilExit = keptUntilExit
    let path = try configPath(forFolder: FileSystem.currentDirectory())
    loaded[path] = entry
    let (options, maxFileSize) = try base(entry.config)
    let linter = Linter(rules: entry.ruleSet, severities: entry.config.severities, options: options)
    if keptUntilExit { ProcessLifetime.keep(linter) }
    linters = [linter]
    maxFileSizes = [maxFileSize]
    suppressions = [entry.config.suppressions]
    linterIndex[(entry.config.file ?? "") + "\u{0}"] = 0
  }

  /// The config that governs files in `folder`.
  func config(forFolder folder: String) throws -> Loaded {
    // A walk asks once per file; a folder as it names it is looked up once.
    if let known = folderConfig[folder] { return known }
    let entry = try configUncached(forFolder: folder)
    folderConfig[folder] = entry
    return entry
  }

  private func configUncached(forFolder folder: String) throws -> Loaded {
    var path = try configPath(forFolder: Path.absolute(folder))
    if path.isEmpty { path = try configPath(forFolder: FileSystem.currentDirectory()) }
    if let known = loaded[path] { return known }
    do {
      let (ruleSet, config) = try sources.load(configPath: path.isEmpty ? nil : path)
      let entry = Loaded(ruleSet: ruleSet, config: config)
      loaded[path] = entry
      return entry
    } catch {
      throw reportConfigurationError(error)
    }
  }

  func config(forFile file: String) throws -> Loaded {
    try config(forFolder: Path.directory(of: Path.absolute(file)))
  }

  /// The index in `linters` of the linter for `file`.
  func linter(forFile file: String) throws -> Int {
    let folder = Path.directory(of: file)
    // A walk hands over a folder's files one after another.
    if let last = lastFolder, last.folder == folder { return last.linter }
    if let known = folderLinter[folder] {
      lastFolder = (folder, known)
      return known
    }
    let entry = try config(forFolder: folder)
    let index = try linter(entry, file: file)
    if entry.config.overrides.isEmpty {
      folderLinter[folder] = index
      lastFolder = (folder, index)
    }
    return index
  }

  private func linter(_ entry: Loaded, file: String) throws -> Int {
    let settings = entry.config.settings(for: file, absolute: absolutePath(of: file))
    let key = (entry.config.file ?? "") + "\u{0}" + settings.overrides.map(String.init).joined(separator: ",")
    if let index = linterIndex[key] { return index }
    var effective = entry.config
    effective.placeholders = settings.placeholders
    effective.limits = settings.limits
    var (options, maxFileSize) = try base(effective)
    if options.input == nil { options.input = settings.input }
    options.fragment = options.fragment || settings.fragment
    let linter = Linter(rules: entry.ruleSet, severities: settings.severities, options: options)
    if keptUntilExit { ProcessLifetime.keep(linter) }
    linters.append(linter)
    maxFileSizes.append(maxFileSize)
    suppressions.append(entry.config.suppressions)
    linterIndex[key] = linters.count - 1
    return linters.count - 1
  }

  private func configPath(forFolder folder: String) throws -> String {
    if let explicit = sources.config { return explicit }
    if let known = nearest[folder] { return known }
    let candidate = Path.join(folder, Config.fileName)
    let found: String
    if FileSystem.exists(candidate) {
      found = candidate
    } else {
      let parent = Path.directory(of: folder)
      found = parent == folder ? "" : try configPath(forFolder: parent)
    }
    nearest[folder] = found
    return found
  }
}
