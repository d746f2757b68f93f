@testable import FCMLintEngine
import FCMLintJSON
import FCMLintTestSupport
import XCTest

/// The default placeholder syntaxes are matched without the regex (`PlaceholderSyntax.defaultMatch`):
/// it must find exactly what the regular expressions of `defaultPatterns` find.
final class PlaceholderSyntaxTests: XCTestCase {
  func testDefaultMatcherAgreesWithTheRegularExpressions() throws {
    // The same patterns in another order: matched by the regex (longest match, so order is moot).
    let regex = try PlaceholderSyntax(patterns: PlaceholderSyntax.defaultPatterns.reversed())
    let alphabet = Array("{}$()%x. -#/".utf8)
    var random = XorShift64(seed: 14)
    for _ in 0..<20_000 {
      let bytes = (0..<(1 + random.below(14))).map { _ in alphabet[random.below(alphabet.count)] }
      for offset in bytes.indices {
        XCTAssertEqual(
          PlaceholderSyntax.defaultMatch(bytes, at: offset), regex.match(bytes, at: offset),
          "\(String(decoding: bytes, as: UTF8.self)) at \(offset)")
      }
    }
  }

  func testControlTags() {
    for tag in ["{{#if x}}", "{{/if}}", "{{else}}", "{{^x}}", "{{!c}}", "{{> partial}}", "{% if x %}", "{{- if .X }}", "{{ end }}", "{{range .A}}", "{{#each d}}"] {
      XCTAssertTrue(PlaceholderSyntax.isControl(Array(tag.utf8)[...]), tag)
    }
    for tag in ["{{x}}", "{{{json data}}}", "{{ .Name }}", "${NAME}", "$(name)", "{{ user.name }}", "{{ending}}", "{{iffy}}"] {
      XCTAssertFalse(PlaceholderSyntax.isControl(Array(tag.utf8)[...]), tag)
    }
  }

  /// Only files with an opener are read as templates; the marks say what each string is.
  func testMarks() throws {
    XCTAssertFalse(PlaceholderSyntax.default.mayOccur(in: Array(#"{"a": {"b": "$x {x} %x%"}}"#.utf8)))
    let text = #"{"a": "{{x}}", "b": "https://{{host}}/a.png", "c": {{n}}, "{{k}}": "plain", "d": "${X}$(y)"}"#
    let linter = Linter(rules: RuleSet())
    guard case .success(let document) = linter.parse(Array(text.utf8)) else { return XCTFail("no parse") }
    let marks = try XCTUnwrap(document.templates)
    let a = try XCTUnwrap(document.member(0, "a")), b = try XCTUnwrap(document.member(0, "b"))
    let c = try XCTUnwrap(document.member(0, "c")), k = try XCTUnwrap(document.member(0, "{{k}}"))
    let d = try XCTUnwrap(document.member(0, "d"))
    XCTAssertEqual(marks.unknown, [a, c])
    XCTAssertEqual(document.kind(c), .placeholder)
    XCTAssertEqual(marks.partial[b]?.count, 1)
    XCTAssertEqual(marks.partial[d]?.count, 2)
    XCTAssertEqual(marks.keys, [k])
  }
}

extension PlaceholderSyntaxTests {
  func testIncludeTags() {
    for tag in ["{{> partial}}", "{{>partial}}", "{% include 'x.json' %}", "{{template \"x\" .}}", "{{- template \"x\" }}"] {
      XCTAssertTrue(PlaceholderSyntax.isInclude(Array(tag.utf8)[...]), tag)
    }
    for tag in ["{{#if x}}", "{% if x %}", "{{x}}", "{{ templates }}"] {
      XCTAssertFalse(PlaceholderSyntax.isInclude(Array(tag.utf8)[...]), tag)
    }
  }
}
