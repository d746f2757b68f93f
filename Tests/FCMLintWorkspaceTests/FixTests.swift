import FCMLintEngine
import FCMLintFixes
import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import Foundation
import XCTest

/// Fixes are minimal edits: everything outside them stays byte-identical, fixing twice changes
/// nothing more, and files are replaced atomically or not at all.
final class FixTests: XCTestCase {
  lazy var fixer = Fixer(linter: Linter(rules: builtinRules()))

  func fixed(_ text: String) -> (String, Int) {
    let result = fixer.fix(bytes: Array(text.utf8), file: "t.json")
    return (String(decoding: result.bytes, as: UTF8.self), result.fixed)
  }

  /// The same document in several layouts, each with `aps` missing its "mutable-content".
  func testMutableContentFixKeepsEachLayout() {
    let cases: [(String, String, String)] = [
      ("compact",
       #"{"message":{"topic":"n","apns":{"payload":{"aps":{"alert":"Hi"}},"fcm_options":{"image":"https://e.com/a.png"}}}}"#,
       #"{"message":{"topic":"n","apns":{"payload":{"aps":{"alert":"Hi","mutable-content":1}},"fcm_options":{"image":"https://e.com/a.png"}}}}"#),
      ("2 spaces",
       "{\n  \"message\": {\n    \"topic\": \"n\",\n    \"apns\": {\n      \"payload\": {\n        \"aps\": {\n          \"alert\": \"Hi\"\n        }\n      },\n      \"fcm_options\": {\"image\": \"https://e.com/a.png\"}\n    }\n  }\n}\n",
       "{\n  \"message\": {\n    \"topic\": \"n\",\n    \"apns\": {\n      \"payload\": {\n        \"aps\": {\n          \"alert\": \"Hi\",\n          \"mutable-content\": 1\n        }\n      },\n      \"fcm_options\": {\"image\": \"https://e.com/a.png\"}\n    }\n  }\n}\n"),
      ("4 spaces, payload missing",
       "{\n    \"message\": {\n        \"topic\": \"n\",\n        \"notification\": {\"title\": \"Hi\"},\n        \"apns\": {\n            \"fcm_options\": {\n                \"image\": \"https://e.com/a.png\"\n            }\n        }\n    }\n}\n",
       "{\n    \"message\": {\n        \"topic\": \"n\",\n        \"notification\": {\"title\": \"Hi\"},\n        \"apns\": {\n            \"fcm_options\": {\n                \"image\": \"https://e.com/a.png\"\n            },\n            \"payload\": {\n                \"aps\": {\n                    \"mutable-content\": 1\n                }\n            }\n        }\n    }\n}\n"),
      ("tabs, CRLF",
       "{\r\n\t\"message\": {\r\n\t\t\"topic\": \"n\",\r\n\t\t\"apns\": {\r\n\t\t\t\"payload\": {\r\n\t\t\t\t\"aps\": {\r\n\t\t\t\t\t\"alert\": \"Hi\"\r\n\t\t\t\t}\r\n\t\t\t},\r\n\t\t\t\"fcm_options\": {\"image\": \"https://e.com/a.png\"}\r\n\t\t}\r\n\t}\r\n}\r\n",
       "{\r\n\t\"message\": {\r\n\t\t\"topic\": \"n\",\r\n\t\t\"apns\": {\r\n\t\t\t\"payload\": {\r\n\t\t\t\t\"aps\": {\r\n\t\t\t\t\t\"alert\": \"Hi\",\r\n\t\t\t\t\t\"mutable-content\": 1\r\n\t\t\t\t}\r\n\t\t\t},\r\n\t\t\t\"fcm_options\": {\"image\": \"https://e.com/a.png\"}\r\n\t\t}\r\n\t}\r\n}\r\n"),
      ("string value replaced in place",
       "{\"message\": {\"topic\": \"n\", \"notification\": {\"title\": \"Hi\", \"image\": \"https://e.com/a.png\"},\n  \"apns\": {\"payload\": {\"aps\": {\"mutable-content\": \"1\"}}}}}\n",
       "{\"message\": {\"topic\": \"n\", \"notification\": {\"title\": \"Hi\", \"image\": \"https://e.com/a.png\"},\n  \"apns\": {\"payload\": {\"aps\": {\"mutable-content\": 1}}}}}\n"),
    ]
    for (name, input, expected) in cases {
      let (output, count) = fixed(input)
      XCTAssertEqual(output, expected, name)
      XCTAssertGreaterThanOrEqual(count, 1, name)
      // Idempotent: a second run changes nothing.
      XCTAssertEqual(fixed(output).0, output, "\(name): not idempotent")
      // The fixed file re-lints clean for the fixed rule.
      let after = Linter(rules: builtinRules()).lint(bytes: Array(output.utf8), file: "t.json")
      XCTAssertFalse(after.contains { $0.rule == "apns-image-mutable-content" }, name)
    }
  }

  func testOverlappingEditsApplyOnlyTheFirst() {
    let bytes = Array("abcdef".utf8)
    let first = Fix(description: "a", edits: [TextEdit(start: 1, end: 3, replacement: "X")])
    let second = Fix(description: "b", edits: [TextEdit(start: 2, end: 4, replacement: "Y")])
    let third = Fix(description: "c", edits: [TextEdit(start: 5, end: 5, replacement: "Z")])
    let (out, applied) = Fixer.apply([first, second, third], to: bytes)
    XCTAssertEqual(String(decoding: out, as: UTF8.self), "aXdeZf")
    XCTAssertEqual(applied, 2)
  }

  func testUnifiedDiff() {
    let diff = UnifiedDiff.make(Array("a\nb\nc\n".utf8), Array("a\nB\nc\n".utf8), path: "x.json")
    XCTAssertEqual(diff, "--- x.json\n+++ x.json (fixed)\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n")
    XCTAssertEqual(UnifiedDiff.make(Array("same".utf8), Array("same".utf8), path: "x"), "")
  }

  // MARK: - Writing

  func temporaryFile(_ text: String, mode: Int = 0o640) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fcmlint-fix-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("m.json").path
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    return path
  }

  func testSafeWriterKeepsModeAndLeavesNoTemporaryFile() throws {
    let path = try temporaryFile("old", mode: 0o640)
    XCTAssertNil(SafeWriter.replace(path, expecting: Array("old".utf8), with: Array("new".utf8)))
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new")
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    XCTAssertEqual(mode, 0o640)
    let folder = (path as NSString).deletingLastPathComponent
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["m.json"])
  }

  func testSafeWriterRefusesAFileChangedMeanwhile() throws {
    let path = try temporaryFile("changed by someone else")
    let failure = SafeWriter.replace(path, expecting: Array("what was read".utf8), with: Array("fixed".utf8))
    XCTAssertNotNil(failure)
    XCTAssertTrue(failure!.message.contains("changed on disk"), failure!.message)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "changed by someone else")
    let folder = (path as NSString).deletingLastPathComponent
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["m.json"])
  }

  func testSafeWriterReportsAnUnwritableFolder() throws {
    guard getuid() != 0 else { throw XCTSkip("root ignores directory permissions") }
    let path = try temporaryFile("old")
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
    XCTAssertNotNil(SafeWriter.replace(path, expecting: Array("old".utf8), with: Array("new".utf8)))
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
  }
}
