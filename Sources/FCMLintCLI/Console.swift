import FCMLintFormatters
import FCMLintSystem

/// A report written to standard output or standard error as it goes.
final class ConsoleSink: ReportSink {
  let fd: Int32
  private(set) var failure: String? = nil
  init(fd: Int32) { self.fd = fd }

  func write(_ text: String) {
    if let problem = Console.write(text, to: fd), failure == nil { failure = problem }
  }
}
