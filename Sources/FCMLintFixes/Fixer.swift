import FCMLintEngine
import FCMLintJSON

/// Applies fixes until the file is stable: apply the non-overlapping edits of one lint, re-parse,
/// re-lint, repeat (a bounded number of passes). What one fix leaves for another (a renamed key
/// that now needs a value fixed) is picked up by the next pass.
public struct Fixer: Sendable {
  public let linter: Linter
  public static let maxPasses = 10

  public init(linter: Linter) { self.linter = linter }

  public struct Result: Sendable {
    public var bytes: [UInt8]
    /// Diagnostics corrected.
    public var fixed: Int
    /// What remains, against the fixed text.
    public var diagnostics: [Diagnostic]
  }

  public func fix(bytes original: [UInt8], file: String) -> Result {
    var bytes = original
    var fixed = 0
    var diagnostics = linter.lint(bytes: bytes, file: file)
    // A fix must never turn a parseable file into an unparseable one. Asked of the parser, not of
    // the syntax rule's diagnostics: a config may turn that rule off.
    // The linter's own parse, so a template reads as it is linted.
    func parses(_ bytes: [UInt8]) -> Bool {
      if case .success = linter.parse(bytes) { return true }
      return false
    }
    let originalParses = parses(original)
    for _ in 0..<Self.maxPasses {
      let (next, applied) = Self.apply(diagnostics.compactMap(\.fix), to: bytes)
      guard applied > 0, next != bytes else { break }
      if originalParses && !parses(next) { break }
      let after = linter.lint(bytes: next, file: file)
      bytes = next
      fixed += applied
      diagnostics = after
    }
    return Result(bytes: bytes, fixed: fixed, diagnostics: diagnostics)
  }

  /// Applies whole fixes whose edits overlap no edit already taken; returns the new text and how
  /// many fixes were applied. Edits are applied from the end so offsets stay valid.
  public static func apply(_ fixes: [Fix], to bytes: [UInt8]) -> ([UInt8], Int) {
    var taken: [TextEdit] = []
    var applied = 0
    for fix in fixes {
      let clashes = fix.edits.contains { edit in
        taken.contains { other in
          edit.start < other.end && other.start < edit.end || (edit.start == edit.end && edit.start == other.start) || (other.start == other.end && other.start == edit.start)
        }
      }
      if clashes || fix.edits.contains(where: { $0.start < 0 || $0.end > bytes.count || $0.start > $0.end }) { continue }
      taken += fix.edits
      applied += 1
    }
    var out = bytes
    for edit in taken.sorted(by: { $0.start > $1.start }) {
      out.replaceSubrange(edit.start..<edit.end, with: Array(edit.replacement.utf8))
    }
    return (out, applied)
  }
}
