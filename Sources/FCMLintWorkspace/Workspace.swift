import FCMLintDocs
import FCMLintEngine
import FCMLintJSON
import FCMLintSystem

/// The files of a run and the config that governs each: the one path from a name (a file, a
/// folder, standard input or an editor's buffer) to the linter, the limits, the suppressions and
/// the reading (JSON or documentation page) it gets. The command line and the language server
/// both ask it, so a file gets the same answer by either door.
///
/// With `--config`, one config serves every file; otherwise each file uses the `.fcmlint.yml`
/// nearest to it (its folder, then upward), found once per folder. A config's `overrides:` then
/// refine the settings for the files their globs match. Every distinct combination gets its own
/// `Linter`, made once. A file with no config above it (one outside the working directory's
/// project, say) uses the config nearest to the working directory.
///
/// Not thread-safe: a run asks it for every file's `FileJob` first, then runs the jobs on as many
/// threads as it likes.
public final class Workspace {
  /// A config file's rules and settings, as loaded.
  public struct Loaded: Sendable {
    public let ruleSet: RuleSet
    public let config: Config
  }

  public let settings: RunSettings
  private let pack: @Sendable () throws(ConfigurationError) -> RuleSet
  private var discovery = ConfigDiscovery()
  /// Config file ("" for none) → its rules and settings.
  private var loaded: [String: Loaded] = [:]
  /// A folder as a walk or the command line names it → its config.
  private var folderConfig: [String: Loaded] = [:]
  private var absoluteFolder: [String: String] = [:]
  /// A config file and the overrides that apply → the index of its linter in `linters`.
  private var linterIndex: [String: Int] = [:]
  public private(set) var linters: [Linter] = []
  /// What the jobs of each linter share, by index in `linters`: its file size limit (`limits:`
  /// can differ per config and override), its config's `suppress:` entries, where its files
  /// have their image URLs when they are checked.
  private var linterJobs: [LinterJobs] = []
  /// A folder as the walk names it → its files' linter, for configs without overrides.
  private var folderLinter: [String: Int] = [:]
  private var lastFolder: (folder: String, linter: Int)? = nil
  /// The last folder `isIgnored` found governed by a config that ignores nothing.
  private var lastFolderIgnoringNothing: String? = nil
  /// Whether the linters are kept until the process exits (see `ProcessLifetime`): a run's are;
  /// the language server's are freed when a config change makes it read its configs again.
  private let keptUntilExit: Bool

  /// The working directory's config, read first: its linter, without overrides, is `linters[0]`.
  public let base: Loaded

  /// Reads the working directory's config (or `settings.configFile`) and the rule pack `pack`
  /// gives; a broken config or rule file is an error at its place.
  public init(settings: RunSettings, pack: @escaping @Sendable () throws(ConfigurationError) -> RuleSet, keptUntilExit: Bool = true) throws(ConfigurationError) {
    self.settings = settings
    self.pack = pack
    self.keptUntilExit = keptUntilExit
    var discovery = ConfigDiscovery()
    let path = settings.configFile ?? discovery.configFile(governing: FileSystem.currentDirectory()) ?? ""
    self.discovery = discovery
    base = try Self.load(path.isEmpty ? nil : path, settings: settings, pack: pack)
    loaded[path] = base
    let (options, maxFileSize) = linterOptions(base.config, FileSettingsView(base.config))
    let linter = Linter(rules: base.ruleSet, severities: base.config.severities, options: options)
    add(linter, maxFileSize: maxFileSize, suppressions: base.config.suppressions, checksURLs: base.config.checkURLs)
    linterIndex[(base.config.file ?? "") + "\u{0}"] = 0
  }

  /// The rules and config from `configPath` (nil: the defaults), the config's rule folders and the
  /// run's own (`--rules`), checked against each other.
  public static func load(
    _ configPath: String?, settings: RunSettings, pack: () throws(ConfigurationError) -> RuleSet
  ) throws(ConfigurationError) -> Loaded {
    let config = try configPath.map { path throws(ConfigurationError) in try Config.load(file: path) } ?? Config()
    var ruleSet = try pack()
    // A config's rule folders stay inside its folder; --rules names folders anywhere.
    for (directory, folder) in config.ruleDirectories { try ruleSet.addDirectory(directory, confinedTo: folder) }
    for directory in settings.ruleDirectories { try ruleSet.addDirectory(directory) }
    try config.validate(against: ruleSet)
    return Loaded(ruleSet: ruleSet, config: config)
  }

  // MARK: - Configs

  /// The config that governs files in `folder`.
  public func config(forFolder folder: String) throws(ConfigurationError) -> Loaded {
    // A walk asks once per file; a folder as it names it is looked up once.
    if let known = folderConfig[folder] { return known }
    var path = configPath(forFolder: Path.absolute(folder))
    if path.isEmpty { path = configPath(forFolder: FileSystem.currentDirectory()) }
    let entry: Loaded
    if let known = loaded[path] {
      entry = known
    } else {
      entry = try Self.load(path.isEmpty ? nil : path, settings: settings, pack: pack)
      loaded[path] = entry
    }
    folderConfig[folder] = entry
    return entry
  }

  public func config(forFile file: String) throws(ConfigurationError) -> Loaded {
    // The folder as the file names it: looked up once, made absolute only then.
    try config(forFolder: Path.directory(of: file))
  }

  /// Every config file read so far, and every file they extend: what an editor watches.
  public var configFiles: [String] {
    Set(loaded.values.flatMap { $0.config.files }).sorted()
  }

  private func configPath(forFolder folder: String) -> String {
    if let explicit = settings.configFile { return explicit }
    return discovery.configFile(governing: folder) ?? ""
  }

  /// The index in `linters` of the linter for `file`.
  public func linter(forFile file: String) throws(ConfigurationError) -> Int {
    // A walk hands over a folder's files one after another.
    if let last = lastFolder, Path.isEntry(file, of: last.folder) { return last.linter }
    let folder = Path.directory(of: file)
    if let known = folderLinter[folder] {
      lastFolder = (folder, known)
      return known
    }
    let entry = try config(forFolder: folder)
    let index = linter(entry, file: file)
    if entry.config.overrides.isEmpty {
      folderLinter[folder] = index
      lastFolder = (folder, index)
    }
    return index
  }

  private func linter(_ entry: Loaded, file: String) -> Int {
    let fileSettings = entry.config.settings(for: file, absolute: absolutePath(of: file))
    // Built by hand: `joined(separator:)` here was the generic one, whose first call looked its
    // element type up by name in the runtime (100 K instructions, 2% of a one-file run).
    var key = entry.config.file ?? ""
    key += "\u{0}"
    for (i, override) in fileSettings.overrides.enumerated() { key += i == 0 ? String(override) : "," + String(override) }
    if let index = linterIndex[key] { return index }
    let (options, maxFileSize) = linterOptions(entry.config, FileSettingsView(fileSettings))
    let linter = Linter(rules: entry.ruleSet, severities: fileSettings.severities, options: options)
    add(linter, maxFileSize: maxFileSize, suppressions: entry.config.suppressions, checksURLs: fileSettings.checkURLs)
    linterIndex[key] = linters.count - 1
    return linters.count - 1
  }

  /// Adds a linter and what its jobs share. Its files' image URLs are gathered when the run or
  /// the config checks them (`--check-urls`, `check-urls:`) and the run may fetch.
  private func add(_ linter: Linter, maxFileSize: Int, suppressions: [Config.Suppression], checksURLs: Bool) {
    if keptUntilExit { ProcessLifetime.keep(linter) }
    let imageFields = (settings.checkURLs || checksURLs) && !settings.offline ? ImageFields(aliases: linter.aliases) : nil
    linterJobs.append(LinterJobs(linter: linter, index: linters.count, maxFileSize: maxFileSize, suppressions: suppressions, imageFields: imageFields))
    linters.append(linter)
  }

  /// What one file's settings say about its linter.
  private struct FileSettingsView {
    var input: InputKind?
    var fragment: Bool
    var placeholders: PlaceholderSyntax
    var limits: Limits

    init(_ config: Config) {
      input = nil
      fragment = config.fragment
      placeholders = config.placeholders
      limits = config.limits
    }

    init(_ settings: Config.FileSettings) {
      input = settings.input
      fragment = settings.fragment
      placeholders = settings.placeholders
      limits = settings.limits
    }
  }

  /// The linter options of a file: what the run sets (input kind, fragments, limits) over its
  /// config's settings.
  private func linterOptions(_ config: Config, _ file: FileSettingsView) -> (Linter.Options, Int) {
    let limits = settings.limits(over: file.limits)
    var options = Linter.Options()
    options.input = settings.input ?? file.input
    options.fragment = settings.fragment || file.fragment
    options.maxDepth = limits.maxDepth
    options.maxStringLength = limits.maxStringLength
    options.placeholders = file.placeholders
    options.variables = settings.variables
    return (options, limits.maxFileSize)
  }

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

  // MARK: - Which files

  /// Whether a file named on the command line or open in an editor is ignored: its config's
  /// `ignore:` (and those it extends). `.gitignore` files apply to folder walks only, as a file
  /// named is one the user means.
  public func isIgnored(_ path: String) throws(ConfigurationError) -> Bool {
    // Named files come folder by folder (a hook's, xargs'): a folder whose config ignores
    // nothing is asked once, not once per file.
    if let folder = lastFolderIgnoringNothing, Path.isEntry(path, of: folder) { return false }
    let governing = try config(forFile: path).config
    guard !governing.ignoreLists.isEmpty else {
      lastFolderIgnoringNothing = Path.directory(of: path)
      return false
    }
    return governing.isIgnored(absolute: absolutePath(of: path))
  }

  /// The files a walk of `folder` lints, in sorted order: `*.json`, and documentation pages when
  /// the run or the folder's config says `docs`. Skipped: what the walked folder's config
  /// ignores, what the config governing each folder below ignores (a nested `.fcmlint.yml`'s
  /// `ignore:` holds whether the walk starts at its folder or above it), and what `.gitignore`
  /// excludes.
  public func files(under folder: String) throws(ConfigurationError) -> (files: [String], errors: [FileSystem.IOError]) {
    let rootConfig = try config(forFolder: folder).config
    let respectGitignore = settings.respectGitignore && rootConfig.respectGitignore
    var failure: ConfigurationError? = nil
    let filter = WalkFilter(
      root: folder, config: rootConfig.ignoreLists, respectGitignore: respectGitignore, top: rootConfig.root ? rootConfig.baseDirectory : nil
    ) { [unowned self] absoluteFolder in
      // A nested config's own patterns; the walked folder's are checked already.
      do throws(ConfigurationError) {
        let governing = try config(forFolder: absoluteFolder).config
        return governing.file == rootConfig.file ? [] : governing.ignoreLists
      } catch {
        if failure == nil { failure = error }
        return []
      }
    }
    let pages = settings.docs || rootConfig.docs
    var (files, errors) = FileSystem.files(under: folder, enter: filter.enters) { name in
      Self.isJSONFileName(name) || (pages && DocumentFormat.isPageName(name))
    }
    if let failure { throw failure }
    if filter.hasPatterns { files = files.filter(filter.includes) }
    return (files, errors)
  }

  /// The inputs `paths` name, in their order: `-` is standard input (named `standardInput` when
  /// given), a folder its walk's files, a file itself unless its config ignores it. A path named
  /// twice is one input. With `distinctFiles` (a run that writes), so is one file reached by two
  /// paths (`a.json` and `./a.json`, through a folder and by name, through a link): fixed twice
  /// at once, its two writes would race. Only then is every file's identity looked up (a stat
  /// each, which a plain folder walk does without).
  public func sources(
    _ paths: [String], standardInput name: String?, distinctFiles: Bool
  ) throws(ConfigurationError) -> (sources: [FileJob.Source], errors: [FileSystem.IOError]) {
    var inputs: [FileJob.Source] = []
    var errors: [FileSystem.IOError] = []
    let listed = FileSystem.listedAsRegularFiles(paths)
    for (index, path) in paths.enumerated() {
      if path == "-" {
        inputs.append(.standardInput(name: name))
        continue
      }
      if !listed.isEmpty && listed[index] {
        // A regular file by its folder's listing: its read learns its size from the file itself.
        if !(try isIgnored(path)) { inputs.append(.file(path)) }
        continue
      }
      let (kind, size) = FileSystem.kindAndSize(path)
      switch kind {
      case .directory:
        let (files, walkErrors) = try files(under: path)
        inputs += files.map { .file($0) }
        errors += walkErrors
      case .missing:
        errors.append(FileSystem.IOError(path: path, message: FileSystem.statFailure(path)))
      case .file, .other:
        if !(try isIgnored(path)) { inputs.append(.file(path, size: size)) }
      }
    }
    // One path, walked or named, cannot reach a file twice: only several need the check.
    guard paths.count > 1 || distinctFiles else { return (inputs, errors) }
    var seenPaths = SeenNames()
    var seenFiles = Set<FileSystem.Identity>()
    inputs = inputs.filter { input in
      guard case .file(let path, _) = input else { return true }
      guard seenPaths.insert(path) else { return false }
      guard distinctFiles, let identity = FileSystem.identity(path) else { return true }
      return seenFiles.insert(identity).inserted
    }
    return (inputs, errors)
  }

  /// The names met so far, told apart by a 64-bit FNV-1a hash of their bytes until two hashes
  /// meet, then as Strings: a hook or xargs names thousands of files, and a `Set<String>` hashed
  /// each one's characters through the standard library's seeded hasher.
  /// The hashes sit in an open-addressing table of their own (0 for an empty slot), placed by
  /// `FileName.slot`: a `Set<UInt64>` hashed each hash again.
  struct SeenNames {
    private let hash: (String) -> UInt64
    private var slots = [UInt64](repeating: 0, count: 64)
    private var count = 0
    private var names: [String] = []
    /// Made from `names` when a hash comes again; from then on every name goes in it.
    private var exact: Set<String>? = nil

    /// `hash` is `SeenNames.hash` but in tests, which make names meet.
    init(hash: @escaping (String) -> UInt64 = SeenNames.hash) { self.hash = hash }

    /// Whether `name` is new; it is met from now on.
    mutating func insert(_ name: String) -> Bool {
      if exact != nil { return exact!.insert(name).inserted }
      if insert(hash: max(1, hash(name))) {
        names.append(name)
        return true
      }
      exact = Set(names)
      names = []
      return exact!.insert(name).inserted
    }

    private mutating func insert(hash: UInt64) -> Bool {
      if count * 2 >= slots.count {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        count = 0
        for hash in old where hash != 0 { _ = insert(hash: hash) }
      }
      let mask = slots.count - 1
      var slot = FileName.slot(hash, bits: slots.count.trailingZeroBitCount)
      while slots[slot] != 0 {
        if slots[slot] == hash { return false }
        slot = (slot + 1) & mask
      }
      slots[slot] = hash
      count += 1
      return true
    }

    static func hash(_ name: String) -> UInt64 {
      name.utf8.withContiguousStorageIfAvailable { FileName.hash($0) } ?? FileName.hash(name.utf8)
    }
  }

  private static let jsonSuffix: [UInt8] = Array(".json".utf8)

  /// Whether a file found in a folder is linted: its name ends in ".json", in any case. Checked
  /// on the bytes, since a folder may hold 20,000 names.
  public static func isJSONFileName(_ name: String) -> Bool {
    // ASCII letters only: no other character lower-cases to one of ".json". From the name's own
    // bytes when it has them in one piece: through String.UTF8View it cost several times as much.
    func ends(_ utf8: some Collection<UInt8>) -> Bool {
      let suffix = jsonSuffix
      guard utf8.count >= suffix.count else { return false }
      return zip(utf8.suffix(suffix.count), suffix).allSatisfy { byte, expected in byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) == expected }
    }
    return name.utf8.withContiguousStorageIfAvailable(ends) ?? ends(name.utf8)
  }

  // MARK: - Jobs

  /// Everything one input needs to be linted, worked out here once so that the job itself can
  /// run on any thread.
  /// How a job reads its input: by its name and the settings (JSON or a page), or always as JSON
  /// (the documents of a stream).
  public enum Reading: Sendable {
    case byName
    case json
  }

  public func job(for source: FileJob.Source, readAs reading: Reading = .byName) throws(ConfigurationError) -> FileJob {
    let path: String
    switch source {
    case .file(let file, _): path = file
    case .standardInput(let name): path = name ?? "-"
    case .buffer(let name, _): path = name
    }
    let index = try linter(forFile: path)
    let ignored: Bool
    switch source {
    case .file: ignored = reading == .json ? try isIgnored(path) : false  // a walk or the caller has decided already for files
    case .standardInput(let name): ignored = try name.map { name throws(ConfigurationError) in try isIgnored(name) } ?? false
    case .buffer(let name, _): ignored = try isIgnored(name)
    }
    return FileJob(source: source, shared: linterJobs[index], format: reading == .json ? nil : try format(of: source), ignored: ignored)
  }

  /// How an input is read: nil for JSON; a page's format for a documentation page (by its name,
  /// or any file not named .json when the run or its config says `docs`).
  func format(of source: FileJob.Source) throws(ConfigurationError) -> DocumentFormat? {
    let name: String
    switch source {
    case .file(let path, _): name = path
    case .buffer(let path, _): name = path
    case .standardInput(let given):
      guard let given else { return settings.docs ? .text : nil }
      name = given
    }
    if Self.isJSONFileName(name) { return nil }
    if let format = DocumentFormat.of(fileName: name) { return format }
    if settings.docs { return .text }
    if case .standardInput = source { return nil }
    return try config(forFile: name).config.docs ? .text : nil
  }
}

/// What the command line sets for every file, over any config.
public struct RunSettings: Sendable {
  /// `--config`: one config for every file, instead of each file's nearest.
  public var configFile: String? = nil
  /// `--rules`: extra rule folders.
  public var ruleDirectories: [String] = []
  public var input: InputKind? = nil
  public var fragment = false
  /// `--docs`: walks include pages, and a named file that is not JSON is read as one.
  public var docs = false
  public var respectGitignore = true
  public var variables: TemplateVariables? = nil
  /// `--check-urls`: every file's image URLs are fetched, whatever its config says.
  public var checkURLs = false
  /// Nothing is fetched, whatever a config's `check-urls` says: the language server (an editor
  /// must not send requests as one types) and `--fix-only` (which reports nothing that remains).
  public var offline = false
  /// `--max-depth`, `--max-file-size`, `--max-string-length` as written (checked by `limits(over:)`).
  public var limitTexts: [Limits.Setting: String] = [:]

  public init() {}

  /// These settings' limits over `configured` (a config's, or the defaults).
  public func checkedLimits(over configured: Limits) throws(Limits.Problem) -> Limits {
    var limits = configured
    for setting in Limits.Setting.allCases {
      if let text = limitTexts[setting] { try limits.set(setting, to: text, name: "--" + setting.rawValue) }
    }
    return limits
  }

  /// `checkedLimits`, for settings already checked.
  func limits(over configured: Limits) -> Limits {
    (try? checkedLimits(over: configured)) ?? configured
  }
}

/// The nearest `.fcmlint.yml` of each folder, each folder looked at once. Whatever is there
/// counts, a FIFO or a link to a device included (reading it then fails with a clear error):
/// skipping it would silently apply a parent folder's config instead.
public struct ConfigDiscovery {
  /// Folder (absolute) → the config file that governs it ("" for none).
  private var nearest: [String: String] = [:]

  public init() {}

  /// The config file in `folder` (absolute) or the nearest folder above it; nil when none.
  public mutating func configFile(governing folder: String) -> String? {
    var chain: [String] = []
    var current = folder
    var found = ""
    while true {
      if let known = nearest[current] {
        found = known
        break
      }
      chain.append(current)
      let candidate = Path.join(current, Config.fileName)
      if FileSystem.exists(candidate) {
        found = candidate
        break
      }
      let parent = Path.directory(of: current)
      if parent == current { break }
      current = parent
    }
    for folder in chain { nearest[folder] = found }
    return found.isEmpty ? nil : found
  }
}

/// Keeps a value alive until the process exits. The rule pack is thousands of small objects that
/// a linter needs until its last file; freeing them one by one just before `exit` was a
/// noticeable part of a single-file run (docs/performance.md).
public enum ProcessLifetime {
  /// A box that refers to itself: nothing ever releases it, so its value is never freed.
  private final class Box<Value> {
    let value: Value
    var itself: Box?
    init(_ value: Value) { self.value = value }
  }

  public static func keep<Value>(_ value: Value) {
    let box = Box(value)
    box.itself = box
  }
}
