import FCMLintJSON

/// Samples in text that has no markup for them: a page saved as text, a code block without a
/// language, an HTML `<pre>` without a hint.
///
/// - an HTTP request to `.../messages:send`: its JSON body; a `curl` command to it: the JSON of
///   its `-d '...'` (or `--data`, `--data-raw`, `--data-binary`, `--json`);
/// - a JSON object that starts a line (after indentation);
/// - a Node.js message literal: an object literal after `=` or `(` (`const message = {`,
///   `send({`), read as the Admin SDK sends it;
/// - a JSON array that starts a line and holds long strings: a page's data blob, whose strings may
///   hold the page again (escaped); they are searched as text of their own.
enum PlainText {
  /// Whether the `{` at `at` opens what can be a JSON object: a quoted key or `}` comes next.
  /// Prose brace lines are mostly something else: template tags (`{% include %}`, `{{ var }}`)
  /// and attribute lists (`{:#id}`).
  static func startsJSONObject(_ view: TextView, at: Int, limit: Int) -> Bool {
    var i = at + 1
    while i < limit, view[i] == 0x20 || view[i] == 0x09 || view[i] == 0x0A || view[i] == 0x0D { i += 1 }
    return i < limit && (view[i] == UInt8(ascii: "\"") || view[i] == UInt8(ascii: "}"))
  }

  /// Scans `range` of `view` (all of it by default). `blockStart` is the code block the text is
  /// (nil: plain text, where each sample is its own block for markers).
  /// With `prose`, only requests, curl commands and JSON objects (Markdown's text around its
  /// code blocks).
  static func scan(
    _ view: TextView, range: Range<Int>? = nil, depth: Int, blockStart: Int?, prose: Bool = false, into found: inout SampleFinder.Found
  ) {
    let range = range ?? 0..<view.count
    var line = range.lowerBound
    // The end of the object of code being read inside: the objects of code nested in it are
    // part of it, not samples again (each would repeat its text: quadratic on deep nesting).
    var codeObjectEnd = range.lowerBound
    while line < range.upperBound {
      let first = view.skipBlanks(from: line, to: range.upperBound)
      let lineEnd = min(view.lineEnd(from: line), range.upperBound)
      var resume = view.nextLine(from: line)
      if first < lineEnd {
        let block = blockStart ?? view.origin(first)
        if blockStart == nil, HTTPRequest.isRequestLine(view, at: first, sendOnly: true) {
          found.blockStarts.append(block)
        }
        if let body = HTTPRequest.body(view, at: first, in: first..<range.upperBound, sendOnly: true) {
          let end = JSONContent.extent(view, from: body, limit: range.upperBound)
          JSONContent.add(view, body..<end, blockStart: block, into: &found)
          resume = view.nextLine(from: end - 1)
        } else if let quote = Curl.body(view, line: first, limit: range.upperBound),
          let end = ShellWords.addJSON(view, quote: quote, limit: range.upperBound, blockStart: block, into: &found)
        {
          if blockStart == nil { found.blockStarts.append(block) }
          resume = view.nextLine(from: end - 1)
        } else if !prose, view[first] == UInt8(ascii: "{"), !startsJSONObject(view, at: first, limit: range.upperBound),
          let end = NodeLiterals.element(view, at: first, from: range.lowerBound, limit: range.upperBound, blockStart: blockStart, into: &found)
        {
          resume = view.nextLine(from: max(end - 1, first))
        } else if view[first] == UInt8(ascii: "{"), !prose || startsJSONObject(view, at: first, limit: range.upperBound) {
          let json = startsJSONObject(view, at: first, limit: range.upperBound)
          if json || first >= codeObjectEnd {
            if blockStart == nil { found.blockStarts.append(block) }
            let end = JSONContent.extent(view, from: first, limit: range.upperBound)
            JSONContent.add(view, first..<end, blockStart: block, into: &found)
            // An object whose keys are not quoted is code (a `fetch` call's options), which may
            // hold a literal of its own (`body: JSON.stringify({message: ...})`): read on inside it.
            if json { resume = view.nextLine(from: end - 1) } else { codeObjectEnd = end }
          }
        } else if let command = Curl.command(view, line: first, limit: range.upperBound) {
          // A curl command to another API: its body is that API's, not a message.
          resume = view.nextLine(from: max(command.end - 1, first))
        } else if !prose, let end = LegacySend.scan(view, line: first..<lineEnd, limit: range.upperBound, blockStart: blockStart, into: &found) {
          resume = view.nextLine(from: max(end - 1, first))
        } else if !prose, let end = ShellWords.scan(view, line: first..<lineEnd, limit: range.upperBound, blockStart: blockStart, into: &found) {
          resume = view.nextLine(from: max(end - 1, first))
        } else if !prose, let end = CodeStrings.scan(view, line: first..<lineEnd, limit: range.upperBound, blockStart: blockStart, into: &found) {
          resume = view.nextLine(from: max(end - 1, first))
        } else if let end = PrefixedJSON.scan(view, line: first..<lineEnd, limit: range.upperBound, blockStart: blockStart, into: &found) {
          resume = view.nextLine(from: max(end - 1, first))
        } else if prose {
          // Neither a data blob nor a Node.js literal in running text.
        } else if view[first] == UInt8(ascii: "["), depth < SampleFinder.deepestView {
          let end = JSONContent.extent(view, from: first, limit: range.upperBound)
          EmbeddedText.scan(view, first..<end, depth: depth, into: &found)
          resume = view.nextLine(from: end - 1)
        } else if let end = NodeLiterals.scan(view, line: first..<lineEnd, limit: range.upperBound, blockStart: blockStart, into: &found) {
          resume = view.nextLine(from: max(end - 1, first))
        }
      }
      guard resume > line else { break }
      line = resume
    }
  }
}

/// A JSON object after a prefix on its line: a log's `Payload: {"message": ...}`, an argument
/// `log.info("sending", {"message": ...})`, a request body assigned `body = {"message": ...}`.
/// After `:` or `,` it is read as JSON when a quoted key follows its `{`; after `=` or `(` (where
/// a Node.js literal is read otherwise) only when it is JSON holding a `message`: a send
/// request's body, which no Admin SDK call takes.
enum PrefixedJSON {
  static func scan(_ view: TextView, line: Range<Int>, limit: Int, blockStart: Int?, into found: inout SampleFinder.Found) -> Int? {
    var i = line.lowerBound + 1
    while i < line.upperBound {
      defer { i += 1 }
      guard view[i] == UInt8(ascii: "{"), PlainText.startsJSONObject(view, at: i, limit: limit) else { continue }
      var before = i - 1
      while before > line.lowerBound, view[before] == 0x20 || view[before] == 0x09 { before -= 1 }
      let prefix = view[before]
      guard prefix == UInt8(ascii: ":") || prefix == UInt8(ascii: ",") || prefix == UInt8(ascii: "=") || prefix == UInt8(ascii: "(") else { continue }
      let assigned = prefix == UInt8(ascii: "=") || prefix == UInt8(ascii: "(")
      // After `=` or `(` every line tries again: as a literal, within the longest one read.
      let end = JSONContent.extent(view, from: i, limit: assigned ? min(limit, i + NodeMessageLiteral.longestLiteral) : limit)
      if assigned {
        let json = Array(view.bytes[i..<end])
        // One try a line: an object that does not close would be read to the page's end again.
        guard case .success = JSONParser.parse(json), TopLevelKeys.scan(json)?.contains("message") == true else { return nil }
      }
      let block = blockStart ?? view.origin(i)
      if blockStart == nil { found.blockStarts.append(block) }
      JSONContent.add(view, i..<end, blockStart: block, into: &found)
      return end
    }
    return nil
  }
}

/// Node.js message literals: `{` after `=` or `(`, read by `NodeMessageLiteral`.
enum NodeLiterals {
  /// Looks for literals that start on `line`; the end of the last one read, or nil for none.
  static func scan(_ view: TextView, line: Range<Int>, limit: Int, blockStart: Int?, into found: inout SampleFinder.Found) -> Int? {
    var i = line.lowerBound
    var readUpTo: Int? = nil
    while i < line.upperBound {
      defer { i += 1 }
      guard view[i] == UInt8(ascii: "{") else { continue }
      var before = i - 1
      while before >= line.lowerBound, view[before] == 0x20 || view[before] == 0x09 { before -= 1 }
      guard before >= line.lowerBound else { continue }
      if view[before] == UInt8(ascii: "[") || view[before] == UInt8(ascii: ",") {
        // An element of an array of messages given to `sendEach`: read as the one below.
        if let end = element(view, at: i, from: line.lowerBound, limit: limit, blockStart: blockStart, into: &found) {
          readUpTo = end
          i = end - 1
        }
        continue
      }
      guard view[before] == UInt8(ascii: "=") || view[before] == UInt8(ascii: "(") else { continue }
      // `==`, `=>` and `>=` are not assignments.
      if view[before] == UInt8(ascii: "="), before > line.lowerBound, "=!<>".utf8.contains(view[before - 1]) { continue }
      let within = min(limit, i + NodeMessageLiteral.longestLiteral)
      guard var (json, end) = NodeMessageLiteral.read(view.bytes, from: i, as: .message, encoding: found.nodeEncoding, limit: within) else { continue }
      // `{message: {...}}` is no Admin SDK argument but a REST request's body (given to
      // `JSON.stringify` for a `fetch` or `axios` call, directly or by its name): it is sent as
      // JavaScript writes it, without the SDK's renames and conversions.
      let request = TopLevelKeys.scan(json.bytes)?.contains("message") == true
      if request, let (plain, plainEnd) = NodeMessageLiteral.read(view.bytes, from: i, as: .free, encoding: found.nodeEncoding, limit: within) {
        (json, end) = (plain, plainEnd)
      }
      let origins = json.origins.map { view.origin(min($0, view.count)) }
      let block = blockStart ?? view.origin(i)
      if blockStart == nil { found.blockStarts.append(block) }
      var sample = DocumentSample(text: MappedText(bytes: json.bytes, origins: origins), language: .nodeLiteral, encoding: [], blockStart: block)
      sample.multicast = isMulticast(view, literal: i, before: before, end: end, json: json.bytes)
      sample.restRequest = request
      found.samples.append(sample)
      readUpTo = end
      i = end - 1
    }
    return readUpTo
  }

  /// The calls that take a list of messages.
  static let listCalls = ["sendEach(", "sendAll("]

  /// A literal at `at` that is an element of an array (`[` or `,` before it, across blanks and
  /// line breaks, not before `from`) with a call that sends a list of messages near it
  /// (`const messages = [{token, ...}, ...]; ... sendEach(messages)`): added as a Message; the
  /// end of the literal, or nil when it is none.
  static func element(_ view: TextView, at: Int, from: Int, limit: Int, blockStart: Int?, into found: inout SampleFinder.Found) -> Int? {
    var before = at - 1
    // Blanks only, and a bounded stretch of them.
    while before >= max(from, at - 256), JSONContent.isWhitespace(view[before]) { before -= 1 }
    guard before >= from, view[before] == UInt8(ascii: "[") || view[before] == UInt8(ascii: ",") else { return nil }
    let around = max(0, at - multicastReach)..<min(view.count, at + multicastReach)
    guard listCalls.contains(where: { view.find($0, in: around) != nil }) else { return nil }
    let within = min(limit, at + NodeMessageLiteral.longestLiteral)
    guard let (json, end) = NodeMessageLiteral.read(view.bytes, from: at, as: .message, encoding: found.nodeEncoding, limit: within) else { return nil }
    let origins = json.origins.map { view.origin(min($0, view.count)) }
    let block = blockStart ?? view.origin(at)
    if blockStart == nil { found.blockStarts.append(block) }
    found.samples.append(DocumentSample(text: MappedText(bytes: json.bytes, origins: origins), language: .nodeLiteral, encoding: [], blockStart: block))
    return end
  }

  static let multicastCalls = ["sendEachForMulticast", "sendMulticast"]

  /// How far around a literal with `tokens` a multicast call to it is looked for
  /// (`const message = {tokens, ...}; ... sendEachForMulticast(message)`).
  static let multicastReach = 2000

  /// Whether the literal at `literal` is a MulticastMessage: given to a multicast call, or
  /// holding `tokens` with a multicast call near it.
  static func isMulticast(_ view: TextView, literal: Int, before: Int, end: Int, json: [UInt8]) -> Bool {
    // Given to a call: that call says what it is.
    if view[before] == UInt8(ascii: "(") {
      return multicastCalls.contains { before >= $0.utf8.count && view.hasPrefix($0, at: before - $0.utf8.count) }
    }
    guard TopLevelKeys.scan(json)?.contains("tokens") == true else { return false }
    let around = max(0, literal - multicastReach)..<min(view.count, end + multicastReach)
    return multicastCalls.contains { view.find($0 + "(", in: around) != nil }
  }
}

/// Text kept in the strings of a JSON blob (a page's data, holding the page's Markdown with `\n`
/// escapes): each long string is decoded, with each byte's place, and searched as plain text.
enum EmbeddedText {
  /// Strings shorter than this are names and labels, not pages.
  static let shortestPage = 200

  static func scan(_ view: TextView, _ range: Range<Int>, depth: Int, into found: inout SampleFinder.Found) {
    var i = range.lowerBound
    while i < range.upperBound {
      guard view[i] == UInt8(ascii: "\"") else {
        i += 1
        continue
      }
      guard let end = JSONContent.stringEnd(view, from: i, end: range.upperBound) else {
        i = view.nextLine(from: i)
        continue
      }
      if end - i >= shortestPage, let text = decode(view, (i + 1)..<(end - 1)) {
        let inner = TextView(text, encoding: [.jsonString] + view.encoding)
        PlainText.scan(inner, depth: depth + 1, blockStart: nil, into: &found)
      }
      i = end
    }
  }

  /// The string's contents with its escapes decoded (`JSONStringDecoder`), each byte mapped to
  /// the document; nil when it holds no line break (not a page).
  static func decode(_ view: TextView, _ range: Range<Int>) -> MappedText? {
    var text = MappedText(bytes: [], origins: [view.origin(range.lowerBound)])
    let contents = view.bytes[range]
    var lines = 0
    var decoded: [UInt8] = []
    var i = range.lowerBound
    while i < range.upperBound {
      decoded.removeAll(keepingCapacity: true)
      // An invalid escape stands for itself, as the page shows it.
      guard view[i] == UInt8(ascii: "\\"), let length = JSONStringDecoder.decodeEscape(contents, at: i, into: &decoded) else {
        text.append(view[i], from: view.origin(i))
        i += 1
        continue
      }
      if decoded == [0x0A] { lines += 1 }
      text.append(decoded, standingFor: view.origin(i)..<view.origin(i + length))
      i += length
    }
    return lines > 0 ? text : nil
  }
}

/// A `curl` command that sends a message, as READMEs and runbooks write one:
/// `curl -X POST -H "..." https://fcm.googleapis.com/v1/projects/p/messages:send -d '{...}'`, over
/// lines joined by backslashes. The body is the JSON in single quotes after the data option.
enum Curl {
  static let dataOptions = ["-d", "--data", "--data-raw", "--data-binary", "--json"]
  /// How far after `curl` the data option is looked for.
  static let longestCommand = 4096

  /// The body with the shell's splices of variables (`'"$TOKEN"'`, `'"${TOKEN}"'`, `'$TOKEN'`:
  /// the quote closed, a variable, the quote opened again) written as `${TOKEN}` placeholders, as
  /// the shell sends them: values not known yet.
  static func placeholders(_ text: MappedText) -> MappedText {
    let bytes = text.bytes
    var out = MappedText(bytes: [], origins: [text.origins[0]])
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "'"), i + 3 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "'"), bytes[i + 3] == UInt8(ascii: "'") {
        // `'\''`: the quote closed, a quote escaped, the quote opened again.
        out.append([UInt8(ascii: "'")], standingFor: text.origins[i]..<text.origins[i + 4])
        i += 4
      } else if bytes[i] == UInt8(ascii: "'"), let (name, length) = splice(bytes, at: i) {
        out.append(Array("${".utf8) + name + [UInt8(ascii: "}")], standingFor: text.origins[i]..<text.origins[i + length])
        i += length
      } else {
        out.append(bytes[i], from: text.origins[i])
        i += 1
      }
    }
    out.origins[out.origins.count - 1] = text.origins[bytes.count]
    return out
  }

  /// A splice at `offset` (its `'`): the variable's name and the splice's length.
  private static func splice(_ bytes: [UInt8], at offset: Int) -> ([UInt8], Int)? {
    var i = offset + 1
    let quoted = i < bytes.count && bytes[i] == UInt8(ascii: "\"")
    if quoted { i += 1 }
    guard i < bytes.count, bytes[i] == UInt8(ascii: "$") else { return nil }
    i += 1
    let braced = i < bytes.count && bytes[i] == UInt8(ascii: "{")
    if braced { i += 1 }
    let nameStart = i
    while i < bytes.count, bytes[i] == UInt8(ascii: "_") || (bytes[i] | 0x20 >= UInt8(ascii: "a") && bytes[i] | 0x20 <= UInt8(ascii: "z")) || (bytes[i] >= 0x30 && bytes[i] <= 0x39) {
      i += 1
    }
    let name = Array(bytes[nameStart..<i])
    guard !name.isEmpty else { return nil }
    if braced {
      guard i < bytes.count, bytes[i] == UInt8(ascii: "}") else { return nil }
      i += 1
    }
    if quoted {
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
      i += 1
    }
    guard i < bytes.count, bytes[i] == UInt8(ascii: "'") else { return nil }
    return (name, i + 1 - offset)
  }

  /// Where the curl command that starts the line at `line` starts (past a `$ ` prompt) and ends:
  /// up to a line that does not end in a backslash, or a blank line. Nil when the line is no curl
  /// command.
  static func command(_ view: TextView, line: Int, limit: Int) -> (start: Int, end: Int)? {
    var start = line
    var end = view.lineEnd(from: line)
    // After a shell's prompt: `$ curl`, `[user@host ~]$ curl`.
    if let prompt = view.find("$ ", in: line..<min(end, line + 64)), view.hasPrefix("curl ", at: prompt + 2) { start = prompt + 2 }
    guard view.hasPrefix("curl ", at: start) else { return nil }
    var lines = 0
    while end < limit, end > line, lines < 64 {
      var last = end - 1
      while last > line, view[last] == 0x20 || view[last] == 0x09 { last -= 1 }
      guard view[last] == UInt8(ascii: "\\") else { break }
      end = view.lineEnd(from: view.nextLine(from: end))
      lines += 1
    }
    return (start, end)
  }

  /// The offset of the data option's opening quote when the line at `line` starts a curl
  /// command to `messages:send` whose body is a quoted word (`-d '{...}'`, `--data "{\"...`,
  /// `--data-raw='{...}'`, `-d'{...}'`): the first data option's.
  static func body(_ view: TextView, line: Int, limit: Int) -> Int? {
    guard let (start, end) = command(view, line: line, limit: limit) else { return nil }
    let search = start..<min(limit, start + longestCommand)
    guard let quote = dataQuote(view, start: start, search: search) else { return nil }
    // The URL before the body, or after it on the line its quoted word ends on (`-d '{` ...
    // `}' "https://fcm.googleapis.com/fcm/send"`); the legacy endpoint's body is reported as such.
    var urlEnd = end
    if view[quote] == UInt8(ascii: "'") {
      if let close = view.find("'", in: (quote + 1)..<search.upperBound) { urlEnd = max(end, view.lineEnd(from: close)) }
    } else if let (_, close) = ShellWords.doubleQuoted(view, quote: quote, limit: search.upperBound) {
      urlEnd = max(end, view.lineEnd(from: close - 1))
    }
    let within = start..<min(urlEnd, search.upperBound)
    guard endpoints.contains(where: { view.find($0, in: within) != nil }) else { return nil }
    return quote
  }

  /// The endpoints a curl command's body is read for: FCM v1's, and the legacy HTTP API's.
  static let endpoints = ["messages:send", "fcm.googleapis.com/fcm/send"]

  /// The offset of the first data option's opening quote in the command at `start`.
  private static func dataQuote(_ view: TextView, start: Int, search: Range<Int>) -> Int? {
    var i = start
    while i < search.upperBound {
      defer { i += 1 }
      let byte = view[i]
      guard byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") else { continue }
      // The option before the word: `-d '`, `--data='`, or `-d'` written as one word.
      var optionEnd = i
      if view[i - 1] == UInt8(ascii: "=") {
        optionEnd = i - 1
      } else if view[i - 1] == 0x20 || view[i - 1] == 0x09 {
        while optionEnd > start, view[optionEnd - 1] == 0x20 || view[optionEnd - 1] == 0x09 { optionEnd -= 1 }
      }
      var option = optionEnd
      while option > start, view[option - 1] != 0x20, view[option - 1] != 0x09, view[option - 1] != 0x0A { option -= 1 }
      let name = String(decoding: view.bytes[option..<optionEnd], as: UTF8.self)
      if dataOptions.contains(name) { return i }
      // Another option's quoted word (a header): its quotes are not the body's.
      if name.hasPrefix("-"), let close = view.find(String(UnicodeScalar(byte)), in: (i + 1)..<search.upperBound) { i = close }
    }
    return nil
  }
}
