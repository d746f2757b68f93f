@testable import FCMLintEngine
import XCTest

/// `StringMap`, the options that map names to names: found by binary search over its sorted keys.
final class StringMapTests: XCTestCase {
  func testEveryKeyIsFoundAndNoOtherName() {
    var dictionary: [String: String] = [:]
    for i in 0..<200 { dictionary["key\(i * 7 % 201)"] = "value\(i)" }
    let map = StringMap(dictionary)
    XCTAssertEqual(map.count, dictionary.count)
    XCTAssertEqual(map.keys, dictionary.keys.sorted())
    for (key, value) in dictionary { XCTAssertEqual(map[key], value, key) }
    for name in ["", "key", "key1000", "Key7", "kez", "a", "zzz", "key7 "] { XCTAssertNil(map[name], name) }
    XCTAssertEqual(Array(map.map(\.key)), dictionary.keys.sorted())
    XCTAssertEqual(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }), dictionary)
  }

  func testALiteralKeepsTheLastValueOfARepeatedKey() {
    let map: StringMap = ["b": "1", "a": "2", "b": "3"]
    XCTAssertEqual(map.keys, ["a", "b"])
    XCTAssertEqual(map["b"], "3")
    XCTAssertEqual(map, StringMap(["a": "2", "b": "3"]))
    XCTAssertTrue(StringMap().isEmpty)
    XCTAssertNil(StringMap()["a"])
  }
}
