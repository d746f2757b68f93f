#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemHeaders

extension POSIX {
  /// One read(2) of what `fd` has, into `buffer[offset...]` (retried when a signal interrupts
  /// it): the count of bytes read, 0 at the end of input. The caller sizes the buffer.
  public static func read(_ fd: Int32, into buffer: inout [UInt8], from offset: Int) -> Result<Int, SystemError> {
    precondition(offset >= 0 && offset < buffer.count, "no room to read into")
    while true {
      let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n >= 0 { return .success(n) }
      if errno != EINTR { return .failure(.last) }
    }
  }

  /// Reads `fd` to its end (standard input), refusing more than `limit` bytes.
  public static func readAll(_ fd: Int32, limit: Int = Int.max) -> Result<[UInt8], ReadFailure> {
    var bytes = [UInt8](repeating: 0, count: 65536)
    var total = 0
    while true {
      if total == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
      switch read(fd, into: &bytes, from: total) {
      case .failure(let error): return .failure(.system(error))
      case .success(0):
        bytes.removeSubrange(total...)
        return .success(bytes)
      case .success(let n):
        total += n
        if total > limit { return .failure(.tooLarge(size: nil)) }
      }
    }
  }

  /// Whether `fd` has input waiting right now (poll(2) without waiting).
  public static func hasInput(_ fd: Int32) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
  }

  /// Waits until the other end of `fd` is closed (a pipe's writer gone), however much input is
  /// still waiting to be read; looks again every `interval` microseconds while input waits.
  public static func waitForHangUp(_ fd: Int32, interval: UInt32 = 100_000) {
    while true {
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, -1)
      if ready < 0 && errno == EINTR { continue }
      if ready < 0 || Int32(descriptor.revents) & (POLLHUP | POLLERR | POLLNVAL) != 0 { return }
      usleep(interval)
    }
  }

  /// Ends the process at once with `status`, running no exit handlers.
  public static func exitNow(_ status: Int32) -> Never { _exit(status) }

  /// Waits `seconds` seconds.
  public static func pause(seconds: UInt32) { _ = sleep(seconds) }

  /// How a write of a whole buffer failed.
  public enum WriteFailure: Error, Sendable {
    case system(SystemError)
    /// write(2) returned 0 for a non-empty buffer.
    case noProgress
  }

  /// Writes all of `bytes` to `fd`, retrying interrupted and partial writes.
  public static func write(_ bytes: [UInt8], to fd: Int32) -> WriteFailure? {
    bytes.withUnsafeBytes { writeAll(fd, $0, systemWrite) }
  }

  /// Writes all of `text`'s UTF-8 to `fd`, retrying interrupted and partial writes.
  public static func write(_ text: String, to fd: Int32) -> WriteFailure? {
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0), systemWrite) }
  }

  static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ write: (Int32, UnsafeRawPointer, Int) -> Int) -> WriteFailure? {
    guard let base = buffer.baseAddress else { return nil }
    var offset = 0
    while offset < buffer.count {
      let n = write(fd, base + offset, buffer.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return .system(.last)
      }
      if n == 0 { return .noProgress }
      offset += n
    }
    return nil
  }

  /// Whether `fd` is a terminal.
  public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// An environment variable's value, nil when it is not set.
  public static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

  /// The processors this process may run on (its CPU affinity, as nproc counts them), at least
  /// 1; where that cannot be read, the processors online.
  public static var processorCount: Int {
    #if canImport(Glibc)
    var set = cpu_set_t()
    if sched_getaffinity(0, MemoryLayout<cpu_set_t>.size, &set) == 0 {
      let allowed = withUnsafeBytes(of: &set) { $0.reduce(0) { $0 + $1.nonzeroBitCount } }
      if allowed > 0 { return allowed }
    }
    #endif
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }

  /// A write past the file size limit (RLIMIT_FSIZE) then fails with EFBIG, which is reported,
  /// instead of killing the process with SIGXFSZ.
  public static func ignoreFileSizeSignal() { signal(SIGXFSZ, SIG_IGN) }
}
