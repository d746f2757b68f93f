import Synchronization

/// Writing to the terminal without Foundation.
public enum Console {
  public static func out(_ text: String) { write(text, to: 1) }
  public static func err(_ text: String) { write(text, to: 2) }

  /// The first error of a write to standard output (an errno), 0 while there is none: a report
  /// or fixed document that did not reach its reader (a full disk) must not end in exit 0.
  public static let standardOutputError = Atomic<Int32>(0)

  /// Writes all of `text`; what went wrong with a write that failed (a closed pipe, a full disk), if one did.
  @discardableResult
  public static func write(_ text: String, to fd: Int32) -> String? {
    noted(POSIX.write(text, to: fd), fd)
  }

  /// Bytes as they are (a fixed document keeps whatever bytes it had, valid UTF-8 or not).
  @discardableResult
  public static func write(bytes: [UInt8], to fd: Int32) -> String? {
    noted(POSIX.write(bytes, to: fd), fd)
  }

  private static func noted(_ failure: POSIX.WriteFailure?, _ fd: Int32) -> String? {
    switch failure {
    case nil: return nil
    case .system(let error)?:
      if fd == 1 { _ = standardOutputError.compareExchange(expected: 0, desired: error.code, ordering: .relaxed) }
      return error.description
    case .noProgress?:
      return "no progress"
    }
  }

  /// Why standard output could not be written, if it could not.
  public static var standardOutputFailure: String? {
    let error = standardOutputError.load(ordering: .relaxed)
    return error == 0 ? nil : SystemError(code: error).description
  }

  /// Colour when stdout is a terminal and NO_COLOR (https://no-color.org) is not set.
  public static var wantsColor: Bool {
    POSIX.isTerminal(1) && POSIX.environment("NO_COLOR") == nil
  }

  public static var processorCount: Int { POSIX.processorCount }
}
