import Foundation
import XCTest

/// Samples a Markdown page writes without a fence: an indented code block, an HTTP request or a
/// JSON object in the page's text. Template tags and attribute lists on their own brace lines
/// are not samples.
extension CLITests {
  static let prosePage = """
    # Send

    {% include "_local_variables.html" %}
    {:#send}

    POST it to messages:send:

        {
          "message": {
            "topic": "news",
            "data": {"count": 3}
          }
        }

    Or as a request:

    POST https://fcm.googleapis.com/v1/projects/p/messages:send HTTP/1.1
    Content-Type: application/json

    {"message": {"topic": "a", "apns": {"payload": {"aps": {"badge": "1"}}}}}

    The body alone:

    {"message": {"topic": "b", "data": {"n": 1}}}

    """

  func testSamplesWithoutAFenceAreRead() throws {
    let root = try temporaryDirectory()
    try write(Self.prosePage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 11, column: 27, pointer: "/message/data/count"),
      Found(rule: "apns-aps-value", line: 20, column: 66, pointer: "/message/apns/payload/aps/badge"),
      Found(rule: "data-string-values", line: 24, column: 42, pointer: "/message/data/n"),
    ])
    // The brace lines of templates and attribute lists are not read as samples at all.
    let verbose = try fcmlint(["--docs", "--verbose", "page.md"], in: root)
    XCTAssertFalse(verbose.stderr.contains("skipped sample"), verbose.stderr)
  }

  func testSamplesWithoutAFenceAreFixedInPlace() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.prosePage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stdout + run.stderr)  // the badge string has no mechanical fix
    let fixed = try String(contentsOf: page, encoding: .utf8)
    XCTAssertTrue(fixed.contains(#"        "data": {"count": "3"}"#), fixed)
    XCTAssertTrue(fixed.contains(#"{"message": {"topic": "b", "data": {"n": "1"}}}"#), fixed)
    // Everything else stays byte for byte.
    XCTAssertEqual(
      fixed.replacingOccurrences(of: #""3""#, with: "3").replacingOccurrences(of: #""n": "1""#, with: #""n": 1"#), Self.prosePage)
  }
}
