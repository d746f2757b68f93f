import FCMLintSystem

/// Patterns that apply below one folder: a `.gitignore` file's, or the config's `ignore:`.
public struct IgnoreList: Sendable {
  /// The folder the patterns are relative to, absolute.
  public let base: String
  public let globs: [Glob]

  public init(base: String, globs: [Glob]) {
    self.base = base
    self.globs = globs
  }

  /// A `.gitignore` file's lines. As git does, a line that is not a valid pattern is skipped.
  public init(gitignore text: String, base: String) {
    var globs: [Glob] = []
    for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
      var line = Substring(rawLine)
      if line.hasPrefix("#") { continue }
      // Trailing spaces are dropped unless escaped with a backslash.
      while line.hasSuffix(" ") && !line.hasSuffix("\\ ") { line = line.dropLast() }
      if line.isEmpty { continue }
      if let glob = try? Glob(String(line)) { globs.append(glob) }
    }
    self.init(base: base, globs: globs)
  }

  /// Whether the last pattern that matches `relative` excludes it (true) or re-includes it
  /// (false); nil when none matches.
  func decision(_ relative: String, isDirectory: Bool) -> Bool? {
    for glob in globs.reversed() where glob.matches(relative, isDirectory: isDirectory) { return !glob.negated }
    return nil
  }

  /// Whether `path` (absolute) or a folder above it, up to the base, is excluded. As in git, a
  /// file below an excluded folder stays excluded whatever a later pattern says about the file.
  public func excludes(_ path: String, isDirectory: Bool) -> Bool {
    guard !globs.isEmpty, let relative = Self.relative(path, to: base) else { return false }
    var folder = ""
    for component in relative.split(separator: "/").dropLast() {
      folder += folder.isEmpty ? String(component) : "/" + component
      if decision(folder, isDirectory: true) == true { return true }
    }
    return decision(relative, isDirectory: isDirectory) == true
  }

  /// `path` below `base`, or nil when it is not below it.
  static func relative(_ path: String, to base: String) -> String? {
    if base == "/" { return String(path.dropFirst()) }
    guard path.hasPrefix(base), path.utf8.count > base.utf8.count,
      path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: base.utf8.count)] == UInt8(ascii: "/")
    else { return nil }
    return String(path.utf8.dropFirst(base.utf8.count + 1))!
  }
}

/// What a folder walk skips: the folders no one means to lint, the `.gitignore` files of the
/// repository it is in, and the config's `ignore:`.
public final class WalkFilter {
  /// Folders of dependencies, builds and tools; a walk does not enter them (a folder named on the
  /// command line is walked all the same). Hidden folders (`.git`, `.build`, `.venv`...) are
  /// skipped as well.
  public static let skippedFolders: Set<String> = [
    "node_modules", "bower_components", "jspm_packages", "vendor", "build", "dist", "target", "Pods",
    "Carthage", "DerivedData", "__pycache__", "venv", "site-packages", "_build", "buck-out",
  ]

  private let config: [IgnoreList]
  /// The `ignore:` lists of the config that governs a folder (absolute) below the walked one,
  /// when a nested config governs it.
  private let governing: (String) -> [IgnoreList]
  private var governingLists: [String: [IgnoreList]] = [:]
  private let respectGitignore: Bool
  /// Whether the walked folder itself is excluded: then so is everything below it.
  private var rootExcluded = false
  /// The walked folder as named (the start of every path the walk produces) and as an absolute path.
  private let displayRoot: String
  private let absoluteRoot: String
  /// Whether any pattern applies so far: without one, files need no check.
  public private(set) var hasPatterns: Bool
  /// The `.gitignore` patterns in force in each folder seen, outermost first.
  private var gitignores: [String: [IgnoreList]] = [:]
  /// How many times a list of patterns was asked about a path: the walk's work, which grows with
  /// the folders and files it meets, not with their depth.
  public private(set) var decisions = 0

  /// `root` is the folder walked, as named; with `respectGitignore`, the `.gitignore` files from
  /// the repository's top (the nearest folder above holding `.git`) down to it apply, and
  /// `.git/info/exclude`.
  /// `projectTop`: a config's `root: true` folder (relative to the working directory or absolute):
  /// `.gitignore` files above it are not read. `governing` gives the `ignore:` lists of a nested
  /// config for the folders it governs.
  public init(
    root: String, config: [IgnoreList], respectGitignore: Bool, top projectTop: String? = nil,
    governing: @escaping (String) -> [IgnoreList] = { _ in [] }
  ) {
    self.config = config
    self.governing = governing
    self.respectGitignore = respectGitignore
    displayRoot = root.hasSuffix("/") ? String(root.dropLast()) : root
    absoluteRoot = Path.absolute(root)
    hasPatterns = config.contains { !$0.globs.isEmpty }
    // Files are matched against their own names only (see `includes`): the folders above them
    // were decided when the walk entered them, and the walked folder here, once.
    rootExcluded = config.contains { $0.excludes(absoluteRoot, isDirectory: true) }
    guard respectGitignore else { return }
    let root = absoluteRoot
    let stop = projectTop.map(Path.absolute)
    var above: [String] = []
    var folder = root
    var top: String? = nil
    while true {
      above.append(folder)
      if FileSystem.kind(Path.join(folder, ".git")) != .missing || folder == stop {
        top = folder
        break
      }
      let parent = Path.directory(of: folder)
      if parent == folder { break }
      folder = parent
    }
    // Outside a repository only the walked tree's own .gitignore files count.
    let chain = top == nil ? [root] : Array(above.reversed())
    var lists: [IgnoreList] = []
    if let top, case .success(let bytes) = FileSystem.read(Path.join(top, ".git/info/exclude"), limit: 1 << 20) {
      lists.append(IgnoreList(gitignore: FileName.decode(bytes), base: top))
    }
    for folder in chain {
      if let list = Self.gitignore(in: folder) { lists.append(list) }
      gitignores[folder] = lists
    }
    hasPatterns = hasPatterns || !lists.isEmpty
  }

  /// A path the walk produced, made absolute.
  private func absolute(_ path: String) -> String {
    path.hasPrefix(displayRoot) ? absoluteRoot + path.dropFirst(displayRoot.count) : Path.absolute(path)
  }

  private static func gitignore(in folder: String) -> IgnoreList? {
    guard case .success(let bytes) = FileSystem.read(Path.join(folder, ".gitignore"), limit: 1 << 20) else { return nil }
    let list = IgnoreList(gitignore: FileName.decode(bytes), base: folder)
    return list.globs.isEmpty ? nil : list
  }

  /// The `.gitignore` lists in force in `folder` (absolute), reading its own the first time.
  private func lists(in folder: String) -> [IgnoreList] {
    if let known = gitignores[folder] { return known }
    let parent = Path.directory(of: folder)
    var lists = parent == folder ? [] : self.lists(in: parent)
    if let own = Self.gitignore(in: folder) {
      lists.append(own)
      hasPatterns = true
    }
    gitignores[folder] = lists
    return lists
  }

  /// Whether the walk enters the folder `path` named `name`. The walk asks only about a folder
  /// whose parent it entered, so, as for files, only the folder's own name is matched: matching
  /// every folder above it again made a deep tree's walk quadratic in its depth.
  public func enters(_ path: String, name: String) -> Bool {
    if name.hasPrefix(".") || Self.skippedFolders.contains(name) { return false }
    let path = absolute(path)
    if respectGitignore { _ = lists(in: path) }  // reads its .gitignore, for the files below
    if !nested(in: path).isEmpty { hasPatterns = true }
    return !isExcluded(path, isDirectory: true)
  }

  /// Whether the walk lints the file `path`, one it found: the folders above it were entered, so
  /// only the file's own name is matched.
  public func includes(_ path: String) -> Bool { !hasPatterns || !isExcluded(absolute(path), isDirectory: false) }

  /// The `ignore:` lists of the nested config governing `folder` (absolute), asked once a folder.
  private func nested(in folder: String) -> [IgnoreList] {
    if let known = governingLists[folder] { return known }
    let lists = governing(folder)
    governingLists[folder] = lists
    return lists
  }

  /// Whether the walk skips `path` (absolute), whose folders it entered: none of them is
  /// excluded, so the last pattern about the path itself decides.
  private func isExcluded(_ path: String, isDirectory: Bool) -> Bool {
    if rootExcluded { return true }
    for list in config + nested(in: Path.directory(of: path)) {
      guard let relative = IgnoreList.relative(path, to: list.base) else { continue }
      decisions += 1
      if list.decision(relative, isDirectory: isDirectory) == true { return true }
    }
    guard respectGitignore else { return false }
    let folder = Path.directory(of: path)
    // The deepest .gitignore that has a say decides.
    for list in lists(in: folder).reversed() {
      guard let relative = IgnoreList.relative(path, to: list.base) else { continue }
      decisions += 1
      if let decision = list.decision(relative, isDirectory: isDirectory) { return decision }
    }
    return false
  }
}
