import FCMLintSystem

/// The little file access fcmlint needs, on POSIX directly: no Foundation on the per-file path.
public enum FileSystem {
  public struct IOError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
      self.path = path
      self.message = message
    }
    public var description: String { "\(path): \(message)" }
  }

  public enum Kind: Sendable { case file, directory, other, missing }

  /// What `path` is, following symbolic links.
  public static func kind(_ path: String) -> Kind { kindAndSize(path).kind }

  /// What `path` is, following symbolic links, and its size when it is a regular file.
  public static func kindAndSize(_ path: String) -> (kind: Kind, size: Int?) {
    guard case .success(let status) = POSIX.status(path) else { return (.missing, nil) }
    switch status.kind {
    case .file: return (.file, status.size)
    case .directory: return (.directory, nil)
    default: return (.other, nil)
    }
  }

  /// What makes two paths one file: its device and inode (following symbolic links); nil when
  /// it cannot be read.
  public struct Identity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  public static func identity(_ path: String) -> Identity? {
    guard case .success(let status) = POSIX.status(path) else { return nil }
    return Identity(device: status.device, inode: status.inode)
  }

  /// What tells that a file changed: its identity, size and modification time.
  public struct Stamp: Hashable, Sendable {
    var identity: Identity
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64
  }

  /// The stamp of the file at `path` (following symbolic links); nil when there is none.
  public static func stamp(_ path: String) -> Stamp? {
    guard case .success(let status) = POSIX.status(path) else { return nil }
    return Stamp(
      identity: Identity(device: status.device, inode: status.inode), size: Int64(status.size),
      seconds: status.modified.seconds, nanoseconds: status.modified.nanoseconds)
  }

  /// `path` with every symbolic link, `.` and `..` resolved (realpath(3)); nil when it cannot be.
  public static func realPath(_ path: String) -> String? { POSIX.realPath(path) }

  /// Whether anything is at `path`, not following a last symbolic link (a dangling link exists).
  public static func exists(_ path: String) -> Bool {
    if case .success = POSIX.status(path, followingLinks: false) { return true }
    return false
  }

  /// Why `stat(path)` fails, in words ("no such file or directory", "not a directory", ...).
  public static func statFailure(_ path: String) -> String {
    guard case .failure(let error) = POSIX.status(path) else { return "cannot be read" }
    return errorText(error)
  }

  /// Reads a whole regular file. Anything larger than `limit` bytes is refused before reading;
  /// `limitName` (an option such as `--max-file-size`) tells the user which limit it was.
  /// Opening never blocks (a FIFO is refused, not waited on). `statedSize`: the size a stat of
  /// the path just gave for a regular file (`POSIX.readFile`).
  public static func read(_ path: String, limit: Int = Int.max, limitName: String? = nil, statedSize: Int? = nil) -> Result<[UInt8], IOError> {
    switch POSIX.readFile(path, limit: limit, statedSize: statedSize) {
    case .success(let bytes): return .success(bytes)
    case .failure(let failure):
      let which = limitName.map { " (\($0))" } ?? ""
      let message: String
      switch failure {
      case .system(let error): message = errorText(error)
      case .directory: message = "is a directory"
      case .notRegular: message = "is not a regular file"
      case .tooLarge(let size?): message = "is \(size) bytes, larger than the limit of \(limit) bytes\(which); not read"
      case .tooLarge(nil): message = "is larger than the limit of \(limit) bytes\(which); not read"
      }
      return .failure(IOError(path: path, message: message))
    }
  }

  /// Reads all of standard input.
  public static func readStandardInput(limit: Int = Int.max, limitName: String? = nil) -> Result<[UInt8], IOError> {
    switch POSIX.readAll(0, limit: limit) {
    case .success(let bytes): return .success(bytes)
    case .failure(.system(let error)): return .failure(IOError(path: "<stdin>", message: errorText(error)))
    case .failure:
      return .failure(IOError(path: "<stdin>", message: "is larger than the limit of \(limit) bytes\(limitName.map { " (\($0))" } ?? ""); not read further"))
    }
  }

  /// Files below `directory` whose names satisfy `include`, in sorted order, recursively, in the
  /// folders `enter` accepts (given each folder's path and name; by default every folder whose
  /// name does not start with a dot). Symbolic links to directories are followed once: a link
  /// loop is reported, not walked forever.
  public static func files(
    under directory: String, enter: (_ path: String, _ name: String) -> Bool = { _, name in !name.hasPrefix(".") },
    include: (String) -> Bool
  ) -> (files: [String], errors: [IOError]) {
    var files: [String] = []
    var errors: [IOError] = []
    var visited = Set<DirectoryID>()
    walk(directory, enter, include, &files, &errors, &visited)
    return (files, errors)
  }

  /// Which of `paths` (named on the command line: a find piped to xargs, a hook) their folder's
  /// listing shows as regular files, from each entry's d_type as a walk reads it: those need no
  /// stat() before their read, one path lookup a file less. A listing comes in batches of some
  /// hundred entries a system call, each batch costing about what a few hundred stats do, so only
  /// a folder holding at least `minimumPerFolder` of the paths is listed, until it has shown them
  /// all or `entriesPerPath` entries for each (a hook naming a few files of a large folder pays a
  /// stat each, as before). False for a path the listing did not show as a regular file
  /// (missing, a folder, a symbolic link, past the entries read, or on a file system whose
  /// listings do not say), which the caller stats; empty when there are too few paths to list
  /// any folder.
  public static func listedAsRegularFiles(_ paths: [String], minimumPerFolder: Int = 256, entriesPerPath: Int = 4) -> [Bool] {
    POSIX.listedAsRegularFiles(paths, minimumPerFolder: minimumPerFolder, entriesPerPath: entriesPerPath)
  }

  private struct DirectoryID: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private static func walk(
    _ directory: String, _ enter: (String, String) -> Bool, _ include: (String) -> Bool, _ files: inout [String], _ errors: inout [IOError],
    _ visited: inout Set<DirectoryID>
  ) {
    let status: POSIX.FileStatus
    switch POSIX.status(directory) {
    case .success(let found): status = found
    case .failure(let error):
      errors.append(IOError(path: directory, message: errorText(error)))
      return
    }
    guard visited.insert(DirectoryID(device: status.device, inode: status.inode)).inserted else {
      errors.append(IOError(path: directory, message: "directory visited twice (a symbolic link loop?); skipped"))
      return
    }
    let entries: [POSIX.DirectoryEntry]
    switch POSIX.directoryEntries(directory) {
    case .success(let listed): entries = listed
    case .failure(let error):
      errors.append(IOError(path: directory, message: errorText(error)))
      return
    }
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    // With each name, whether the directory entry says it is a regular file (d_type): those need
    // no stat() of their own, which in a folder of 20,000 payloads is 20,000 system calls saved.
    var names: [(name: String, regular: Bool)] = []
    names.reserveCapacity(entries.count)
    for entry in entries { names.append((entry.name, entry.kind == .file)) }
    // Sorted through small keys: moving whole entries and calling a comparison through a
    // function value cost more than the comparisons themselves.
    var order = names.indices.map { SortKey(names[$0].name, index: $0) }
    order.sort { a, b in
      if a.high != b.high { return a.high < b.high }
      if a.low != b.low { return a.low < b.low }
      return names[a.index].name.utf8.lexicographicallyPrecedes(names[b.index].name.utf8)
    }
    for key in order {
      let (name, regular) = (names[key.index].name, names[key.index].regular)
      let path = prefix + name
      if regular {
        if include(name) { files.append(path) }
        continue
      }
      switch POSIX.status(path) {
      case .failure(let error):
        // A dangling link or a file removed meanwhile: only worth a word when it would have been
        // linted. A path too long to name (PATH_MAX) always is: what is below it is not walked.
        if include(name) || error.isNameTooLong { errors.append(IOError(path: path, message: errorText(error))) }
      case .success(let entry) where entry.kind == .directory:
        if enter(path, name) { walk(path, enter, include, &files, &errors, &visited) }
      case .success(let entry) where entry.kind == .file:
        if include(name) { files.append(path) }
      case .success:
        continue
      }
    }
  }

  /// The indices of `names` in the order of their bytes, equal names in the order given: the
  /// order a run reports files in. A walk's files come sorted, which one pass checks; others (a
  /// list from find and xargs: whole paths, which agree for many bytes) are sorted as words
  /// (`SortWords`), compared eight bytes a step. Through String.UTF8View, or byte by byte, the
  /// comparisons cost most of a run over named files; an array of words for each name cost two
  /// allocations a name and an array comparison a step (docs/performance.md).
  public static func byteOrder(of names: [String]) -> [Int] {
    if names.indices.dropFirst().allSatisfy({ !bytesPrecede(names[$0], names[$0 - 1]) }) { return Array(names.indices) }
    let words = SortWords(names)
    // Sorted by three words past those all names share (a project's folder), the rest compared
    // only where those agree.
    let first = words.shared
    var keys = names.indices.map { (words.word(first, of: $0), words.word(first + 1, of: $0), words.word(first + 2, of: $0), index: $0) }
    keys.sort { a, b in
      if a.0 != b.0 { return a.0 < b.0 }
      if a.1 != b.1 { return a.1 < b.1 }
      if a.2 != b.2 { return a.2 < b.2 }
      switch words.compare(a.index, b.index, from: first + 3) {
      case .before: return true
      case .after: return false
      case .same: return a.index < b.index
      }
    }
    return keys.map(\.index)
  }

  /// Whether `a`'s bytes come before `b`'s, compared where the Strings keep them (a copy of each
  /// name's bytes, to check a walk's files are in order, cost more than the comparisons).
  private static func bytesPrecede(_ a: String, _ b: String) -> Bool {
    let answer = a.utf8.withContiguousStorageIfAvailable { a in
      b.utf8.withContiguousStorageIfAvailable { b in a.lexicographicallyPrecedes(b) }
    }
    return (answer ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// Names' bytes as big-endian words, the last of each name padded with zeros, all in one list:
  /// word by word, names sort as their bytes do (a file name holds no NUL byte), as `SortKey`
  /// sorts a folder's names by their first two words.
  struct SortWords {
    enum Order { case before, same, after }
    private var words: [UInt64] = []
    /// Name i's words are `words[starts[i]..<starts[i + 1]]`.
    private var starts: [Int] = [0]

    init(_ names: [String]) {
      starts.reserveCapacity(names.count + 1)
      words.reserveCapacity(names.reduce(0) { $0 + ($1.utf8.count + 7) / 8 })
      for name in names {
        if name.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil { append(name.utf8) }
        starts.append(words.count)
      }
    }

    private mutating func append(_ bytes: some Sequence<UInt8>) {
      var word: UInt64 = 0, filled = 0
      for byte in bytes {
        word = word << 8 | UInt64(byte)
        filled += 1
        if filled == 8 {
          words.append(word)
          word = 0
          filled = 0
        }
      }
      if filled > 0 { words.append(word << UInt64(8 * (8 - filled))) }
    }

    /// How many words every name starts with alike.
    var shared: Int {
      guard starts.count > 2 else { return 0 }
      var shared = starts[1] - starts[0]
      for name in 1..<(starts.count - 1) {
        var k = 0
        while k < shared && starts[name] + k < starts[name + 1] && words[starts[name] + k] == words[k] { k += 1 }
        shared = k
      }
      return shared
    }

    /// Word `k` of name `name`; 0 past its end, which sorts it before any name that goes on.
    func word(_ k: Int, of name: Int) -> UInt64 {
      let at = starts[name] + k
      return at < starts[name + 1] ? words[at] : 0
    }

    /// How name `a`'s bytes order against name `b`'s, from word `k` on. Where one name's words
    /// run out first, it is the other's start (its last word, zero-padded, was equal), so it
    /// comes first.
    func compare(_ a: Int, _ b: Int, from k: Int = 0) -> Order {
      let endA = starts[a + 1], endB = starts[b + 1]
      var i = min(starts[a] + k, endA), j = min(starts[b] + k, endB)
      while i < endA && j < endB {
        if words[i] != words[j] { return words[i] < words[j] ? .before : .after }
        i += 1
        j += 1
      }
      if i < endA { return .after }
      return j < endB ? .before : .same
    }
  }

  /// A name's first 16 bytes as two big-endian integers, and where the name is: sorting a
  /// folder of 20,000 files compares these, and the names only when they agree (names longer
  /// than 16 bytes with the same start).
  private struct SortKey {
    var high: UInt64 = 0
    var low: UInt64 = 0
    var index: Int

    init(_ name: String, index: Int) {
      self.index = index
      // Names hold no NUL byte, so the zero padding sorts a name before any longer one it starts.
      // From the name's own bytes when it has them in one piece (a String read from a folder
      // does): stepping through String.UTF8View cost several times as much.
      func fill(_ bytes: some Collection<UInt8>) {
        var i = 0
        for byte in bytes.prefix(16) {
          if i < 8 { high |= UInt64(byte) << (8 * (7 - i)) } else { low |= UInt64(byte) << (8 * (15 - i)) }
          i += 1
        }
      }
      if name.utf8.withContiguousStorageIfAvailable(fill) == nil { fill(name.utf8) }
    }
  }

  /// Writes `text` to `path` (a report, a generated file). A regular file, new or existing, is
  /// replaced atomically: the text goes to a new temporary file beside it, created exclusively
  /// under an unpredictable name (so nothing planted can redirect it), then renamed over it, so a
  /// crash never leaves a half-written file. A symbolic link is written through, to what it
  /// names. Anything else that can be written, such as a FIFO, a terminal or /dev/null, is
  /// written in place and never replaced.
  public static func write(_ text: String, to path: String) -> Result<Void, IOError> {
    var target = path
    var status = POSIX.status(path, followingLinks: false)
    if case .success(let link) = status, link.kind == .symbolicLink {
      // Through the link: replacing the link would cut it; a dangling one names a new file.
      guard let resolved = SafeWriter.resolvedPath(path) else {
        return .failure(IOError(path: path, message: "is a symbolic link that cannot be followed"))
      }
      target = resolved
      status = POSIX.status(target, followingLinks: false)
    }
    switch (try? status.get())?.kind {
    case nil, .file?:
      break
    case .directory?:
      return .failure(IOError(path: path, message: "is a directory"))
    default:
      // A FIFO, a device or a socket: write into it, as a shell's redirection would.
      if let failure = POSIX.writeInPlace(text, to: target) { return .failure(IOError(path: path, message: errorText(failure))) }
      return .success(())
    }
    let temporary: POSIX.TemporaryFile
    switch POSIX.TemporaryFile.create(in: Path.directory(of: target)) {
    case .success(let created): temporary = created
    case .failure(let error): return .failure(IOError(path: path, message: "cannot create a temporary file beside it: \(errorText(error))"))
    }
    func abandon(_ message: String) -> Result<Void, IOError> {
      temporary.discard()
      return .failure(IOError(path: path, message: message))
    }
    if let failure = temporary.write(text) { return abandon(errorText(failure)) }
    // A report is readable as any new file would be (mkstemp creates it 0600).
    if let error = temporary.setPermissions(POSIX.newFilePermissions) ?? temporary.sync() { return abandon(errorText(error)) }
    temporary.close()
    if let error = temporary.rename(over: target) { return .failure(IOError(path: path, message: errorText(error))) }
    return .success(())
  }

  /// The current working directory ("." when it cannot be told).
  public static func currentDirectory() -> String { POSIX.currentDirectory() ?? "." }

  static func errorText(_ error: SystemError) -> String {
    error.isNameTooLong ? "the path is longer than the system allows (PATH_MAX), so it cannot be opened; not linted" : error.plainWords
  }

  static func errorText(_ failure: POSIX.WriteFailure) -> String {
    switch failure {
    case .system(let error): return errorText(error)
    case .noProgress: return "cannot write (no progress)"
    }
  }
}
