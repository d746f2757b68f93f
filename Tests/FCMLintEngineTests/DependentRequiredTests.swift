@testable import FCMLintEngine
@testable import FCMLintJSON
import XCTest

/// `dependentRequired`: a member that needs another one is reported at its key when the other is
/// missing, null or empty; null and empty arrays do not count as set; both proto3 spellings match.
final class DependentRequiredTests: XCTestCase {
  private func findings(_ text: String, _ fields: [String: String]) throws -> [(key: String, requires: String)] {
    let document = try JSONParser.parse(Array(text.utf8)).get()
    let function = try DependentRequired(options: FunctionOptions(["fields": .stringMap(StringMap(fields))]))
    let context = FunctionContext(document: document, given: 0)
    let found = function.check(.found(0), in: context)
    XCTAssertEqual(found.isEmpty, function.passes(.found(0), in: context))
    for finding in found { XCTAssertTrue(finding.atKey) }
    return found.map { ($0.values["key"]!, $0.values["requires"]!) }
  }

  func testReportsEachMemberWhosePartnerIsMissing() throws {
    let pairs = ["loc-args": "loc-key", "title_loc_args": "title_loc_key"]
    XCTAssertTrue(try findings(#"{"loc-args": ["a"], "loc-key": "K", "title_loc_args": ["b"], "title_loc_key": "T"}"#, pairs).isEmpty)
    let found = try findings(#"{"title_loc_args": ["b"], "loc-args": ["a"], "loc-key": ""}"#, pairs)
    XCTAssertEqual(found.map(\.key), ["title_loc_args", "loc-args"])
    XCTAssertEqual(found.map(\.requires), ["title_loc_key", "loc-key"])
    XCTAssertEqual(try findings(#"{"loc-args": ["a"], "loc-key": null}"#, pairs).map(\.key), ["loc-args"])
  }

  func testNullAndEmptyArraysAreNotSet() throws {
    let pairs = ["loc-args": "loc-key"]
    XCTAssertTrue(try findings(#"{"loc-args": []}"#, pairs).isEmpty)
    XCTAssertTrue(try findings(#"{"loc-args": null}"#, pairs).isEmpty)
    XCTAssertEqual(try findings(#"{"loc-args": "a"}"#, pairs).map(\.key), ["loc-args"])
  }

  func testBothProtoSpellingsMatch() throws {
    let pairs = ["title_loc_args": "title_loc_key"]
    XCTAssertTrue(try findings(#"{"titleLocArgs": ["a"], "titleLocKey": "T"}"#, pairs).isEmpty)
    XCTAssertTrue(try findings(#"{"title_loc_args": ["a"], "titleLocKey": "T"}"#, pairs).isEmpty)
    XCTAssertEqual(try findings(#"{"titleLocArgs": ["a"]}"#, pairs).map(\.key), ["titleLocArgs"])
  }

  func testOptionsAreChecked() {
    XCTAssertThrowsError(try DependentRequired(options: FunctionOptions(["fields": .stringMap([:])])))
    XCTAssertThrowsError(try DependentRequired(options: FunctionOptions(["fields": .stringMap(["a": "a"])])))
    XCTAssertNotNil(FunctionRegistry.function(named: "dependentRequired"))
  }
}
