#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FCMLintDocs
import FCMLintEngine
import FCMLintRuleTestSupport
import XCTest

/// This thread's CPU time for `body`: other work on the machine does not count.
func cpuSeconds(_ body: () -> Void) -> Double {
  func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
  let start = now()
  body()
  return now() - start
}

extension XCTestCase {
  /// Finding the samples of `page(40)` and of `page(160)` (lines): four times the lines must cost
  /// less than eight times the CPU (linear work is about four times; reading each try to the
  /// page's end, sixteen). The best of three runs: the first of a size also warms caches.
  func assertFindingSamplesIsLinear(
    _ page: (Int) -> [UInt8], samples expected: Int? = nil, file: StaticString = #filePath, line: UInt = #line
  ) {
    let docs = DocumentLinter(linter: Linter(rules: builtinRules()))
    var seconds: [Double] = []
    for lines in [40, 160] {
      let bytes = page(lines)
      if let expected { XCTAssertEqual(docs.samples(in: bytes, format: .markdown).count, expected, file: file, line: line) }
      seconds.append((0..<3).map { _ in cpuSeconds { _ = docs.samples(in: bytes, format: .markdown) } }.min()!)
    }
    XCTAssertLessThan(seconds[1], seconds[0] * 8, "\(seconds)", file: file, line: line)
  }
}

/// Fixing a page costs what its samples cost, not their number times the page's size: each
/// sample's edits are written into its own region, and the regions are spliced in once (a page of
/// 4,000 fixable samples took 14 times as long as one of 1,000).
final class PageFixScalingTests: XCTestCase {
  func page(samples: Int) -> [UInt8] {
    var text = ""
    for i in 0..<samples { text += "Sample \(i)\n\n```json\n{\"message\": {\"topic\": \"t\", \"data\": {\"count\": \(i)}}}\n```\n\n" }
    return Array(text.utf8)
  }


  func testDoublingTheSamplesAtMostAboutDoublesTheWork() {
    let docs = DocumentLinter(linter: Linter(rules: builtinRules()))
    var seconds: [Double] = []
    for count in [100, 400] {
      let bytes = page(samples: count)
      var fixed = 0
      // The best of three: the first run of a size also warms caches.
      seconds.append((0..<3).map { _ in cpuSeconds { fixed = docs.fix(bytes: bytes, file: "p.md", format: .markdown).fixed } }.min()!)
      XCTAssertEqual(fixed, count)
    }
    // Four times the samples: linear work is about 4 times the time, quadratic 16.
    XCTAssertLessThan(seconds[1], seconds[0] * 8, "\(seconds)")
  }
}

/// A page of code tries a literal at every `{` after `=` or `(`; one that never closes was read to
/// the page's end from every line (a page of 4,000 such lines took 40 seconds). Each try now
/// reads at most `NodeMessageLiteral`'s longest literal, so the work follows the lines.
final class UnclosedLiteralScalingTests: XCTestCase {
  /// `lines` lines of about a kilobyte, each opening a call with a literal that never closes.
  func page(lines: Int) -> [UInt8] {
    let filler = String(repeating: "x", count: 1000)
    var text = "# Sending\n\n```js\n"
    for _ in 0..<lines { text += "f({a: 1, b: ({c: \"\(filler)\",\n" }
    text += "x = {\"message\": {\"a\": [\n```\n"
    return Array(text.utf8)
  }

  func testFourTimesTheLinesAtMostAboutFourTimesTheWork() {
    assertFindingSamplesIsLinear { page(lines: $0) }
  }
}

/// A Java block's string literals are read line by line, each at most to its line's end, and a raw
/// literal in backticks at most `NodeMessageLiteral.longestLiteral` on: a page of literals that
/// are parts of bodies (concatenated, or unclosed) costs what its lines cost.
final class CodeStringScalingTests: XCTestCase {
  func page(lines: Int) -> [UInt8] {
    let filler = String(repeating: "x", count: 1000)
    var text = "# Sending\n\n```java\n"
    for _ in 0..<lines { text += "f(\"{\\\"a\\\": \\\"\(filler)\\\"\" + g(\"{\\\"b\\\": {\\\"c\\\": [\(filler)\n" }
    // Raw literals that never close: each try reads a bounded stretch, not the rest of the page.
    for _ in 0..<lines { text += "y = `{\"b\": [\"\(filler)\",\n" }
    text += "```\n"
    return Array(text.utf8)
  }

  func testFourTimesTheLinesAtMostAboutFourTimesTheWork() {
    assertFindingSamplesIsLinear({ page(lines: $0) }, samples: 0)
  }
}

/// The elements of an array given to `sendEach` are read as literals, each try at most
/// `NodeMessageLiteral.longestLiteral` on, and the call is looked for in a bounded stretch
/// around each: a page of elements that never close costs what its lines cost.
final class SendEachElementScalingTests: XCTestCase {
  func page(lines: Int) -> [UInt8] {
    let filler = String(repeating: "x", count: 1000)
    var text = "# Sending\n\n```js\ngetMessaging().sendEach(messages);\nconst messages = [\n"
    for _ in 0..<lines { text += "  {token: 'a', data: {n: '\(filler)',\n" }
    text += "```\n"
    return Array(text.utf8)
  }

  func testFourTimesTheLinesAtMostAboutFourTimesTheWork() {
    assertFindingSamplesIsLinear { page(lines: $0) }
  }
}
