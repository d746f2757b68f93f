import FCMLintTestSupport
import Foundation
import XCTest

/// One file gets one answer whatever the door: a walk or a name, a nested config or the top one,
/// a check or a fix, the command line or the language server.
extension CLITests {
  static let imageInWebpushHeaders = """
    {
      "message": {
        "topic": "news",
        "notification": {"title": "Sale"},
        "webpush": {"headers": {"image": "https://cdn.example.com/sale.png", "TTL": "60"}}
      }
    }

    """

  /// A suppression with a reason keeps the finding and its bytes: `--fix` used to move the
  /// image into webpush.notification, then warn that the suppression matched nothing.
  func testFixLeavesSuppressedFindingsAsTheyAre() throws {
    let root = try temporaryDirectory()
    try write("""
      suppress:
        - {rule: webpush-image-header, pointer: /message/webpush/headers/image, reason: "the service worker reads it there"}

      """, to: root.appendingPathComponent(".fcmlint.yml"))
    let payload = root.appendingPathComponent("push/sale.json")
    try write(Self.imageInWebpushHeaders, to: payload)
    let run = try fcmlint(["--fix", "."], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: payload, encoding: .utf8), Self.imageInWebpushHeaders)
    XCTAssertFalse(run.stdout.contains("unused-suppression"), run.stdout)
    XCTAssertTrue(run.stdout.contains("1 suppressed"), run.stdout)
  }

  /// The same for a finding accepted in the baseline.
  func testFixLeavesBaselinedFindingsAsTheyAre() throws {
    let root = try temporaryDirectory()
    let payload = root.appendingPathComponent("push/sale.json")
    try write(Self.imageInWebpushHeaders, to: payload)
    XCTAssertEqual(try fcmlint(["--write-baseline", "baseline.json", "."], in: root).status, 0)
    let run = try fcmlint(["--baseline", "baseline.json", "--fix", "."], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: payload, encoding: .utf8), Self.imageInWebpushHeaders)
    XCTAssertTrue(run.stdout.contains("1 hidden by the baseline"), run.stdout)
  }

  /// `"mutable_content": 1` beside an image: the rename wins over inserting `mutable-content`,
  /// so the file ends with one key, no error, and a second `--fix` has nothing to do.
  func testFixRenamesTheMisspeltKeyInsteadOfAddingASecond() throws {
    let root = try temporaryDirectory()
    let payload = root.appendingPathComponent("image.json")
    try write("""
      {"message": {"topic": "news", "notification": {"title": "Sale", "image": "https://cdn.example.com/sale.png"},
        "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Sale"}}}}}

      """, to: payload)
    let first = try fcmlint(["--fix", "image.json"], in: root)
    XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
    let fixed = try String(contentsOf: payload, encoding: .utf8)
    XCTAssertTrue(fixed.contains(#"{"mutable-content": 1, "alert": "Sale"}"#), fixed)
    XCTAssertEqual(fixed.components(separatedBy: "mutable").count, 2, fixed)
    let second = try fcmlint(["--fix", "image.json"], in: root)
    XCTAssertEqual(second.status, 0)
    XCTAssertEqual(try String(contentsOf: payload, encoding: .utf8), fixed)
  }

  /// After `--fix`, no error it reports still offers a fix: what is left was refused.
  func testNoErrorLeftByFixCarriesAFix() throws {
    let root = try temporaryDirectory()
    let corpus = URL(fileURLWithPath: Repository.path("corpus/invalid"))
    for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path) where name.hasSuffix(".json") {
      try FileManager.default.copyItem(at: corpus.appendingPathComponent(name), to: root.appendingPathComponent(name))
    }
    let run = try fcmlint(["--fix", "--format", "json", "."], in: root)
    XCTAssertNotEqual(run.status, 2, run.stderr)
    let output = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
    let diagnostics = try XCTUnwrap(output["diagnostics"] as? [[String: Any]])
    let fixable = diagnostics.filter { $0["severity"] as? String == "error" && $0["fix"] != nil }
    XCTAssertEqual(fixable.map { "\($0["file"]!): \($0["rule"]!)" }, [])
    // And a second run changes nothing.
    let before = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().map { try Data(contentsOf: root.appendingPathComponent($0)) }
    _ = try fcmlint(["--fix", "."], in: root)
    let after = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().map { try Data(contentsOf: root.appendingPathComponent($0)) }
    XCTAssertEqual(before, after)
  }

  /// A nested config's `ignore:` holds whether the walk starts in its folder or above it.
  func testANestedConfigsIgnoreHoldsWhenTheWalkStartsAbove() throws {
    let root = try temporaryDirectory()
    try write("ignore: [\"gen/**\"]\n", to: root.appendingPathComponent("sub/.fcmlint.yml"))
    try write(#"{"message": {"topic": "news", "data": {"count": 3}}}"#, to: root.appendingPathComponent("sub/gen/c.json"))
    try write(#"{"message": {"topic": "news", "data": {"count": 3}}}"#, to: root.appendingPathComponent("sub/b.json"))
    for (folder, arguments) in [(root.appendingPathComponent("sub"), ["."]), (root, ["."]), (root, ["sub"]), (root, ["sub/gen"])] {
      let run = try fcmlint(["--format", "json"] + arguments, in: folder)
      let files = Set(try decode(run).diagnostics.map(\.file))
      XCTAssertFalse(files.contains { $0.hasSuffix("c.json") }, "\(arguments) in \(folder.lastPathComponent): \(files)")
      if arguments != ["sub/gen"] { XCTAssertTrue(files.contains { $0.hasSuffix("b.json") }, "\(arguments): \(files)") }
    }
    // Named, it is ignored as well.
    XCTAssertEqual(try fcmlint(["sub/gen/c.json"], in: root).status, 0)
  }

  /// A stream's documents get the stream's config, as a file of that name would: its
  /// suppressions hold for every line.
  func testAStreamsDocumentsGetTheConfigOfTheStream() throws {
    let root = try temporaryDirectory()
    try write("""
      suppress:
        - {files: ["logs/*.ndjson"], rule: data-string-values, reason: "the app reads numbers"}

      """, to: root.appendingPathComponent(".fcmlint.yml"))
    let line = #"{"message": {"topic": "news", "data": {"count": 3}, "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Hi"}}}}}"#
    try write(line + "\n" + line + "\n", to: root.appendingPathComponent("logs/sent.ndjson"))
    let run = try fcmlint(["--ndjson", "--format", "json", "logs/sent.ndjson"], in: root)
    XCTAssertEqual(try decode(run).diagnostics.map(\.rule), ["apns-aps-key", "apns-aps-key"], run.stderr)
  }

  /// A page's sample keeps a suppressed finding's bytes under `--fix`, as a file does.
  func testFixLeavesSuppressedFindingsInPagesAsTheyAre() throws {
    let root = try temporaryDirectory()
    try write("""
      suppress:
        - {rule: webpush-image-header, reason: "the service worker reads it there"}

      """, to: root.appendingPathComponent(".fcmlint.yml"))
    let page = "# Web push\n\n```json\n" + Self.imageInWebpushHeaders + "```\n"
    let url = root.appendingPathComponent("README.md")
    try write(page, to: url)
    let run = try fcmlint(["--fix", "README.md"], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), page)
    XCTAssertFalse(run.stdout.contains("unused-suppression"), run.stdout)
  }

  /// `root: true` marks the project's top: `.gitignore` files above it do not apply to walks in it.
  func testRootStopsTheSearchForGitignoreFiles() throws {
    let repository = try temporaryDirectory()
    try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
    try write("payloads/\n", to: repository.appendingPathComponent(".gitignore"))
    let project = repository.appendingPathComponent("app")
    try write(#"{"message": {"topic": "news", "data": {"count": 3}}}"#, to: project.appendingPathComponent("payloads/a.json"))
    try write("{}\n", to: project.appendingPathComponent(".fcmlint.yml"))
    XCTAssertEqual(try decode(try fcmlint(["--format", "json", "."], in: project)).summary.files, 0)
    try write("root: true\n", to: project.appendingPathComponent(".fcmlint.yml"))
    XCTAssertEqual(try decode(try fcmlint(["--format", "json", "."], in: project)).summary.files, 1)
  }
}

extension LanguageServerTests {
  /// Starts a server whose client can register file watchers and takes versioned edits.
  func start(capabilities: [String: Any]) throws -> Session {
    let session = try Session(in: root)
    _ = try session.request("initialize", ["processId": NSNull(), "rootUri": root.absoluteString, "capabilities": capabilities])
    try session.notify("initialized", [:])
    return session
  }

  /// The next request the server sends the client.
  func serverRequest(_ session: Session, method: String) throws -> [String: Any] {
    while true {
      let message = try session.receive()
      if message["method"] as? String == method, message["id"] != nil { return message }
    }
  }

  static let page = """
    # Sending an image

    ```json
    {
      "message": {
        "topic": "news",
        "notification": {"title": "Sale", "image": "https://cdn.example.com/sale.png"},
        "data": {"count": 3},
        "apns": {"payload": {"aps": {"alert": "Sale"}}}
      }
    }
    ```

    And for Android only:

    ```json
    {"message": {"token": "abc", "android": {"notification": {"image": "https://cdn.sale.png"}}}}
    ```

    """

  /// A page open in the editor gets what `fcmlint --docs` reports for it, at the same places.
  func testAPageGetsTheDiagnosticsTheCommandLineReports() throws {
    let page = root.appendingPathComponent("docs/push.md")
    try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(Self.page.utf8).write(to: page)
    let cli = Process()
    cli.executableURL = try XCTUnwrap(CLITests.executable)
    cli.arguments = ["--docs", "--format", "json", "docs/push.md"]
    cli.currentDirectoryURL = root
    let output = Pipe()
    cli.standardOutput = output
    try cli.run()
    let report = output.fileHandleForReading.readDataToEndOfFile()
    cli.waitUntilExit()
    XCTAssertEqual(cli.terminationStatus, 1)
    let expected = try JSONDecoder().decode(CLITests.Output.self, from: report).diagnostics.map {
      "\($0.rule) \($0.severity) \($0.line - 1):\($0.column - 1)-\($0.endLine - 1):\($0.endColumn - 1)"
    }
    XCTAssertGreaterThan(expected.count, 2)
    let session = try start()
    defer { session.close() }
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": page.absoluteString, "languageId": "markdown", "version": 1, "text": Self.page]])
    let got = try session.diagnostics(for: page.absoluteString).map { d -> String in
      let range = d["range"] as! [String: [String: Int]]
      let severity = ["", "error", "warning", "info"][d["severity"] as! Int]
      return "\(d["code"]!) \(severity) \(range["start"]!["line"]!):\(range["start"]!["character"]!)-\(range["end"]!["line"]!):\(range["end"]!["character"]!)"
    }
    XCTAssertEqual(got, expected)
  }

  /// A file the config's `ignore:` excludes gets an empty list, as the command line skips it.
  func testAnIgnoredFileGetsNoDiagnostics() throws {
    try Data("ignore: [\"gen/**\"]\n".utf8).write(to: root.appendingPathComponent(".fcmlint.yml"))
    let session = try start()
    defer { session.close() }
    let uri = root.appendingPathComponent("gen/a.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    XCTAssertEqual(try session.diagnostics(for: uri).count, 0)
  }

  /// With a client that registers watchers, the server asks for `.fcmlint.yml` files and the
  /// files they extend, and re-lints open documents when one changes.
  func testAConfigChangeReachesOpenDocumentsThroughAWatcher() throws {
    try Data("extends: shared.yml\n".utf8).write(to: root.appendingPathComponent(".fcmlint.yml"))
    let shared = root.appendingPathComponent("shared.yml")
    try Data("rules: {}\n".utf8).write(to: shared)
    let session = try start(capabilities: ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true, "relativePatternSupport": true]]])
    defer { session.close() }
    let uri = root.appendingPathComponent("push/a.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    XCTAssertEqual(try session.diagnostics(for: uri).map { $0["code"] as? String }, ["data-string-values", "apns-aps-key"])
    let registration = try serverRequest(session, method: "client/registerCapability")
    let text = String(describing: registration["params"]!)
    XCTAssertTrue(text.contains("**/.fcmlint.yml"), text)
    XCTAssertTrue(text.contains("shared.yml"), text)
    try session.send(["id": registration["id"]!, "result": NSNull()])
    try Data("rules: {data-string-values: off}\n".utf8).write(to: shared)
    try session.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": shared.absoluteString, "type": 2]]])
    XCTAssertEqual(try session.diagnostics(for: uri).map { $0["code"] as? String }, ["apns-aps-key"])
  }

  /// Without watchers, a config changed on disk is seen at the next save or open.
  func testAConfigChangeIsSeenOnSaveWithoutWatchers() throws {
    let config = root.appendingPathComponent(".fcmlint.yml")
    try Data("rules: {}\n".utf8).write(to: config)
    let session = try start()
    defer { session.close() }
    let uri = root.appendingPathComponent("push/a.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    XCTAssertEqual(try session.diagnostics(for: uri).count, 2)
    try Data("rules: {data-string-values: off, apns-aps-key: warning}\n".utf8).write(to: config)
    try session.notify("textDocument/didSave", ["textDocument": ["uri": uri]])
    let again = try session.diagnostics(for: uri)
    XCTAssertEqual(again.map { $0["code"] as? String }, ["apns-aps-key"])
    XCTAssertEqual(again.first?["severity"] as? Int, 2)
    // A config created in the document's folder is seen at the next open.
    try FileManager.default.createDirectory(at: root.appendingPathComponent("push"), withIntermediateDirectories: true)
    try Data("rules: {apns-aps-key: off}\n".utf8).write(to: root.appendingPathComponent("push/.fcmlint.yml"))
    let other = root.appendingPathComponent("push/b.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": other, "languageId": "json", "version": 1, "text": Self.broken]])
    XCTAssertEqual(try session.diagnostics(for: other).map { $0["code"] as? String }, ["data-string-values"])
  }

  /// "Fix all" leaves a suppressed finding as it is, and names the version it was made for.
  func testFixAllLeavesSuppressedFindingsAndNamesTheVersion() throws {
    try Data("""
      suppress:
        - {rule: data-string-values, pointer: /message/data/count, reason: "the app reads a number"}

      """.utf8).write(to: root.appendingPathComponent(".fcmlint.yml"))
    let session = try start(capabilities: ["workspace": ["workspaceEdit": ["documentChanges": true]]])
    defer { session.close() }
    let uri = root.appendingPathComponent("push/a.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 7, "text": Self.broken]])
    XCTAssertEqual(try session.diagnostics(for: uri).map { $0["code"] as? String }, ["apns-aps-key"])
    let response = try session.request("textDocument/codeAction", [
      "textDocument": ["uri": uri], "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]],
      "context": ["diagnostics": [], "only": ["source.fixAll.fcmlint"]],
    ])
    let actions = try XCTUnwrap(response["result"] as? [[String: Any]])
    let edit = try XCTUnwrap(actions.first?["edit"] as? [String: Any])
    let change = try XCTUnwrap((edit["documentChanges"] as? [[String: Any]])?.first)
    XCTAssertEqual((change["textDocument"] as? [String: Any])?["version"] as? Int, 7)
    let edits = try XCTUnwrap(change["edits"] as? [[String: Any]])
    // The one character between mutable_content and mutable-content; the count stays a number.
    XCTAssertEqual(edits.map { $0["newText"] as? String }, ["-"])
  }
}

extension LanguageServerTests {
  /// A buffer over 1 MiB is a document like any other (it was refused as "not a JSON-RPC
  /// message", and a later fix-all edited the old text); over the file size limit it gets one
  /// diagnostic saying so, never silence.
  func testABufferOverOneMebibyteIsLinted() throws {
    let session = try start()
    defer { session.close() }
    let uri = root.appendingPathComponent("big.json").absoluteString
    // Over 1 MiB of web push headers, each string short (a string over 1 MiB is a finding of its own).
    let headers = (0..<60_000).map { #""h\#($0)": "value-\#($0)""# }.joined(separator: ", ")
    let text = #"{"message": {"topic": "news", "data": {"count": 3}, "webpush": {"headers": {"# + headers + "}}}}"
    XCTAssertGreaterThan(text.utf8.count, 1 << 20)
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
    XCTAssertEqual(try session.diagnostics(for: uri).map { $0["code"] as? String }, ["data-string-values"])
    try Data("limits: {max-file-size: 1M}\n".utf8).write(to: root.appendingPathComponent(".fcmlint.yml"))
    try session.notify("textDocument/didSave", ["textDocument": ["uri": uri]])
    let limited = try session.diagnostics(for: uri)
    XCTAssertEqual(limited.count, 1)
    XCTAssertTrue((limited.first?["message"] as? String ?? "").contains("more than the limit of 1048576"), "\(limited)")
  }

  /// The server ends soon after its client closes its input, even in the middle of a long lint.
  func testTheServerEndsWhenTheClientHangsUpWhileItWorks() throws {
    let session = try start()
    let uri = root.appendingPathComponent("slow.json").absoluteString
    // Tens of thousands of findings: seconds of work for a debug build.
    let members = (0..<40_000).map { #""k\#($0)": \#($0)"# }.joined(separator: ",")
    try session.notify("textDocument/didOpen", [
      "textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": #"{"message": {"topic": "t", "data": {"# + members + "}}}"],
    ])
    session.close()
    let closed = Date()
    while session.process.isRunning && Date().timeIntervalSince(closed) < 20 { usleep(50_000) }
    XCTAssertFalse(session.process.isRunning, "still running 20 s after its client left")
    XCTAssertLessThan(Date().timeIntervalSince(closed), 8)
    XCTAssertEqual(session.process.terminationStatus, 1, "no shutdown was asked for")
  }
}

extension CLITests {
  /// A run that linted nothing and failed says only why: no "no problems in 0 files" beside the
  /// error.
  func testAFatalErrorStandsAlone() throws {
    let run = try fcmlint(["nope.json"])
    XCTAssertEqual(run.status, 2)
    XCTAssertEqual(run.stdout, "")
    XCTAssertTrue(run.stderr.contains("nope.json: no such file or directory"), run.stderr)
    // A machine format still ends as its format requires.
    let json = try fcmlint(["--format", "json", "nope.json"])
    XCTAssertEqual(json.status, 2)
    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: json.stdoutData))
  }
}

extension CLITests {
  /// Editors' clients pass `--stdio`: the server starts (and, told to exit before a shutdown, ends with 1).
  func testTheServerTakesStdio() throws {
    let exit = #"{"jsonrpc":"2.0","method":"exit"}"#
    let run = try fcmlint(["lsp", "--stdio"], input: .bytes(Data("Content-Length: \(exit.utf8.count)\r\n\r\n\(exit)".utf8)))
    XCTAssertEqual(run.status, 1, run.stderr)
  }
}
