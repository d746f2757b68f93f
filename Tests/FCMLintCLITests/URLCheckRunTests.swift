import FCMLintEngine
import Foundation
import XCTest

extension CLITests.Output.Diagnostic {
  /// A finding of the image URL check (not the payload's image-url-https).
  var fetched: Bool { ReportedRules.imageURLRules.contains(rule) }
}

/// `--check-urls` on templates rendered with `--vars`, in the language server, and the options
/// that bound a run (cache, concurrency, proxies), against the local servers on 127.0.0.1.
extension CLITests {
  /// What the image server counted for `path` (`/hits/TOKEN`, `/peak/TOKEN`), asked directly.
  func serverCount(_ server: ImageServer, _ path: String) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=30).read().decode())",
      "http://127.0.0.1:\(server.http)\(path)",
    ]
    // No proxy of the machine for this question either.
    process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try XCTUnwrap(Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), path)
  }

  /// With `--vars`, a template's image URLs are fetched as they render; a URL whose placeholder
  /// the values leave is skipped, with its note; findings point into the template.
  func testCheckURLsFetchesTemplatesAsRendered() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    let https = "https://127.0.0.1:\(server.https)"
    try write(Self.message(image: "\(https)/{{ product }}.png"), to: root.appendingPathComponent("filled.json"))
    try write(Self.message(image: "\(https)/{{ other }}.png"), to: root.appendingPathComponent("left.json"))
    try write(#"{"product": "missing"}"#, to: root.appendingPathComponent("vars.json"))
    let run = try checkURLs(["--verbose", "--vars", "vars.json", "--format", "json", "filled.json", "left.json"], in: root, server: server)
    let found = try decode(run).diagnostics.filter(\.fetched)
    XCTAssertEqual(found.map(\.rule), ["image-url-unreachable"], run.stdout + run.stderr)
    XCTAssertEqual(found.map(\.file), ["filled.json"])
    XCTAssertEqual(found.first?.line, 6)
    XCTAssertEqual(found.first?.column, 16)
    XCTAssertEqual(found.first?.pointer, "/message/notification/image")
    XCTAssertTrue(found.first?.message.contains("HTTP 404") == true, "\(found)")
    XCTAssertTrue(run.stderr.contains("fcmlint: checked 1 image URL: 1 with findings"), run.stderr)
    XCTAssertTrue(run.stderr.contains("skipped image URL \(https)/{{ other }}.png (left.json:6): it holds a placeholder"), run.stderr)
    // The text format shows the template's own line and column.
    let text = try checkURLs(["--vars", "vars.json", "filled.json"], in: root, server: server)
    XCTAssertTrue(text.stdout.contains("filled.json:6:16: error: the image cannot be fetched: HTTP 404"), text.stdout)
  }

  /// The language server lints as the command line does but never fetches, whatever the config
  /// says: an editor must not send requests on every keystroke.
  func testTheLanguageServerNeverFetches() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    let token = UUID().uuidString
    try write("check-urls: true\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let session = try LanguageServerTests.Session(in: root, environment: Self.noProxy)
    defer { session.close() }
    _ = try session.request("initialize", ["processId": NSNull(), "rootUri": root.absoluteString, "capabilities": [:]])
    try session.notify("initialized", [:])
    let uri = root.appendingPathComponent("send.json").absoluteString
    let text = Self.message(image: "http://127.0.0.1:\(server.http)/counted/\(token)/missing.png")
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
    let diagnostics = try session.diagnostics(for: uri)
    XCTAssertFalse(diagnostics.contains { ($0["code"] as? String).map(ReportedRules.imageURLRules.contains) == true }, "\(diagnostics)")
    XCTAssertEqual(try serverCount(server, "/hits/\(token)"), 0)
    // The same file on the command line is fetched (the config asks for it).
    try write(text, to: root.appendingPathComponent("send.json"))
    let run = try fcmlint(["--format", "json", "send.json"], in: root, environment: Self.noProxy)
    XCTAssertEqual(try decode(run).diagnostics.filter(\.fetched).map(\.rule), ["image-url-unreachable"], run.stderr)
    XCTAssertGreaterThan(try serverCount(server, "/hits/\(token)"), 0)
  }

  /// `--fix-dry-run` checks the URLs of the text as fixed, and `--fix-only`, which reports
  /// nothing that remains, fetches nothing.
  func testCheckURLsWithTheFixModes() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    func file(_ token: String) -> String {
      let image = "http://127.0.0.1:\(server.http)/counted/\(token)/missing.png"
      return #"{"message": {"topic": "news", "notification": {"title": "Sale", "image": "\#(image)"}, "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "x"}}}}}"#
    }
    let dryToken = UUID().uuidString, onlyToken = UUID().uuidString
    try write(file(dryToken), to: root.appendingPathComponent("dry.json"))
    try write(file(onlyToken), to: root.appendingPathComponent("only.json"))
    let dry = try checkURLs(["--fix-dry-run", "dry.json"], in: root, server: server)
    XCTAssertTrue(dry.stdout.contains("+++ ") && dry.stdout.contains("mutable-content"), dry.stdout)
    XCTAssertTrue(dry.stdout.contains("image-url-unreachable"), dry.stdout)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("dry.json"), encoding: .utf8), file(dryToken))
    XCTAssertGreaterThan(try serverCount(server, "/hits/\(dryToken)"), 0)
    let only = try checkURLs(["--fix-only", "only.json"], in: root, server: server)
    XCTAssertEqual(only.status, 0, only.stderr)
    XCTAssertFalse(only.stdout.contains("image-url-unreachable"), only.stdout)
    XCTAssertTrue(try String(contentsOf: root.appendingPathComponent("only.json"), encoding: .utf8).contains("mutable-content"))
    XCTAssertEqual(try serverCount(server, "/hits/\(onlyToken)"), 0, only.stderr)
  }
}
