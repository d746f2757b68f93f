#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writing to the terminal without Foundation.
public enum Console {
  public static func out(_ text: String) { write(text, to: 1) }
  public static func err(_ text: String) { write(text, to: 2) }

  /// The first error of a write to standard output (an errno), 0 while there is none: a report
  /// or fixed document that did not reach its reader (a full disk) must not end in exit 0.
  public static let standardOutputError = Atomic<Int32>(0)

  /// Writes all of `text`; the errno of a write that failed (a closed pipe, a full disk), if one did.
  @discardableResult
  public static func write(_ text: String, to fd: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { write($0, to: fd) }
  }

  /// Bytes as they are (a fixed document keeps whatever bytes it had, valid UTF-8 or not).
  @discardableResult
  public static func write(bytes: [UInt8], to fd: Int32) -> Int32? {
    bytes.withUnsafeBufferPointer { write($0, to: fd) }
  }

  private static func write(_ buffer: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Int32? {
    guard let base = buffer.baseAddress else { return nil }
    var offset = 0
    while offset < buffer.count {
      let n = systemWrite(fd, base + offset, buffer.count - offset)
      if n < 0 {
        let error = errno
        if error == EINTR { continue }
        if fd == 1 { _ = standardOutputError.compareExchange(expected: 0, desired: error, ordering: .relaxed) }
        return error
      }
      offset += n
    }
    return nil
  }

  /// Why standard output could not be written, if it could not.
  public static var standardOutputFailure: String? {
    let error = standardOutputError.load(ordering: .relaxed)
    return error == 0 ? nil : String(cString: strerror(error))
  }

  /// Colour when stdout is a terminal and NO_COLOR (https://no-color.org) is not set.
  public static var wantsColor: Bool {
    isatty(1) == 1 && getenv("NO_COLOR") == nil
  }

  public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

@inline(__always) private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, pointer, count)
}

