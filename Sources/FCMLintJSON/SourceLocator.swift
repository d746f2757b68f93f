/// A 1-based line and column. Columns count UTF-16 code units, as LSP and SARIF do, so an editor
/// lands on the same character whatever the text before it on the line.
public struct SourcePosition: Sendable, Equatable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }

  public var description: String { "\(line):\(column)" }
}

/// Maps byte offsets to line and column. Line breaks are LF, CRLF and a lone CR (what editors
/// count); the table of line starts is built once, on first use, so files without diagnostics
/// never pay for it.
public struct SourceLocator: Sendable {
  public let bytes: [UInt8]
  private let lineStarts: [Int]
  /// Offset of the first byte after a UTF-8 byte-order mark, which no editor shows as a column.
  private let contentStart: Int
  /// For text with lines longer than `checkpointStride`: the UTF-16 units before every multiple
  /// of the stride up to the end of the text, the end included when it is one (the end of input
  /// is a position too), so a column on a long line is counted from the nearest checkpoint, not
  /// from the line's start (a one-line file with 50,000 diagnostics was quadratic).
  private let checkpoints: [Int]
  private static let checkpointStride = 4096

  /// `queries` is about how many positions will be asked for: only for many, on long lines, is the
  /// table of checkpoints worth its pass over the text.
  public init(bytes: [UInt8], queries: Int = 1) {
    self.bytes = bytes
    var starts = [0]
    var i = 0
    let n = bytes.count
    var longestLine = 0
    while i < n {
      let b = bytes[i]
      if b == 0x0A {
        longestLine = max(longestLine, i + 1 - starts[starts.count - 1])
        starts.append(i + 1)
      } else if b == 0x0D {
        if i + 1 < n, bytes[i + 1] == 0x0A { i += 1 }
        longestLine = max(longestLine, i + 1 - starts[starts.count - 1])
        starts.append(i + 1)
      }
      i += 1
    }
    longestLine = max(longestLine, n - starts[starts.count - 1])
    lineStarts = starts
    contentStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var checkpoints: [Int] = []
    if longestLine > Self.checkpointStride && queries > 16 {
      checkpoints.reserveCapacity(n / Self.checkpointStride + 1)
      var units = 0
      for chunk in stride(from: 0, through: n, by: Self.checkpointStride) {
        checkpoints.append(units)
        for i in chunk..<min(n, chunk + Self.checkpointStride) { units += Self.units(bytes[i]) }
      }
    }
    self.checkpoints = checkpoints
  }

  /// UTF-16 units a UTF-8 byte starts: none for a continuation byte, two for a 4-byte sequence
  /// (a surrogate pair).
  @inline(__always) private static func units(_ b: UInt8) -> Int {
    b & 0xC0 == 0x80 ? 0 : (b >= 0xF0 ? 2 : 1)
  }

  /// UTF-16 units in `bytes[from..<to]`.
  private func units(from: Int, to: Int) -> Int {
    if to - from > Self.checkpointStride, !checkpoints.isEmpty {
      return unitsBefore(to) - unitsBefore(from)
    }
    var count = 0
    for i in from..<to { count += Self.units(bytes[i]) }
    return count
  }

  private func unitsBefore(_ offset: Int) -> Int {
    let checkpoint = offset / Self.checkpointStride
    var count = checkpoints[checkpoint]
    for i in (checkpoint * Self.checkpointStride)..<offset { count += Self.units(bytes[i]) }
    return count
  }

  /// Line and byte column of `offset`, in O(log lines): for machine-written text (the embedded rule
  /// pack is one long line) where counting UTF-16 units from the line start would be quadratic.
  public func bytePosition(of offset: Int) -> SourcePosition {
    let offset = max(0, min(offset, bytes.count))
    let line = lineIndex(of: offset)
    return SourcePosition(line: line + 1, column: offset - lineStarts[line] + 1)
  }

  /// The 0-based line of `offset`: the last line start at or before it.
  private func lineIndex(of offset: Int) -> Int {
    var lo = 0, hi = lineStarts.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// The position of the byte at `offset` (an offset equal to the length is the end of input).
  public func position(of offset: Int) -> SourcePosition {
    let offset = max(0, min(offset, bytes.count))
    let lo = lineIndex(of: offset)
    let from = lo == 0 ? max(lineStarts[0], min(contentStart, offset)) : lineStarts[lo]
    return SourcePosition(line: lo + 1, column: units(from: from, to: offset) + 1)
  }
}
