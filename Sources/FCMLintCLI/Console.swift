#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FCMLintFormatters
import Synchronization

/// Writing to the terminal without Foundation.
enum Console {
  static func out(_ text: String) { write(text, to: 1) }
  static func err(_ text: String) { write(text, to: 2) }

  /// The first error of a write to standard output (an errno), 0 while there is none: a report
  /// or fixed document that did not reach its reader (a full disk) must not end in exit 0.
  static let standardOutputError = Atomic<Int32>(0)

  /// Writes all of `text`; the errno of a write that failed (a closed pipe, a full disk), if one did.
  @discardableResult
  static func write(_ text: String, to fd: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { write($0, to: fd) }
  }

  /// Bytes as they are (a fixed document keeps whatever bytes it had, valid UTF-8 or not).
  @discardableResult
  static func write(bytes: [UInt8], to fd: Int32) -> Int32? {
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
  static var standardOutputFailure: String? {
    let error = standardOutputError.load(ordering: .relaxed)
    return error == 0 ? nil : String(cString: strerror(error))
  }

  /// Colour when stdout is a terminal and NO_COLOR (https://no-color.org) is not set.
  static var wantsColor: Bool {
    isatty(1) == 1 && getenv("NO_COLOR") == nil
  }

  static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

@inline(__always) private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, pointer, count)
}

/// A report written to standard output or standard error as it goes.
final class ConsoleSink: ReportSink {
  let fd: Int32
  private(set) var failure: String? = nil
  init(fd: Int32) { self.fd = fd }

  func write(_ text: String) {
    if let error = Console.write(text, to: fd), failure == nil { failure = String(cString: strerror(error)) }
  }
}
