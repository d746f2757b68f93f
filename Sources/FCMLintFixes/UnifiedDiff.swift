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

  /// A shortest edit script by dynamic programming over the longest common subsequence; payload
  /// files are small, and a large file falls back to replacing its changed middle.
  static func editScript(_ a: [String], _ b: [String]) -> [Op] {
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
    let midA = Array(a[prefix..<(a.count - suffix)]), midB = Array(b[prefix..<(b.count - suffix)])
    var ops: [Op] = (0..<prefix).map { Op(kind: .same, text: a[$0], oldLine: $0, newLine: $0) }
    if midA.count * midB.count <= 4_000_000 {
      var lcs = [[Int]](repeating: [Int](repeating: 0, count: midB.count + 1), count: midA.count + 1)
      for i in stride(from: midA.count - 1, through: 0, by: -1) {
        for j in stride(from: midB.count - 1, through: 0, by: -1) {
          lcs[i][j] = midA[i] == midB[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
        }
      }
      var i = 0, j = 0
      while i < midA.count || j < midB.count {
        if i < midA.count, j < midB.count, midA[i] == midB[j] {
          ops.append(Op(kind: .same, text: midA[i], oldLine: prefix + i, newLine: prefix + j))
          i += 1
          j += 1
        } else if i < midA.count, j == midB.count || lcs[i + 1][j] >= lcs[i][j + 1] {
          // Deletions before insertions, as diff(1) shows a changed line.
          ops.append(Op(kind: .delete, text: midA[i], oldLine: prefix + i, newLine: prefix + j))
          i += 1
        } else {
          ops.append(Op(kind: .insert, text: midB[j], oldLine: prefix + i, newLine: prefix + j))
          j += 1
        }
      }
    } else {
      ops += midA.enumerated().map { Op(kind: .delete, text: $1, oldLine: prefix + $0, newLine: prefix) }
      ops += midB.enumerated().map { Op(kind: .insert, text: $1, oldLine: prefix + midA.count, newLine: prefix + $0) }
    }
    for k in 0..<suffix {
      ops.append(Op(kind: .same, text: a[a.count - suffix + k], oldLine: a.count - suffix + k, newLine: b.count - suffix + k))
    }
    return ops
  }
}
