@testable import FCMLintEngine
@testable import FCMLintJSON
import FCMLintTestSupport
import XCTest

/// The per-document member table and the byte-level shortcuts of the functions must answer what
/// the scans and String comparisons they replace answer.
final class LookupShortcutTests: XCTestCase {
  private func parse(_ text: String) throws -> JSONDocument {
    try JSONParser.parse(Array(text.utf8)).get()
  }

  /// A member lookup by scanning, as `member` worked before the table: the last key whose decoded
  /// bytes equal the name's or its alternate's (bytes, not String equality: "é" precomposed is
  /// another key than "e" and a combining accent).
  private func scan(_ document: JSONDocument, _ object: NodeID, _ names: [String]) -> NodeID? {
    guard document.kind(object) == .object else { return nil }
    return document.children(object).filter { child in names.contains { Array(document.key(child)!.utf8) == Array($0.utf8) } }.last
  }

  func testMemberTableAgreesWithAScan() throws {
    let text = #"""
      {"a": 1, "b": {"a": 2, "fcm_options": 3, "fcmOptions": 4, "a": 5}, "k\u0041": 6, "kA": 7,
       "": 8, "c": [{"x": 1}, {"x": 2, "x": 3}], "fcmOptions": 9, "fcm_options": 10, "é": 11, "e\u0301": 12}
      """#
    let document = try parse(text)
    let names: [[String]] = [
      ["a"], ["b"], ["x"], ["kA"], [#"k\u0041"#], [""], ["missing"], ["fcm_options", "fcmOptions"], ["é"], ["e\u{301}"],
    ]
    for id in 0..<NodeID(document.nodeCount) {
      for spellings in names {
        let found: NodeID?
        if spellings.count == 2 {
          found = document.member(id, Array(spellings[0].utf8), or: Array(spellings[1].utf8))
        } else {
          found = document.member(id, spellings[0])
        }
        XCTAssertEqual(found, scan(document, id, spellings), "\(spellings) in node \(id)")
      }
    }
  }

  func testMemberTableSurvivesCollidingKeys() throws {
    // Thousands of members in one object and many small ones: whatever the table does with them
    // (including giving up on it), every lookup still finds the last member of each name.
    var members: [String] = []
    for i in 0..<3000 { members.append("\"k\(i)\": {\"k\(i % 7)\": \(i)}") }
    members.append("\"k5\": 0")
    let document = try parse("{" + members.joined(separator: ",") + "}")
    for i in stride(from: 0, to: 3000, by: 97) {
      let found = document.member(JSONDocument.root, "k\(i)")
      XCTAssertEqual(found, scan(document, JSONDocument.root, ["k\(i)"]))
      if let found { XCTAssertEqual(document.member(found, "k\(i % 7)"), scan(document, found, ["k\(i % 7)"])) }
    }
  }

  func testDocumentWithCollidingKeysFallsBackToScanning() throws {
    // 40 keys of the root object that all start probing at one slot of the 128-slot table: the
    // 33rd is too far from its start, the table is abandoned, and lookups scan instead.
    let keys = collidingRootKeys(40)
    let document = try parse("{" + keys.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ",") + ", \"k0\": 1}")
    XCTAssertLessThan(document.storage.maxDisplacement, 0, "the table was abandoned")
    for key in keys + ["k0", "missing"] {
      XCTAssertEqual(document.member(JSONDocument.root, key), scan(document, JSONDocument.root, [key]), key)
    }
  }

  func testSameComparesEveryByteOfEveryLength() {
    // Word and half-word comparisons overlap at the end: a difference at any position of any
    // length is seen, and nothing beyond the name is read (the key sits at the end of the bytes).
    for length in 0..<40 {
      let name = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(length, 1))
      defer { bytes.deallocate() }
      _ = bytes.initialize(from: name)
      name.withUnsafeBufferPointer { XCTAssertTrue(JSONDocument.same(bytes, 0, $0), "length \(length)") }
      for at in 0..<length {
        var other = name
        other[at] ^= 0x20
        other.withUnsafeBufferPointer { XCTAssertFalse(JSONDocument.same(bytes, 0, $0), "length \(length), at \(at)") }
      }
    }
  }

  func testLookupsOfNearMissNames() throws {
    // Keys of every length up to 20 and names that differ from one in one byte, or are one byte
    // longer or shorter: the table answers what a scan answers.
    let keys = (1...20).map { length in String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(($0 * 7 + length) % 26))) }) }
    let document = try parse("{" + keys.enumerated().map { "\"\($0.element)\": {\"\($0.element)\": \($0.offset)}" }.joined(separator: ",") + ", \"\\u0061b\": 1}")
    var names = keys + ["ab", "a", "b", ""]
    for key in keys {
      let bytes = Array(key.utf8)
      for at in bytes.indices {
        var near = bytes
        near[at] ^= 0x01
        names.append(String(decoding: near, as: UTF8.self))
      }
      names.append(key + "x")
      names.append(String(key.dropLast()))
    }
    for id in 0..<NodeID(document.nodeCount) {
      for name in names {
        XCTAssertEqual(document.member(id, name), scan(document, id, [name]), "\(name) in node \(id)")
      }
    }
  }

  func testContentBytesCountsTheSubtreeOnly() throws {
    let document = try parse(#"{"a": {"bb": "ccc", "d": [1, null, true, "\u00e9"]}, "after": "xxxxxxxx"}"#)
    let a = try XCTUnwrap(document.member(JSONDocument.root, "a"))
    // bb(2) + ccc(3) + d(1) + 1(1) + true(4) + é(2 bytes)
    XCTAssertEqual(ContentSize.contentBytes(a, in: document), 13)
    let string = try XCTUnwrap(document.member(JSONDocument.root, "after"))
    XCTAssertEqual(ContentSize.contentBytes(string, in: document), 8)
  }

  func testConsistentComparesStringsAsStrings() throws {
    let document = try parse(#"{"a": "é", "b": "e\u0301", "c": "e\u0301", "d": "x", "e": "\u0078"}"#)
    func node(_ name: String) throws -> NodeID { try XCTUnwrap(document.member(JSONDocument.root, name)) }
    // Canonically equivalent, as String equality has it, though the bytes differ.
    XCTAssertTrue(Consistent.sameString(try node("a"), try node("b"), document))
    XCTAssertTrue(Consistent.sameString(try node("b"), try node("c"), document))
    XCTAssertTrue(Consistent.sameString(try node("d"), try node("e"), document))
    XCTAssertFalse(Consistent.sameString(try node("a"), try node("d"), document))
  }

  func testASCIINamesAcceptOnlyWhatTheStringChecksAccept() throws {
    let names = try XCTUnwrap(ASCIINames(renames: ["colour"], forbidden: ["from", "gcm"], prefixes: ["google."], allowed: nil))
    func accepts(_ key: String, folding: Bool) -> Bool {
      names.accepts(Array(key.utf8)[...], foldingCase: folding)
    }
    XCTAssertTrue(accepts("title", folding: true))
    XCTAssertFalse(accepts("colour", folding: false))
    XCTAssertFalse(accepts("FROM", folding: true))
    XCTAssertTrue(accepts("FROM", folding: false))
    XCTAssertFalse(accepts("Google.x", folding: true))
    // Non-ASCII keys go to the String checks: KeyName asks only of keys the parser read as ASCII.
    let nonASCII = try parse(#"{"é": 1, "e": 2}"#)
    XCTAssertEqual(nonASCII.children(JSONDocument.root).map { nonASCII[$0].keyIsASCII }, [false, true])
    let allowed = try XCTUnwrap(ASCIINames(renames: [], forbidden: [], prefixes: [], allowed: ["alert", "badge"]))
    XCTAssertTrue(allowed.accepts(Array("badge".utf8)[...], foldingCase: false))
    XCTAssertFalse(allowed.accepts(Array("Badge".utf8)[...], foldingCase: false))
    XCTAssertNil(ASCIINames(renames: [], forbidden: ["\u{212A}"], prefixes: [], allowed: nil), "the Kelvin sign equals K as a String")
  }

  /// A name set holds each name once, however often it is given, and nothing else: every
  /// generated name is found, and near misses (a byte more, a byte less, another byte) are not.
  func testByteNameSetHoldsEachNameOnce() {
    var random = XorShift64(seed: 0xb17e5)
    let alphabet = Array("abcgo._-".utf8)
    for _ in 0..<200 {
      let names = (0..<(1 + random.below(40))).map { _ in
        String(decoding: (0..<(1 + random.below(6))).map { _ in alphabet[random.below(alphabet.count)] }, as: UTF8.self)
      }
      let set = ByteNameSet(names + names.reversed())
      func has(_ name: String) -> Bool { set.contains(Array(name.utf8)[...]) }
      for name in names {
        XCTAssertTrue(has(name), name)
        for near in [name + "a", String(name.dropLast()), "z" + name.dropFirst()] where !names.contains(near) {
          XCTAssertFalse(has(near), "\(near) (names: \(names))")
        }
      }
    }
  }
}
