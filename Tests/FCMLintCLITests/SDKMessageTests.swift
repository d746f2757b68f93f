import FCMLintCLI
import FCMLintEngine
import FCMLintTestSupport
import FCMLintWorkspace
import XCTest

/// The Firebase Admin SDKs' (Node, Go, Java, Python) own unit-test messages in their REST form (Tests/Fixtures/sdk, listed
/// with their sources in Tests/Fixtures/sdk/README.md and manifest.tsv, written by
/// scripts/sdk-messages/generate.py). Issue 15's acceptance: every message an SDK rejects gets at
/// least a warning from a rule meant for it, and no message an SDK encodes as valid gets an error
/// (except the few listed as `allow:` in the manifest, where FCM or the device fails on a
/// placeholder value the SDK passes on unchecked).
final class SDKMessageTests: XCTestCase {
  struct Entry {
    var file: String
    var rules: [String]
    var allowed: [String]
    var valid: Bool
  }

  func manifest() throws -> [Entry] {
    try Repository.read("Tests/Fixtures/sdk/manifest.tsv").split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      XCTAssertEqual(columns.count, 4, String(line))
      let valid = columns[0].contains("/valid/")
      let rules = columns[1] == "-" ? [] : columns[1].split(separator: ",").map(String.init)
      if valid {
        return Entry(file: columns[0], rules: [], allowed: columns[1].hasPrefix("allow:") ? columns[1].dropFirst(6).split(separator: ",").map(String.init) : [], valid: true)
      }
      return Entry(file: columns[0], rules: rules, allowed: [], valid: false)
    }
  }

  func testManifestListsEveryFixture() throws {
    let (files, errors) = FileSystem.files(under: Repository.path("Tests/Fixtures/sdk")) { $0.hasSuffix(".json") }
    XCTAssertTrue(errors.isEmpty, "\(errors)")
    let prefix = Repository.path("Tests/Fixtures/sdk") + "/"
    let onDisk = Set(files.map { String($0.dropFirst(prefix.count)) })
    let listed = Set(try manifest().map(\.file))
    XCTAssertEqual(onDisk.subtracting(listed).sorted(), [], "fixtures missing from manifest.tsv")
    XCTAssertEqual(listed.subtracting(onDisk).sorted(), [], "manifest.tsv entries without a file")
  }

  func testRejectedMessagesAreFlaggedByTheirRule() throws {
    let linter = Linter(rules: builtinRules())
    var counts: [String: (flagged: Int, total: Int)] = [:]
    for entry in try manifest() where !entry.valid {
      guard case .success(let bytes) = FileSystem.read(Repository.path("Tests/Fixtures/sdk/" + entry.file)) else {
        XCTFail("unreadable \(entry.file)")
        continue
      }
      let found = linter.lint(bytes: bytes, file: entry.file)
      XCTAssertFalse(entry.rules.contains("json-syntax"), entry.file)
      XCTAssertFalse(found.contains { $0.rule == "json-syntax" }, "\(entry.file) is not valid JSON")
      let flagged = found.contains { entry.rules.contains($0.rule) && $0.severity != .info }
      XCTAssertTrue(flagged, "\(entry.file): no warning or error from \(entry.rules); found \(found.map { "\($0.rule): \($0.message)" })")
      let sdk = String(entry.file.prefix { $0 != "/" })
      counts[sdk, default: (0, 0)].total += 1
      if flagged { counts[sdk, default: (0, 0)].flagged += 1 }
    }
    XCTAssertEqual(Set(counts.keys), ["node", "go", "java", "python"])
  }

  func testValidMessagesGetNoError() throws {
    let linter = Linter(rules: builtinRules())
    for entry in try manifest() where entry.valid {
      guard case .success(let bytes) = FileSystem.read(Repository.path("Tests/Fixtures/sdk/" + entry.file)) else {
        XCTFail("unreadable \(entry.file)")
        continue
      }
      let errors = linter.lint(bytes: bytes, file: entry.file).filter { $0.severity == .error }
      XCTAssertEqual(errors.filter { !entry.allowed.contains($0.rule) }.map { "\($0.rule) \($0.pointer): \($0.message)" }, [], entry.file)
      // An allowance that no longer fires is stale: take it out of generate.py.
      for rule in entry.allowed {
        XCTAssertTrue(errors.contains { $0.rule == rule }, "\(entry.file): allowed \(rule) does not fire any more")
      }
    }
  }
}
