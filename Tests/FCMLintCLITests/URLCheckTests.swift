import FCMLintEngine
import FCMLintTestSupport
import Foundation
import XCTest

/// `--check-urls` against real HTTP and HTTPS servers on 127.0.0.1 that the tests start
/// (Tests/URLServer/image_server.py, with a CA made at test time): no test contacts any other
/// address. The proxy variables are cleared for every run, so a proxy of the machine is never used.
extension CLITests {
  /// The running server: its ports and the CA file its certificate is signed by.
  struct ImageServer: Sendable {
    var http: Int
    var https: Int
    var caFile: String
  }

  private final class ServerBox: @unchecked Sendable {
    var server: ImageServer?
    var process: Process?
    var input: Pipe?
  }

  private static let serverBox = ServerBox()
  private static let serverLock = NSLock()

  /// The server, started once per test run; it stops when the test runner exits (its standard
  /// input closes) or after five minutes.
  /// A server of Tests/URLServer started with `arguments`: it serves until its standard input
  /// (`input`) closes, and prints the ports it listens on, on its first line.
  func startServer(_ script: String, _ arguments: [String]) throws -> (process: Process, input: Pipe, ports: [Int]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.repo("Tests/URLServer/\(script)")] + arguments
    let output = Pipe(), input = Pipe()
    process.standardOutput = output
    process.standardInput = input
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line += chunk
    }
    return (process, input, String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) })
  }

  func imageServer() throws -> ImageServer {
    _ = try urlCheckProgram()
    Self.serverLock.lock()
    defer { Self.serverLock.unlock() }
    if let server = Self.serverBox.server { return server }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-images-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (process, input, ports) = try startServer("image_server.py", [folder.path])
    guard ports.count == 2 else { throw XCTSkip("the image server did not start (python3 and openssl are needed)") }
    let server = ImageServer(http: ports[0], https: ports[1], caFile: folder.appendingPathComponent("ca.pem").path)
    Self.serverBox.server = server
    Self.serverBox.process = process
    Self.serverBox.input = input
    return server
  }

  /// The rule ids that start with "image-url", as completion offers them.
  static let imageURLPrefixed = ["image-url", "image-url-https"] + ReportedRules.imageURLRules.sorted()

  /// `fcmlint-url-check`, built from its own package (URLCheck/): the program `FCMLINT_URL_CHECK`
  /// names (`.ci/run` builds it and names it), else a build of it in URLCheck/.build. Without it
  /// the tests that fetch are skipped, saying how to build it.
  static let urlCheckProgram: String? = {
    let fileManager = FileManager.default
    if let named = ProcessInfo.processInfo.environment["FCMLINT_URL_CHECK"], !named.isEmpty {
      return fileManager.isExecutableFile(atPath: named) ? named : nil
    }
    return ["release", "debug"].map { Repository.path("URLCheck/.build/\($0)/fcmlint-url-check") }.first { fileManager.isExecutableFile(atPath: $0) }
  }()

  func urlCheckProgram() throws -> String {
    guard let program = Self.urlCheckProgram else {
      throw XCTSkip("fcmlint-url-check is not built: `swift build --package-path URLCheck` (or name it in FCMLINT_URL_CHECK)")
    }
    return program
  }

  /// No proxy of the machine, and the URL checker found above.
  static var noProxy: [String: String?] {
    [
      "HTTP_PROXY": nil, "HTTPS_PROXY": nil, "NO_PROXY": nil, "http_proxy": nil, "https_proxy": nil, "no_proxy": nil,
      "FCMLINT_URL_CHECK": urlCheckProgram,
    ]
  }

  func checkURLs(_ arguments: [String], in root: URL, server: ImageServer, caFile: Bool = true) throws -> Run {
    let options = ["--check-urls", "--url-slow", "1", "--url-timeout", "5"] + (caFile ? ["--url-ca-file", server.caFile] : [])
    return try fcmlint(options + arguments, in: root, environment: Self.noProxy)
  }

  static func message(image: String, at field: String = "notification") -> String {
    switch field {
    case "apns": return #"{"message": {"topic": "news", "notification": {"title": "Sale"}, "apns": {"fcm_options": {"image": "\#(image)"}}}}"#
    case "android": return #"{"message": {"topic": "news", "notification": {"title": "Sale"}, "android": {"notification": {"image": "\#(image)"}}}}"#
    default:
      return """
        {
          "message": {
            "topic": "news",
            "notification": {
              "title": "Sale",
              "image": "\(image)"
            }
          }
        }
        """
    }
  }

  func testCheckURLsReportsEachAnswerAtTheURL() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    let https = "https://127.0.0.1:\(server.https)"
    let cases: [(String, String, String, String?)] = [
      ("ok-png", "\(https)/ok.png", "notification", nil),
      ("ok-jpg", "\(https)/ok.jpg", "notification", nil),
      ("ok-gif", "\(https)/ok.gif", "apns", nil),
      ("webp-android", "\(https)/ok.webp", "android", nil),
      ("webp-apple", "\(https)/ok.webp", "apns", "image-url-type-mismatch"),
      ("missing", "\(https)/missing.png", "notification", "image-url-unreachable"),
      ("html", "\(https)/error-page.png", "notification", "image-url-not-an-image"),
      ("lying", "\(https)/lying.png", "notification", "image-url-type-mismatch"),
      ("mislabeled", "\(https)/mislabeled.png", "notification", "image-url-type-mismatch"),
      ("huge", "\(https)/huge.png", "notification", "image-url-too-large"),
      ("big-apple", "\(https)/android-too-big.jpg", "apns", nil),
      ("big-android", "\(https)/android-too-big.jpg", "android", "image-url-too-large"),
      ("chain", "\(https)/redirect/3.png", "notification", nil),
      ("loop", "\(https)/loop-a.png", "notification", "image-url-unreachable"),
      ("downgrade", "\(https)/to-http.png", "notification", "image-url-insecure-redirect"),
      ("slow", "\(https)/slow.png", "notification", "image-url-slow"),
      ("no-head", "\(https)/no-head.png", "notification", nil),
      ("again", "\(https)/missing.png", "notification", "image-url-unreachable"),
    ]
    for (name, url, field, _) in cases { try write(Self.message(image: url, at: field), to: root.appendingPathComponent("\(name).json")) }
    let run = try checkURLs(["--format", "json"] + cases.map { "\($0.0).json" }, in: root, server: server)
    XCTAssertNotEqual(run.status, 2, run.stderr)
    let found = try decode(run).diagnostics.filter { $0.rule.hasPrefix("image-url-") }
    for (name, url, field, rule) in cases {
      let mine = found.filter { $0.file == "\(name).json" }
      XCTAssertEqual(mine.map(\.rule), rule.map { [$0] } ?? [], "\(name) \(url): \(mine.map(\.message))")
      for diagnostic in mine {
        XCTAssertEqual(diagnostic.docs, "docs/rules/\(diagnostic.rule).md")
        switch field {
        case "apns": XCTAssertEqual(diagnostic.pointer, "/message/apns/fcm_options/image")
        case "android": XCTAssertEqual(diagnostic.pointer, "/message/android/notification/image")
        default:
          XCTAssertEqual(diagnostic.pointer, "/message/notification/image")
          XCTAssertEqual(diagnostic.line, 6, diagnostic.message)
          XCTAssertEqual(diagnostic.column, 16, diagnostic.message)
        }
      }
    }
    let message = { (file: String) in found.first { $0.file == file }?.message ?? "" }
    XCTAssertTrue(message("missing.json").contains("HTTP 404"), message("missing.json"))
    XCTAssertTrue(message("loop.json").contains("loop"), message("loop.json"))
    XCTAssertTrue(message("huge.json").contains("5000000 bytes") && message("huge.json").contains("send-image"), message("huge.json"))
    XCTAssertTrue(message("webp-apple.json").contains("WebP"), message("webp-apple.json"))
    // Each URL once, however many files name it: 15 distinct URLs.
    XCTAssertTrue(run.stderr.contains("fcmlint: checked 15 image URLs"), run.stderr)
  }

  /// The image fields are found as the rules find them: in either proto3 spelling, in
  /// android_v2, and in a file `--fix` rewrites (at the fixed text's places).
  func testCheckURLsFindsEveryImageFieldThroughEveryDoor() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    let missing = "https://127.0.0.1:\(server.https)/missing.png"
    try write(
      #"{"message": {"topic": "news", "notification": {"title": "Sale"}, "apns": {"fcmOptions": {"image": "\#(missing)"}}}}"#,
      to: root.appendingPathComponent("camel.json"))
    try write(
      #"{"message": {"topic": "news", "android_v2": {"remote_notification": {"notification": {"title": "Sale", "image": "\#(missing)"}}}}}"#,
      to: root.appendingPathComponent("v2.json"))
    let run = try checkURLs(["--format", "json", "camel.json", "v2.json"], in: root, server: server)
    let found = try decode(run).diagnostics.filter { $0.rule == "image-url-unreachable" }
    XCTAssertEqual(found.map(\.file), ["camel.json", "v2.json"], run.stdout + run.stderr)
    XCTAssertEqual(found.map(\.pointer), ["/message/apns/fcmOptions/image", "/message/android_v2/remote_notification/notification/image"])
    // A fixable finding before the image: --fix writes the file, and the URL is still checked.
    try write(
      #"{"message": {"topic": "news", "notification": {"title": "Sale", "image": "\#(missing)"}, "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "x"}}}}}"#,
      to: root.appendingPathComponent("fix.json"))
    let fixed = try checkURLs(["--fix", "--format", "json", "fix.json"], in: root, server: server)
    XCTAssertEqual(try decode(fixed).diagnostics.filter { $0.rule == "image-url-unreachable" }.map(\.pointer), ["/message/notification/image"], fixed.stdout + fixed.stderr)
  }

  func testCheckURLsFindingsInEveryFormat() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    try write(Self.message(image: "https://127.0.0.1:\(server.https)/missing.png"), to: root.appendingPathComponent("send.json"))
    for format in ["text", "json", "sarif", "github", "junit", "checkstyle", "ndjson"] {
      let run = try checkURLs(["--format", format, "send.json"], in: root, server: server)
      XCTAssertEqual(run.status, 1, run.stderr)
      XCTAssertTrue(run.stdout.contains("image-url-unreachable"), "\(format): \(run.stdout)")
      XCTAssertTrue(run.stdout.contains("6"), "\(format): \(run.stdout)")
    }
    let text = try checkURLs(["send.json"], in: root, server: server)
    XCTAssertTrue(text.stdout.contains("send.json:6:16: error: the image cannot be fetched: HTTP 404"), text.stdout)
  }

  func testWithoutCheckURLsNothingIsFetched() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    try write(Self.message(image: "https://127.0.0.1:\(server.https)/missing.png"), to: root.appendingPathComponent("send.json"))
    let run = try fcmlint(["--format", "json", "send.json"], in: root, environment: Self.noProxy)
    XCTAssertEqual(try decode(run).diagnostics.filter { $0.rule.hasPrefix("image-url-") }.count, 0)
    XCTAssertFalse(run.stderr.contains("image URL"), run.stderr)
  }

  func testCheckURLsFromTheConfigAndItsOverrides() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    let missing = Self.message(image: "https://127.0.0.1:\(server.https)/missing.png")
    try write(missing, to: root.appendingPathComponent("app/send.json"))
    try write(missing, to: root.appendingPathComponent("offline/send.json"))
    try write("check-urls: true\noverrides:\n  - files: [\"offline/**\"]\n    check-urls: false\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let run = try fcmlint(["--format", "json", "--url-ca-file", server.caFile, "."], in: root, environment: Self.noProxy)
    XCTAssertEqual(try decode(run).diagnostics.filter { $0.rule.hasPrefix("image-url-") }.map(\.file), ["./app/send.json"], run.stderr)
  }

  func testCheckURLsSkipsPlaceholdersAndExampleDomains() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    try write(Self.message(image: "https://cdn.example.com/a.png"), to: root.appendingPathComponent("a.json"))
    try write(Self.message(image: "https://images.shop.test/a.png"), to: root.appendingPathComponent("b.json"))
    try write(Self.message(image: "https://cdn.acme.com/{{product_id}}.png"), to: root.appendingPathComponent("c.json"))
    let run = try checkURLs(["--verbose", "--format", "json", "a.json", "b.json", "c.json"], in: root, server: server)
    XCTAssertEqual(try decode(run).diagnostics.filter { $0.rule.hasPrefix("image-url-") }.count, 0, run.stdout)
    XCTAssertTrue(run.stderr.contains("fcmlint: checked 0 image URLs"), run.stderr)
    XCTAssertTrue(run.stderr.contains("skipped image URL https://cdn.example.com/a.png (a.json:6): example.com is reserved for examples"), run.stderr)
    XCTAssertTrue(run.stderr.contains("skipped image URL https://images.shop.test/a.png (b.json:6): .test is reserved for examples"), run.stderr)
    XCTAssertTrue(run.stderr.contains("(c.json:6): it holds a placeholder"), run.stderr)
  }

  /// Without the CA the test certificate is not trusted: a TLS finding, as on a device.
  func testCheckURLsWithoutTheCAIsATLSFinding() throws {
    let server = try imageServer()
    let root = try temporaryDirectory()
    try write(Self.message(image: "https://127.0.0.1:\(server.https)/ok.png"), to: root.appendingPathComponent("send.json"))
    let run = try checkURLs(["--format", "json", "send.json"], in: root, server: server, caFile: false)
    let found = try decode(run).diagnostics.filter { $0.rule.hasPrefix("image-url-") }
    XCTAssertEqual(found.map(\.rule), ["image-url-unreachable"], run.stderr)
    XCTAssertTrue(found.first?.message.contains("TLS") == true, "\(found)")
  }

  /// Nothing answers on any host: the checker's own network, one error (exit 2), no findings.
  func testCheckURLsWithNoNetworkIsOneError() throws {
    _ = try urlCheckProgram()
    let root = try temporaryDirectory()
    // Port 9 (discard) is closed on loopback here; two hosts of the loopback range.
    try write(Self.message(image: "http://127.0.0.1:9/a.png"), to: root.appendingPathComponent("a.json"))
    try write(Self.message(image: "http://127.0.0.2:9/b.png"), to: root.appendingPathComponent("b.json"))
    let run = try fcmlint(["--check-urls", "--url-timeout", "2", "--format", "json", "."], in: root, environment: Self.noProxy)
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    XCTAssertTrue(run.stderr.contains("fcmlint: error: --check-urls: no image URL could be reached"), run.stderr)
  }

  /// Without the checker program, `--check-urls` is a clear error (exit 2) that says how to get
  /// it; linting without the flag never looks for it.
  func testCheckURLsWithoutTheProgramIsOneError() throws {
    let root = try temporaryDirectory()
    try write(Self.message(image: "https://127.0.0.1:9/a.png"), to: root.appendingPathComponent("a.json"))
    let missing = root.appendingPathComponent("no-such-program").path
    let run = try fcmlint(["--check-urls", "--format", "json", "a.json"], in: root, environment: ["FCMLINT_URL_CHECK": missing])
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    XCTAssertTrue(run.stderr.contains("FCMLINT_URL_CHECK names '\(missing)', which cannot be run"), run.stderr)
    let offline = try fcmlint(["--format", "json", "a.json"], in: root, environment: ["FCMLINT_URL_CHECK": missing])
    XCTAssertEqual(offline.status, 0, offline.stdout + offline.stderr)
  }

  /// The image URL rules' own examples, through the command line against the local server.
  func testImageURLRuleExamplesRunAgainstTheLocalServer() throws {
    let server = try imageServer()
    let rules = builtinRules().rules.filter { ReportedRules.imageURLRules.contains($0.id) }
    XCTAssertEqual(rules.map(\.id).sorted(), ReportedRules.imageURLRules.sorted())
    for rule in rules {
      for (invalid, example) in rule.examples.valid.map({ (false, $0) }) + rule.examples.invalid.map({ (true, $0) }) {
        let place = "\(rule.source):\(example.line)"
        let root = try temporaryDirectory()
        if let config = example.config { try write(config, to: root.appendingPathComponent(".fcmlint.yml")) }
        try write(example.json.replacingOccurrences(of: "127.0.0.1:8443", with: "127.0.0.1:\(server.https)"), to: root.appendingPathComponent("example.json"))
        let run = try fcmlint(
          ["--format", "json", "--url-ca-file", server.caFile, "--url-slow", "1", "example.json"], in: root, environment: Self.noProxy)
        XCTAssertNotEqual(run.status, 2, "\(place): \(run.stderr)")
        let found = try decode(run).diagnostics.filter { $0.rule == rule.id }
        if invalid {
          XCTAssertEqual(found.map(\.pointer), example.pointers, "\(place): \(run.stdout)")
        } else {
          XCTAssertEqual(found.count, 0, "\(place): a valid example triggers \(rule.id): \(run.stdout)")
        }
      }
    }
  }
}
