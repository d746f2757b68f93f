import FCMLintEngine
import XCTest

/// The rule-file regular expressions: the same answers as Swift's Regex on the supported syntax,
/// and linear time where a backtracking engine explodes.
final class LinearRegexTests: XCTestCase {
  static let patterns = [
    "^#[0-9a-fA-F]{6}$", "^(/topics/)?[A-Za-z0-9_.~%\\-]{1,900}$", "^[0-9]+$", "^/topics/", "a|b|cd", "(ab)*c",
    "^(?=.{1,32}$)[A-Za-z0-9_-]+=*$", "^(?!(?i:https):)[A-Za-z][A-Za-z0-9+.\\-]*:", "(?i)^www\\.", "x{2,3}y?",
    "[^/?#]*\\.(?:png|jpe?g)(?:[?#]|$)", "\\d\\d-\\w+\\s?", "^$", "a.c", "(?:a|ab)(?:c|bcd)(?:d*)$", "^(a+)+$",
    "[-a]", "[a-]", "[\\]x]", "colou?r", "^(?i:http)://",
    // Patterns with required literals, which the prefilter rejects texts by.
    "(?i)^(?:[a-z][a-z0-9+.\\-]*://[^/?#]*/|(?![a-z][a-z0-9+.\\-]*:)/?)(?:[^?#]*/)?[^/?#]*\\.gif(?:[?#]|$)",
    "(?i)[^/?#]*\\.(?:mp4|m4v|mpe?g|aiff?)(?:[?#]|$)", "(?i)^[a-z]+://(?:[^/?#@]*@)?[^/?#:@]*\\.(?:png|jpe?g)\\.?(?:[/?#]|$)",
    "(?i)\\.GIF", "ab(?:cd|ef)gh", "x(?:ab){2}y", "(?:foo)?bar", "Ab|cD", "a(?=bc)", "(?!ab)cd",
  ]

  func testAgreesWithSwiftRegex() throws {
    var seed: UInt64 = 0x9E3779B97F4A7C15
    func random(_ n: Int) -> Int {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return Int(seed % UInt64(n))
    }
    let alphabet = Array("abcdxy019#/-_.:?=ABCHTPSwtpsh ")
    var subjects = ["", "#1a73e8", "#fff", "news", "/topics/news", "https://e.com/a.png", "http://x", "HTTP://x", "www.e.com",
                    "abcd", "ac", "abbc", "xxy", "xxxxy", "12-ab ", "aaaa", "aaaa!", "abcd", "abbcdd", "colour", "color", "]", "-",
                    "https://e.com/a.GIF", "https://e.com/a.gif?x=1", "https://a.gif/b", "/x/y.gif", "x.mpg", "x.MPEG#t", "a.aif",
                    "https://u@h.png/", "https://h.jpeg.", "http://h.JPG:80/", "abcdgh", "abefgh", "xababy", "xaby", "foobar", "bar",
                    "ab", "AB", "cd", "CD", "abc", "acd"]
    for _ in 0..<400 { subjects.append(String((0..<random(14)).map { _ in alphabet[random(alphabet.count)] })) }
    for pattern in Self.patterns {
      let ours = try LinearRegex(pattern)
      let reference = try Regex(pattern)
      for subject in subjects {
        let expected = (try? reference.firstMatch(in: subject)) != nil
        XCTAssertEqual(ours.matches(subject), expected, "/\(pattern)/ on '\(subject)'")
      }
    }
  }

  func testCatastrophicPatternsStayLinear() throws {
    let long = String(repeating: "a", count: 50_000) + "!"
    let start = DispatchTime.now()
    XCTAssertFalse(try LinearRegex("^(a+)+$").matches(long))
    XCTAssertFalse(try LinearRegex("(a|aa)*b").matches(long))
    XCTAssertFalse(try LinearRegex("^(a*)*$").matches(long))
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    XCTAssertLessThan(seconds, 10, "a backtracking engine would not finish at all")
  }

  func testReplacement() throws {
    XCTAssertEqual(try LinearRegex("^/topics/").replacingFirstMatch(in: "/topics/news", with: ""), "news")
    XCTAssertEqual(try LinearRegex("a+").replacingFirstMatch(in: "xaaay", with: "b"), "xby")
    XCTAssertEqual(try LinearRegex("z").replacingFirstMatch(in: "abc", with: "q"), "abc")
  }

  func testUnsupportedSyntaxIsRefusedWithAPosition() {
    for (pattern, offset) in [("(a)\\1", 3), ("(?<=a)b", 0), ("a**", 2), ("[z-a]", 1), ("(ab", 0), ("ab)", 2), ("\\bword", 0), ("x{5,2}", 1)] {
      XCTAssertThrowsError(try LinearRegex(pattern), pattern) { error in
        XCTAssertEqual((error as? LinearRegex.SyntaxError)?.offset, offset, "\(pattern): \(error)")
      }
    }
  }
}
