import FCMLintTestSupport
import Foundation
import XCTest

/// Unsafe pointer code is where it was shown to be needed, and nowhere else: every Swift file
/// under Sources/ that says `unsafe` (in any case: `UnsafeBufferPointer`, `withUnsafeBytes`,
/// `unsafelyUnwrapped`), or `baseAddress`, outside comments, is on this list with its reason, and
/// every entry still needs it. The figures behind the entries are in docs/performance.md ("Unsafe
/// code, file by file").
final class UnsafeCodeTests: XCTestCase {
  /// A path under the repository, or a folder ending in `/` (every file below it), and why.
  static let allowed: [(path: String, why: String)] = [
    ("Sources/FCMLintSystem/", "the system calls: buffers for read(2), write(2), getcwd, mkstemp, readdir's names, paths as bytes, argv's words, extended attributes; the POSIX mutex"),
    ("Sources/FCMLintJSON/JSONParser.swift", "the parser's hot loop: bytes and nodes through unchecked buffers"),
    ("Sources/FCMLintJSON/TemplateOpener.swift", "memchr over every file's bytes for a placeholder opener: 1.0 M fewer instructions over 500 files than reading eight bytes at a time (docs/performance.md)"),
    ("Sources/FCMLintJSON/JSONDocument.swift", "the document's node and byte storage and the member table every rule path reads"),
    ("Sources/FCMLintEngine/YAMLReader.swift", "libyaml, C interop"),
    ("Sources/LinearRegex/", "the matchers' state sets and programs, read per input byte"),
    ("Sources/FCMLintEngine/Functions/Pattern.swift", "matches a string's bytes in the document without making a String (LinearRegex takes a buffer)"),
    ("Sources/FCMLintCLI/Lint.swift", "the result slots (`Slots`), which move out of it"),
    ("Sources/FCMLintEngine/Functions/ContentSize.swift", "a message's parts in a stack buffer: as an array, 1.16 M more instructions over 500 files (docs/performance.md)"),
    ("Sources/FCMLintEngine/CompiledPack.swift", "the built-in pack's compiled form: static bytes in the binary, read in place at each start"),
    ("URLCheck/Sources/fcmlint-url-check/main.swift", "getline's buffer for the URLs read, write(2) of a usage message"),
  ]

  /// Whether a line of Swift uses unsafe code, comments aside.
  static func usesUnsafe(_ line: Substring) -> Bool {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    if trimmed.hasPrefix("//") { return false }
    let code = trimmed.range(of: " //").map { trimmed[..<$0.lowerBound] } ?? trimmed
    return code.range(of: "unsafe", options: .caseInsensitive) != nil || code.contains("baseAddress")
  }

  func testUnsafeCodeIsOnlyWhereItIsListed() throws {
    let root = Repository.root + "/"
    var using: [String] = []
    // fcmlint's sources and those of the URL checker's own package.
    for path in Repository.files(under: "Sources", suffixes: [".swift"]) + Repository.files(under: "URLCheck/Sources", suffixes: [".swift"]) {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      if text.split(separator: "\n", omittingEmptySubsequences: false).contains(where: Self.usesUnsafe) {
        using.append(String(path.dropFirst(root.count)))
      }
    }
    func entry(for file: String) -> String? {
      Self.allowed.first { $0.path.hasSuffix("/") ? file.hasPrefix($0.path) : file == $0.path }?.path
    }
    XCTAssertFalse(using.isEmpty, "no Swift file found under \(root)Sources")
    XCTAssertEqual(
      using.filter { entry(for: $0) == nil }, [],
      "unsafe code outside the list: make it safe, or measure it (docs/performance.md) and list it here with the reason")
    let needed = Set(using.compactMap(entry(for:)))
    XCTAssertEqual(
      Self.allowed.map(\.path).filter { !needed.contains($0) }, [], "listed, but no longer unsafe: take it off the list")
  }

  /// The check reads code, not comments.
  func testCommentsDoNotCount() {
    XCTAssertTrue(Self.usesUnsafe("    let p = buffer.baseAddress!"))
    XCTAssertTrue(Self.usesUnsafe("  func f(_ b: UnsafeBufferPointer<UInt8>) {"))
    XCTAssertTrue(Self.usesUnsafe("x.withUnsafeBytes { $0 }  // why"))
    XCTAssertFalse(Self.usesUnsafe("  /// No unsafe code here."))
    XCTAssertFalse(Self.usesUnsafe("  let n = 1  // safe, not unsafe"))
  }
}
