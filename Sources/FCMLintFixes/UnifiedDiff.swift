/// A unified diff of two texts (what `--fix-dry-run` prints), with three lines of context.
public enum UnifiedDiff {
  public static func make(_ old: [UInt8], _ new: [UInt8], path: String) -> String {
    let a = lines(old), b = lines(new)
    guard a != b else { return "" }
    let script = editScript(a, b)
    var out = "--- \(path)\n+++ \(path) (fixed)\n"
    // Group changes into hunks with 3 lines of context.
    var i = 0
    while i < script.count {
      guard let firstChange = script[i...].firstIndex(where: { $0.kind != .same }) else { break }
      var end = firstChange
      var lastChange = firstChange
      while end < script.count {
        if script[end].kind != .same { lastChange = end }
        if end - lastChange > 6 { break }
        end += 1
      }
      let start = max(i, firstChange - 3)
      let stop = min(script.count, lastChange + 4)
      let hunk = script[start..<stop]
      let oldStart = (hunk.first?.oldLine ?? 0) + 1, newStart = (hunk.first?.newLine ?? 0) + 1
      let oldCount = hunk.filter { $0.kind != .insert }.count, newCount = hunk.filter { $0.kind != .delete }.count
      out += "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@\n"
      for op in hunk {
        let prefix = op.kind == .same ? " " : op.kind == .delete ? "-" : "+"
        out += prefix + op.text + (op.text.utf8.last == 0x0A ? "" : "\n\\ No newline at end of file\n")
      }
      i = stop
    }
    return out
  }

  struct Op {
    enum Kind { case same, delete, insert }
    var kind: Kind
    var text: String
    var oldLine: Int
    var newLine: Int
  }

  /// Lines with their terminators, so CRLF survives into the diff.
  static func lines(_ bytes: [UInt8]) -> [String] {
    var out: [String] = []
    var start = 0
    for (i, b) in bytes.enumerated() where b == 0x0A {
      out.append(String(decoding: bytes[start...i], as: UTF8.self))
      start = i + 1
    }
    if start < bytes.count { out.append(String(decoding: bytes[start...], as: UTF8.self)) }
    return out
  }

  /// A shortest edit script: the standard library's Myers difference of the two line lists, in
  /// file order, with a changed line's deletion before its insertion, as diff(1) shows it.
  static func editScript(_ a: [String], _ b: [String]) -> [Op] {
    var removed = Set<Int>(), inserted = Set<Int>()
    for change in b.difference(from: a) {
      switch change {
      case .remove(let offset, _, _): removed.insert(offset)
      case .insert(let offset, _, _): inserted.insert(offset)
      }
    }
    var ops: [Op] = []
    var i = 0, j = 0
    while i < a.count || j < b.count {
      if removed.contains(i), i < a.count {
        ops.append(Op(kind: .delete, text: a[i], oldLine: i, newLine: j))
        i += 1
      } else if inserted.contains(j), j < b.count {
        ops.append(Op(kind: .insert, text: b[j], oldLine: i, newLine: j))
        j += 1
      } else {
        ops.append(Op(kind: .same, text: a[i], oldLine: i, newLine: j))
        i += 1
        j += 1
      }
    }
    return ops
  }
}
