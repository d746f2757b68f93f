import Foundation
import XCTest

/// `--format ndjson`: one JSON object a line per diagnostic, with the document's id when asked,
/// so the outputs of a log's parts concatenate into one result (issue 31).
extension CLITests {
  static let ndjsonKeys = ["file", "line", "column", "endLine", "endColumn", "id", "rule", "severity", "pointer", "message", "docs"]

  /// Each output line, parsed on its own; fails unless every line is one JSON object with the
  /// documented keys in the documented order.
  func ndjsonLines(_ run: Run, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
    XCTAssertTrue(run.stdout.isEmpty || run.stdout.hasSuffix("\n"), run.stdout, file: file, line: line)
    return try run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { text in
      let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? [String: Any], String(text), file: file, line: line)
      // Key order, read from the text: each key's first appearance as `"key":` at the top level.
      let order = Self.ndjsonKeys.map { text.range(of: "\"\($0)\":")?.lowerBound }
      XCTAssertFalse(order.contains(nil), String(text), file: file, line: line)
      XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), String(text), file: file, line: line)
      XCTAssertEqual(Set(object.keys), Set(Self.ndjsonKeys), String(text), file: file, line: line)
      return object
    }
  }

  func testNDJSONFormatNamesEachDiagnosticsLineAndDocumentID() throws {
    let dir = try temporaryDirectory()
    let lines = [
      #"{"message": {"topic": "news", "data": {"message_id": "m-1"}, "notification": {"title": "Hi"}}}"#,
      #"{"message": {"topic": "news", "token": "t", "data": {"message_id": "m-2"}}}"#,
      "",
      #"{"message": {"data": {"message_id": "m-4", "n": 1}, "topic": "/topics/news"}}"#,
      // Not JSON (cut short): the id is read from what can be read.
      #"{"message": {"data": {"message_id": "m-5"}, "topic": "ne"#,
      // Over the limit: never read, so its id is not known.
      #"{"message": {"data": {"message_id": "m-6"}, "topic": "news", "notification": {"body": ""# + String(repeating: "x", count: 300) + #""}}}"#,
      #"not json at all"#,
      #"{"message": {"name": 7, "topic": "a b", "data": {"message_id": "m-\"8\""}}}"#,
      // Cut off after a key, which leaves nothing the linter reads: the id is read before it.
      #"{"message": {"topic": "news", "data": {"message_id": "m-9"}, "apns": {"payload": {"aps""#,
    ]
    try write(lines.joined(separator: "\r\n") + "\n", to: dir.appendingPathComponent("log.ndjson"))
    let run = try fcmlint(["--ndjson", "--format", "ndjson", "--id-field", "/message/data/message_id", "--max-file-size", "200", "log.ndjson"], in: dir)
    XCTAssertEqual(run.status, 2, "a line over the limit is an I/O error of the run: " + run.stderr)
    XCTAssertTrue(run.stderr.contains("log.ndjson:6: the document on this line is"), run.stderr)
    let objects = try ndjsonLines(run)
    XCTAssertEqual(Set(objects.map { $0["line"] as? Int }), [2, 4, 5, 6, 7, 8, 9], run.stdout)
    XCTAssertEqual(objects.map { $0["line"] as! Int }, objects.map { $0["line"] as! Int }.sorted(), "stream order")
    for object in objects {
      XCTAssertEqual(object["file"] as? String, "log.ndjson")
      let line = object["line"] as! Int
      XCTAssertEqual(object["endLine"] as? Int, line, "one document, one line")
      let expected: Any = [2: "m-2", 4: "m-4", 5: "m-5", 8: #"m-"8""#, 9: "m-9"][line] ?? NSNull()
      XCTAssertEqual(object["id"] as? NSObject, expected as? NSObject, "line \(line): \(run.stdout)")
      XCTAssertTrue((object["docs"] as? String)?.isEmpty == false)
    }
    let over = try XCTUnwrap(objects.first { $0["line"] as? Int == 6 })
    XCTAssertEqual(over["rule"] as? String, "json-syntax")
    XCTAssertTrue((over["message"] as? String)?.contains("larger than the limit of 200") == true, "\(over)")
    XCTAssertTrue(objects.contains { $0["line"] as? Int == 4 && $0["pointer"] as? String == "/message/topic" }, run.stdout)
    XCTAssertTrue(objects.contains { $0["line"] as? Int == 7 && $0["rule"] as? String == "json-syntax" }, run.stdout)
    // The id is the document's value as written: a number stays a number, any pointer is read.
    let byName = try fcmlint(["--ndjson", "--format", "ndjson", "--id-field", "/message/name", "-"], in: dir, input: .bytes(Data((lines[7] + "\n").utf8)))
    XCTAssertEqual(byName.status, 1, byName.stderr)
    XCTAssertTrue(try ndjsonLines(byName).allSatisfy { $0["id"] as? Int == 7 }, byName.stdout)
    // Without --id-field every line still has "id", null; --quiet keeps errors and their ids.
    let plain = try fcmlint(["--ndjson", "--format", "ndjson", "--max-file-size", "200", "log.ndjson"], in: dir)
    XCTAssertTrue(try ndjsonLines(plain).allSatisfy { $0["id"] is NSNull }, plain.stdout)
    XCTAssertEqual(try ndjsonLines(plain).count, objects.count)
    let quiet = try fcmlint(["--ndjson", "--format", "ndjson", "--quiet", "--id-field", "/message/data/message_id", "--max-file-size", "200", "log.ndjson"], in: dir)
    let errors = try ndjsonLines(quiet)
    XCTAssertEqual(errors.map { $0["rule"] as! String }, objects.filter { $0["severity"] as? String == "error" }.map { $0["rule"] as! String })
    XCTAssertEqual(errors.map { $0["id"] as? String }, objects.filter { $0["severity"] as? String == "error" }.map { $0["id"] as? String })
  }

  /// What Spark's `pipe()` does: each partition is linted by its own run on standard input. The
  /// runs' outputs, concatenated, are one valid result holding what one run over the whole log
  /// finds, document by document (joined by id: line numbers count within each part).
  func testNDJSONOutputsOfPartsConcatenateIntoTheWholeRunsResult() throws {
    let dir = try temporaryDirectory()
    let lines = (0..<200).map { i in
      switch i % 4 {
      case 0: return #"{"message": {"topic": "news", "data": {"message_id": "id-\#(i)"}, "notification": {"title": "Hi"}}}"#
      case 1: return #"{"message": {"topic": "news", "token": "t", "data": {"message_id": "id-\#(i)"}}}"#
      case 2: return #"{"message": {"topic": "/topics/news", "data": {"message_id": "id-\#(i)", "n": 1}}}"#
      default: return #"{"message": {"data": {"message_id": "id-\#(i)"}, "topic": "#
      }
    }
    try write(lines.joined(separator: "\n") + "\n", to: dir.appendingPathComponent("log.ndjson"))
    let arguments = ["--ndjson", "--format", "ndjson", "--id-field", "/message/data/message_id"]
    let whole = try fcmlint(arguments + ["log.ndjson"], in: dir)
    XCTAssertEqual(whole.status, 1, whole.stderr)
    var concatenated = Data()
    for (part, range) in [0..<70, 70..<71, 71..<200].enumerated() {
      let text = lines[range].joined(separator: "\n") + "\n"
      let run = try fcmlint(arguments + ["--stdin-filename", "part-\(part)", "-"], in: dir, input: .bytes(Data(text.utf8)))
      XCTAssertEqual(run.status, 1, run.stderr)
      concatenated += run.stdoutData
    }
    let parts = try ndjsonLines(Run(status: 1, stdoutData: concatenated, stderr: ""))
    let all = try ndjsonLines(whole)
    func findings(_ objects: [[String: Any]]) -> [String] {
      objects.map { "\($0["id"] as? String ?? "null") \($0["rule"]!) \($0["pointer"]!) \($0["column"]!) \($0["message"]!)" }.sorted()
    }
    XCTAssertEqual(findings(parts), findings(all))
    XCTAssertEqual(Set(all.compactMap { $0["id"] as? String }).count, 150, "every document with a finding, by its id")
    XCTAssertFalse(all.contains { $0["id"] is NSNull }, whole.stdout)
  }

  /// The format streams under --ndjson: a batch's lines are written before the input ends.
  func testNDJSONFormatStreams() throws {
    let executable = try XCTUnwrap(Self.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--ndjson", "--format", "ndjson", "--id-field", "/message/data/message_id", "-"]
    process.currentDirectoryURL = try temporaryDirectory()
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
    let bad = #"{"message": {"topic": "news", "token": "t", "data": {"message_id": "first"}}}"# + "\n"
    let good = #"{"message": {"topic": "news", "notification": {"title": "Hi"}}}"# + "\n"
    input.fileHandleForWriting.write(Data((bad + String(repeating: good, count: 9000)).utf8))
    let first = DataBox()
    let read = DispatchSemaphore(value: 0)
    let handle = output.fileHandleForReading
    DispatchQueue.global().async {
      first.set(handle.availableData)
      read.signal()
    }
    XCTAssertEqual(read.wait(timeout: .now() + 30), .success, "nothing written while the input is open")
    let text = String(decoding: first.data, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix(#"{"file":"<stdin>","line":1,"column":"#), text)
    XCTAssertTrue(text.contains(#""id":"first","rule":"target-exactly-one""#), text)
  }

  func testIDFieldNeedsTheNDJSONFormatAndAPointer() throws {
    let dir = try temporaryDirectory()
    try write("{}\n", to: dir.appendingPathComponent("a.json"))
    for (arguments, message) in [
      (["--id-field", "/message/name", "a.json"], "--id-field names each line's id: it needs --ndjson and --format ndjson"),
      (["--ndjson", "--id-field", "/message/name", "a.json"], "it needs --ndjson and --format ndjson"),
      (["--ndjson", "--format", "ndjson", "--id-field", "message.name", "a.json"], "--id-field takes a JSON Pointer"),
    ] {
      let run = try fcmlint(arguments, in: dir)
      XCTAssertEqual(run.status, 2, run.stderr)
      XCTAssertTrue(run.stderr.contains(message), run.stderr)
    }
    // Files, not streams: the same lines, without ids; nothing else is written (no summary).
    try write(#"{"message": {"topic": "a b"}}"#, to: dir.appendingPathComponent("b.json"))
    let files = try fcmlint(["--format", "ndjson", "b.json"], in: dir)
    XCTAssertEqual(files.status, 1, files.stderr)
    let objects = try ndjsonLines(files)
    XCTAssertEqual(objects.count, 1, files.stdout)
    XCTAssertEqual(objects.first?["file"] as? String, "b.json")
    XCTAssertEqual(objects.first?["pointer"] as? String, "/message/topic")
  }
}
