import FCMLintDocs
import XCTest

final class MappedTextTests: XCTestCase {
  func testOriginsFollowCopiedAndDecodedBytes() {
    let document = Array("ab&amp;cd".utf8)
    var text = MappedText(bytes: [], origins: [0])
    text.append(document, 0..<2)
    text.append([UInt8(ascii: "&")], standingFor: 2..<7)
    text.append(document, 7..<9)
    XCTAssertEqual(String(decoding: text.bytes, as: UTF8.self), "ab&cd")
    XCTAssertEqual(text.origins, [0, 1, 2, 7, 8, 9])
    XCTAssertEqual(text.origin(of: 99), 9)
  }
}
