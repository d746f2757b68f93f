#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CExtendedAttributes

/// Replaces a file's contents without ever leaving a half-written or mixed file: the new text goes
/// to a temporary file in the same folder (same file system, so the rename is atomic), is synced,
/// gets the original's permission bits, owner and group, and extended attributes (POSIX ACLs
/// among them on Linux), and is renamed over the original only if the original still holds
/// exactly what was read. A process killed at any moment leaves the original or the new text,
/// never a mix; at worst a hidden temporary file (`.fcmlint-XXXXXX`) stays beside it.
///
/// Refused, with the file left untouched: a read-only file (no write permission bit, or not
/// writable by this user), a file with other hard links (the rename would leave them with the old
/// text), a file whose owner, group or extended attributes this user cannot give the new one
/// (another user's file, writable through its group), a file that changed since it was read,
/// and any failed write or sync (a full disk). A symbolic link is fixed through: its target is
/// replaced and the link kept.
public enum SafeWriter {
  public struct Failure: Error, Sendable {
    public var path: String
    public var message: String
  }

  /// The system calls that write the temporary file, replaceable so tests can simulate a full disk
  /// (a `write` that fails with ENOSPC) without filling one.
  public struct IO: Sendable {
    /// Like write(2): bytes written, or -1 with `errno` set.
    public var write: @Sendable (_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int
    /// Like fsync(2): 0, or -1 with `errno` set.
    public var sync: @Sendable (_ fd: Int32) -> Int32

    public init(
      write: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int,
      sync: @escaping @Sendable (Int32) -> Int32
    ) {
      self.write = write
      self.sync = sync
    }

    public static let system = IO(write: { fd, buffer, count in systemWrite(fd, buffer, count) }, sync: { fsync($0) })
  }

  public static func replace(_ path: String, expecting original: [UInt8], with bytes: [UInt8], io: IO = .system) -> Failure? {
    // Through a symbolic link to the file it names: replacing the link itself would turn it into
    // a plain file.
    let target = resolvedPath(path) ?? path
    var info = stat()
    guard stat(target, &info) == 0 else { return Failure(path: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
    guard info.st_mode & S_IFMT == S_IFREG else { return Failure(path: path, message: "is not a regular file; left untouched") }
    let mode = info.st_mode & 0o7777
    // Read-only means read-only, for root too (whom access(2) lets write anything).
    if mode & 0o222 == 0 || access(target, W_OK) != 0 {
      return Failure(path: path, message: "is read-only; not fixed, left untouched")
    }
    if info.st_nlink > 1 {
      return Failure(
        path: path,
        message: "has \(info.st_nlink) hard links, which replacing it would split (the other names would keep the old text); not fixed, left untouched")
    }
    let directory = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
    // A short name of its own, so a file whose name is near the 255-byte limit can be fixed too.
    var template = Array("\(directory.isEmpty ? "/" : directory)/.fcmlint-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return Failure(path: path, message: "cannot create a temporary file beside it (\(String(cString: strerror(errno)))); the file is unchanged") }
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func abandon(_ message: String) -> Failure {
      close(fd)
      unlink(temporary)
      return Failure(path: path, message: message)
    }
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { io.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        return abandon("cannot write (\(String(cString: strerror(errno)))); the file is unchanged")
      }
      if n == 0 { return abandon("cannot write (no progress); the file is unchanged") }
      offset += n
    }
    guard fchmod(fd, mode) == 0 else { return abandon("cannot keep the file's permissions (\(String(cString: strerror(errno)))); the file is unchanged") }
    // The owner and group stay: a fix must not hand someone's file over to whoever ran it.
    if info.st_uid != geteuid() || info.st_gid != getegid() {
      guard fchown(fd, info.st_uid, info.st_gid) == 0 else {
        return abandon("belongs to user \(info.st_uid), group \(info.st_gid), which a fixed copy made by this user cannot keep; not fixed, left untouched")
      }
      // chown clears the set-user and set-group bits: set the mode again.
      guard fchmod(fd, mode) == 0 else { return abandon("cannot keep the file's permissions (\(String(cString: strerror(errno)))); the file is unchanged") }
    }
    if let problem = copyExtendedAttributes(from: target, to: fd) {
      return abandon("cannot keep its extended attributes or ACL (\(problem)); not fixed, left untouched")
    }
    guard io.sync(fd) == 0 else { return abandon("cannot sync (\(String(cString: strerror(errno)))); the file is unchanged") }
    close(fd)
    // The file must still be what was linted: another writer may have changed it meanwhile.
    guard case .success(let current) = readAll(target), current == original else {
      unlink(temporary)
      return Failure(path: path, message: "changed on disk while it was being fixed; left untouched")
    }
    guard rename(temporary, target) == 0 else {
      let message = String(cString: strerror(errno))
      unlink(temporary)
      return Failure(path: path, message: "cannot replace (\(message)); the file is unchanged")
    }
    // The rename is atomic; syncing the folder makes it durable too (after a power loss).
    let directoryFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_CLOEXEC)
    if directoryFD >= 0 {
      _ = fsync(directoryFD)
      close(directoryFD)
    }
    return nil
  }

  /// Copies every extended attribute of `path` (on Linux, a POSIX ACL is the attribute
  /// `system.posix_acl_access`) to the open file `fd`; what went wrong, or nil.
  static func copyExtendedAttributes(from path: String, to fd: Int32) -> String? {
    #if os(Linux)
    let size = listxattr(path, nil, 0)
    if size < 0 { return errno == ENOTSUP ? nil : String(cString: strerror(errno)) }
    if size == 0 { return nil }
    var names = [CChar](repeating: 0, count: size)
    let listed = listxattr(path, &names, size)
    guard listed >= 0 else { return String(cString: strerror(errno)) }
    var start = 0
    while start < listed {
      let end = names[start..<listed].firstIndex(of: 0) ?? listed
      let name = Array(names[start..<end]) + [0]
      start = end + 1
      let valueSize = getxattr(path, name, nil, 0)
      guard valueSize >= 0 else { return String(cString: strerror(errno)) }
      var value = [UInt8](repeating: 0, count: max(valueSize, 1))
      let read = getxattr(path, name, &value, valueSize)
      guard read >= 0 else { return String(cString: strerror(errno)) }
      guard fsetxattr(fd, name, value, read, 0) == 0 else {
        return "\(String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)): \(String(cString: strerror(errno)))"
      }
    }
    #endif
    return nil
  }

  /// The path a symbolic link leads to (nil when `path` is no link, or the link is broken).
  static func resolvedPath(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  static func readAll(_ path: String) -> Result<[UInt8], Failure> {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return .failure(Failure(path: path, message: String(cString: strerror(errno)))) }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(Failure(path: path, message: String(cString: strerror(errno))))
      }
      if n == 0 { return .success(out) }
      out.append(contentsOf: chunk[0..<n])
    }
  }
}

@inline(__always) private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
