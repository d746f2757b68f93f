import FCMLintJSON
import XCTest

/// With `templateTags`, the parser reads a placeholder where a value goes as a `.placeholder`
/// node and skips control tags between members and elements; everything else stays strict.
final class TemplateTagTests: XCTestCase {
  /// `{{name}}` is a value, `{{#...}}`, `{{/...}}` and `{{else}}` are control tags.
  let tags = TemplateTags { buf, offset in
    guard offset + 1 < buf.count, buf[offset] == UInt8(ascii: "{"), buf[offset + 1] == UInt8(ascii: "{") else { return nil }
    var end = offset + 2
    while end + 1 < buf.count, !(buf[end] == UInt8(ascii: "}") && buf[end + 1] == UInt8(ascii: "}")) { end += 1 }
    guard end + 1 < buf.count else { return nil }
    let first = buf[offset + 2]
    let control = first == UInt8(ascii: "#") || first == UInt8(ascii: "/") || first == UInt8(ascii: "e")
    return (end + 2, control ? .control : .value)
  }

  func parse(_ text: String) -> Result<JSONDocument, JSONSyntaxError> {
    JSONParser.parse(Array(text.utf8), options: JSONParser.Options(templateTags: tags))
  }

  func testPlaceholderValues() throws {
    let document = try parse(#"{"a": {{a}}, "b": [1, {{b}}, 2], "c": "{{c}}"}"#).get()
    let a = try XCTUnwrap(document.member(0, "a"))
    XCTAssertEqual(document.kind(a), .placeholder)
    XCTAssertEqual(document.rawText(a), "{{a}}")
    let b = try XCTUnwrap(document.member(0, "b"))
    XCTAssertEqual(document.children(b).map { document.kind($0) }, [.number, .placeholder, .number])
    XCTAssertEqual(document.kind(try XCTUnwrap(document.member(0, "c"))), .string)
    XCTAssertEqual(document.controlTags, [])
  }

  func testControlTagsAroundMembersAndElements() throws {
    let text = #"{ {{#if x}}"a": 1,{{else}}"b": 2,{{/if}} "c": [ {{#each}}3,{{/each}} ], "d": { {{#each}}"k": "v",{{/each}} }}"#
    let document = try parse(text).get()
    XCTAssertEqual(document.children(0).compactMap { document.key($0) }, ["a", "b", "c", "d"])
    XCTAssertEqual(document.controlTags.count, 7)
    let a = try XCTUnwrap(document.member(0, "a")), c = try XCTUnwrap(document.member(0, "c"))
    XCTAssertTrue(document.isConditional(a))
    XCTAssertFalse(document.isConditional(c))
  }

  /// Comments or blocks around the whole document.
  func testControlTagsAroundTheDocument() throws {
    let document = try parse(" {{#if x}} {\"a\": 1} {{/if}} ").get()
    XCTAssertEqual(document.kind(0), .object)
    XCTAssertEqual(document.controlTags.map(\.container), [-1, -1])
  }

  func testTagsElsewhereAreSyntaxErrors() {
    guard case .failure(let error) = parse(#"{"a": {{#if x}}1{{/if}}}"#) else { return XCTFail("parsed") }
    XCTAssertTrue(error.message.hasPrefix("template block {{#if x}} is not around whole members"), error.message)
    // Without templateTags, nothing changes.
    guard case .failure(let strict) = JSONParser.parse(Array(#"{"a": {{a}}}"#.utf8)) else { return XCTFail("parsed") }
    XCTAssertEqual(strict.message, "expected an object key in double quotes, found '{'")
    // A trailing comma is an error unless a block's tag follows it.
    guard case .failure(let comma) = parse(#"{"a": 1, }"#) else { return XCTFail("parsed") }
    XCTAssertEqual(comma.message, "trailing comma before '}'")
  }
}

extension TemplateTagTests {
  /// The word-at-a-time search finds an opener wherever it sits (across word boundaries too).
  func testContainsTemplateOpener() {
    let openers = ["{{", "{%", "${", "$("]
    for length in 0..<20 {
      for at in 0..<max(1, length - 1) where length >= 2 {
        for opener in openers {
          var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
          bytes[at] = opener.utf8.first!
          bytes[at + 1] = opener.utf8.last!
          XCTAssertTrue(JSONParser.containsTemplateOpener(bytes), "\(opener) at \(at) of \(length)")
        }
      }
      let plain = Array(String(repeating: "{\"a\": {}, \"$\": [{}]}", count: 3).utf8.prefix(length))
      XCTAssertFalse(JSONParser.containsTemplateOpener(plain), "\(length)")
    }
    XCTAssertFalse(JSONParser.containsTemplateOpener(Array("{ {$ ($}{".utf8)))
  }
}
