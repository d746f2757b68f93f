@testable import FCMLintEngine
@testable import LinearRegex
import XCTest

/// The byte-level shortcuts of the rule functions say exactly what the String code they skip
/// would say.
final class FunctionSpeedTests: XCTestCase {
  /// The String checks `KeyName` runs on a key `ASCIINames` does not accept.
  private func stringChecksPass(_ key: String, renames: [String], forbidden: [String], prefixes: [String], allowed: [String]?, folding: Bool) -> Bool {
    func fold(_ s: String) -> String { folding ? s.lowercased() : s }
    let folded = fold(key)
    if renames.contains(key) { return false }
    if Set(forbidden.map(fold)).contains(folded) { return false }
    if prefixes.map(fold).contains(where: { folded.hasPrefix($0) }) { return false }
    if let allowed, !allowed.contains(key) { return false }
    return true
  }

  func testASCIINamesAgreeWithTheStringChecks() throws {
    let optionSets: [(renames: [String], forbidden: [String], prefixes: [String], allowed: [String]?)] = [
      (["colour", "mutable_content"], ["from", "message_type", "GCM"], ["gcm.", "Google."], nil),
      ([], [], ["google."], nil),
      ([], ["from"], [], ["alert", "badge", "sound", "thread-id", "content-available"]),
      (["a", "ab", "abc", "B"], ["x", "XY"], ["p", "pq", "~"], ["a", "b", "c", "alert"]),
      ([], [], ["a", "A", "z", "Z", "@", "["], nil),
    ]
    let keys = [
      "from", "FROM", "From", "message_type", "gcm", "GCM", "gcm.x", "GCM.x", "google.", "Google.Foo", "GOOGLE.x", "google",
      "colour", "Colour", "mutable_content", "alert", "Alert", "badge", "thread-id", "a", "A", "ab", "AB", "abc", "b", "B", "c",
      "x", "X", "xy", "XY", "Xy", "p", "P", "pq", "PQ", "~", "~x", "@", "[", "`", "{", "z", "Z", "zz", "a b", "é", "caf\u{E9}",
      String(repeating: "k", count: 64), String(repeating: "k", count: 65), "tab\tkey", "\u{7F}", "sound", "content-available",
    ]
    for options in optionSets {
      let names = try XCTUnwrap(ASCIINames(renames: options.renames, forbidden: options.forbidden, prefixes: options.prefixes, allowed: options.allowed))
      for folding in [false, true] {
        // KeyName hands `ASCIINames` the folded forbidden names and prefixes.
        let folded = ASCIINames(
          renames: options.renames, forbidden: options.forbidden.map { folding ? $0.lowercased() : $0 },
          prefixes: options.prefixes.map { folding ? $0.lowercased() : $0 }, allowed: options.allowed)!
        for key in keys {
          // KeyName asks only of ASCII keys (`JSONNode.keyIsASCII`); one over 64 bytes is never accepted.
          guard key.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
          let accepted = folded.accepts(Array(key.utf8)[...], foldingCase: folding)
          let passes = stringChecksPass(key, renames: options.renames, forbidden: options.forbidden, prefixes: options.prefixes, allowed: options.allowed, folding: folding)
          if key.utf8.count <= 64 && !key.isEmpty {
            XCTAssertEqual(accepted, passes, "\(key) folding \(folding) with \(options)")
          } else {
            XCTAssertFalse(accepted, key)
          }
        }
        _ = names
      }
    }
  }

  func testByteNameSetFindsExactlyItsNames() {
    let names = (0..<40).map { "name\($0)" } + ["", "a", "A"]
    let set = ByteNameSet(names)
    for candidate in names + ["name40", "Name1", "b", "name", "aa"] {
      let found = set.contains(Array(candidate.utf8)[...])
      XCTAssertEqual(found, names.contains(candidate), candidate)
    }
  }

  func testDurationSecondsMatchTheGeneralParser() {
    var inputs = [
      "3600s", "0s", "-0s", "-1s", "1.5s", "-1.5s", "3600", "1e3s", "s", "-s", "--1s", "1.s", ".5s", "1.123456789s",
      "1.1234567890s", "PT1H", "3600S", " 3600s", "3600s ", "+3s", "\u{FF10}s", "3\u{0666}s", "00001s", "1_000s",
      "3600\u{0301}s", "0x10s", "99999999999999999999s", "123456789012345s", "1234567890123456s", "-123456789012345s",
      "999999999999999s", "9007199254740993s", "2419200s", "2419201s", "", "-", "5s\u{0301}",
    ]
    for digits in 1...18 { inputs.append(String(repeating: "9", count: digits) + "s"); inputs.append("-" + String(repeating: "7", count: digits) + "s") }
    for input in inputs {
      let fast = DurationCheck.seconds(input), reference = DurationCheck.generalSeconds(input)
      XCTAssertEqual(fast?.bitPattern, reference?.bitPattern, input)
    }
  }

  func testRequiredLiteralsByMemchrAgreeWithTheNFA() throws {
    let patterns = [#"\.(png|jpe?g|gif)$"#, #"\.webp"#, #"x\.png|\.jpg"#, #"-(ab|cd)"#, #"\.[a-z]{3}\?"#]
    var texts = [
      "", ".", "..", ".png", "a.png", "a.PNG", "a.pNg", "https://x.com/a.png", "https://x.com/a.png?x=1", "a.jpeg", "a.jpg.exe",
      "https://x.com/a", "a.webp", "a.WEBP", "x.png", "X.PNG", ".jpg", "-ab", "-AB", "--cd", "a-b", ".abc?", ".ab?", "é.png", "é.gif",
    ]
    texts.append(String(repeating: ".", count: 300) + "png")
    texts.append(String(repeating: "a.", count: 200) + "gif")
    for pattern in patterns {
      let regex = try LinearRegex(pattern)
      let reference = try LinearRegex(pattern, fastPaths: false)
      for text in texts {
        XCTAssertEqual(regex.matches(text), reference.nfaMatches(text), "/\(pattern)/ on \(text)")
      }
    }
    for pattern in patterns + [#"^https://"#, #"^[a-z]+$"#] {
      let regex = try LinearRegex(pattern)
      for text in texts + ["https://x", "abc", "ABC"] {
        let onBytes = Array(text.utf8).withUnsafeBufferPointer { regex.matches(utf8: $0) }
        XCTAssertEqual(onBytes, regex.matches(text), "/\(pattern)/ on the bytes of \(text)")
      }
    }
    let dot = try LinearRegex(#"\.(png|jpe?g|gif)$"#)
    XCTAssertEqual(dot.prefilter?.commonFirst, UInt8(ascii: "."), "the memchr path is the one tested")
  }
}
