import Foundation
import XCTest

/// `--fix` and `--fix-dry-run` through the real binary.
extension CLITests {
  static let unfixed = """
    {
      "message": {
        "topic": "/topics/news",
        "notification": {"title": "Hi", "image": "https://e.com/a.png"},
        "data": {"count": 3},
        "apns": {"fcm_options": {"image": "https://e.com/a.png"}}
      }
    }

    """
  static let fixedText = """
    {
      "message": {
        "topic": "news",
        "notification": {"title": "Hi", "image": "https://e.com/a.png"},
        "data": {"count": "3"},
        "apns": {"fcm_options": {"image": "https://e.com/a.png"}, "payload": {"aps": {"mutable-content": 1}}}
      }
    }

    """

  func testFixWritesTheFileAndReportsWhatRemains() throws {
    let folder = try temporaryDirectory()
    let file = folder.appendingPathComponent("m.json")
    try write(Self.unfixed, to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)

    let run = try fcmlint(["--fix", "m.json"], in: folder)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), Self.fixedText)
    XCTAssertTrue(run.stdout.contains("3 fixed"), run.stdout)
    XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["m.json"], "no temporary file left")

    // Idempotent: a second run finds nothing to fix and leaves the bytes alone.
    let again = try fcmlint(["--fix", "m.json"], in: folder)
    XCTAssertEqual(again.status, 0)
    XCTAssertFalse(again.stdout.contains("fixed"), again.stdout)
    XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), Self.fixedText)
  }

  func testFixDryRunPrintsADiffAndWritesNothing() throws {
    let folder = try temporaryDirectory()
    let file = folder.appendingPathComponent("m.json")
    try write(Self.unfixed, to: file)
    let run = try fcmlint(["--fix-dry-run", "m.json"], in: folder)
    XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), Self.unfixed, "dry run must not write")
    XCTAssertTrue(run.stdout.hasPrefix("--- m.json\n+++ m.json (fixed)\n@@ -1,8 +1,8 @@\n"), run.stdout)
    XCTAssertTrue(run.stdout.contains("\n-    \"topic\": \"/topics/news\",\n"), run.stdout)
    XCTAssertTrue(run.stdout.contains("\n+    \"topic\": \"news\",\n"), run.stdout)
    XCTAssertEqual(run.status, 0, "what remains after the fixes decides the exit code")
  }

  func testFixOnStandardInputPrintsTheFixedDocument() throws {
    let run = try fcmlint(["--fix", "--stdin-filename", "m.json", "-"], input: .bytes(Data(Self.unfixed.utf8)))
    XCTAssertEqual(run.stdout, Self.fixedText)
    XCTAssertTrue(run.stderr.contains("3 fixed"), run.stderr)
    XCTAssertEqual(run.status, 0)
  }

  func testUnfixableProblemsKeepTheExitCode() throws {
    let folder = try temporaryDirectory()
    try write(#"{"message": {"topic": "a b", "data": {"n": 1}}}"#, to: folder.appendingPathComponent("m.json"))
    let run = try fcmlint(["--fix", "--format", "json", "m.json"], in: folder)
    XCTAssertEqual(run.status, 1, "the malformed topic remains")
    XCTAssertTrue(run.stdout.contains(#""fixed":1"#), run.stdout)
    XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("m.json"), encoding: .utf8), #"{"message": {"topic": "a b", "data": {"n": "1"}}}"#)
  }

  func testJSONOutputCarriesFixesAsEdits() throws {
    let run = try fcmlint(["--format", "json", "-"], input: .bytes(Data(#"{"message": {"topic": "/topics/news"}}"#.utf8)))
    XCTAssertEqual(run.status, 1)
    // The edit removes the prefix alone; the rest of the string keeps its bytes.
    XCTAssertTrue(run.stdout.contains(#""fix":{"description":"drop the \"/topics/\" prefix","edits":[{"offset":23,"endOffset":31,"line":1,"column":24,"endLine":1,"endColumn":32,"text":""}]}"#), run.stdout)
  }

  func testFixAndDryRunExcludeEachOther() throws {
    XCTAssertEqual(try fcmlint(["--fix", "--fix-dry-run", "x.json"]).status, 2)
  }
}
