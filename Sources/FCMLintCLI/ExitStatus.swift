/// fcmlint's exit codes: part of the public contract.
public enum ExitStatus: Int32, Sendable {
  /// No errors (and no more warnings than `--max-warnings`).
  case clean = 0
  /// Errors were found, or more warnings than `--max-warnings`.
  case problems = 1
  /// Usage, configuration or I/O failure: the run could not do what was asked.
  case failure = 2
}
