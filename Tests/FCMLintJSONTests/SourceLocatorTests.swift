import FCMLintJSON
import XCTest

/// Positions on long lines come from checkpoints when many are asked for: they must be the same
/// positions as counting from the line's start.
final class SourceLocatorTests: XCTestCase {
  func testCheckpointsGiveTheSamePositions() {
    let pieces = ["a", "é", "😀", "中", "\n", "\r\n", "\r", "xxxxxxxx"]
    var generator = SystemRandomNumberGenerator()
    for round in 0..<4 {
      var text = round == 0 ? "\u{FEFF}" : ""
      // Long lines (past the checkpoint stride) and short ones, mixed.
      for _ in 0..<(20_000 + round * 5_000) {
        let piece = pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        if piece.first?.isNewline == true, Int.random(in: 0..<2_000, using: &generator) != 0 { continue }
        text += piece
      }
      let bytes = Array(text.utf8)
      let counted = SourceLocator(bytes: bytes)
      let checkpointed = SourceLocator(bytes: bytes, queries: 1_000)
      for offset in stride(from: 0, through: bytes.count, by: 97) + [bytes.count] {
        XCTAssertEqual(checkpointed.position(of: offset), counted.position(of: offset), "offset \(offset)")
      }
    }
  }

  /// The end of a text whose length is a multiple of the stride is a position too: a page's
  /// sample cut at 1 MiB ended the process asking for it.
  func testTheEndOfATextOfWholeStridesHasAPosition() {
    for length in [4096, 8192, 1 << 20, (1 << 20) - 1, (1 << 20) + 1] {
      let bytes = Array(("é" + String(repeating: "x", count: length - 2)).utf8)
      let counted = SourceLocator(bytes: bytes)
      let checkpointed = SourceLocator(bytes: bytes, queries: 1_000)
      for offset in [bytes.count, bytes.count - 1, bytes.count - 4096, 0] {
        XCTAssertEqual(checkpointed.position(of: offset), counted.position(of: offset), "length \(length), offset \(offset)")
      }
      XCTAssertEqual(checkpointed.position(of: bytes.count), SourcePosition(line: 1, column: length))
    }
  }
}
