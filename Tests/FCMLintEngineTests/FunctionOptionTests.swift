@testable import FCMLintEngine
@testable import FCMLintJSON
import LinearRegex
import XCTest

/// Options added for the second rule pack: `url`'s `missingExtension`, `exactlyOne`'s
/// `nullIsAbsent` and `topicCondition`'s `doubleQuotes`.
final class FunctionOptionTests: XCTestCase {
  private func found(_ function: some RuleFunction, _ text: String, at node: NodeID = 0) throws -> [Finding] {
    let document = try JSONParser.parse(Array(text.utf8)).get()
    let context = FunctionContext(document: document, given: 0)
    let findings = function.check(.found(node), in: context)
    XCTAssertEqual(findings.isEmpty, function.passes(.found(node), in: context))
    return findings
  }

  private func url(_ missing: String?) throws -> URLCheck {
    var options: [String: OptionValue] = ["extensions": .strings(["png", "jpg"])]
    if let missing { options["missingExtension"] = .string(missing) }
    return try URLCheck(options: FunctionOptions(options))
  }

  func testMissingExtensionSplitsTheNoExtensionCase() throws {
    let cases: [(url: String, report: Bool, pass: Bool, only: Bool)] = [
      ("https://e.com/a.png", false, false, false),
      ("https://e.com/photo-123?fit=crop", true, false, true),
      ("https://e.com/a.svg", true, true, false),
      ("https://pizza-monster.png", true, true, false),
      ("https://pizza-monster.png/", true, true, false),
      ("https://e.com/.txt", true, true, false),
      ("https://e.com/a.", true, true, false),
      ("https://e.com/.png", true, false, false),
      ("not-a-url", true, false, true),
    ]
    let report = try url(nil), pass = try url("pass"), only = try url("only")
    XCTAssertEqual(try url("report").missingExtension, .report)
    for c in cases {
      let text = "\"\(c.url)\""
      XCTAssertEqual(try found(report, text).isEmpty, !c.report, "report: \(c.url)")
      XCTAssertEqual(try found(pass, text).isEmpty, !c.pass, "pass: \(c.url)")
      XCTAssertEqual(try found(only, text).isEmpty, !c.only, "only: \(c.url)")
    }
    XCTAssertThrowsError(try url("sometimes"))
    XCTAssertThrowsError(try URLCheck(options: FunctionOptions(["schemes": .strings(["https"]), "missingExtension": .string("pass")])))
  }

  func testNullIsAbsentCountsANullTargetAsUnset() throws {
    func exactlyOne(_ nullIsAbsent: Bool) throws -> ExactlyOne {
      try ExactlyOne(options: FunctionOptions(["fields": .strings(["token", "topic"]), "nullIsAbsent": .bool(nullIsAbsent)]))
    }
    XCTAssertEqual(try found(exactlyOne(false), #"{"token": null, "topic": "news"}"#).count, 1)
    XCTAssertTrue(try found(exactlyOne(true), #"{"token": null, "topic": "news"}"#).isEmpty)
    XCTAssertEqual(try found(exactlyOne(true), #"{"token": null}"#).first?.values["present"], "")
    XCTAssertEqual(try found(exactlyOne(true), #"{"token": "", "topic": "news"}"#).count, 1)
    XCTAssertTrue(try found(exactlyOne(true), #"{"token": "abc"}"#).isEmpty)
  }

  func testDoubleQuotesParsesADoubleQuotedTopicName() throws {
    func condition(_ doubleQuotes: Bool?) throws -> TopicCondition {
      var options: [String: OptionValue] = [
        "maxTopics": .number(5),
        "topicPattern": .pattern(CompiledPattern(regex: try LinearRegex("^[A-Za-z0-9_.~%\\-]{1,900}$"), source: "")),
      ]
      if let doubleQuotes { options["doubleQuotes"] = .bool(doubleQuotes) }
      return TopicCondition(options: FunctionOptions(options))
    }
    let strict = try condition(nil), lenient = try condition(true)
    XCTAssertEqual(try found(strict, #""\"foo\" in topics""#).count, 1)
    XCTAssertTrue(try found(lenient, #""\"foo\" in topics""#).isEmpty)
    XCTAssertTrue(try found(lenient, #""'a' in topics && (\"b\" in topics || 'c' in topics)""#).isEmpty)
    // The closing quote must match the opening one, and the name is still checked.
    XCTAssertEqual(try found(lenient, #""\"foo' in topics""#).first?.values["column"], "1")
    XCTAssertEqual(try found(lenient, #""\"a b\" in topics""#).count, 1)
    XCTAssertTrue(try found(strict, #""'foo' in topics""#).isEmpty)
  }

  func testEqualsComparesStringValuesAsSwiftStrings() throws {
    // Plain ASCII values are compared as bytes; the rest as Strings, which are equal when
    // canonically equivalent (U+212A KELVIN SIGN is "K"), written raw or escaped.
    let equals = Equals(options: FunctionOptions(["value": .value(.string("K"))]))
    for (text, expected) in [(#""K""#, true), (#""k""#, false), (#""\u212A""#, true), ("\"\u{212A}\"", true), (#""KK""#, false), (#""""#, false)] {
      XCTAssertEqual(try found(equals, text).isEmpty, expected, text)
    }
    let empty = Equals(options: FunctionOptions(["value": .value(.string(""))]))
    XCTAssertEqual(try found(empty, #""""#).isEmpty, true)
    XCTAssertEqual(try found(empty, #""a""#).isEmpty, false)
  }
}
