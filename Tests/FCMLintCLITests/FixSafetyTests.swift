import FCMLintEngine
import FCMLintFixes
import FCMLintJSON
import FCMLintRuleTestSupport
import Foundation
import XCTest
import CSystemHeaders

/// Issue 13: fixes that broke the document. Each case below damaged a file before the fix pass
/// was checked: two fixes creating one key, a fix feeding itself pass after pass, inserted lines
/// with the wrong line ending, the ttl fix writing "1e3s", a fix rewriting escapes it did not
/// touch, and one file fixed twice at once.
extension HostileInputTests {
  func fixed(_ text: String, file: String = "a.json") -> Fixer.Result {
    Fixer(linter: Linter(rules: builtinRules())).fix(bytes: Array(text.utf8), file: file)
  }

  func duplicateKeys(_ bytes: [UInt8]) -> Int {
    guard case .success(let document) = JSONParser.parse(bytes) else { return -1 }
    return document.duplicateKeys.count
  }

  func testTwoRenamesToOneKeyAreNotBothApplied() throws {
    let text = #"{"message": {"topic": "news", "notification": {"title": "Hi"}, "apns": {"payload": {"aps": {"mutable_content": 1, "mutableContent": 1}}}}}"#
    let result = fixed(text)
    XCTAssertEqual(duplicateKeys(result.bytes), 0, String(decoding: result.bytes, as: UTF8.self))
    let aps = #"{"mutable-content": 1, "mutableContent": 1}"#
    XCTAssertTrue(String(decoding: result.bytes, as: UTF8.self).contains(aps), String(decoding: result.bytes, as: UTF8.self))
    XCTAssertEqual(result.refused.count, 1, "\(result.refused)")
    XCTAssertTrue(result.refused.first?.contains("duplicate key") == true, "\(result.refused)")
    // What was left is still reported.
    XCTAssertEqual(result.diagnostics.filter { $0.rule == "apns-aps-key" }.map(\.pointer), ["/message/apns/payload/aps/mutableContent"])
  }

  func testRenamesDoNotTradeOneDuplicateKeyForAnother() throws {
    // One duplicate (thread_id twice). Renaming the second thread_id and threadId together would
    // keep the count of duplicates at one, but trade it for a new one, thread-id.
    let text = #"{"message": {"topic": "t", "apns": {"payload": {"aps": {"thread_id": "a", "thread_id": "b", "threadId": "c", "alert": "x"}}}}}"#
    let result = fixed(text)
    let out = String(decoding: result.bytes, as: UTF8.self)
    guard case .success(let document) = JSONParser.parse(result.bytes) else { return XCTFail("broken: \(out)") }
    XCTAssertEqual(document.duplicateKeys.compactMap { document.key($0) }, [], out)
    XCTAssertTrue(result.refused.contains { $0.contains("duplicate key 'thread-id'") }, "\(result.refused)")
  }

  func testAShadowedMemberIsNotRenamed() throws {
    // FCM reads the last of two equal keys; renaming the first would bring back the value the
    // author overrode ("a"), and renaming both would make a new duplicate.
    let text = #"{"message": {"topic": "t", "apns": {"payload": {"aps": {"thread_id": "a", "thread_id": "b", "alert": "x"}}}}}"#
    let result = fixed(text)
    let out = String(decoding: result.bytes, as: UTF8.self)
    XCTAssertEqual(out, #"{"message": {"topic": "t", "apns": {"payload": {"aps": {"thread_id": "a", "thread-id": "b", "alert": "x"}}}}}"#)
    XCTAssertEqual(duplicateKeys(result.bytes), 0, out)
  }

  func testARenameAndASetOfTheSameKeyAreNotBothApplied() throws {
    // The image needs "mutable-content" (a set), and the misspelled key is renamed to it.
    let text = #"{"message": {"topic": "news", "notification": {"title": "Hi", "image": "https://example.com/a.png"}, "apns": {"payload": {"aps": {"mutable_content": 1}}}}}"#
    let result = fixed(text)
    XCTAssertEqual(duplicateKeys(result.bytes), 0, String(decoding: result.bytes, as: UTF8.self))
    guard case .success(let document) = JSONParser.parse(result.bytes) else { return XCTFail("broken") }
    let aps = try XCTUnwrap(JSONPath.member(document, try XCTUnwrap(JSONPath.member(document, try XCTUnwrap(JSONPath.member(document, try XCTUnwrap(JSONPath.member(document, JSONDocument.root, "message")), "apns")), "payload")), "aps"))
    XCTAssertEqual(document.children(aps).compactMap { document.key($0) }.filter { $0 == "mutable-content" }.count, 1)
  }

  func testAFixThatFeedsItselfStopsAtTheGrowthLimit() throws {
    let dir = try temporaryDirectory()
    try write(
      """
      id: data-is-string
      severity: error
      summary: data must be a string
      description: A rule whose fix makes its own problem twice as big, pass after pass.
      docs: https://example.com
      given: $.message.data
      then:
        function: type
        options: {type: [string]}
      fix:
        replaceValue: '[{raw}, {raw}]'
      """, dir.appendingPathComponent("rules/grow.yml"))
    try write("{}\n", dir.appendingPathComponent("empty.yml"))
    let payload = #"{"message": {"topic": "news", "data": {"k": ""# + String(repeating: "x", count: 100_000) + #""}}}"#
    try write(payload, dir.appendingPathComponent("a.json"))
    let run = try fcmlint(["--config", "empty.yml", "--rules", "rules", "--fix", "a.json"], in: dir)
    XCTAssertEqual(run.status, 1, run.stderr)
    let size = try Data(contentsOf: dir.appendingPathComponent("a.json")).count
    XCTAssertLessThanOrEqual(size, Fixer.growthLimit(payload.utf8.count), "grew from \(payload.utf8.count) to \(size) bytes")
    XCTAssertTrue(run.stderr.contains("fcmlint: note: a.json: data-is-string:"), run.stderr)
    XCTAssertTrue(run.stderr.contains("would grow past"), run.stderr)
  }

  func testInsertedLinesUseTheFilesLineEnding() throws {
    let lines = ["{", "  \"message\": {", "    \"topic\": \"news\",", "    \"notification\": {\"title\": \"Hi\", \"image\": \"https://example.com/a.png\"},", "    \"apns\": {", "      \"headers\": {\"apns-priority\": \"10\"}", "    }", "  }", "}"]
    for (name, newline) in [("LF", "\n"), ("CRLF", "\r\n"), ("CR", "\r")] {
      let result = fixed(lines.joined(separator: newline) + newline)
      let out = String(decoding: result.bytes, as: UTF8.self)
      XCTAssertTrue(out.contains("\"mutable-content\": 1"), "\(name): \(out)")
      let breaks = out.unicodeScalars.filter { $0 == "\n" || $0 == "\r" }
      let expected = newline.unicodeScalars.count == 2 ? out.components(separatedBy: "\r\n").count - 1 : breaks.count
      switch name {
      case "LF": XCTAssertFalse(out.contains("\r"), name)
      case "CR": XCTAssertFalse(out.contains("\n"), name)
      default: XCTAssertEqual(breaks.count, expected * 2, "every break is CRLF")
      }
    }
    // Mixed: the ending most lines use, not CRLF because one CR is there.
    let mixed = lines.enumerated().map { $0.element + ($0.offset == 0 ? "\r\n" : "\n") }.joined()
    XCTAssertEqual(String(decoding: fixed(mixed).bytes, as: UTF8.self).components(separatedBy: "\r\n").count, 2)
  }

  func testTheTTLFixWritesADurationNeverAnExponent() throws {
    for (number, duration) in [("1e3", "\"1000s\""), ("1000.0", "\"1000s\""), ("2.5E+1", "\"25s\""), ("1e-9", "\"0.000000001s\""), ("1e-10", "1e-10")] {
      let out = String(decoding: fixed(#"{"message": {"topic": "news", "android": {"ttl": \#(number)}}}"#).bytes, as: UTF8.self)
      XCTAssertEqual(out, #"{"message": {"topic": "news", "android": {"ttl": \#(duration)}}}"#, number)
    }
  }

  func testFixesKeepEveryByteTheyDoNotEdit() throws {
    // Escapes in the key renamed, in the value next to it, in the topic whose prefix is dropped
    // (escaped ASCII: the prefix fix is offered only where the bare name is valid, and "café" is not).
    let text = #"{"message": {"topic": "\/topics\/caf\u0065", "data": {"k\u00e9y": 1}, "apns": {"payload": {"aps": {"alert": "\u00e9\ud83d\ude00", "thread_id": "a\/b"}}}}}"#
    let out = String(decoding: fixed(text).bytes, as: UTF8.self)
    XCTAssertEqual(out, #"{"message": {"topic": "caf\u0065", "data": {"k\u00e9y": "1"}, "apns": {"payload": {"aps": {"alert": "\u00e9\ud83d\ude00", "thread-id": "a\/b"}}}}}"#)
  }

  func testOneFileReachedTwiceIsFixedOnce() throws {
    let dir = try temporaryDirectory()
    let text = #"{"message": {"topic": "news", "data": {"n": 1}}}"#
    try write(text, dir.appendingPathComponent("p/a.json"))
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: "p/a.json")
    let run = try fcmlint(["--fix", "--format", "json", "p/a.json", "./p/a.json", "p", "link.json"], in: dir)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertTrue(run.stdout.contains(#""files":1,"#) && run.stdout.contains(#""fixed":1,"#), run.stdout)
    XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("p/a.json"), encoding: .utf8), #"{"message": {"topic": "news", "data": {"n": "1"}}}"#)
  }

  // MARK: What a fixed file keeps

  func fixableFile(in dir: URL) throws -> (URL, String) {
    let url = dir.appendingPathComponent("a.json")
    let text = #"{"message": {"topic": "news", "data": {"n": 1}}}"#
    try write(text, url)
    return (url, text)
  }

  func testExtendedAttributesAndACLsAreKept() throws {
    let dir = try temporaryDirectory()
    let (url, _) = try fixableFile(in: dir)
    let value = Array("kept".utf8)
    guard setxattr(url.path, "user.fcmlint-test", value, value.count, 0) == 0 else {
      throw XCTSkip("this file system has no user extended attributes (\(String(cString: strerror(errno))))")
    }
    let setfacl = ["/usr/bin/setfacl", "/bin/setfacl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    if let setfacl { XCTAssertEqual(try shell(setfacl, ["-m", "u:65534:rw", url.path]), 0) }
    let aclBefore = attribute(url.path, "system.posix_acl_access")
    let modeBefore = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int

    let run = try fcmlint(["--fix", "a.json"], in: dir)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), #"{"message": {"topic": "news", "data": {"n": "1"}}}"#)
    XCTAssertEqual(attribute(url.path, "user.fcmlint-test"), value)
    XCTAssertEqual(attribute(url.path, "system.posix_acl_access"), aclBefore, "the ACL, named user and mask included")
    XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int, modeBefore)
    if setfacl == nil { throw XCTSkip("setfacl is not installed: the ACL part was not checked") }
  }

  func testAHardLinkedFileIsRefusedNotSplit() throws {
    let dir = try temporaryDirectory()
    let (url, text) = try fixableFile(in: dir)
    try FileManager.default.linkItem(atPath: url.path, toPath: dir.appendingPathComponent("other-name.json").path)
    let run = try fcmlint(["--fix", "a.json"], in: dir)
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    XCTAssertTrue(run.stderr.contains("a.json: has 2 hard links"), run.stderr)
    for name in ["a.json", "other-name.json"] {
      XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8), text, name)
    }
  }

  func testTheOwnerIsKeptOrTheFixRefused() throws {
    guard geteuid() == 0 else { throw XCTSkip("needs root to give files to another user") }
    let dir = try temporaryDirectory()
    XCTAssertEqual(chmod(dir.path, 0o777), 0)
    // Root fixing another user's file: the file stays theirs.
    let (url, text) = try fixableFile(in: dir)
    XCTAssertEqual(chown(url.path, 65534, 65534), 0)
    XCTAssertEqual(try fcmlint(["--fix", "a.json"], in: dir).status, 0)
    var info = stat()
    XCTAssertEqual(stat(url.path, &info), 0)
    XCTAssertEqual([info.st_uid, info.st_gid], [65534, 65534])
    // Another user fixing root's file, writable by all: refused, since the copy would be theirs.
    try write(text, url)
    XCTAssertEqual(chown(url.path, 0, 0), 0)
    XCTAssertEqual(chmod(url.path, 0o666), 0)
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("no setpriv to drop privileges") }
    let run = try fcmlint(
      ["--fix", "a.json"], in: dir, launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    if run.stderr.contains("setpriv:") { throw XCTSkip("setpriv cannot drop privileges here: \(run.stderr)") }
    XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
    XCTAssertTrue(run.stderr.contains("belongs to user 0, group 0"), run.stderr)
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), text)
    XCTAssertEqual(stat(url.path, &info), 0)
    XCTAssertEqual([info.st_uid, info.st_gid], [0, 0])
  }

  private func attribute(_ path: String, _ name: String) -> [UInt8]? {
    let size = getxattr(path, name, nil, 0)
    guard size >= 0 else { return nil }
    var value = [UInt8](repeating: 0, count: max(size, 1))
    let read = getxattr(path, name, &value, size)
    return read >= 0 ? Array(value.prefix(read)) : nil
  }

  private func shell(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}

/// Found by fuzz-lint: two template strings that render to the same sample text made a message
/// quote either one, in the order of a dictionary, which changes from process to process.
extension HostileInputTests {
  func testATemplateFindingQuotesItsOwnStringInEveryRun() throws {
    let dir = try temporaryDirectory()
    let text = #"""
      {"message": {"topic": "news", "notification": {"title": "Hi"},
        "android": {"notification": {"image": "http:/s/cdn.example.com/{{ image_id }}"}},
        "android_v3": {"notification": {"image": "http:/s/cdn.example.com/{{ imagedi_ }}"}}}}
      """#
    try write(text, dir.appendingPathComponent("t.json"))
    var outputs = Set<String>()
    for _ in 0..<8 { outputs.insert(try fcmlint(["--format", "json", "t.json"], in: dir).stdout) }
    XCTAssertEqual(outputs.count, 1, "\(outputs)")
    XCTAssertTrue(outputs.first?.contains("{{ image_id }}' is not an absolute") == true, outputs.first ?? "")
  }
}
