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
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let problem = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let count = Int(text) else {
      throw NoAnswer(description: "the image server did not answer \(path) (exit \(process.terminationStatus)): \(text) \(String(decoding: problem, as: UTF8.self))")
    }
    return count
  }

  struct NoAnswer: Error, CustomStringConvertible {
    let description: String
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

extension CLITests {
  /// `--url-cache`: a second run fetches nothing and reports the same findings; an entry older
  /// than `--url-cache-max-age` is fetched again; a file that is not a cache is a warning, ignored
  /// and written anew.
  func testURLCacheSavesTheSecondRunsRequests() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    let token = UUID().uuidString
    let base = "http://127.0.0.1:\(server.http)/counted/\(token)"
    try write(Self.message(image: "\(base)/missing.png"), to: root.appendingPathComponent("a.json"))
    try write(Self.message(image: "\(base)/ok.png"), to: root.appendingPathComponent("b.json"))
    let arguments = ["--url-cache", "cache/urls.tsv", "--format", "json", "a.json", "b.json"]
    try FileManager.default.createDirectory(at: root.appendingPathComponent("cache"), withIntermediateDirectories: true)
    let first = try checkURLs(arguments, in: root, server: server)
    let findings = try decode(first).diagnostics.filter(\.fetched)
    XCTAssertEqual(findings.map(\.file), ["a.json"], first.stderr)
    let fetched = try serverCount(server, "/hits/\(token)")
    XCTAssertGreaterThan(fetched, 0)
    let text = try String(contentsOf: root.appendingPathComponent("cache/urls.tsv"), encoding: .utf8)
    XCTAssertTrue(text.hasPrefix("fcmlint-url-cache\t1\nurl\t"), text)
    XCTAssertTrue(text.contains("\tfailed\t\(base)/missing.png\nfinding\timage-url-unreachable\tthe image cannot be fetched: HTTP 404"), text)
    XCTAssertTrue(text.contains("\tfetched\t\(base)/ok.png\n"), text)

    let second = try checkURLs(arguments, in: root, server: server)
    XCTAssertEqual(try decode(second).diagnostics.filter(\.fetched).map(\.message), findings.map(\.message))
    XCTAssertEqual(try serverCount(server, "/hits/\(token)"), fetched, "the second run fetched again")
    XCTAssertTrue(second.stderr.contains("fcmlint: checked 2 image URLs: 1 with findings, 1 not fetched; 2 from the --url-cache"), second.stderr)

    // Entries older than the age: fetched again (an entry dated an hour ago, the age a minute).
    let old = text.replacingOccurrences(of: #"url\t[0-9]+\t"#, with: "url\t\(Int(Date().timeIntervalSince1970) - 3600)\t", options: .regularExpression)
    try write(old, to: root.appendingPathComponent("cache/urls.tsv"))
    let expired = try checkURLs(["--url-cache-max-age", "60"] + arguments, in: root, server: server)
    XCTAssertEqual(try decode(expired).diagnostics.filter(\.fetched).map(\.file), ["a.json"], expired.stderr)
    XCTAssertEqual(try serverCount(server, "/hits/\(token)"), fetched * 2)
    XCTAssertTrue(expired.stderr.contains("; 0 from the --url-cache"), expired.stderr)

    // Not a cache: a warning, the URLs fetched, the file written anew.
    for corrupt in ["{\"not\": \"a cache\"}", "fcmlint-url-cache\t1\nurl\tyesterday\t7\tfetched\t\(base)/ok.png\n", "\u{0}\u{1}\u{2}"] {
      try write(corrupt, to: root.appendingPathComponent("cache/urls.tsv"))
      let before = try serverCount(server, "/hits/\(token)")
      let run = try checkURLs(arguments, in: root, server: server)
      XCTAssertEqual(run.status, 1, run.stderr)
      XCTAssertEqual(try decode(run).diagnostics.filter(\.fetched).map(\.file), ["a.json"], run.stderr)
      XCTAssertTrue(run.stderr.contains("fcmlint: warning: --url-cache cache/urls.tsv "), run.stderr)
      XCTAssertTrue(run.stderr.contains(": ignored, and written anew"), run.stderr)
      XCTAssertGreaterThan(try serverCount(server, "/hits/\(token)"), before)
      XCTAssertTrue(try String(contentsOf: root.appendingPathComponent("cache/urls.tsv"), encoding: .utf8).hasPrefix("fcmlint-url-cache\t1\nurl\t"))
    }
    // A cache that cannot be read (a folder): a warning, never a failure of the run.
    let folder = try checkURLs(["--url-cache", "cache", "--format", "json", "a.json"], in: root, server: server)
    XCTAssertEqual(folder.status, 1, folder.stderr)
    XCTAssertTrue(folder.stderr.contains("fcmlint: warning: --url-cache cache "), folder.stderr)
  }

  /// `--url-per-host` bounds the requests one host gets at once, `--url-concurrency` those of the
  /// run (the server records the most it held at once); both take whole numbers above 0.
  func testURLPerHostLimitHolds() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    // (per host, overall, files): the held answers take a second each, so the URLs overlap.
    for (perHost, concurrency, files) in [(1, 8, 4), (3, 8, 6), (8, 1, 3)] {
      let token = UUID().uuidString
      var names: [String] = []
      for index in 0..<files {
        let name = "\(perHost)-\(concurrency)-\(index).json"
        try write(Self.message(image: "http://127.0.0.1:\(server.http)/held/\(token)/\(index).png"), to: root.appendingPathComponent(name))
        names.append(name)
      }
      let run = try fcmlint(
        ["--check-urls", "--url-per-host", "\(perHost)", "--url-concurrency", "\(concurrency)", "--url-timeout", "30", "--url-budget", "120", "--format", "json"] + names,
        in: root, timeout: 180, environment: Self.noProxy)
      XCTAssertNotEqual(run.status, 2, run.stderr)
      XCTAssertTrue(run.stderr.contains("fcmlint: checked \(files) image URLs"), run.stderr)
      let peak = try serverCount(server, "/peak/\(token)")
      XCTAssertLessThanOrEqual(peak, min(perHost, concurrency), "--url-per-host \(perHost) --url-concurrency \(concurrency)")
      XCTAssertGreaterThanOrEqual(peak, 1)
    }
    for option in ["--url-concurrency", "--url-per-host"] {
      for bad in ["0", "-1", "two", "1.5"] {
        let run = try fcmlint(["--check-urls", option, bad, "a.json"], in: root, environment: Self.noProxy)
        XCTAssertEqual(run.status, 2, "\(option) \(bad)")
        XCTAssertTrue(run.stderr.contains("\(option) takes a whole number above 0, not '\(bad)'"), run.stderr)
      }
    }
    let age = try fcmlint(["--check-urls", "--url-cache-max-age", "60", "a.json"], in: root, environment: Self.noProxy)
    XCTAssertEqual(age.status, 2)
    XCTAssertTrue(age.stderr.contains("--url-cache-max-age is the age of --url-cache's entries: give --url-cache too"), age.stderr)
  }
}

extension CLITests {
  /// A forward proxy on 127.0.0.1 (Tests/URLServer/proxy.py, CONNECT for https), started for the
  /// test; the lines of its log, one per request it forwarded.
  func withProxy(_ body: (_ port: Int, _ log: () throws -> [String]) throws -> Void) throws {
    let folder = try temporaryDirectory()
    let log = folder.appendingPathComponent("proxy.log")
    let (process, input, ports) = try startServer("proxy.py", [log.path])
    defer {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
    guard let port = ports.first else {
      throw XCTSkip("the proxy did not start")
    }
    try body(port) {
      guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
      return text.split(separator: "\n").map(String.init)
    }
  }

  /// HTTP_PROXY and HTTPS_PROXY route the requests through the proxy (https through a CONNECT
  /// tunnel, the certificate still checked against the CA), and NO_PROXY sends them directly.
  func testCheckURLsGoesThroughTheProxies() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    let token = UUID().uuidString
    let plain = "http://127.0.0.1:\(server.http)/counted/\(token)/missing.png"
    let secure = "https://127.0.0.1:\(server.https)/counted/\(token)/ok.webp"
    try write(Self.message(image: plain), to: root.appendingPathComponent("plain.json"))
    try write(Self.message(image: secure, at: "apns"), to: root.appendingPathComponent("secure.json"))
    let arguments = ["--check-urls", "--url-timeout", "20", "--url-ca-file", server.caFile, "--format", "json", "plain.json", "secure.json"]
    let expected = ["image-url-unreachable", "image-url-type-mismatch"]
    try withProxy { port, log in
      for spelling in ["upper", "lower"] {
        var environment = Self.noProxy
        let proxy = "http://127.0.0.1:\(port)"
        environment[spelling == "upper" ? "HTTP_PROXY" : "http_proxy"] = proxy
        environment[spelling == "upper" ? "HTTPS_PROXY" : "https_proxy"] = proxy
        let before = try log().count
        let run = try fcmlint(arguments, in: root, timeout: 120, environment: environment)
        XCTAssertEqual(try decode(run).diagnostics.filter(\.fetched).map(\.rule), expected, run.stderr)
        let forwarded = try log().dropFirst(before)
        // async-http-client tunnels plain http through CONNECT too.
        XCTAssertTrue(forwarded.contains("CONNECT 127.0.0.1:\(server.http)"), "\(spelling): \(forwarded)")
        XCTAssertTrue(forwarded.contains("CONNECT 127.0.0.1:\(server.https)"), "\(spelling): \(forwarded)")
      }
      // NO_PROXY names the host: straight to the server, nothing through the proxy.
      for noProxy in ["127.0.0.1", "localhost,127.0.0.1", "*"] {
        var environment = Self.noProxy
        environment["HTTP_PROXY"] = "http://127.0.0.1:\(port)"
        environment["HTTPS_PROXY"] = "http://127.0.0.1:\(port)"
        environment["NO_PROXY"] = noProxy
        let before = try log().count
        let run = try fcmlint(arguments, in: root, timeout: 120, environment: environment)
        XCTAssertEqual(try decode(run).diagnostics.filter(\.fetched).map(\.rule), expected, run.stderr)
        XCTAssertEqual(Array(try log().dropFirst(before)), [], "NO_PROXY=\(noProxy)")
      }
    }
  }
}
