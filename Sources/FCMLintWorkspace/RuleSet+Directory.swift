import FCMLintEngine

/// User rule folders: the engine takes rule text, the workspace finds and reads the files.
extension RuleSet {
  /// Adds every `*.yml` / `*.yaml` file below `directory`, in sorted order.
  public mutating func addDirectory(_ directory: String) throws(ConfigurationError) {
    guard FileSystem.kind(directory) == .directory else {
      throw ConfigurationError(file: directory, line: 1, column: 1, message: "rule folder not found (or not a directory)")
    }
    let (files, errors) = FileSystem.files(under: directory) { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }
    if let error = errors.first {
      throw ConfigurationError(file: error.path, line: 1, column: 1, message: error.message)
    }
    for file in files {
      let bytes: [UInt8]
      switch FileSystem.read(file, limit: 1 << 20) {
      case .success(let b): bytes = b
      case .failure(let e): throw ConfigurationError(file: file, line: 1, column: 1, message: e.message)
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConfigurationError(file: file, line: 1, column: 1, message: "a rule file must be UTF-8 text")
      }
      try add(RuleLoader.load(text: text, file: file, resources: resources))
    }
  }
}
