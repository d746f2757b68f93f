#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents without ever leaving a half-written or mixed file: the new text goes
/// to a temporary file in the same folder (same file system, so the rename is atomic), is synced,
/// gets the original's permission bits, and is renamed over the original only if the original
/// still holds exactly what was read.
public enum SafeWriter {
  public struct Failure: Error, Sendable {
    public var path: String
    public var message: String
  }

  public static func replace(_ path: String, expecting original: [UInt8], with bytes: [UInt8]) -> Failure? {
    var info = stat()
    guard stat(path, &info) == 0 else { return Failure(path: path, message: "cannot stat: \(String(cString: strerror(errno)))") }
    let mode = info.st_mode & 0o7777
    let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
    let name = path.split(separator: "/").last.map(String.init) ?? path
    var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).fcmlint-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return Failure(path: path, message: "cannot create a temporary file beside it: \(String(cString: strerror(errno)))") }
    let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func abandon(_ message: String) -> Failure {
      close(fd)
      unlink(temporary)
      return Failure(path: path, message: message)
    }
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        return abandon("cannot write (\(String(cString: strerror(errno)))); the file is unchanged")
      }
      offset += n
    }
    guard fchmod(fd, mode) == 0 else { return abandon("cannot keep the file's permissions: \(String(cString: strerror(errno)))") }
    guard fsync(fd) == 0 else { return abandon("cannot sync (\(String(cString: strerror(errno)))); the file is unchanged") }
    close(fd)
    // The file must still be what was linted: another writer may have changed it meanwhile.
    guard case .success(let current) = readAll(path), current == original else {
      unlink(temporary)
      return Failure(path: path, message: "changed on disk while it was being fixed; left untouched")
    }
    guard rename(temporary, path) == 0 else {
      let message = String(cString: strerror(errno))
      unlink(temporary)
      return Failure(path: path, message: "cannot replace (\(message)); the file is unchanged")
    }
    return nil
  }

  static func readAll(_ path: String) -> Result<[UInt8], Failure> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
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
