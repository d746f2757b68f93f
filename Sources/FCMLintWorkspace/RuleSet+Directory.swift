import FCMLintEngine

/// User rule folders: the engine takes rule text, the workspace finds and reads the files.
extension RuleSet {
  /// Adds every `*.yml` / `*.yaml` file below `directory`, in sorted order (an `aliases.yml`
  /// directly in it names paths and values for its rules; see `RuleSet.addFolder`). With
  /// `confinedTo` (a config's folder, for its `rule-directories`), every file must really be
  /// inside it: one reached through a symbolic link that leads out is refused before it is read,
  /// so a cloned repository's config cannot make fcmlint read, or quote in an error, a file
  /// elsewhere.
  public mutating func addDirectory(_ directory: String, confinedTo base: String? = nil) throws(ConfigurationError) {
    guard FileSystem.kind(directory) == .directory else {
      throw ConfigurationError(file: directory, line: 1, column: 1, message: "rule folder not found (or not a directory)")
    }
    let (paths, errors) = FileSystem.files(under: directory) { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }
    if let error = errors.first {
      throw ConfigurationError(file: error.path, line: 1, column: 1, message: error.message)
    }
    if let base {
      let root = FileSystem.realPath(base) ?? base
      for path in [directory] + paths {
        guard let real = FileSystem.realPath(path), real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
          throw ConfigurationError(
            file: path, line: 1, column: 1,
            message: "leads outside the config's folder through a symbolic link; not read (use --rules for rule folders elsewhere)")
        }
      }
    }
    var files: [(path: String, text: String)] = []
    for path in paths {
      let bytes: [UInt8]
      switch FileSystem.read(path, limit: 1 << 20) {
      case .success(let b): bytes = b
      case .failure(let e): throw ConfigurationError(file: path, line: 1, column: 1, message: e.message)
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConfigurationError(file: path, line: 1, column: 1, message: "a rule file must be UTF-8 text")
      }
      files.append((path, text))
    }
    try addFolder(directory, files: files)
  }
}
