#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls fcmlint makes, in one place: reads and writes retried when a signal
/// interrupts them, file status, directory listings, and the temporary file a safe write
/// renames over the original. Everything here works on paths, descriptors and Swift arrays, so
/// the modules that call it hold no pointer code for I/O. A path is a String that stands for
/// bytes (`FileName`): every call here gives the system those bytes, and every path or name it
/// returns is decoded from the system's bytes.
public enum POSIX {}

/// Named apart from the enum's `read`, `write` and `stat`, which would hide the C functions.
@inline(__always) func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
@inline(__always) func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
@inline(__always) func systemStat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(path, &info) }

extension POSIX {
  public enum Kind: Sendable, Equatable { case file, directory, symbolicLink, other }

  /// What stat(2) says of a file.
  public struct FileStatus: Sendable {
    public var kind: Kind
    public var size: Int
    public var device: UInt64
    public var inode: UInt64
    /// The permission bits, set-user, set-group and sticky bits included.
    public var permissions: UInt32
    public var owner: UInt32
    public var group: UInt32
    public var links: Int
    /// The last modification, in seconds and nanoseconds since the epoch.
    public var modified: (seconds: Int64, nanoseconds: Int64)

    init(_ info: stat) {
      switch info.st_mode & S_IFMT {
      case S_IFREG: kind = .file
      case S_IFDIR: kind = .directory
      case S_IFLNK: kind = .symbolicLink
      default: kind = .other
      }
      size = Int(info.st_size)
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      permissions = UInt32(info.st_mode & 0o7777)
      owner = UInt32(info.st_uid)
      group = UInt32(info.st_gid)
      links = Int(info.st_nlink)
      #if canImport(Darwin)
      modified = (Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec))
      #else
      modified = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
      #endif
    }
  }

  /// The status of `path`, of what a last symbolic link names unless `followingLinks` is false.
  public static func status(_ path: String, followingLinks: Bool = true) -> Result<FileStatus, SystemError> {
    var info = stat()
    let result = FileName.withPath(path) { followingLinks ? systemStat($0, &info) : lstat($0, &info) }
    return result == 0 ? .success(FileStatus(info)) : .failure(.last)
  }

  /// `path` with every symbolic link, `.` and `..` resolved (realpath(3)); nil when it cannot be.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = FileName.withPath(path, { realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return FileName.decode(cString: resolved)
  }

  /// The current working directory; nil when it cannot be told (removed, or too long).
  public static func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return buffer.withUnsafeBufferPointer { FileName.decode(cString: $0.baseAddress!) }
  }

  /// Whether this user may write `path` (access(2); root may write any file).
  public static func isWritable(_ path: String) -> Bool { FileName.withPath(path) { access($0, W_OK) } == 0 }

  /// Removes a file, quietly: for temporary files that may already be gone.
  public static func remove(_ path: String) { _ = FileName.withPath(path) { unlink($0) } }

  /// Why reading a whole file failed.
  public enum ReadFailure: Error, Sendable {
    case system(SystemError)
    case directory
    /// A FIFO, a device, a socket: not read (opening never waits on a FIFO).
    case notRegular
    /// More than the limit: the size fstat gave, or nil when the file grew past the limit while
    /// it was read (or standard input ran past it).
    case tooLarge(size: Int?)
  }

  /// Reads a whole regular file: one open, one fstat, reads into a buffer sized from it, one
  /// close. A file larger than `limit` bytes is refused before reading.
  ///
  /// `statedSize` is the size a `stat` of `path` just gave for a regular file (a named file is
  /// stat'ed to tell it from a folder): the read is sized from it, without an fstat of its own.
  /// Should the path have become something else since, no read waits: a folder fails to read, a
  /// FIFO opened without blocking reads as empty, and a file that grew is read to its end.
  public static func readFile(_ path: String, limit: Int = Int.max, statedSize: Int? = nil) -> Result<[UInt8], ReadFailure> {
    let fd = FileName.withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    guard fd >= 0 else { return .failure(.system(.last)) }
    defer { close(fd) }
    let size: Int
    if let statedSize {
      size = statedSize
    } else {
      var info = stat()
      guard fstat(fd, &info) == 0 else { return .failure(.system(.last)) }
      switch info.st_mode & S_IFMT {
      case S_IFREG: break
      case S_IFDIR: return .failure(.directory)
      default: return .failure(.notRegular)
      }
      size = Int(info.st_size)
    }
    if size > limit { return .failure(.tooLarge(size: size)) }
    // One byte more than the size: a read that stops short of it, having read `size` bytes, has
    // met the end of a regular file, which spares the read that would return 0 (one system call
    // in five per file when linting a folder). Read into the array's new capacity (not zeroed
    // first), sized from fstat. Added to an empty array rather than made with
    // `init(unsafeUninitializedCapacity:)`: that initializer is not specialized, and looks up the
    // array's storage type in the runtime's metadata cache on every call (docs/performance.md).
    var total = 0
    var failure: SystemError? = nil
    let capacity = size < limit ? size + 1 : size
    var bytes: [UInt8] = []
    bytes.append(addingCapacity: capacity) { span in
      span.withUnsafeMutableBufferPointer { buffer, count in
        while total < capacity {
          let n = systemRead(fd, buffer.baseAddress! + total, capacity - total)
          if n < 0 {
            if errno == EINTR { continue }
            failure = .last
            break
          }
          if n == 0 { break }
          total += n
          if total == size && total < capacity { break }
        }
        count = total
      }
    }
    if let failure { return .failure(.system(failure)) }
    // The whole file, unless it filled the array (it grew since fstat, or reports no size):
    // then read on, at most one byte past the limit, which tells a file of exactly `limit`
    // bytes from a larger one.
    guard total == capacity else { return .success(bytes) }
    while true {
      if total == bytes.count {
        if total > limit { return .failure(.tooLarge(size: nil)) }
        let grow = limit == Int.max ? max(4096, total) : min(max(4096, total), limit - total + 1)
        bytes.append(contentsOf: repeatElement(0, count: grow))
      }
      let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + total, $0.count - total) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(.system(.last))
      }
      if n == 0 { break }
      total += n
    }
    bytes.removeSubrange(total...)
    return .success(bytes)
  }

  /// One entry of a directory listing.
  public struct DirectoryEntry: Sendable {
    /// The name, decoded losslessly (`FileName`): bytes that are not UTF-8 kept as escape
    /// scalars, so the name opens the file and is shown with them escaped.
    public var name: String
    /// What the directory says the entry is (d_type), nil when it does not say.
    public var kind: Kind?
  }

  /// The entries of a directory, `.` and `..` left out, in the order the directory gives them.
  public static func directoryEntries(_ path: String) -> Result<[DirectoryEntry], SystemError> {
    var stream = DirectoryStream(path)
    guard stream.isOpen else { return .failure(.last) }
    var entries: [DirectoryEntry] = []
    while let (name, kind) = stream.next() { entries.append(DirectoryEntry(name: FileName.decode(buffer: name), kind: kind)) }
    return .success(entries)
  }

  /// `FileSystem.listedAsRegularFiles`, on the paths' bytes: each path split at its last slash,
  /// its folder and its name found again by hash, the listing's names read in place (names as
  /// Strings, hashed and compared canonically, cost more than the stats saved).
  public static func listedAsRegularFiles(_ paths: [String], minimumPerFolder: Int, entriesPerPath: Int) -> [Bool] {
    guard paths.count >= minimumPerFolder else { return [] }
    var listed = [Bool](repeating: false, count: paths.count)
    let named = NamedPaths(paths)
    // The names' hashes, made for the folders listed only.
    var nameHashes = [UInt64](repeating: 0, count: paths.count)
    for (folder, members) in named.folders(holdingAtLeast: minimumPerFolder) {
      // The folder's names in an open-addressing table of path indices + 1 (0: empty).
      var bits = 3
      while 1 << bits < members.count * 2 { bits += 1 }
      let size = 1 << bits
      var slots = [Int](repeating: 0, count: size)
      for i in members {
        nameHashes[i] = FileName.hash(named.name(i))
        var slot = FileName.slot(nameHashes[i], bits: bits)
        while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
        slots[slot] = i + 1
      }
      var left = members.count
      var stream = DirectoryStream(folder)
      for _ in 0..<members.count * entriesPerPath {
        guard left > 0, let (name, kind) = stream.next() else { break }
        guard kind == .file else { continue }
        let hash = FileName.hash(name)
        var slot = FileName.slot(hash, bits: bits)
        while slots[slot] != 0 {
          let i = slots[slot] - 1
          if nameHashes[i] == hash, !listed[i], named.name(i).elementsEqual(name) {
            listed[i] = true
            left -= 1
          }
          slot = (slot + 1) & (size - 1)
        }
      }
    }
    return listed
  }

  /// Named paths' bytes, each split at its last slash into a folder and a name.
  private struct NamedPaths {
    /// Path i is `bytes[starts[i]..<starts[i + 1]]`, its name from `names[i]` on (nil: a name
    /// such as `..` or none, which is stated).
    let bytes: [UInt8]
    let starts: [Int]
    let names: [Int?]

    init(_ paths: [String]) {
      var bytes: [UInt8] = [], starts = [0], names: [Int?] = []
      starts.reserveCapacity(paths.count + 1)
      names.reserveCapacity(paths.count)
      let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
      for path in paths {
        let start = bytes.count
        if FileName.mayHoldEscapes(path) {
          bytes += FileName.bytes(path)
        } else if path.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
          bytes += path.utf8
        }
        starts.append(bytes.count)
        var name = bytes.count
        while name > start && bytes[name - 1] != slash { name -= 1 }
        let length = bytes.count - name
        let special = length == 0 || (length <= 2 && bytes[name...].allSatisfy { $0 == dot })
        names.append(special ? nil : name)
      }
      self.bytes = bytes
      self.starts = starts
      self.names = names
    }

    func name(_ i: Int) -> ArraySlice<UInt8> { bytes[names[i]!..<starts[i + 1]] }

    /// The bytes of path i's folder: empty for `.` (a name alone), `/` for a name at the root.
    func folder(_ i: Int) -> ArraySlice<UInt8> {
      let name = names[i]!
      return name == starts[i] ? bytes[0..<0] : bytes[starts[i]..<max(starts[i] + 1, name - 1)]
    }

    /// The folders holding at least `minimum` of the paths that have names, each as a path to
    /// list and the indices of its paths. Paths come folder by folder (find, a hook), so a path
    /// is compared with the one before first; two spellings of one folder (`d`, `./d`) are two.
    func folders(holdingAtLeast minimum: Int) -> [(path: String, members: [Int])] {
      var folders: [(first: Int, members: [Int])] = []
      var byHash: [UInt64: [Int]] = [:]
      var current = -1
      for i in names.indices where names[i] != nil {
        let folder = self.folder(i)
        if current < 0 || !folder.elementsEqual(self.folder(folders[current].members.last!)) {
          let hash = FileName.hash(folder)
          if let same = byHash[hash]?.first(where: { self.folder(folders[$0].first).elementsEqual(folder) }) {
            current = same
          } else {
            current = folders.count
            byHash[hash, default: []].append(current)
            folders.append((i, []))
          }
        }
        folders[current].members.append(i)
      }
      return folders.filter { $0.members.count >= minimum }.map { folder in
        let bytes = self.folder(folder.first)
        return (bytes.isEmpty ? "." : FileName.decode(bytes), folder.members)
      }
    }
  }

  /// A directory's entries one at a time, `.` and `..` left out, in the order the directory gives
  /// them: each name as the bytes readdir(3) left it in, valid until the next call.
  struct DirectoryStream: ~Copyable {
    private let handle: OpaquePointer?

    init(_ path: String) { handle = FileName.withPath(path) { opendir($0) } }

    deinit { if let handle { closedir(handle) } }

    /// Whether the directory opened (else errno says why).
    var isOpen: Bool { handle != nil }

    /// Nil at the end, or when the directory cannot be read.
    mutating func next() -> (name: UnsafeBufferPointer<UInt8>, kind: Kind?)? {
      guard let handle else { return nil }
      let dot = UInt8(ascii: ".")
      while let entry = readdir(handle) {
        let type = entry.pointee.d_type
        let kind: Kind? =
          type == UInt8(DT_REG) ? .file : type == UInt8(DT_DIR) ? .directory : type == UInt8(DT_LNK) ? .symbolicLink
          : type == UInt8(DT_UNKNOWN) ? nil : .other
        // Read in place: a record can be shorter than a whole dirent (d_reclen), so copying d_name
        // out would read past the end of readdir's buffer (AddressSanitizer found it).
        let raw = UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
        let name = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt8.self), count: strlen(raw.assumingMemoryBound(to: CChar.self)))
        if name.count <= 2 && name.allSatisfy({ $0 == dot }) { continue }
        return (name, kind)
      }
      return nil
    }
  }
}
