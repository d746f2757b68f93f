#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
  public static func kind(_ path: String) -> Kind {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// What makes two paths one file: its device and inode (following symbolic links); nil when
  /// it cannot be read.
  public struct Identity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  public static func identity(_ path: String) -> Identity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// `path` with every symbolic link, `.` and `..` resolved (realpath(3)); nil when it cannot be.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether anything is at `path`, not following a last symbolic link (a dangling link exists).
  public static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Why `stat(path)` fails, in words ("no such file or directory", "not a directory", ...).
  public static func statFailure(_ path: String) -> String {
    var info = stat()
    return stat(path, &info) == 0 ? "cannot be read" : errorText(errno)
  }

  /// Reads a whole regular file. Anything larger than `limit` bytes is refused before reading;
  /// `limitName` (an option such as `--max-file-size`) tells the user which limit it was.
  /// Opening never blocks (a FIFO is refused, not waited on).
  public static func read(_ path: String, limit: Int = Int.max, limitName: String? = nil) -> Result<[UInt8], IOError> {
    // Named only in a message: built for every file, it cost more than the read.
    var which: String { limitName.map { " (\($0))" } ?? "" }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return .failure(IOError(path: path, message: errorText(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .failure(IOError(path: path, message: errorText(errno))) }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: return .failure(IOError(path: path, message: "is a directory"))
    default: return .failure(IOError(path: path, message: "is not a regular file"))
    }
    let size = Int(info.st_size)
    if size > limit {
      return .failure(IOError(path: path, message: "is \(size) bytes, larger than the limit of \(limit) bytes\(which); not read"))
    }
    // One byte more than the size: a read that stops short of it, having read `size` bytes, has
    // met the end of a regular file, which spares the read that would return 0 (one system call
    // in five per file when linting a folder).
    // Read into the array as it is made (not zeroed first), sized from fstat.
    var total = 0
    var failure: Int32 = 0
    let capacity = size < limit ? size + 1 : size
    var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      while total < capacity {
        let n = Glibc_read(fd, buffer.baseAddress! + total, capacity - total)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        if n == 0 { break }
        total += n
        if total == size && total < capacity { break }
      }
      count = total
    }
    if failure != 0 { return .failure(IOError(path: path, message: errorText(failure))) }
    // The whole file, unless it filled the array (it grew since fstat, or reports no size):
    // then read on as below.
    guard total == capacity else { return .success(bytes) }
    while true {
      if total == bytes.count {
        // Full: the file grew since fstat (or reports no size, as /proc files do). Read on, at most
        // one byte past the limit, which tells a file of exactly `limit` bytes from a larger one.
        if total > limit {
          return .failure(IOError(path: path, message: "is larger than the limit of \(limit) bytes\(which); not read"))
        }
        let grow = limit == Int.max ? max(4096, total) : min(max(4096, total), limit - total + 1)
        bytes.append(contentsOf: [UInt8](repeating: 0, count: grow))
      }
      let n = bytes.withUnsafeMutableBytes { buffer in
        Glibc_read(fd, buffer.baseAddress! + total, buffer.count - total)
      }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(IOError(path: path, message: errorText(errno)))
      }
      if n == 0 { break }
      total += n
      if total == size && total < bytes.count { break }
    }
    bytes.removeSubrange(total...)
    return .success(bytes)
  }

  /// Reads all of standard input.
  public static func readStandardInput(limit: Int = Int.max, limitName: String? = nil) -> Result<[UInt8], IOError> {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc_read(0, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(IOError(path: "<stdin>", message: errorText(errno)))
      }
      if n == 0 { return .success(bytes) }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > limit {
        return .failure(IOError(path: "<stdin>", message: "is larger than the limit of \(limit) bytes\(limitName.map { " (\($0))" } ?? ""); not read further"))
      }
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

  private struct DirectoryID: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private static func walk(
    _ directory: String, _ enter: (String, String) -> Bool, _ include: (String) -> Bool, _ files: inout [String], _ errors: inout [IOError],
    _ visited: inout Set<DirectoryID>
  ) {
    var info = stat()
    guard stat(directory, &info) == 0 else {
      errors.append(IOError(path: directory, message: errorText(errno)))
      return
    }
    guard visited.insert(DirectoryID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else {
      errors.append(IOError(path: directory, message: "directory visited twice (a symbolic link loop?); skipped"))
      return
    }
    guard let handle = opendir(directory) else {
      errors.append(IOError(path: directory, message: errorText(errno)))
      return
    }
    // With each name, whether the directory entry says it is a regular file (d_type): those need
    // no stat() of their own, which in a folder of 20,000 payloads is 20,000 system calls saved.
    var names: [(name: String, regular: Bool)] = []
    while let entry = readdir(handle) {
      // Read in place: a record can be shorter than a whole dirent (d_reclen), so copying d_name
      // out would read past the end of readdir's buffer (AddressSanitizer found it).
      let raw = UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self)
      guard let name = String(validatingCString: raw) else {
        // A path is a String here, which cannot hold bytes that are not UTF-8: such a name could
        // be neither opened nor shown. Said, not skipped in silence.
        let shown = String(decoding: UnsafeBufferPointer(start: raw, count: strlen(raw)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if include(shown) || entry.pointee.d_type == UInt8(DT_DIR) {
          errors.append(IOError(path: (directory.hasSuffix("/") ? directory : directory + "/") + shown, message: "its name is not valid UTF-8 (shown with U+FFFD), which fcmlint cannot open; rename it"))
        }
        continue
      }
      if name == "." || name == ".." { continue }
      names.append((name, entry.pointee.d_type == UInt8(DT_REG)))
    }
    closedir(handle)
    // Sorted through small keys: moving whole entries and calling a comparison through a
    // function value cost more than the comparisons themselves.
    var order = names.indices.map { SortKey(names[$0].name, index: $0) }
    order.sort { a, b in
      if a.high != b.high { return a.high < b.high }
      if a.low != b.low { return a.low < b.low }
      return precedes(names[a.index].name, names[b.index].name)
    }
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    for key in order {
      let (name, regular) = (names[key.index].name, names[key.index].regular)
      let path = prefix + name
      if regular {
        if include(name) { files.append(path) }
        continue
      }
      var entryInfo = stat()
      guard stat(path, &entryInfo) == 0 else {
        // A dangling link or a file removed meanwhile: only worth a word when it would have been
        // linted. A path too long to name (PATH_MAX) always is: what is below it is not walked.
        if include(name) || errno == ENAMETOOLONG { errors.append(IOError(path: path, message: errorText(errno))) }
        continue
      }
      switch entryInfo.st_mode & S_IFMT {
      case S_IFDIR:
        if !enter(path, name) { continue }
        walk(path, enter, include, &files, &errors, &visited)
      case S_IFREG:
        if include(name) { files.append(path) }
      default:
        continue
      }
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
      var name = name
      name.withUTF8 { bytes in
        for i in 0..<min(bytes.count, 16) {
          if i < 8 { high |= UInt64(bytes[i]) << (8 * (7 - i)) } else { low |= UInt64(bytes[i]) << (8 * (15 - i)) }
        }
      }
    }
  }

  /// Byte order of two names (memcmp, the order `ls` gives in the C locale).
  private static func precedes(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in
        let n = min(x.count, y.count)
        let order = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
        return order != 0 ? order < 0 : x.count < y.count
      }
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
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      // Through the link: replacing the link would cut it; a dangling one names a new file.
      guard let resolved = SafeWriter.resolvedPath(path) else {
        return .failure(IOError(path: path, message: "is a symbolic link that cannot be followed"))
      }
      target = resolved
      if lstat(target, &info) != 0 { info = stat() }
    } else if lstat(path, &info) != 0 {
      info = stat()
    }
    var text = text
    switch info.st_mode & S_IFMT {
    case 0, S_IFREG:
      break
    case S_IFDIR:
      return .failure(IOError(path: path, message: "is a directory"))
    default:
      // A FIFO, a device or a socket: write into it, as a shell's redirection would.
      let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard fd >= 0 else { return .failure(IOError(path: path, message: errorText(errno))) }
      defer { close(fd) }
      if let error = text.withUTF8({ writeAll(fd, $0) }) { return .failure(IOError(path: path, message: errorText(error))) }
      return .success(())
    }
    var template = Array("\(Path.directory(of: target))/.fcmlint-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return .failure(IOError(path: path, message: "cannot create a temporary file beside it: \(errorText(errno))")) }
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func abandon(_ error: Int32) -> Result<Void, IOError> {
      close(fd)
      unlink(temporary)
      return .failure(IOError(path: path, message: errorText(error)))
    }
    if let error = text.withUTF8({ writeAll(fd, $0) }) { return abandon(error) }
    // A report is readable as any new file would be (mkstemp creates it 0600).
    let mask = umask(0)
    umask(mask)
    guard fchmod(fd, 0o666 & ~mask) == 0, fsync(fd) == 0 else { return abandon(errno) }
    close(fd)
    guard rename(temporary, target) == 0 else {
      let error = errno
      unlink(temporary)
      return .failure(IOError(path: path, message: errorText(error)))
    }
    return .success(())
  }

  /// Writes every byte, retrying interrupted writes; the errno of a failure.
  private static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32? {
    guard let base = buffer.baseAddress else { return nil }
    var offset = 0
    while offset < buffer.count {
      let n = Glibc_write(fd, base + offset, buffer.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += n
    }
    return nil
  }

  /// The current working directory.
  public static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return buffer.withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0).prefix { $0 != 0 }, as: UTF8.self) }
  }

  static func errorText(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file or directory"
    case EACCES: return "permission denied"
    case EISDIR: return "is a directory"
    case ELOOP: return "too many levels of symbolic links"
    case ENOTDIR: return "not a directory"
    case ENAMETOOLONG: return "the path is longer than the system allows (PATH_MAX), so it cannot be opened; not linted"
    default: return String(cString: strerror(code))
    }
  }
}

@inline(__always) private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}

@inline(__always) private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}
