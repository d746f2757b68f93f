import FCMLintTestSupport
@testable import LinearRegex
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
    // Lookaheads in repetitions, nested, anchored, negated: matched by the backward tables.
    "^(?:(?=[^x]*y)a)*$", "(?=.*x)(?=.*y)", "^(?:a(?!b))+$", "(?=a(?=b)|c)", "(?=.*$)a", "(?!.*(?=d))a", "(?:(?=ab)a|b)+c",
    "^(?=(?:a|b)*$)", "(?=^a)", "x(?=)", "(?=(?i)AB)ab",
  ]

  func testAgreesWithSwiftRegex() throws {
    var rng = XorShift64(seed: 0x9E3779B97F4A7C15)
    func random(_ n: Int) -> Int { rng.below(n) }
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

  /// A lookahead asked at every position (in a repetition, or by a search that restarts at each
  /// character) is answered from one backward pass: the work stays a constant times the text.
  func testLookaheadsStayLinear() throws {
    // (Swift's Regex, a backtracking engine, takes seconds on these: the answers are written out.)
    for (pattern, text, expected) in [
      ("^(?:(?=[^x]*y)a)*$", String(repeating: "a", count: 20_000), false),
      ("(?=.*x)b", String(repeating: "b", count: 20_000), false),
      ("(?!.*b$)a", String(repeating: "a", count: 20_000) + "b", false),
      ("(?=(?=.*c).*d)a", String(repeating: "a", count: 20_000), false),
      ("(?=.*b)a", String(repeating: "a", count: 20_000) + "b", true),
    ] {
      let regex = try LinearRegex(pattern)
      let (matched, work) = regex.nfaSearch(text)
      XCTAssertEqual(matched, expected, pattern)
      XCTAssertEqual(regex.matches(text), expected, pattern)
      XCTAssertLessThan(work, 40 * text.utf8.count, "/\(pattern)/: \(work) states for \(text.utf8.count) characters")
    }
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

  // MARK: - The one-pass matcher against the NFA

  /// Random patterns of the supported syntax (anchored or not, with lookaheads, counted runs,
  /// case-insensitivity and non-ASCII classes) on random texts: the one-pass matcher, where a
  /// pattern has one, answers as the NFA does.
  func testOnePassAgreesWithTheNFA() throws {
    var rng = XorShift64(seed: 0x2545F4914F6CDD1D)
    func random(_ n: Int) -> Int { rng.below(n) }
    let atoms = ["a", "b", "ab", "(?:xyz)", ".", "[ab]", "[^a]", "[a-c]", "\\d", "\\w", "\\s", "x", "A", "é", "[é-ü]", "[^é]", "[😀-😂]", "\\.", "-", "/"]
    func pattern(_ depth: Int) -> String {
      var s = ""
      for _ in 0...random(3) {
        var atom: String
        switch random(depth > 2 ? 6 : 11) {
        case 0...4: atom = atoms[random(atoms.count)]
        case 5: atom = random(2) == 0 ? "^" : "$"
        case 6: atom = "(" + pattern(depth + 1) + ")"
        case 7: atom = "(?:" + pattern(depth + 1) + "|" + pattern(depth + 1) + ")"
        case 8: atom = (random(2) == 0 ? "(?=" : "(?!") + pattern(depth + 1) + ")"
        case 9: atom = "(?i:" + pattern(depth + 1) + ")"
        default: atom = "(?:" + pattern(depth + 1) + ")"
        }
        if atom != "^" {
          switch random(10) {
          case 0: atom += "*"
          case 1: atom += "+"
          case 2: atom += "?"
          case 3: atom += "{\(random(3))}"
          case 4: let low = random(3); atom += "{\(low),\(low + random(4))}"
          case 5: atom += "{\(random(3)),}"
          default: break
          }
        }
        s += atom
      }
      return s
    }
    let alphabet = Array("abcxA09.-/ éüZ\n€😀")
    let ascii = Array("abcxA09.-/ Z\n_")
    var onePass = 0, determinized = 0
    for _ in 0..<1500 {
      var source = pattern(0)
      if random(2) == 0 { source = "^" + source }
      if random(3) == 0 { source = "(?i)" + source }
      guard let fast = try? LinearRegex(source) else { continue }
      let nfa = try LinearRegex(source, fastPaths: false)
      XCTAssertNil(nfa.onePass)
      XCTAssertNil(nfa.compiled.dfa)
      if fast.onePass != nil { onePass += 1 }
      if fast.compiled.dfa != nil { determinized += 1 }
      for k in 0..<40 {
        // A quarter of the texts ASCII only, which the DFA reads (the others go to the NFA).
        let letters = k % 4 == 0 ? ascii : alphabet
        let text = String((0..<random(16)).map { _ in letters[random(letters.count)] })
        let expected = nfa.matches(text)
        XCTAssertEqual(fast.matches(text), expected, "/\(source)/ on \(text.debugDescription)")
        XCTAssertEqual(fast.nfaMatches(text), expected, "/\(source)/ on \(text.debugDescription)")
      }
    }
    XCTAssertGreaterThan(onePass, 150, "the generated patterns exercise the one-pass matcher")
    XCTAssertGreaterThan(determinized, 150, "the generated patterns exercise the DFA")
  }

  /// The rules' anchored patterns take the one-pass path (a `{1,900}` run is one state); those
  /// where two ways stay open (`[^?#]*/` then `[^/?#]*`) keep the NFA and its prefilter.
  func testRulePatternsTakeTheirPaths() throws {
    let topic = try LinearRegex("^(/topics/)?[A-Za-z0-9_.~%\\-]{1,900}$")
    XCTAssertNotNil(topic.onePass)
    XCTAssertNil(topic.nfa, "no NFA is compiled for a one-pass pattern")
    XCTAssertTrue(topic.matches(String(repeating: "a", count: 900)))
    XCTAssertFalse(topic.matches(String(repeating: "a", count: 901)))
    XCTAssertTrue(topic.matches("/topics/" + String(repeating: "a", count: 900)))
    XCTAssertFalse(topic.matches("/topics/"))
    XCTAssertFalse(topic.matches("/topics"), "'/' is no topic name character")
    XCTAssertFalse(topic.matches("news!"))
    XCTAssertFalse(topic.matches("néws"))
    for source in ["^(?=.{1,32}$)[A-Za-z0-9_-]+=*$", "^(?!(?i:https?|data):)[A-Za-z][A-Za-z0-9+.\\-]*:", "^[0-9]+$", "^(?i:http)://",
                   "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"] {
      XCTAssertNotNil(try LinearRegex(source).onePass, source)
    }
    let image = try LinearRegex("(?i)^[a-z][a-z0-9+.\\-]*://[^/?#]*/(?:[^?#]*/)?[^/?#]*\\.(?:webp|heic|heif|avif|tiff?|mov|m4v)(?:[?#]|$)")
    XCTAssertNil(image.onePass)
    XCTAssertNotNil(image.prefilter)
    XCTAssertNotNil(image.compiled.dfa, "without lookaheads, the NFA is determinized for ASCII text")
    XCTAssertTrue(image.matches("https://e.com/a/b.WEBP?x"))
    XCTAssertFalse(image.matches("https://e.com/a/b.png"))
    // Unanchored patterns restart at every position: the NFA's.
    XCTAssertNil(try LinearRegex("[0-9]+x").onePass)
  }

  /// A pattern read from its compact form (the built-in pack's) keeps only where its compiled
  /// forms are and reads them when first matched: it answers as the pattern compiled from source,
  /// threads that match it first at the same time each get the same compiled forms, and a pattern
  /// no text reaches is never read. The form is written again as it was read.
  func testCompactFormIsReadWhenFirstMatched() throws {
    var writer = CompactWriter()
    let compiled = try Self.patterns.map { try LinearRegex($0) }
    for regex in compiled { regex.write(to: &writer) }
    // Static data in the binary; here a copy that is never freed.
    let bytes = writer.bytes
    let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
    copy.initialize(from: bytes, count: bytes.count)
    var reader = CompactReader(copy, count: bytes.count, strings: writer.strings.list)
    let read = Self.patterns.map { _ in LinearRegex(reading: &reader) }
    XCTAssertEqual(reader.offset, bytes.count)
    XCTAssertEqual(read.map(\.source), Self.patterns)
    XCTAssertFalse(read.contains { $0.storage.isRead }, "nothing is read before a match")
    let subjects = ["", "#1a73e8", "/topics/news", "https://e.com/a.png", "https://e.com/a.GIF?x", "www.e.com", "abcd", "xababy", "aaaa"]
    let lock = NSLock()
    nonisolated(unsafe) var answers = Array(repeating: [Bool](), count: 4)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      let mine = read.map { regex in subjects.map { regex.matches($0) } }.flatMap { $0 }
      lock.withLock { answers[thread] = mine }
    }
    let expected = compiled.map { regex in subjects.map { regex.matches($0) } }.flatMap { $0 }
    XCTAssertEqual(lock.withLock { answers }, Array(repeating: expected, count: 4))
    XCTAssertTrue(read.allSatisfy { $0.storage.isRead })
    var again = CompactWriter()
    for regex in read { regex.write(to: &again) }
    XCTAssertEqual(again.bytes, bytes)
    XCTAssertEqual(again.strings.list, writer.strings.list)
  }

  /// Texts are read as UTF-8, a scalar at a time: multi-byte scalars count once for `.`,
  /// classes and counts, on both paths.
  func testNonASCIIText() throws {
    for fastPaths in [true, false] {
      XCTAssertTrue(try LinearRegex("^.{2}$", fastPaths: fastPaths).matches("😀é"))
      XCTAssertFalse(try LinearRegex("^.{3}$", fastPaths: fastPaths).matches("😀é"))
      XCTAssertTrue(try LinearRegex("^[^a]€[😀-😂]$", fastPaths: fastPaths).matches("é€😁"))
      XCTAssertFalse(try LinearRegex("^[^a]€[😀-😂]$", fastPaths: fastPaths).matches("é€😃"))
      XCTAssertTrue(try LinearRegex("(?i)^É?x", fastPaths: fastPaths).matches("Éx"))
      XCTAssertTrue(try LinearRegex("ü$", fastPaths: fastPaths).matches("aü"))
    }
    XCTAssertEqual(try LinearRegex("é+").replacingFirstMatch(in: "aééb", with: "e"), "aeb")
    XCTAssertEqual(try LinearRegex("^😀").replacingFirstMatch(in: "😀x", with: ""), "x")
  }

  /// The size limit on expanded repetitions refuses what it always did, told without
  /// expanding anything, and a one-pass run of 1,000 costs no 2,000 instructions.
  func testExpansionLimit() throws {
    for source in ["(a{1,1000}){1,1000}", "(?:a{1000}){5}", "(?=(?:a{1000}){5})", "((((a{1000}){1000}){1000}){1000}){1000}"] {
      XCTAssertThrowsError(try LinearRegex(source), source) { error in
        XCTAssertEqual(
          (error as? LinearRegex.SyntaxError)?.message,
          "the pattern is too large once its repetitions are expanded (more than 4096 steps; each adds to the time of every string it is matched against)")
        XCTAssertEqual((error as? LinearRegex.SyntaxError)?.offset, 0)
      }
    }
    // At the limit, and a lookahead under {0}, which is never compiled.
    for source in ["(?:a{1000}){4}b", "(?:a{1000}){4}b{90}", "(?:(?=(?:a{1000}){60})){0}x"] {
      XCTAssertNoThrow(try LinearRegex(source), source)
    }
    XCTAssertTrue(try LinearRegex("(?:(?=(?:a{1000}){60})){0}x").matches("x"))
    let long = try LinearRegex("^[ab]{1000}c{1,1000}$")
    XCTAssertNotNil(long.onePass)
    XCTAssertTrue(long.matches(String(repeating: "ab", count: 500) + "ccc"))
    XCTAssertFalse(long.matches(String(repeating: "ab", count: 500)))
  }
}
