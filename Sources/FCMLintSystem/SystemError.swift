#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: its errno.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
  public let code: Int32

  public init(code: Int32) { self.code = code }

  /// The errno the last system call left.
  static var last: SystemError { SystemError(code: errno) }

  /// The C library's words for it (strerror: "No space left on device").
  public var description: String { String(cString: strerror(code)) }

  /// Lower-case words for the common failures of opening a path ("no such file or directory"),
  /// the C library's for the rest.
  public var plainWords: String {
    switch code {
    case ENOENT: return "no such file or directory"
    case EACCES: return "permission denied"
    case EISDIR: return "is a directory"
    case ELOOP: return "too many levels of symbolic links"
    case ENOTDIR: return "not a directory"
    default: return description
    }
  }

  /// The path is longer than PATH_MAX (or a name longer than NAME_MAX).
  public var isNameTooLong: Bool { code == ENAMETOOLONG }
}
