import Foundation
import XCTest

/// `fcmlint .` in a folder that looks like an app's repository: its ordinary JSON files are
/// skipped, dependency and build folders and what `.gitignore` excludes are not walked, and only
/// the payloads are reported (issue 14).
extension CLITests {
  /// An app's repository: configuration files of every common tool, a dependency folder, build
  /// output, a generated folder named in .gitignore, and one payload with one mistake.
  func appRepository() throws -> URL {
    let root = try temporaryDirectory()
    let files: [String: String] = [
      "package.json": #"{"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}, "dependencies": {"firebase-admin": "^12.0.0"}}"#,
      "package-lock.json": #"{"name": "app", "lockfileVersion": 3, "requires": true, "packages": {}}"#,
      "tsconfig.json": "{\n  // strict mode\n  \"compilerOptions\": {\"strict\": true,},\n}\n",
      "firebase.json": #"{"hosting": {"public": "dist"}, "functions": {"source": "functions"}}"#,
      ".vscode/settings.json": "{\n  \"editor.formatOnSave\": true, // on\n}\n",
      "composer.json": #"{"name": "acme/app", "require": {"php": ">=8.1"}}"#,
      "schemas/message.schema.json": #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}"#,
      "node_modules/firebase-admin/package.json": #"{"name": "firebase-admin"}"#,
      "node_modules/some-lib/fixtures/message.json": #"{"message": {"token": "a", "topic": "b"}}"#,
      "dist/payload.json": #"{"message": {"token": "a", "topic": "b"}}"#,
      "generated/payload.json": #"{"message": {"token": "a", "topic": "b"}}"#,
      ".gitignore": "generated/\n*.local.json\n",
      "payloads/mine.local.json": #"{"message": {"token": "a", "topic": "b"}}"#,
      "payloads/welcome.json": #"{"message": {"topic": "news", "notification": {"title": "Hi", "image": "https://cdn.example.com/w.png"}}}"#,
      "payloads/broken.json": #"{"message": {"topic": "news", "apns": {"payload": {"aps": {"mutable_content": 1}}}}}"#,
    ]
    for (path, text) in files { try write(text, to: root.appendingPathComponent(path)) }
    return root
  }

  func testAnAppRepositoryReportsOnlyItsPayloads() throws {
    let root = try appRepository()
    let run = try fcmlint(["--format", "json", "."], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    let output = try decode(run)
    XCTAssertEqual(Set(output.diagnostics.map(\.file)), ["./payloads/broken.json"])
    XCTAssertEqual(output.diagnostics.map(\.rule), ["apns-aps-key"])
    XCTAssertEqual(output.summary.files, 2)
    // package.json, package-lock.json, tsconfig.json, firebase.json, composer.json, the schema.
    XCTAssertTrue(run.stdout.contains(#""skipped":6"#), run.stdout)

    // Without the mistake the repository is clean.
    try FileManager.default.removeItem(at: root.appendingPathComponent("payloads/broken.json"))
    let clean = try fcmlint(["."], in: root)
    XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
    XCTAssertTrue(clean.stdout.contains("no problems in 1 file; 6 files skipped, not FCM documents"), clean.stdout)
  }

  func testVerboseListsSkippedFilesAndWhy() throws {
    let root = try appRepository()
    let run = try fcmlint(["--verbose", "package.json", "tsconfig.json", ".vscode/settings.json", "payloads/welcome.json"], in: root)
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(
      run.stderr.split(separator: "\n").map(String.init),
      [
        "fcmlint: linted 1 file: payloads/welcome.json",
        #"fcmlint: skipped .vscode/settings.json: not an FCM document: it is not valid JSON, and its keys ("editor.formatOnSave") are not those of an FCM message"#,
        #"fcmlint: skipped package.json: not an FCM document: its keys ("name", "version", "scripts", ...) are not those of an FCM message"#,
        #"fcmlint: skipped tsconfig.json: not an FCM document: it is not valid JSON, and its keys ("compilerOptions") are not those of an FCM message"#,
      ])
    // Without --verbose only the count.
    let quiet = try fcmlint(["package.json"], in: root)
    XCTAssertEqual(quiet.stderr, "")
    XCTAssertEqual(quiet.stdout, "no problems in 0 files; 1 file skipped, not FCM documents (--verbose lists them)\n")
  }

  func testInputForcesAKindOnAnyFile() throws {
    let root = try appRepository()
    let run = try fcmlint(["--format", "json", "--input", "message", "package.json"], in: root)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(Set(try decode(run).diagnostics.map(\.rule)), ["unknown-field", "target-exactly-one"])
  }

  func testWalksSkipDefaultFoldersAndGitignoredFilesUnlessTold() throws {
    let root = try appRepository()
    try FileManager.default.removeItem(at: root.appendingPathComponent("payloads/broken.json"))
    // Not walked: node_modules, dist, generated/ (.gitignore), *.local.json (.gitignore).
    XCTAssertEqual(try fcmlint(["."], in: root).status, 0)
    // --no-respect-gitignore brings back generated/ and the local file, not node_modules or dist.
    let all = try fcmlint(["--format", "json", "--no-respect-gitignore", "."], in: root)
    XCTAssertEqual(Set(try decode(all).diagnostics.map(\.file)), ["./generated/payload.json", "./payloads/mine.local.json"])
    // So does `respect-gitignore: false` in the config.
    try write("respect-gitignore: false\n", to: root.appendingPathComponent(".fcmlint.yml"))
    XCTAssertEqual(Set(try decode(try fcmlint(["--format", "json", "."], in: root)).diagnostics.map(\.file)), ["./generated/payload.json", "./payloads/mine.local.json"])
    // A default-skipped folder named on the command line is walked.
    XCTAssertEqual(Set(try decode(try fcmlint(["--format", "json", "dist"], in: root)).diagnostics.map(\.file)), ["dist/payload.json"])
  }

  /// Issue 13: `**` followed by another `*` in a later segment did not match as gitignore does,
  /// so `--fix .` rewrote a file the user had excluded.
  func testFixNeverRewritesAnIgnoredFile() throws {
    let root = try temporaryDirectory()
    try write("ignore: [\"**/fixtures/*.json\"]\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let fixable = #"{"message": {"topic": "news", "apns": {"payload": {"aps": {"mutable_content": 1}}}}}"#
    for path in ["a/fixtures/b/fixtures/x.json", "fixtures/y.json", "src/z.json"] {
      try write(fixable, to: root.appendingPathComponent(path))
    }
    let run = try fcmlint(["--fix", "."], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    for path in ["a/fixtures/b/fixtures/x.json", "fixtures/y.json"] {
      XCTAssertEqual(try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8), fixable, path)
    }
    XCTAssertNotEqual(try String(contentsOf: root.appendingPathComponent("src/z.json"), encoding: .utf8), fixable)
  }
}

/// Fragments: the sender adds the target at send time (issue 14).
extension CLITests {
  func testFragmentsNeedNoTargetButStillAtMostOne() throws {
    let root = try temporaryDirectory()
    let fragment = #"{"notification": {"title": "Sale", "body": "Today only"}, "android": {"priority": "high"}}"#
    let twoTargets = #"{"message": {"token": "abc", "topic": "news", "notification": {"title": "Hi"}}}"#
    try write(fragment, to: root.appendingPathComponent("fragments/sale.json"))
    try write(twoTargets, to: root.appendingPathComponent("fragments/two.json"))

    let plain = try decode(try fcmlint(["--format", "json", "fragments"], in: root))
    XCTAssertEqual(plain.diagnostics.map { "\($0.file) \($0.pointer) \($0.rule)" }, [
      "fragments/sale.json  target-exactly-one", "fragments/two.json /message/topic target-exactly-one",
    ])

    let flagged = try fcmlint(["--format", "json", "--fragment", "fragments"], in: root)
    XCTAssertEqual(try decode(flagged).diagnostics.map { "\($0.file) \($0.pointer) \($0.rule)" }, [
      "fragments/two.json /message/topic target-exactly-one"
    ])

    // `fragment: true` in the nearest config does the same.
    try write("fragment: true\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let configured = try fcmlint(["--format", "json", "fragments/sale.json"], in: root)
    XCTAssertEqual(configured.status, 0, configured.stdout + configured.stderr)
    try write("fragment: yes please\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let bad = try fcmlint(["fragments/sale.json"], in: root)
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(bad.stderr.contains(".fcmlint.yml:1:11"), bad.stderr)
  }
}

/// Habits of a linter's command line (issue 16, item 5).
extension CLITests {
  func testExitZeroReportsButExitsZero() throws {
    let run = try fcmlint(["--exit-zero", Self.repo("corpus/invalid")])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("error:"), run.stdout)
    // Usage and I/O failures still exit 2.
    XCTAssertEqual(try fcmlint(["--exit-zero", "missing.json"]).status, 2)
  }

  func testFixOnlyFixesAndReportsNothingThatRemains() throws {
    let root = try temporaryDirectory()
    // One fixable problem (a number in data), one that is not (a malformed topic).
    try write(#"{"message": {"topic": "a b", "data": {"n": 1}}}"#, to: root.appendingPathComponent("m.json"))
    let run = try fcmlint(["--fix-only", "m.json"], in: root)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("m.json"), encoding: .utf8), #"{"message": {"topic": "a b", "data": {"n": "1"}}}"#)
    XCTAssertEqual(run.stdout, "no problems in 1 file; 1 fixed; 1 more hidden by --fix-only\n")
    XCTAssertEqual(try fcmlint(["--fix-only", "--fix-dry-run", "m.json"], in: root).status, 2)
  }

  func testDryRunSaysWouldBeFixedAndQuietSaysWhatItHid() throws {
    let root = try temporaryDirectory()
    try write(#"{"message": {"topic": "news", "data": {"n": 1}, "notification": {"title": "Hi", "image": "http://example.com/a.png"}}}"#, to: root.appendingPathComponent("m.json"))
    let dry = try fcmlint(["--fix-dry-run", "m.json"], in: root)
    XCTAssertTrue(dry.stdout.hasSuffix("; 1 would be fixed\n"), dry.stdout)
    let quiet = try fcmlint(["--quiet", "m.json"], in: root)
    XCTAssertTrue(quiet.stdout.hasSuffix("in 1 file; 1 more hidden by --quiet; 1 fixable with --fix\n"), quiet.stdout)
    XCTAssertFalse(quiet.stdout.contains("warning:"), quiet.stdout)
  }

  func testVerboseListsTheFilesLinted() throws {
    let root = try appRepository()
    let run = try fcmlint(["--verbose", "payloads/welcome.json", "payloads/broken.json", "package.json"], in: root)
    XCTAssertTrue(run.stderr.contains("fcmlint: linted 2 files: payloads/broken.json, payloads/welcome.json\n"), run.stderr)
  }
}

/// Each file's nearest config, and `overrides:` (issue 16, items 1-2).
extension CLITests {
  func testEachFileUsesTheConfigNearestToIt() throws {
    let root = try temporaryDirectory()
    let fragment = #"{"notification": {"title": "Sale"}, "android": {"priority": "high"}}"#
    try write("rules: {image-consistency: off}\n", to: root.appendingPathComponent(".fcmlint.yml"))
    try write("fragment: true\n", to: root.appendingPathComponent("fragments/.fcmlint.yml"))
    try write(fragment, to: root.appendingPathComponent("fragments/sale.json"))
    try write(fragment, to: root.appendingPathComponent("payloads/sale.json"))
    let run = try fcmlint(["--format", "json", "."], in: root)
    XCTAssertEqual(try decode(run).diagnostics.map { "\($0.file) \($0.rule)" }, ["./payloads/sale.json target-exactly-one"])
    // From inside the folder, and from elsewhere, the same answer: it is the file's config.
    XCTAssertEqual(try fcmlint(["sale.json"], in: root.appendingPathComponent("fragments")).status, 0)
    XCTAssertEqual(try fcmlint(["fragments/sale.json"], in: root).status, 0)
    // --config forces one config on every file.
    try write("{}\n", to: root.appendingPathComponent("plain.yml"))
    XCTAssertEqual(try fcmlint(["--config", "plain.yml", "fragments/sale.json"], in: root).status, 1)
    // A nested config with a mistake is reported where it is, exit 2.
    try write("fragment: maybe\n", to: root.appendingPathComponent("fragments/.fcmlint.yml"))
    let broken = try fcmlint(["."], in: root)
    XCTAssertEqual(broken.status, 2)
    XCTAssertTrue(broken.stderr.contains("fragments/.fcmlint.yml:1:11"), broken.stderr)
  }

  func testOverridesSetRulesInputAndFragmentForTheFilesTheyMatch() throws {
    let root = try temporaryDirectory()
    try write(
      """
      rules:
        image-url-https: error
      overrides:
        - files: ["legacy/**"]
          rules: {image-url-https: off}
        - files: ["fragments/", "*.fragment.json"]
          fragment: true
        - files: "apple/*.json"
          input: apns
      """, to: root.appendingPathComponent(".fcmlint.yml"))
    let http = #"{"message": {"topic": "t", "notification": {"title": "Hi", "image": "http://example.com/a.png"}, "android": {"notification": {"image": "http://example.com/a.png"}}, "apns": {"payload": {"aps": {"mutable-content": 1}}, "fcm_options": {"image": "http://example.com/a.png"}}}}"#
    try write(http, to: root.appendingPathComponent("legacy/old.json"))
    try write(http, to: root.appendingPathComponent("new.json"))
    try write(#"{"notification": {"title": "Sale"}}"#, to: root.appendingPathComponent("fragments/a.json"))
    try write(#"{"notification": {"title": "Sale"}}"#, to: root.appendingPathComponent("x.fragment.json"))
    // Forced to an APNs payload, a file with odd keys is linted as one.
    try write(#"{"alert": "Hi"}"#, to: root.appendingPathComponent("apple/p.json"))
    let run = try fcmlint(["--format", "json", "--verbose", "."], in: root)
    let found = try decode(run).diagnostics.map { "\($0.file) \($0.rule) \($0.severity)" }
    XCTAssertEqual(Set(found.filter { $0.contains("image-url-https") }), ["./new.json image-url-https error"])
    XCTAssertFalse(found.contains { $0.contains("fragment") }, "\(found)")
    // Not an FCM document by its keys, but linted: the override says what it is.
    XCTAssertTrue(run.stderr.contains("./apple/p.json, "), run.stderr)
    XCTAssertFalse(run.stderr.contains("skipped ./apple/p.json"), run.stderr)
    // An override needs files, and names known rules.
    try write("overrides:\n  - rules: {image-url-https: off}\n", to: root.appendingPathComponent(".fcmlint.yml"))
    let missing = try fcmlint(["."], in: root)
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains(".fcmlint.yml:2:5: an override needs 'files'"), missing.stderr)
    try write("overrides:\n  - files: [a]\n    rules: {no-such-rule: off}\n", to: root.appendingPathComponent(".fcmlint.yml"))
    XCTAssertTrue(try fcmlint(["."], in: root).stderr.contains(".fcmlint.yml:3:13: unknown rule 'no-such-rule'"))
  }
}
