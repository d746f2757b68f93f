import FCMLintEngine
import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import XCTest

/// No rule's findings depend on another rule's severity: turning one rule off (`rules: {ID: off}`
/// in a config, read as a run reads it) removes that rule's findings and changes nothing else.
extension CLITests {
  /// The corpus a run would lint: payloads, templates, fragments (as `--fragment`), the docs'
  /// samples and pages (as `--docs`).
  struct RuleCorpus {
    var files: [String] = []
    var fragments: [String] = []
  }

  func ruleCorpus() -> RuleCorpus {
    var corpus = RuleCorpus()
    for folder in ["corpus/valid", "corpus/invalid", "corpus/templates", "corpus/docs-samples"] {
      corpus.files += Repository.files(under: folder, suffixes: [".json"])
    }
    corpus.files += Repository.files(under: "corpus/docs", suffixes: [".md", ".html", ".txt"])
    corpus.fragments = Repository.files(under: "corpus/fragments", suffixes: [".json"])
    return corpus
  }

  /// Every diagnostic of the corpus under `config`, one line each.
  func lintRuleCorpus(_ corpus: RuleCorpus, config: String, pack: RuleSet) throws -> [String] {
    var lines: [String] = []
    for fragment in [false, true] {
      var settings = RunSettings()
      settings.configFile = config
      settings.docs = true
      settings.fragment = fragment
      let workspace = try Workspace(settings: settings, pack: { pack }, keptUntilExit: false)
      let waivers = Waivers(baseline: nil, recording: nil)
      for file in fragment ? corpus.fragments : corpus.files {
        let result = try workspace.job(for: .file(file)).run(.none, waivers: waivers)
        XCTAssertNil(result.error, file)
        lines += result.diagnostics.map { "\($0.rule) \($0.file):\($0.start) \($0.pointer) \($0.severity) \($0.message)" }
      }
    }
    return lines
  }

  func testTurningARuleOffChangesNoOtherRulesFindings() throws {
    let pack = builtinRules()
    let corpus = ruleCorpus()
    XCTAssertGreaterThan(corpus.files.count, 100)
    let folder = try temporaryDirectory()
    let config = folder.appendingPathComponent(".fcmlint.yml")
    try write("rules: {}\n", to: config)
    let all = try lintRuleCorpus(corpus, config: config.path, pack: pack)
    let ids = pack.rules.map(\.id)
    XCTAssertEqual(ids.count, Self.builtinRuleIDs().count)
    var found = Set<String>()
    for id in ids {
      try write("rules: {\(id): off}\n", to: config)
      let without = try lintRuleCorpus(corpus, config: config.path, pack: pack)
      let expected = all.filter { !$0.hasPrefix(id + " ") }
      if expected.count != all.count { found.insert(id) }
      if without != expected {
        let lost = expected.filter { !without.contains($0) }, gained = without.filter { !expected.contains($0) }
        XCTFail("turning \(id) off changed other rules' findings: lost \(lost), gained \(gained)")
      }
    }
    // The corpus exercises most rules, so the check means something.
    XCTAssertGreaterThan(found.count, ids.count / 2, "rules with findings in the corpus: \(found.sorted())")
  }

  /// The README's own suppression example turns image-extension off: the Android error for an
  /// image whose ".png" is in its host name must stay, whether or not the message has an apns block.
  func testTheAndroidHostNameErrorDoesNotDependOnImageExtension() throws {
    let folder = try temporaryDirectory()
    try write("rules: {image-extension: off}\n", to: folder.appendingPathComponent(".fcmlint.yml"))
    let message = #"{"message": {"topic": "sale", "notification": {"image": "https://cdn.acme-sale-banner.png"}, "apns": {"payload": {"aps": {"mutable-content": 1, "alert": "50% off"}}}}}"#
    try write(message, to: folder.appendingPathComponent("sale.json"))
    let off = try decode(fcmlint(["--format", "json", "sale.json"], in: folder))
    XCTAssertEqual(off.diagnostics.map(\.rule), ["image-extension-android"])
    try write("rules: {}\n", to: folder.appendingPathComponent(".fcmlint.yml"))
    let on = try decode(fcmlint(["--format", "json", "sale.json"], in: folder))
    // One mistake, one error: the host name is image-extension-android's on notification.image.
    XCTAssertEqual(on.diagnostics.map(\.rule), ["image-extension-android"])
  }
}
