import Foundation
import XCTest

/// JSON a page gives to a command as a quoted shell word: a curl body in single or double quotes,
/// on the curl line or after it; an argument (`-P '{...}'`, `--payload="{...}"`, `echo '{...}' |`).
/// The JSON is what the command gets once the shell has unquoted it, placed at the page's bytes,
/// and a fix is written in the word's own quoting.
extension CLITests {
  static let curlPage = #"""
    # Send

    ```bash
    curl -X POST https://fcm.googleapis.com/v1/projects/p/messages:send -H "Authorization: Bearer $T" -d '{"message": {"topic": "a", "data": {"n": 1}}}'
    ```

    ```bash
    curl -X POST https://fcm.googleapis.com/v1/projects/p/messages:send \
      --data-binary '{
        "message": {"topic": "b", "data": {"who": "O'\''Brien", "n": 2}}
      }'
    ```

    ```bash
    curl -X POST https://fcm.googleapis.com/v1/projects/p/messages:send \
      -H "Content-Type: application/json" \
      -d "{\"message\": {\"topic\": \"c\", \"data\": {\"cost\": \"\$5\", \"path\": \"a\\\\b\", \"n\": 3}}}"
    ```

    ```sh
    curl https://fcm.googleapis.com/v1/projects/p/messages:send --data="{\"message\": {\"topic\": \"d\", \"android\": {\"ttl\": 60}}}"
    ```

    """#

  func testCurlBodiesInEitherQuotingAreRead() throws {
    let root = try temporaryDirectory()
    try write(Self.curlPage, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    // Each at the page's own column: past `'\''`, `\"`, `\$` and `\\\\`, which the shell unquotes.
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 4, column: 144, pointer: "/message/data/n"),
      Found(rule: "data-string-values", line: 10, column: 66, pointer: "/message/data/n"),
      Found(rule: "data-string-values", line: 17, column: 99, pointer: "/message/data/n"),
      Found(rule: "android-ttl", line: 21, column: 125, pointer: "/message/android/ttl"),
    ])
  }

  func testCurlBodiesAreFixedInTheirOwnQuoting() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.md")
    try write(Self.curlPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    let fixed = try String(contentsOf: page, encoding: .utf8)
    let expected = Self.curlPage
      .replacingOccurrences(of: #"{"n": 1}"#, with: #"{"n": "1"}"#)
      .replacingOccurrences(of: #""n": 2}"#, with: #""n": "2"}"#)
      .replacingOccurrences(of: #"\"n\": 3}"#, with: #"\"n\": \"3\"}"#)
      .replacingOccurrences(of: #"\"ttl\": 60}"#, with: #"\"ttl\": \"60s\"}"#)
    XCTAssertNotEqual(expected, Self.curlPage)
    XCTAssertEqual(fixed, expected)
  }

  static let argumentPage = #"""
    Send it with the CLI to messages:send:

    $ fcm-send -P '{"message": {"topic": "a", "data": {"n": 1}}}'
    $ fcm-send --payload '{
        "message": {"topic": "b", "data": {"who": "O'\''Brien", "n": 2}}
      }'
    $ echo '{"message": {"topic": "c", "data": {"n": 3}}}' | fcm-send -
    $ fcm-send --payload="{\"message\": {\"topic\": \"d\", \"data\": {\"n\": 4}}}"

    """#

  func testShellQuotedJSONArgumentsAreRead() throws {
    let root = try temporaryDirectory()
    try write(Self.argumentPage, to: root.appendingPathComponent("page.txt"))
    let run = try fcmlint(["--docs", "--format", "json", "page.txt"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 3, column: 57, pointer: "/message/data/n"),
      Found(rule: "data-string-values", line: 5, column: 66, pointer: "/message/data/n"),
      Found(rule: "data-string-values", line: 7, column: 50, pointer: "/message/data/n"),
      Found(rule: "data-string-values", line: 8, column: 74, pointer: "/message/data/n"),
    ])
  }

  func testShellQuotedJSONArgumentsAreFixedInTheirOwnQuoting() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.txt")
    try write(Self.argumentPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.txt"], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    let expected = Self.argumentPage
      .replacingOccurrences(of: #""n": 1}"#, with: #""n": "1"}"#)
      .replacingOccurrences(of: #""n": 2}"#, with: #""n": "2"}"#)
      .replacingOccurrences(of: #""n": 3}"#, with: #""n": "3"}"#)
      .replacingOccurrences(of: #"\"n\": 4}"#, with: #"\"n\": \"4\"}"#)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), expected)
  }

  static let prefixPage = #"""
    Sending to messages:send.
    Payload: {"message": {"topic": "a", "data": {"n": 1}}}
    log.info("sending", {"message": {"topic": "b", "data": {"n": 2}}})
    body = {"message": {"topic": "c", "data": {"n": 3}}}
    Response: {"name": "projects/p/messages/1"}
    const message = {"token": t, notification: {title: 'Hi'}};

    """#

  func testJSONAfterAPrefixOnItsLineIsRead() throws {
    let root = try temporaryDirectory()
    try write(Self.prefixPage, to: root.appendingPathComponent("page.txt"))
    let run = try fcmlint(["--docs", "--format", "json", "page.txt"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(try found(run), [
      Found(rule: "data-string-values", line: 2, column: 51, pointer: "/message/data/n"),
      Found(rule: "data-string-values", line: 3, column: 62, pointer: "/message/data/n"),
      Found(rule: "data-string-values", line: 4, column: 49, pointer: "/message/data/n"),
    ])
  }

  func testJSONAfterAPrefixIsFixedInPlace() throws {
    let root = try temporaryDirectory()
    let page = root.appendingPathComponent("page.txt")
    try write(Self.prefixPage, to: page)
    let run = try fcmlint(["--docs", "--fix", "page.txt"], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    let expected = Self.prefixPage
      .replacingOccurrences(of: #""n": 1}"#, with: #""n": "1"}"#)
      .replacingOccurrences(of: #""n": 2}"#, with: #""n": "2"}"#)
      .replacingOccurrences(of: #""n": 3}"#, with: #""n": "3"}"#)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), expected)
  }
}

extension CLITests {
  /// A curl command to the legacy endpoint, its URL after the body, in a block without a
  /// language (as firebase/quickstart-js writes it): its body is read and reported as the legacy
  /// API's; not fixed (v1 is another request, not an edit of this one).
  func testDocsReadALegacyCurlWhoseURLFollowsTheBody() throws {
    let root = try temporaryDirectory()
    let page = """
      # Sending

      ```
      curl -X POST -H "Authorization: key=KEY" -H "Content-Type: application/json" -d '{
        "notification": {"title": "Portugal vs. Denmark"},
        "to": "YOUR-IID-TOKEN"
      }' "https://fcm.googleapis.com/fcm/send"
      ```

      ```
      curl -X POST -d '{"to": "x"}' "https://api.example.com/notify"
      ```

      """
    try write(page, to: root.appendingPathComponent("page.md"))
    let run = try fcmlint(["--docs", "--format", "json", "page.md"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    let found = try decode(run).diagnostics
    XCTAssertEqual(found.map(\.rule), ["legacy-http-body"], run.stdout)
    XCTAssertEqual(found.first?.line, 4)
    let fix = try fcmlint(["--docs", "--fix", "page.md"], in: root)
    XCTAssertEqual(fix.status, 1, fix.stderr)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("page.md"), encoding: .utf8), page)
  }
}
