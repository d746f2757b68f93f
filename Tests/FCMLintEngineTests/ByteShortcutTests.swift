@testable import FCMLintEngine
@testable import FCMLintJSON
import XCTest

/// The byte-level shortcuts of `url`, `number` and `dependentRequired` must answer what the
/// String paths answer: each value is checked as written (the shortcut may take it) and with a
/// JSON escape in it (only the String path can).
final class ByteShortcutTests: XCTestCase {
  private func parse(_ text: String) throws -> JSONDocument {
    try JSONParser.parse(Array(text.utf8)).get()
  }

  /// `text` with its first "/" or letter written as a \u escape: the same decoded value.
  private func escaped(_ text: String) -> String {
    guard let index = text.firstIndex(where: { $0 == "/" || $0.isLetter }) else { return text }
    let scalar = text[index].unicodeScalars.first!.value
    let hex = String(scalar, radix: 16)
    return String(text[..<index]) + "\\u" + String(repeating: "0", count: 4 - hex.count) + hex + String(text[text.index(after: index)...])
  }

  private func urlFindings(_ function: URLCheck, _ literal: String) throws -> [String] {
    let document = try parse("[\"\(literal)\"]")
    let id = document.children(JSONDocument.root).first { _ in true }!
    let context = FunctionContext(document: document, given: id)
    let found = function.check(.found(id), in: context)
    XCTAssertEqual(found.isEmpty, function.passes(.found(id), in: context))
    return found.map { $0.values["detail"] ?? "" }
  }

  func testURLShortcutAgreesWithTheStringPath() throws {
    let urls = [
      "https://example.com/a.png", "HTTPS://example.com/a.PNG", "https://example.com/a.Png?x=1#y", "http://example.com/a.png",
      "https://example.com/a.gif", "https://example.com/a", "https://image.png", "https://example.com/.png", "https://example.com/a.",
      "ftp://example.com/a.png", "example.com/a.png", "https:/a.png", "https://user@example.com:8080/p/a.jpeg",
      "https://[::1]:443/a.jpg", "https://example.com/a.p\u{212A}g", "https://example.com/caf\u{E9}.png", "https://example.com/a.pn\u{e9}",
      "", "https://", "h\u{e9}tps://example.com/a.png", "https://example.com/a.png/", "https://example.com/dir.png/a",
    ]
    let optionSets: [[String: OptionValue]] = [
      ["schemes": .strings(["https"]), "extensions": .strings(["png", "jpg", "jpeg"])],
      ["schemes": .strings(["https", "http"])],
      ["extensions": .strings(["png", "k"]), "missingExtension": .string("pass")],
      ["extensions": .strings(["png"]), "missingExtension": .string("only")],
    ]
    for options in optionSets {
      let function = try URLCheck(options: FunctionOptions(options))
      for url in urls {
        let plain = try urlFindings(function, url)
        let viaString = try urlFindings(function, escaped(url))
        XCTAssertEqual(plain, viaString, "\(url) with \(options)")
      }
    }
  }

  func testNumberShortcutAgreesWithTheParser() throws {
    let numbers = [
      "0", "-0", "1", "-1", "10", "86400", "2419200", "999999999999999", "1000000000000000", "-999999999999999",
      "12345678901234567890", "1.5", "1e3", "-0.0", "3E-2", "0.1",
    ]
    for literal in numbers {
      let document = try parse("[\(literal)]")
      let id = document.children(JSONDocument.root).first { _ in true }!
      let value = try XCTUnwrap(document.number(id), literal)
      let expected = try XCTUnwrap(Double(literal))
      XCTAssertEqual(value, expected, literal)
      XCTAssertEqual(value.sign, expected.sign, literal)
    }
  }

  func testDependentRequiredReadsEscapedKeys() throws {
    let function = try DependentRequired(options: FunctionOptions(["fields": .stringMap(["loc-args": "loc-key", "title_loc_args": "title_loc_key"])]))
    let cases = [
      #"{"loc-args": ["a"]}"#: "loc-key", #"{"loc\u002dargs": ["a"]}"#: "loc-key",
      #"{"titleLocArgs": ["a"]}"#: "title_loc_key", #"{"title\u005floc_args": ["a"]}"#: "title_loc_key",
    ]
    for (text, requires) in cases {
      let document = try parse(text)
      let found = function.check(.found(JSONDocument.root), in: FunctionContext(document: document, given: JSONDocument.root))
      XCTAssertEqual(found.map { $0.values["requires"] }, [requires], text)
    }
    let clean = try parse(#"{"loc-args": ["a"], "loc-key": "K", "other": 1}"#)
    XCTAssertTrue(function.check(.found(JSONDocument.root), in: FunctionContext(document: clean, given: JSONDocument.root)).isEmpty)
  }
}
