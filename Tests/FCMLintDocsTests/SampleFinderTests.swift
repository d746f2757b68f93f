import FCMLintDocs
import FCMLintEngine
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

final class SampleFinderTests: XCTestCase {
  lazy var docs = DocumentLinter(linter: Linter(rules: builtinRules()))

  func samples(_ page: String, _ format: DocumentFormat) -> [DocumentSample] {
    docs.samples(in: Array(page.utf8), format: format)
  }

  func text(_ sample: DocumentSample) -> String { String(decoding: sample.text.bytes, as: UTF8.self) }

  /// Every byte of a sample that was copied maps back to the same byte of the page.
  func assertCopiedBytesMapBack(_ sample: DocumentSample, in page: String, file: StaticString = #filePath, line: UInt = #line) {
    let bytes = Array(page.utf8)
    for (i, byte) in sample.text.bytes.enumerated() where byte > 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "&") {
      let origin = sample.text.origins[i]
      if origin < bytes.count, bytes[origin] == byte { continue }
      // A decoded entity maps to its `&`.
      if origin < bytes.count, bytes[origin] == UInt8(ascii: "&") || bytes[origin] == UInt8(ascii: "\\") { continue }
      XCTFail("byte \(i) '\(UnicodeScalar(byte))' maps to \(origin)", file: file, line: line)
    }
  }

  func testFencesOfEveryKindAndIndentation() {
    let page = """
      Text.

      ```json
      {"message": {"topic": "a"}}
      ```

      - item

          ~~~~ JSON5 title="x"
          {"message": {"topic": "b"}}
          ~~~~

      > > ```http
      > > POST /v1/projects/p/messages:send HTTP/1.1
      > > Content-Type: application/json
      > >
      > > {"message": {"topic": "c"}}
      > > ```

      ```{.jsonc}
      {"message": {"topic": "d"}}
      ```

      ```python
      {"message": {"topic": "not json"}}
      ```

      ````
      ```json
      {"message": {"topic": "inside a longer fence: the inner fence is text"}}
      ```
      ````
      """
    let found = samples(page, .markdown)
    XCTAssertEqual(found.map(text), [
      #"{"message": {"topic": "a"}}"#,
      #"{"message": {"topic": "b"}}"#,
      #"{"message": {"topic": "c"}}"#,
      #"{"message": {"topic": "d"}}"#,
    ])
    for sample in found { assertCopiedBytesMapBack(sample, in: page) }
    XCTAssertEqual(found[2].encoding, [.linePrefix(Array("> > ".utf8))])
  }

  func testHTMLBlocksDecodeEntitiesAndDropHighlighting() {
    let page = """
      <p>Inline <code>{&quot;message&quot;: {&quot;topic&quot;: &quot;i&quot;}}</code>.</p>
      <pre class="prettyprint lang-json"><span class="pun">{</span><span class="str">&quot;message&quot;</span>: {&#34;topic&#x22;: "a&amp;b"}}</pre>
      <PRE><CODE class="language-swift">let x = {"message": {}}</CODE></PRE>
      <!-- <pre>{"message": {"topic": "commented out"}}</pre> -->
      """
    let found = samples(page, .html)
    XCTAssertEqual(found.map(text), [
      #"{"message": {"topic": "i"}}"#,
      #"{"message": {"topic": "a&b"}}"#,
    ])
    for sample in found { assertCopiedBytesMapBack(sample, in: page) }
    // The block writes its quotes as entities more often than as themselves: fixes do too, with
    // its most frequent one; `&` as it writes it, `<` and `>` as the defaults.
    var spelling = HTMLSpelling()
    spelling.entities[UInt8(ascii: "\"")] = Array("&quot;".utf8)
    XCTAssertEqual(found[1].encoding, [.html(spelling)])
    XCTAssertEqual(found[0].encoding, [.html(spelling)])
  }

  /// Numeric entities and `&#39;` are a block's spelling too, `&` written as the block writes it.
  func testAnHTMLBlocksSpellingIsItsOwnEntities() {
    let page = #"<pre>{&#34;message&#34;: {&#34;condition&#34;: &#34;&#39;a&#39; in topics &#38;&#38; &#39;b&#39; in topics&#34;}}</pre>"#
    let found = samples(page, .html)
    XCTAssertEqual(found.map(text), [#"{"message": {"condition": "'a' in topics && 'b' in topics"}}"#])
    var spelling = HTMLSpelling()
    spelling.entities[UInt8(ascii: "\"")] = Array("&#34;".utf8)
    spelling.entities[UInt8(ascii: "'")] = Array("&#39;".utf8)
    spelling.entities[UInt8(ascii: "&")] = Array("&#38;".utf8)
    XCTAssertEqual(found.first?.encoding, [.html(spelling)])
  }

  func testPlainTextFindsRequestsObjectsAndBlobs() {
    let blob = #"[["x"],"intro\n\n POST https://fcm.googleapis.com/v1/projects/p/messages:send HTTP/1.1\n Content-Type: application/json\n\n {\n \"message\": {\"topic\": \"blob\"}\n }\n\nThe end of a long string that holds a page of documentation, with enough words to be one."]"#
    let page = """
      A page.
      POST https://fcm.googleapis.com/v1/projects/p/messages:send HTTP/1.1
      Authorization: Bearer x

      {"message": {"topic": "request"},
        "validate_only": true}

      Prose {not a sample} and a line:
        {"topic": "indented object"}
      \(blob)
      """
    let found = samples(page, .text)
    XCTAssertEqual(found.map(text), [
      "{\"message\": {\"topic\": \"request\"},\n  \"validate_only\": true}",
      #"{"topic": "indented object"}"#,
      "{\n \"message\": {\"topic\": \"blob\"}\n }",
    ])
    XCTAssertEqual(found[2].encoding, [.jsonString])
    // The blob's sample maps into the escaped string: its `"message"` starts at a `\"`.
    let bytes = Array(page.utf8)
    let key = found[2].text.bytes.firstIndex(of: UInt8(ascii: "\""))!
    XCTAssertEqual(bytes[found[2].text.origins[key]], UInt8(ascii: "\\"))
    XCTAssertEqual(bytes[found[2].text.origins[key] + 2], UInt8(ascii: "m"))
  }

  func testCurlCommandsInShellBlocks() {
    let page = """
      ```console
      $ curl -H "Content-Type: application/json" \\
          https://fcm.googleapis.com/v1/projects/p/messages:send \\
          --data-binary '{"message": {"topic": "a"}}'
      ```

      ```bash
      curl https://example.com/other -d '{"message": {"topic": "not fcm"}}'
      echo '{"message": {"topic": "b"}}' | jq .
      ```
      """
    // A curl to another URL sends that API's body; a JSON argument of another command is read.
    XCTAssertEqual(samples(page, .markdown).map(text), [#"{"message": {"topic": "a"}}"#, #"{"message": {"topic": "b"}}"#])
  }

  func testElisionsAreFoundOutsideStringsOnly() {
    let cases: [(String, Int?)] = [
      (#"{"a": "x...y", "b": 1}"#, nil),
      (#"{"a": 1, ...}"#, 9),
      ("{\"a\": 1,\n  // ...\n}", 11),
      ("{\"a\": 1, /* … */ }", 9),
      ("{\"a\": 1, // a comment with words\n}", nil),
      ("{\"a\": [1, 2, …]}", 13),
    ]
    for (json, expected) in cases {
      let found = samples("```json\n\(json)\n```\n", .markdown)
      XCTAssertEqual(found.first?.elision, expected, json)
    }
  }

  func testMarkersSkipTheNextBlockOrARange() {
    let page = """
      <!-- fcmlint-disable-next-block -->
      ```json
      {"message": {"topic": "1"}}
      ```
      ```json
      {"message": {"topic": "2"}}
      ```
      <!-- fcmlint-disable -->
      ```json
      {"message": {"topic": "3"}}
      ```
      <!--fcmlint-enable-->
      ```json
      {"message": {"topic": "4"}}
      ```
      ```markdown
      <!-- fcmlint-disable -->  (shown, not a marker)
      ```
      ```json
      {"message": {"topic": "5"}}
      ```
      """
    XCTAssertEqual(samples(page, .markdown).map(\.disabled), [true, false, true, false, false])
  }

  func testEncodingsWriteFixesAsThePageDoes() {
    let linter = Linter(rules: builtinRules())
    let docs = DocumentLinter(linter: linter)
    let page = #"<pre>{&quot;message&quot;: {&quot;topic&quot;: &quot;/topics/a&lt;b&quot;}}</pre>"#
    let outcome = docs.fix(bytes: Array(page.utf8), file: "p.html", format: .html)
    // The topic fix is refused (a&lt;b stays invalid), the rest of the page is untouched.
    XCTAssertEqual(String(decoding: outcome.bytes, as: UTF8.self).hasPrefix("<pre>{&quot;message&quot;"), true)
  }

  /// Whatever the page holds, finding and linting its samples ends, without a crash.
  func testHostilePagesEndWithoutACrash() {
    let linter = DocumentLinter(linter: Linter(rules: builtinRules()))
    var pages: [[UInt8]] = [
      Array("```json\n{\"message\": {".utf8),
      Array(String(repeating: "```\n", count: 5000).utf8),
      Array(String(repeating: "<pre>", count: 5000).utf8),
      Array(("POST /messages:send HTTP/1.1\n" + String(repeating: "H: v\n", count: 10000) + "{").utf8),
      Array(String(repeating: "{", count: 100_000).utf8),
      Array(String(repeating: "= {", count: 20_000).utf8),
      Array(("[\"" + String(repeating: "\\n{\\\"message\\\": {", count: 5000) + "\"]").utf8),
      Array("&#xFFFFFFFF; &#0; &#x110000; <pre>&#xD800;&</pre>".utf8),
    ]
    var generator = XorShift64(seed: 19)
    for _ in 0..<200 {
      let alphabet = Array("{}[]\":,`~<>&;#x/*.\\\n -POSTmessages:send".utf8)
      let length = Int(generator.next() % 400)
      pages.append((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }
    for page in pages {
      for format in DocumentFormat.allCases {
        _ = linter.check(bytes: page, file: "p", format: format)
        _ = linter.fix(bytes: page, file: "p", format: format)
      }
    }
  }

  /// A UTF-16 page's samples are its text's, each byte mapped to the page's own bytes.
  func testAUTF16PagesSamplesMapToItsBytes() throws {
    let page = "é\n```json\n{\"message\": {}}\n```\n"
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in page.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let found = docs.samples(in: bytes, format: .markdown)
    XCTAssertEqual(found.map(text), [#"{"message": {}}"#])
    let sample = try XCTUnwrap(found.first)
    // The `{` is the page's 11th character: 2 bytes of mark and 10 units before it.
    XCTAssertEqual(sample.start, 2 + 2 * 10)
    XCTAssertEqual(sample.text.origin(of: sample.text.bytes.count), 2 + 2 * 25)
    XCTAssertEqual(sample.blockStart, 2 + 2 * 2)
  }
}
