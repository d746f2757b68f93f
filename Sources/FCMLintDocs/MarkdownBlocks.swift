/// Fenced code blocks of Markdown (CommonMark): three or more backticks or tildes, at any
/// indentation, inside block quotes and on a list item's line (`- ```json`, `1. ```json`), closed
/// by a fence of the same character at least as long (or by the end of the page). Raw HTML `<pre>` and `<code>` blocks outside them are read as in
/// an HTML page, and the text around them as a text page's prose (`PlainText`, `prose`): HTTP
/// requests, curl commands and JSON objects written without a fence, indented code blocks.
enum MarkdownBlocks {
  /// Info strings whose blocks hold JSON (an HTTP request's body is JSON too).
  static let jsonLanguages: Set<String> = ["json", "jsonc", "json5", "http", "https", "rest"]
  /// Info strings of Node.js code, whose message literals are read as the Admin SDK sends them.
  static let nodeLanguages: Set<String> = ["js", "javascript", "node", "nodejs", "ts", "typescript", "mjs", "cjs", "jsx", "tsx"]
  /// Info strings of shell sessions and scripts, searched as plain text (`curl` commands, JSON
  /// written out by a here-document).
  static let shellLanguages: Set<String> = ["sh", "bash", "shell", "console", "zsh", "shell-session", "terminal", "text", "txt", "plaintext"]

  static func scan(_ view: TextView, into found: inout SampleFinder.Found) {
    var fences: [Range<Int>] = []
    var line = 0
    while line < view.count {
      let next = view.nextLine(from: line)
      guard let fence = Fence(view, line: line) else {
        guard next > line else { break }
        line = next
        continue
      }
      // The content: every line up to the closing fence, without the block quote markers.
      var content = MappedText(bytes: [], origins: [view.origin(next)])
      var contentLine = next
      var end = view.count
      while contentLine < view.count {
        if fence.isClosed(by: view, line: contentLine) {
          end = view.nextLine(from: contentLine)
          break
        }
        let following = view.nextLine(from: contentLine)
        let start = fence.quoteDepth > 0 ? Fence.afterQuotes(view, line: contentLine, depth: fence.quoteDepth) : contentLine
        for i in start..<following { content.append(view[i], from: view.origin(i)) }
        guard following > contentLine else { break }
        contentLine = following
      }
      fences.append(line..<end)
      let blockStart = view.origin(line)
      found.blockStarts.append(blockStart)
      let encoding = (fence.quotePrefix.isEmpty ? [] : [SampleEncoding.linePrefix(fence.quotePrefix)]) + view.encoding
      let inner = TextView(content, encoding: encoding)
      let wholeBlock = 0..<inner.count
      if jsonLanguages.contains(fence.language) || fence.language.isEmpty {
        // Without a language, a block is a sample only if it is JSON or an HTTP request itself
        // (a block showing Markdown source holds fences and prose).
        let before = found.samples.count
        JSONContent.scanBlock(inner, wholeBlock, blockStart: blockStart, into: &found)
        // One that starts with a curl command is a shell session, read as a shell block is.
        if fence.language.isEmpty, found.samples.count == before,
          Curl.command(inner, line: inner.skipBlanks(from: 0, to: inner.count), limit: inner.count) != nil
        {
          PlainText.scan(inner, depth: 0, blockStart: blockStart, into: &found)
        }
      } else if nodeLanguages.contains(fence.language) || shellLanguages.contains(fence.language) {
        PlainText.scan(inner, depth: 0, blockStart: blockStart, into: &found)
      } else if CodeStrings.languages.contains(fence.language) {
        CodeStrings.scanBlock(inner, blockStart: blockStart, into: &found)
      }
      guard end > line else { break }
      line = end
    }
    let htmlBlocks = HTMLBlocks.scan(view, excluding: fences, into: &found)
    // The text around the blocks: requests and objects written without a fence, and indented
    // code blocks, as in a text page; not the Node.js literals or data blobs a text page may
    // hold (prose names calls such as `send({ token })` in passing).
    var start = 0
    for block in (fences + htmlBlocks).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if block.lowerBound > start { PlainText.scan(view, range: start..<block.lowerBound, depth: 0, blockStart: nil, prose: true, into: &found) }
      start = max(start, block.upperBound)
    }
    if start < view.count { PlainText.scan(view, range: start..<view.count, depth: 0, blockStart: nil, prose: true, into: &found) }
    found.codeRanges += fences.map { view.origin($0.lowerBound)..<view.origin($0.upperBound) }
  }

  /// An opening fence.
  struct Fence {
    var character: UInt8
    var length: Int
    var quoteDepth: Int
    /// The line's bytes up to and including its last `>` and the space after it: what a line of
    /// the block starts with in the page.
    var quotePrefix: [UInt8]
    /// The first word of the info string, in lower case (`{.json}` read as `json`).
    var language: String

    init?(_ view: TextView, line: Int) {
      let (depth, start) = Self.prefix(view, line: line)
      let end = view.lineEnd(from: line)
      var i = start
      guard i < end, view[i] == UInt8(ascii: "`") || view[i] == UInt8(ascii: "~") else { return nil }
      let character = view[i]
      while i < end, view[i] == character { i += 1 }
      guard i - start >= 3 else { return nil }
      self.character = character
      length = i - start
      quoteDepth = depth
      quotePrefix = depth > 0 ? Self.quotePrefix(view, line: line, depth: depth) : []
      let infoStart = view.skipBlanks(from: i, to: end)
      var infoEnd = infoStart
      while infoEnd < end, view[infoEnd] != 0x20, view[infoEnd] != 0x09, view[infoEnd] != UInt8(ascii: "{") || infoEnd == infoStart { infoEnd += 1 }
      // A backtick fence's info string has no backtick (that is inline code).
      if character == UInt8(ascii: "`"), view.find("`", in: infoStart..<end) != nil { return nil }
      var word = view.bytes[infoStart..<infoEnd].map(TextView.lower)
      while let first = word.first, first == UInt8(ascii: "{") || first == UInt8(ascii: ".") { word.removeFirst() }
      while let last = word.last, last == UInt8(ascii: "}") || last == UInt8(ascii: ",") { word.removeLast() }
      language = String(decoding: word, as: UTF8.self)
    }

    /// Whether the line at `line` closes this block.
    func isClosed(by view: TextView, line: Int) -> Bool {
      let (depth, start) = Self.prefix(view, line: line)
      guard depth == quoteDepth || (depth < quoteDepth) else { return false }
      let end = view.lineEnd(from: line)
      var i = start
      while i < end, view[i] == character { i += 1 }
      return i - start >= length && view.skipBlanks(from: i, to: end) == end
    }

    /// The block quote depth of a line and where its content starts (after indentation, `>`
    /// markers and list item markers, each with the blanks after it).
    static func prefix(_ view: TextView, line: Int) -> (depth: Int, start: Int) {
      let end = view.lineEnd(from: line)
      var i = view.skipBlanks(from: line, to: end)
      var depth = 0
      while i < end {
        if view[i] == UInt8(ascii: ">") {
          depth += 1
          i = view.skipBlanks(from: i + 1, to: end)
        } else if let after = listMarkerEnd(view, at: i, end: end) {
          i = view.skipBlanks(from: after, to: end)
        } else {
          break
        }
      }
      return (depth, i)
    }

    /// Just after a list item's marker at `i` (`-`, `*`, `+`, or one to nine digits and `.` or
    /// `)`), which a space or a tab must follow; nil when none is there.
    static func listMarkerEnd(_ view: TextView, at i: Int, end: Int) -> Int? {
      var k = i
      if view[k] == UInt8(ascii: "-") || view[k] == UInt8(ascii: "*") || view[k] == UInt8(ascii: "+") {
        k += 1
      } else {
        while k < end, k - i < 9, view[k] >= 0x30, view[k] <= 0x39 { k += 1 }
        guard k > i, k < end, view[k] == UInt8(ascii: ".") || view[k] == UInt8(ascii: ")") else { return nil }
        k += 1
      }
      return k < end && (view[k] == 0x20 || view[k] == 0x09) ? k : nil
    }

    /// What a line of the block starts with in the page, from the fence's line: its text up to
    /// its `depth`th `>` and the space after it, a list item's marker written as the spaces that
    /// continue the item (`- > ` becomes `  > `).
    static func quotePrefix(_ view: TextView, line: Int, depth: Int) -> [UInt8] {
      let end = view.lineEnd(from: line)
      var i = max(line, view.textStart)  // past a byte order mark
      var prefix: [UInt8] = []
      var seen = 0
      while i < end, seen < depth {
        let byte = view[i]
        if byte == UInt8(ascii: ">") { seen += 1 }
        prefix.append(byte == UInt8(ascii: ">") || byte == 0x09 ? byte : 0x20)
        i += 1
      }
      if i < end, view[i] == 0x20 { prefix.append(0x20) }
      return prefix
    }

    /// Just after the `depth`th `>` of a line and the one space after it (or the line's end).
    static func afterQuotes(_ view: TextView, line: Int, depth: Int) -> Int {
      let end = view.lineEnd(from: line)
      var i = max(line, view.textStart)  // past a byte order mark
      var seen = 0
      while i < end, seen < depth {
        if view[i] == UInt8(ascii: ">") {
          seen += 1
        } else if view[i] != 0x20 && view[i] != 0x09 {
          return line  // fewer markers (a lazy continuation line): the line as it is
        }
        i += 1
      }
      if i < end, view[i] == 0x20 { i += 1 }
      return i
    }
  }
}
