#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemHeaders

extension POSIX {
  /// The system calls that write a temporary file, replaceable so tests can simulate a full disk
  /// (a `write` that fails with ENOSPC) without filling one.
  public struct WriteCalls: Sendable {
    /// Like write(2): bytes written, or -1 with `errno` set.
    public var write: @Sendable (_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int
    /// Like fsync(2): 0, or -1 with `errno` set.
    public var sync: @Sendable (_ fd: Int32) -> Int32

    public init(write: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int, sync: @escaping @Sendable (Int32) -> Int32) {
      self.write = write
      self.sync = sync
    }

    public static let system = WriteCalls(write: { fd, buffer, count in systemWrite(fd, buffer, count) }, sync: { fsync($0) })
  }

  /// A new, empty file created exclusively under an unpredictable name (`.fcmlint-XXXXXX`, short
  /// so a file whose name is near the 255-byte limit can be replaced too) in a folder, so that
  /// nothing planted can redirect it; written whole, then renamed over the file it replaces.
  public struct TemporaryFile {
    public let path: String
    let fd: Int32

    /// Creates it in `directory` (mkstemp: mode 0600).
    public static func create(in directory: String) -> Result<TemporaryFile, SystemError> {
      var template = FileName.bytes(directory) + Array("/.fcmlint-XXXXXX".utf8) + [0]
      let fd = template.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) } }
      guard fd >= 0 else { return .failure(.last) }
      return .success(TemporaryFile(path: FileName.decode(template.dropLast()), fd: fd))
    }

    public func write(_ bytes: [UInt8], calls: WriteCalls = .system) -> WriteFailure? {
      bytes.withUnsafeBytes { writeAll(fd, $0, calls.write) }
    }

    public func write(_ text: String) -> WriteFailure? {
      var text = text
      return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0), systemWrite) }
    }

    /// fchmod(2).
    public func setPermissions(_ permissions: UInt32) -> SystemError? {
      fchmod(fd, mode_t(permissions)) == 0 ? nil : .last
    }

    /// fchown(2), which clears the set-user and set-group bits: set the permissions again after.
    public func setOwner(_ owner: UInt32, group: UInt32) -> SystemError? {
      fchown(fd, uid_t(owner), gid_t(group)) == 0 ? nil : .last
    }

    public func sync(calls: WriteCalls = .system) -> SystemError? {
      calls.sync(fd) == 0 ? nil : .last
    }

    /// Copies every extended attribute of `source` (on Linux, a POSIX ACL is the attribute
    /// `system.posix_acl_access`) to this file; what went wrong, or nil. A file system without
    /// extended attributes has none to copy.
    public func copyExtendedAttributes(from source: String) -> String? {
      #if os(Linux)
      let size = FileName.withPath(source) { listxattr($0, nil, 0) }
      if size < 0 { return errno == ENOTSUP ? nil : SystemError.last.description }
      if size == 0 { return nil }
      var names = [CChar](repeating: 0, count: size)
      let listed = FileName.withPath(source) { listxattr($0, &names, size) }
      guard listed >= 0 else { return SystemError.last.description }
      var start = 0
      while start < listed {
        let end = names[start..<listed].firstIndex(of: 0) ?? listed
        let name = Array(names[start..<end]) + [0]
        start = end + 1
        let valueSize = FileName.withPath(source) { getxattr($0, name, nil, 0) }
        guard valueSize >= 0 else { return SystemError.last.description }
        var value = [UInt8](repeating: 0, count: max(valueSize, 1))
        let read = FileName.withPath(source) { getxattr($0, name, &value, valueSize) }
        guard read >= 0 else { return SystemError.last.description }
        guard fsetxattr(fd, name, value, read, 0) == 0 else {
          return "\(String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)): \(SystemError.last)"
        }
      }
      #endif
      return nil
    }

    public func close() { _ = systemClose(fd) }

    /// Closes and removes it: the replacement is abandoned.
    public func discard() {
      close()
      POSIX.remove(path)
    }

    /// Renames it (closed) over `target`, atomically; on failure it is removed.
    public func rename(over target: String) -> SystemError? {
      guard systemRename(path, target) == 0 else {
        let error = SystemError.last
        POSIX.remove(path)
        return error
      }
      return nil
    }
  }

  /// Syncs a folder, so that a rename in it survives a power loss; quietly, as that is a bonus.
  public static func syncDirectory(_ path: String) {
    let fd = FileName.withPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else { return }
    _ = fsync(fd)
    _ = systemClose(fd)
  }

  /// The permissions a new file gets (0666 without the process's umask bits).
  public static var newFilePermissions: UInt32 {
    let mask = umask(0)
    umask(mask)
    return UInt32(0o666 & ~mask)
  }

  /// Writes `text` into what `path` names, in place (a FIFO, a terminal, /dev/null), as a
  /// shell's redirection would.
  public static func writeInPlace(_ text: String, to path: String) -> WriteFailure? {
    let fd = FileName.withPath(path) { open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
    guard fd >= 0 else { return .system(.last) }
    defer { _ = systemClose(fd) }
    return write(text, to: fd)
  }

  /// The user and group this process acts as (geteuid, getegid).
  public static var effectiveOwner: (user: UInt32, group: UInt32) { (UInt32(geteuid()), UInt32(getegid())) }
}

@inline(__always) private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) private func systemRename(_ from: String, _ to: String) -> Int32 { FileName.withPaths(from, to) { rename($0, $1) } }
