import Foundation
import XCTest

/// `fcmlint lsp`, driven as an editor drives it: the real process over pipes, JSON-RPC with
/// LSP's Content-Length framing (issue 17).
final class LanguageServerTests: XCTestCase {
  /// A running `fcmlint lsp` and its pipes.
  final class Session {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    private var nextID = 1

    init(in directory: URL, environment changes: [String: String?] = [:]) throws {
      process.executableURL = try XCTUnwrap(CLITests.executable)
      if !changes.isEmpty {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
      }
      process.arguments = ["lsp"]
      process.currentDirectoryURL = directory
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
    }

    func send(_ object: [String: Any]) throws { input.fileHandleForWriting.write(try Self.frame(object)) }

    /// A message with its header, as it goes over the pipe.
    static func frame(_ object: [String: Any]) throws -> Data {
      var message = object
      message["jsonrpc"] = "2.0"
      let body = try JSONSerialization.data(withJSONObject: message)
      return Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    func sendRaw(_ bytes: Data) { input.fileHandleForWriting.write(bytes) }

    func notify(_ method: String, _ params: [String: Any]) throws { try send(["method": method, "params": params]) }

    /// Sends a request and returns its response, collecting notifications that come first.
    @discardableResult
    func request(_ method: String, _ params: [String: Any] = [:], notifications: inout [[String: Any]]) throws -> [String: Any] {
      let id = nextID
      nextID += 1
      try send(["id": id, "method": method, "params": params])
      while true {
        let message = try receive()
        if message["id"] as? Int == id { return message }
        notifications.append(message)
      }
    }

    func request(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
      var ignored: [[String: Any]] = []
      return try request(method, params, notifications: &ignored)
    }

    /// The response to the request `id` (a number or a string), skipping what comes first.
    func response(to id: Any) throws -> [String: Any] {
      while true {
        let message = try receive()
        guard message["method"] == nil else { continue }
        if let number = id as? Int, message["id"] as? Int == number, !(message["id"] is String) { return message }
        if let text = id as? String, message["id"] as? String == text { return message }
      }
    }

    /// The next message from the server (fails after 20 s).
    func receive() throws -> [String: Any] {
      let deadline = Date().addingTimeInterval(20)
      while true {
        if let end = buffer.range(of: Data("\r\n\r\n".utf8)) {
          let header = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
          let length = Int(header.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))!
          if buffer.count - (end.upperBound - buffer.startIndex) >= length {
            let body = buffer[end.upperBound..<(end.upperBound + length)]
            buffer = Data(buffer[(end.upperBound + length)...])
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: body) as? [String: Any])
          }
        }
        guard Date() < deadline else { throw NSError(domain: "lsp", code: 1, userInfo: [NSLocalizedDescriptionKey: "no message within 20 s"]) }
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { throw NSError(domain: "lsp", code: 2, userInfo: [NSLocalizedDescriptionKey: "the server closed its output"]) }
        buffer += chunk
      }
    }

    /// The next publishDiagnostics for `uri`.
    func diagnostics(for uri: String) throws -> [[String: Any]] {
      while true {
        let message = try receive()
        guard message["method"] as? String == "textDocument/publishDiagnostics", let params = message["params"] as? [String: Any],
          params["uri"] as? String == uri
        else { continue }
        return params["diagnostics"] as? [[String: Any]] ?? []
      }
    }

    func close() { try? input.fileHandleForWriting.close() }
  }

  var root: URL!

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-lsp-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    addTeardownBlock { [root] in try? FileManager.default.removeItem(at: root!) }
  }

  func start() throws -> Session {
    let session = try Session(in: root)
    let initialized = try session.request("initialize", ["processId": NSNull(), "rootUri": root.absoluteString, "capabilities": [:]])
    let result = try XCTUnwrap(initialized["result"] as? [String: Any])
    let capabilities = try XCTUnwrap(result["capabilities"] as? [String: Any])
    XCTAssertEqual(capabilities["hoverProvider"] as? Bool, true)
    XCTAssertEqual((capabilities["completionProvider"] as? [String: Any])?["triggerCharacters"] as? [String], ["\"", ":"])
    try session.notify("initialized", [:])
    return session
  }

  static let broken = #"{"message": {"topic": "news", "data": {"count": 3}, "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Hi"}}}}}"#

  func testDiagnosticsFollowTheBufferNotTheFile() throws {
    let session = try start()
    let uri = root.appendingPathComponent("push/welcome.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    let first = try session.diagnostics(for: uri)
    XCTAssertEqual(first.map { $0["code"] as? String }, ["data-string-values", "apns-aps-key"])
    let data = first[0]
    XCTAssertEqual(data["severity"] as? Int, 1)
    XCTAssertEqual(data["source"] as? String, "fcmlint")
    XCTAssertEqual((data["codeDescription"] as? [String: Any])?["href"] as? String, "https://firebase.google.com/docs/cloud-messaging/error-codes")
    let range = try XCTUnwrap(data["range"] as? [String: [String: Int]])
    XCTAssertEqual(range["start"], ["line": 0, "character": 48])
    // A full-text change, then an incremental one (the count quoted): diagnostics follow.
    let fixedCount = Self.broken.replacingOccurrences(of: #""count": 3"#, with: #""count": "3""#)
    try session.notify("textDocument/didChange", [
      "textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": fixedCount]],
    ])
    XCTAssertEqual(try session.diagnostics(for: uri).map { $0["code"] as? String }, ["apns-aps-key"])
    let column = (fixedCount as NSString).range(of: "mutable_content").location
    try session.notify("textDocument/didChange", [
      "textDocument": ["uri": uri, "version": 3],
      "contentChanges": [["range": ["start": ["line": 0, "character": column], "end": ["line": 0, "character": column + 15]], "text": "mutable-content"]],
    ])
    XCTAssertEqual(try session.diagnostics(for: uri).count, 0)
    // A file that is not an FCM document gets nothing, as from the CLI.
    let package = root.appendingPathComponent("package.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": package, "languageId": "json", "version": 1, "text": #"{"name": "app", "version": "1.0.0"}"#]])
    XCTAssertEqual(try session.diagnostics(for: package).count, 0)
    // Unknown requests get "method not found"; shutdown and exit end it with status 0.
    let unknown = try session.request("textDocument/definition", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 0]])
    XCTAssertEqual((unknown["error"] as? [String: Any])?["code"] as? Int, -32601)
    XCTAssertTrue(try session.request("shutdown").keys.contains("result"))
    try session.notify("exit", [:])
    session.process.waitUntilExit()
    XCTAssertEqual(session.process.terminationStatus, 0)
  }

  func testQuickFixesAreTheEditsOfFix() throws {
    let session = try start()
    let uri = root.appendingPathComponent("a.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    let diagnostics = try session.diagnostics(for: uri)
    let response = try session.request("textDocument/codeAction", [
      "textDocument": ["uri": uri], "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 200]],
      "context": ["diagnostics": diagnostics],
    ])
    let actions = try XCTUnwrap(response["result"] as? [[String: Any]])
    XCTAssertEqual(actions.map { $0["kind"] as? String }, ["quickfix", "quickfix", "source.fixAll.fcmlint"])
    // Applying "fix all" gives exactly what fcmlint --fix writes.
    let edit = try XCTUnwrap(((actions[2]["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?[uri]?.first)
    let range = try XCTUnwrap(edit["range"] as? [String: [String: Int]])
    let text = Self.broken as NSString
    let start = range["start"]!["character"]!, end = range["end"]!["character"]!
    let applied = text.replacingCharacters(in: NSRange(location: start, length: end - start), with: edit["newText"] as! String)
    XCTAssertEqual(applied, #"{"message": {"topic": "news", "data": {"count": "3"}, "apns": {"payload": {"aps": {"mutable-content": 1, "alert": "Hi"}}}}}"#)
    // Only quick fixes when asked for them.
    let only = try session.request("textDocument/codeAction", [
      "textDocument": ["uri": uri], "range": ["start": ["line": 0, "character": 48], "end": ["line": 0, "character": 48]],
      "context": ["diagnostics": [], "only": ["quickfix"]],
    ])
    XCTAssertEqual((only["result"] as? [[String: Any]])?.map { $0["title"] as? String }, ["quote the value 3 (data-string-values)"])
    // Hover on a diagnostic: the rule, its summary and link, and where the cursor is.
    let hover = try session.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 48]])
    let value = try XCTUnwrap(((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
    XCTAssertTrue(value.contains("**data-string-values** (error)"), value)
    XCTAssertTrue(value.contains("JSON Pointer: `/message/data/count`"), value)
    // Hover on a field: what the FCM v1 schema says it is.
    let topic = try session.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 15]])
    let field = try XCTUnwrap(((topic["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
    XCTAssertTrue(field.hasPrefix("`topic` in FCM's `Message`: a string"), field)
    session.close()
  }

  /// Hover reads the buffer as the linter does: a bare Message under its mount, and a buffer with
  /// a syntax error past the mistake.
  func testHoverDescribesFieldsOfBareMessagesAndBrokenBuffers() throws {
    let session = try start()
    let uri = root.appendingPathComponent("bare.json").absoluteString
    let text = #"{"token": "t", "android": {"priority": "HIGH",}, "notification": {"title": "Hi"}}"#
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
    _ = try session.diagnostics(for: uri)
    let offset = (text as NSString).range(of: "title").location + 1
    let hover = try session.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": offset]])
    let value = try XCTUnwrap(((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
    XCTAssertTrue(value.hasPrefix("`title` in FCM's `Notification`"), value)
    XCTAssertTrue(value.contains("JSON Pointer: `/notification/title`"), value)
    session.close()
  }

  func testHostileInputNeverStopsTheServer() throws {
    let session = try start()
    // Not JSON, no Content-Length, a binary buffer, a huge one: answers or nothing, never a crash.
    session.sendRaw(Data("Content-Length: 5\r\n\r\n{nope".utf8))
    session.sendRaw(Data("X-Nothing: 1\r\n\r\n".utf8))
    let uri = root.appendingPathComponent("b.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": "\u{0}\u{1}{\"message\": [[[[[["]])
    XCTAssertEqual(try session.diagnostics(for: uri).first?["code"] as? String, "json-syntax")
    let big = "{\"message\": {\"topic\": \"t\", \"data\": {" + (0..<4000).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}}}"
    try session.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": big]]])
    XCTAssertEqual(try session.diagnostics(for: uri).filter { $0["code"] as? String == "data-string-values" }.count, 4000)
    // Requests before initialize are refused; after shutdown, too.
    let early = try Session(in: root)
    let refused = try early.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 0]])
    XCTAssertEqual((refused["error"] as? [String: Any])?["code"] as? Int, -32002)
    early.close()
    early.process.waitUntilExit()
    XCTAssertEqual(early.process.terminationStatus, 1, "exit without shutdown is status 1")
    session.close()
  }

  /// `$/cancelRequest`: the server reads ahead what is already waiting before it answers a
  /// request, and a cancel for it among that makes the answer RequestCancelled (-32800).
  func testCancelledRequestIsAnsweredWithoutItsWork() throws {
    let session = try start()
    let uri = root.appendingPathComponent("c.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    _ = try session.diagnostics(for: uri)
    let hover: [String: Any] = ["textDocument": ["uri": uri], "position": ["line": 0, "character": 15]]
    func cancel(_ id: Any) throws -> Data { try Session.frame(["method": "$/cancelRequest", "params": ["id": id]]) }
    // A hover and a cancel for it in one write (small enough for one read of the pipe).
    session.sendRaw(try Session.frame(["id": 100, "method": "textDocument/hover", "params": hover]) + cancel(100))
    let cancelled = try session.response(to: 100)
    XCTAssertNil(cancelled["result"])
    XCTAssertEqual((cancelled["error"] as? [String: Any])?["code"] as? Int, -32800)
    // Ids are matched as JSON text: a cancel for 101 leaves "101" alone. A cancel for a request
    // already answered (100) or for none (555) changes nothing.
    session.sendRaw(try Session.frame(["id": "101", "method": "textDocument/hover", "params": hover]) + cancel(101) + cancel(100) + cancel(555))
    let answered = try session.response(to: "101")
    XCTAssertNil(answered["error"])
    XCTAssertNotNil((answered["result"] as? [String: Any])?["contents"])
    // A string id cancelled by the same string.
    session.sendRaw(try Session.frame(["id": "102", "method": "textDocument/hover", "params": hover]) + cancel("102"))
    XCTAssertEqual((try session.response(to: "102")["error"] as? [String: Any])?["code"] as? Int, -32800)
    // A later request is answered as usual.
    let later = try session.request("textDocument/hover", hover)
    XCTAssertNotNil((later["result"] as? [String: Any])?["contents"])
    XCTAssertTrue(try session.request("shutdown").keys.contains("result"))
    try session.notify("exit", [:])
    session.process.waitUntilExit()
    XCTAssertEqual(session.process.terminationStatus, 0)
  }

  /// Opens `text` (its cursor written `|`) as `name` and asks for completion there.
  func completion(_ session: Session, _ marked: String, name: String = "push.json") throws -> (items: [[String: Any]], text: String) {
    let cursor = (marked as NSString).range(of: "|").location
    let text = (marked as NSString).replacingCharacters(in: NSRange(location: cursor, length: 1), with: "")
    let before = (text as NSString).substring(to: cursor)
    let line = before.components(separatedBy: "\n").count - 1
    let character = (before.components(separatedBy: "\n").last! as NSString).length
    let uri = root.appendingPathComponent(name).absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
    let response = try session.request("textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
    XCTAssertNil(response["error"])
    try session.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
    return (try XCTUnwrap(response["result"] as? [[String: Any]]), text)
  }

  /// `text` with the text edit of the item labelled `label` applied (an edit on one line).
  func applying(_ label: String, of items: [[String: Any]], to text: String) throws -> String {
    let item = try XCTUnwrap(items.first { $0["label"] as? String == label }, "no item \(label)")
    let edit = try XCTUnwrap(item["textEdit"] as? [String: Any])
    let range = try XCTUnwrap(edit["range"] as? [String: [String: Int]])
    var lines = text.components(separatedBy: "\n")
    let line = range["start"]!["line"]!
    XCTAssertEqual(range["end"]!["line"], line)
    let start = range["start"]!["character"]!, end = range["end"]!["character"]!
    lines[line] = (lines[line] as NSString).replacingCharacters(in: NSRange(location: start, length: end - start), with: edit["newText"] as! String)
    return lines.joined(separator: "\n")
  }

  /// Completion of field names and enum values from the FCM v1 schema, on the buffer as typed.
  func testCompletionOffersSchemaFieldsAndEnumValues() throws {
    let session = try start()
    // The fields of AndroidNotification not yet present, snake_case by default, with their type
    // and the discovery document's description.
    let fields = try completion(session, #"{"message": {"android": {"notification": {"title": "Hi", |}}}}"#)
    let labels = fields.items.compactMap { $0["label"] as? String }
    XCTAssertTrue(labels.contains("body") && labels.contains("channel_id") && labels.contains("notification_priority"), "\(labels)")
    XCTAssertFalse(labels.contains("title"), "a field already there is not offered")
    XCTAssertFalse(labels.contains("channelId"), "one spelling")
    let channel = try XCTUnwrap(fields.items.first { $0["label"] as? String == "channel_id" })
    XCTAssertEqual(channel["kind"] as? Int, 10)
    XCTAssertEqual(channel["detail"] as? String, "string")
    let documentation = try XCTUnwrap(channel["documentation"] as? [String: Any])
    XCTAssertEqual(documentation["kind"] as? String, "markdown")
    XCTAssertTrue((documentation["value"] as? String ?? "").contains("channel ID"), "\(documentation)")
    // After a ',' the whole key is written, quoted, with its ':'.
    XCTAssertEqual(try applying("channel_id", of: fields.items, to: fields.text), #"{"message": {"android": {"notification": {"title": "Hi", "channel_id": }}}}"#)

    // camelCase when the object's keys are written so.
    let camel = try completion(session, #"{"message": {"android": {"notification": {"clickAction": "OPEN", "|"}}}}"#)
    let camelLabels = camel.items.compactMap { $0["label"] as? String }
    XCTAssertTrue(camelLabels.contains("channelId") && camelLabels.contains("notificationPriority"), "\(camelLabels)")
    XCTAssertFalse(camelLabels.contains("channel_id") || camelLabels.contains("clickAction"))
    // Inside the quotes an editor closed: the name and the closing quote, no quote doubled.
    XCTAssertEqual(
      try applying("channelId", of: camel.items, to: camel.text), #"{"message": {"android": {"notification": {"clickAction": "OPEN", "channelId": }}}}"#)

    // A half-typed key with no closing quote, at the end of a broken buffer.
    let half = try completion(session, "{\"message\": {\"topic\": \"news\",\n  \"android\": {\"notification\": {\"ti|")
    XCTAssertTrue(half.items.contains { $0["label"] as? String == "ticker" }, "\(half.items.count) items")
    XCTAssertEqual(try applying("ticker", of: half.items, to: half.text), "{\"message\": {\"topic\": \"news\",\n  \"android\": {\"notification\": {\"ticker\": ")
    // Renaming a key keeps its ':' and value.
    let rename = try completion(session, #"{"message": {"android": {"ttl": "60s", "prio|": "NORMAL"}}}"#)
    XCTAssertEqual(try applying("priority", of: rename.items, to: rename.text), #"{"message": {"android": {"ttl": "60s", "priority": "NORMAL"}}}"#)

    // Enum values, quoted, as EnumMember.
    let priority = try completion(session, #"{"message": {"android": {"priority": |}}}"#)
    XCTAssertEqual(priority.items.compactMap { $0["label"] as? String }, [#""NORMAL""#, #""HIGH""#])
    XCTAssertEqual(priority.items.first?["kind"] as? Int, 20)
    XCTAssertEqual(try applying(#""HIGH""#, of: priority.items, to: priority.text), #"{"message": {"android": {"priority": "HIGH"}}}"#)
    let typed = try completion(session, #"{"message": {"android": {"notification": {"notification_priority": "PRIORITY_H|"}}}}"#)
    XCTAssertTrue(typed.items.contains { $0["label"] as? String == #""PRIORITY_MAX""# }, "\(typed.items)")
    XCTAssertEqual(
      try applying(#""PRIORITY_HIGH""#, of: typed.items, to: typed.text), #"{"message": {"android": {"notification": {"notification_priority": "PRIORITY_HIGH"}}}}"#)

    // Nothing where the schema has nothing to say: a map's keys, a plain string's value, a
    // document that is not an FCM document.
    XCTAssertEqual(try completion(session, #"{"message": {"data": {"|"}}}"#).items.count, 0)
    XCTAssertEqual(try completion(session, #"{"message": {"topic": "|"}}"#).items.count, 0)
    XCTAssertEqual(try completion(session, #"{"name": "app", "version": "1.0.0", "|"}"#, name: "package.json").items.count, 0)
    session.close()
  }
}
