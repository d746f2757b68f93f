import FCMLintJSON
import XCTest

/// The one JSON string escaper: what every report, message, fix and page write goes through.
final class JSONTextTests: XCTestCase {
  func testQuoteEscapesWhatJSONRequiresAndTheJavaScriptLineEnds() {
    XCTAssertEqual(JSONText.quote(""), #""""#)
    XCTAssertEqual(JSONText.quote(#"say "hi" \ /"#), #""say \"hi\" \\ /""#)
    XCTAssertEqual(JSONText.quote("\n\r\t\u{08}\u{0C}"), #""\n\r\t\b\f""#)
    XCTAssertEqual(JSONText.quote("\u{00}\u{0B}\u{1B}\u{1F}"), #""\u0000\u000b\u001b\u001f""#)
    XCTAssertEqual(JSONText.quote("a\u{2028}b\u{2029}c"), #""a\u2028b\u2029c""#)
    XCTAssertEqual(JSONText.quote("é😀\u{7F}\u{85}"), "\"é😀\u{7F}\u{85}\"")
  }

  /// Every escape is read back by the parser as the character it stands for.
  func testEveryEscapeParsesBack() throws {
    var text = ""
    for value in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
    text += "\u{2028}\u{2029}é😀"
    let bytes = Array(("{\"k\": " + JSONText.quote(text) + "}").utf8)
    guard case .success(let document) = JSONParser.parse(bytes) else { return XCTFail("does not parse") }
    let member = try XCTUnwrap(Array(document.children(JSONDocument.root)).first)
    let value = try XCTUnwrap(document.string(member))
    XCTAssertEqual(value, text)
  }

  func testNumbers() {
    XCTAssertEqual(JSONText.number(3), "3")
    XCTAssertEqual(JSONText.number(-0.5), "-0.5")
    XCTAssertEqual(JSONText.number(1e20), "1e+20")
  }
}
