import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import FCMLintBuiltinRules
@testable import FCMLintEngine
import FCMLintJSON
import XCTest

/// The built-in pack lints from the form the build compiles it to (embed-rules, `CompiledPack`),
/// after loading the rule files with the loader that loads a user's YAML. These tests keep it
/// equal to what the rule files say.
final class BuiltinPackTests: XCTestCase {
  /// The pack loaded from the files under rules/, as a user's rule folder would be.
  func packFromFiles() throws -> RuleSet {
    var pack = RuleSet(resources: try RuleSet.loadSchemas(BuiltinRules.schemas))
    try pack.addDirectory(Repository.path("rules"))
    return pack
  }

  func testEmbeddedPackEqualsTheRuleFiles() throws {
    let embedded = builtinRules(), files = try packFromFiles()
    XCTAssertEqual(embedded.ids, files.ids)
    for rule in embedded.rules {
      let file = try XCTUnwrap(files.rule(rule.id))
      XCTAssertEqual(Repository.path(rule.source), file.source, rule.id)
      XCTAssertEqual(rule.severity, file.severity, rule.id)
      XCTAssertEqual(rule.summary, file.summary, rule.id)
      XCTAssertEqual(rule.docs, file.docs, rule.id)
      XCTAssertEqual(rule.documentation, file.documentation, rule.id)
      XCTAssertEqual(rule.message?.source, file.message?.source, rule.id)
      XCTAssertEqual(rule.given, file.given, rule.id)
      XCTAssertEqual(rule.then.map(\.functionName), file.then.map(\.functionName), rule.id)
      XCTAssertEqual(rule.then.map(\.field), file.then.map(\.field), rule.id)
      XCTAssertEqual([rule.idLine, rule.idColumn], [file.idLine, file.idColumn], rule.id)
    }
  }

  func testEmbeddedPackReportsWhatTheRuleFilesReport() throws {
    let embedded = Linter(rules: builtinRules()), files = Linter(rules: try packFromFiles())
    let (paths, _) = FileSystem.files(under: Repository.path("corpus")) { $0.hasSuffix(".json") }
    XCTAssertGreaterThan(paths.count, 10)
    for path in paths {
      guard case .success(let bytes) = FileSystem.read(path) else { continue }
      XCTAssertEqual(embedded.lint(bytes: bytes, file: path), files.lint(bytes: bytes, file: path), path)
    }
  }

  /// A check of the pack makes its function when it first runs, not at the start: a lint of
  /// a small message makes a few, and threads that lint at once on a fresh pack each report what
  /// one thread does, every check made once.
  func testPackChecksAreMadeWhenFirstRun() throws {
    let message = Array(#"{"message": {"topic": "news", "data": {"from": "x", "google.id": "1"}, "notification": {"title": "Hi"}}}"#.utf8)
    let reference = Linter(rules: builtinRules()).lint(bytes: message, file: "m.json")
    XCTAssertEqual(reference.map(\.rule), ["data-reserved-key", "data-reserved-key"])
    let pack = builtinRules()
    func checks(of condition: Rule.Condition) -> [Rule.Check] {
      switch condition {
      case .check(let check): return [check]
      case .anyOf(let conditions): return conditions.flatMap(checks)
      case .not(let condition): return checks(of: condition)
      }
    }
    let checks = pack.rules.flatMap { rule in rule.then + rule.when.flatMap(checks) }
    XCTAssertFalse(checks.contains { $0.isMade }, "a start makes no function")
    let linter = Linter(rules: pack)
    XCTAssertFalse(checks.contains { $0.isMade }, "nor does a linter")
    let lock = NSLock()
    nonisolated(unsafe) var results: [[Diagnostic]] = []
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      let found = linter.lint(bytes: message, file: "m.json")
      lock.withLock { results.append(found) }
    }
    XCTAssertEqual(results, Array(repeating: reference, count: 4))
    let made = checks.filter { $0.isMade }.count
    XCTAssertGreaterThan(made, 0)
    XCTAssertLessThan(made, checks.count / 2, "a small message runs few of the pack's checks")
  }

  /// A rule's body (`given`, `when`, `then`, messages, fix) is read from the pack when first
  /// asked for: neither a start nor a linter reads one, a lint reads those of the rules that
  /// found something, threads that read one at once see one body, and what the pack keeps
  /// beside each body is what the body says.
  func testRuleBodiesAreReadWhenFirstAskedFor() throws {
    let pack = builtinRules()
    func read() -> [String] { pack.rules.filter { $0.bodySource.isRead }.map(\.id) }
    XCTAssertEqual(read(), [], "a start reads no rule's body")
    let linter = Linter(rules: pack)
    XCTAssertEqual(read(), [], "nor does a linter")
    let clean = Array(#"{"message": {"topic": "news", "notification": {"title": "Hi", "body": "There"}}}"#.utf8)
    XCTAssertEqual(linter.lint(bytes: clean, file: "m.json"), [])
    XCTAssertEqual(read(), [], "nor a lint that finds nothing")
    let message = Array(#"{"message": {"topic": "news", "data": {"from": "x"}, "notification": {"title": "Hi"}}}"#.utf8)
    let lock = NSLock()
    nonisolated(unsafe) var results: [[Diagnostic]] = []
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      let found = linter.lint(bytes: message, file: "m.json")
      lock.withLock { results.append(found) }
    }
    XCTAssertEqual(results.map { $0.map(\.rule) }, Array(repeating: ["data-reserved-key"], count: 4))
    XCTAssertEqual(Set(results.map { $0.map(\.message) }).count, 1)
    XCTAssertEqual(read(), ["data-reserved-key"], "a lint reads the bodies of the rules that found something")
    let body = try XCTUnwrap(pack.rule("data-reserved-key")).bodySource
    XCTAssertTrue(body.body === body.body, "one body, read once")

    let files = try packFromFiles()
    for rule in pack.rules {
      let file = try XCTUnwrap(files.rule(rule.id))
      XCTAssertEqual(rule.reportsSyntax, file.reportsSyntax, rule.id)
      XCTAssertEqual(rule.isReportedByFcmlint, file.isReportedByFcmlint, rule.id)
      XCTAssertEqual(rule.bodySource.reportsSyntax, rule.bodySource.body.checks(with: ValidJSON.self), rule.id)
      XCTAssertEqual(rule.bodySource.isReportedByFcmlint, rule.bodySource.body.checks(with: ReportedByFcmlint.self), rule.id)
      XCTAssertEqual(rule.when.count, file.when.count, rule.id)
      XCTAssertEqual(rule.fix?.description?.source, file.fix?.description?.source, rule.id)
    }
    XCTAssertEqual(pack.rules.filter(\.reportsSyntax).count, 1)
    XCTAssertGreaterThan(pack.rules.filter(\.isReportedByFcmlint).count, 0)
  }

  /// A linter of the whole pack takes the tables the build laid out (`CompiledPlan`), which are
  /// the ones its rules make; with a rule turned off, or a user's rule added, it builds its own.
  func testALinterOfTheWholePackTakesTheTablesTheBuildLaidOut() throws {
    let pack = builtinRules()
    let compiled = try XCTUnwrap(pack.compiledPlan)
    var fresh = pack
    fresh.compiledPlan = nil
    let built = Linter(rules: fresh)
    func layout(_ linter: Linter) -> [Int] { CompiledPlan(plan: linter.plan, trie: linter.givenTrie, slotRules: linter.slotRules).layout }
    XCTAssertEqual(compiled.layout, layout(built))
    func takes(_ linter: Linter) -> Bool {
      linter.slotRules.withUnsafeBufferPointer { $0.baseAddress } == compiled.slotRules.withUnsafeBufferPointer { $0.baseAddress }
    }
    // Severities change nothing in the tables.
    let severities: [String: Severity?] = Dictionary(uniqueKeysWithValues: pack.rules.map { ($0.id, .info) })
    XCTAssertTrue(takes(Linter(rules: pack)))
    XCTAssertTrue(takes(Linter(rules: pack, severities: severities)))
    XCTAssertFalse(takes(built))

    // A rule turned off: tables of their own, equal to those of the pack without it.
    let off = "android-color"
    XCTAssertNotNil(pack.rule(off))
    let turnedOff = Linter(rules: pack, severities: [off: Severity?.none])
    XCTAssertFalse(takes(turnedOff))
    var without = RuleSet(resources: pack.resources)
    for rule in pack.rules where rule.id != off { try without.add(rule) }
    XCTAssertEqual(layout(turnedOff), layout(Linter(rules: without)))

    // A user's rule: the set no longer has the build's tables.
    var added = pack
    try added.add(try RuleLoader.load(text: """
      id: my-topic
      severity: warning
      summary: A topic
      description: Our messages go to topics.
      docs: https://example.com
      given: $.message
      then: { field: '@.topic', function: present }
      examples:
        valid: ['{"message": {"topic": "news"}}']
        invalid:
          - json: '{"message": {"token": "t"}}'
            pointer: /message
      """, file: "my.yml"))
    XCTAssertNil(added.compiledPlan)
    XCTAssertTrue(Linter(rules: added).rules.contains { $0.id == "my-topic" })
  }

  /// The schema's walk the build laid out is the one its types make, and the one its JSON makes.
  /// A check is not called on a value of the kinds its function says it passes whatever the
  /// value (`passingKinds`): for every check of the pack that has such kinds, the function does
  /// find nothing on values of those kinds, of several shapes each.
  func testChecksPassWhereTheirPassingKindsSayTheyDo() throws {
    let values = #"[{}, {"a": 1}, [], [null], "", "s", "https://example.com/a.png", 0, 1.5, -3, true, false, null]"#
    let document = try JSONParser.parse(Array(values.utf8)).get()
    var checked = 0
    for rule in builtinRules().rules {
      for check in rule.then + rule.when.compactMap({ if case .check(let check) = $0 { return check } else { return nil } }) {
        let function = check.made.function
        let kinds = function.passingKinds
        guard kinds != 0 else { continue }
        XCTAssertTrue(check.functionType.passesByKind, rule.id)
        XCTAssertEqual(kinds & 1 << JSONKind.placeholder.rawValue, 0, rule.id)
        for id in document.children(JSONDocument.root) where kinds & 1 << document.kind(id).rawValue != 0 {
          let context = FunctionContext(document: document, given: id)
          XCTAssertEqual(function.check(.found(id), in: context).count, 0, "\(rule.id): \(document.rawText(id))")
          XCTAssertTrue(function.passes(.found(id), in: context), "\(rule.id): \(document.rawText(id))")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThan(checked, 50, "the pack's type and present checks have passing kinds")
  }

  func testThePacksSchemaWalkIsTheOneItsTypesMake() throws {
    let schemas = builtinRules().resources.schemas
    XCTAssertFalse(schemas.isEmpty)
    for file in BuiltinRules.schemas {
      let fromJSON = try Schema(json: Array(file.json.utf8), file: file.path)
      let packed = try XCTUnwrap(schemas[fromJSON.name])
      XCTAssertEqual(packed.walk.layout, Schema.Walk(packed.messageTypes).layout, fromJSON.name)
      XCTAssertEqual(packed.walk.layout, fromJSON.walk.layout, fromJSON.name)
    }
  }

  func testEmbeddedPackKeepsEveryCompiledPart() throws {
    // What the form keeps of a rule beyond what it reports on the corpus: conditions, options,
    // messages of checks, fixes, and the aliases a user's rules may use.
    let embedded = builtinRules(), files = try packFromFiles()
    for rule in embedded.rules {
      let file = try XCTUnwrap(files.rule(rule.id))
      XCTAssertEqual(describe(rule), describe(file), rule.id)
    }
    let aliasesFile = Repository.path("rules/" + Aliases.fileName)
    let written = try Aliases().adding(DataValue(yaml: String(decoding: Repository.bytes(atPath: aliasesFile), as: UTF8.self), file: "rules/aliases.yml"))
    XCTAssertEqual(embedded.aliases.paths, written.paths)
    XCTAssertEqual(embedded.aliases.origins, written.origins)
    XCTAssertEqual(embedded.aliases.definitions.keys.sorted(), written.definitions.keys.sorted())
    for (name, tree) in written.definitions { XCTAssertEqual(describe(embedded.aliases.definitions[name]!), describe(tree), name) }
    XCTAssertEqual(embedded.aliases.strings("ApsKeys"), written.strings("ApsKeys"))
  }

  private func describe(_ rule: Rule) -> String {
    func check(_ c: Rule.Check) -> String {
      let options = c.options.values.keys.sorted().map { "\($0)=\(describe(c.options.values[$0]!))" }
      return "\(c.functionName)(\(c.field?.description ?? "-"); \(options.joined(separator: ", ")); \(c.message?.source ?? "-"); \(c.templates))"
    }
    func condition(_ c: Rule.Condition) -> String {
      switch c {
      case .check(let c): return check(c)
      case .anyOf(let list): return "anyOf[" + list.map(condition).joined(separator: ", ") + "]"
      case .not(let inner): return "not[" + condition(inner) + "]"
      }
    }
    var fix = "-"
    if let f = rule.fix {
      fix = "\(f.action) \(f.kinds ?? []) \(f.values ?? []) \(f.matching?.source ?? "-") \(f.description?.source ?? "-")"
    }
    return [
      rule.given.map(\.description).joined(separator: " "), rule.when.map(condition).joined(separator: "; "),
      rule.then.map(check).joined(separator: "; "), rule.message?.source ?? "-", fix,
    ].joined(separator: "\n")
  }

  private func describe(_ value: OptionValue) -> String {
    switch value {
    case .pattern(let p): return "/\(p.source)/"
    case .path(let p): return p.description
    case .paths(let p): return p.map(\.description).joined(separator: " ")
    case .stringMap(let m): return m.keys.sorted().map { "\($0):\(m[$0]!)" }.joined(separator: ",")
    default: return "\(value)"
    }
  }

  private func describe(_ value: DataValue) -> String {
    let place = "\(value.file):\(value.line):\(value.column)"
    switch value.node {
    case .scalar(let text, let kind, let quoted): return "\(place) \(text) \(kind) \(quoted)"
    case .sequence(let items): return "\(place) [" + items.map(describe).joined(separator: ", ") + "]"
    case .mapping(let members): return "\(place) {" + members.map { describe($0.key) + ": " + describe($0.value) }.joined(separator: ", ") + "}"
    }
  }

  func testRuleKeepsWhereCompiledValuesAreWritten() throws {
    // A pattern that does not compile is reported inside the pattern, in the YAML file.
    let text = """
      id: bad-pattern
      severity: error
      summary: s
      description: d
      docs: https://example.com
      given: $.message
      then:
        field: '@.topic'
        function: pattern
        options: { match: 'a(b' }

      """
    XCTAssertThrowsError(try RuleLoader.load(text: text, file: "r.yml")) { error in
      guard let error = error as? ConfigurationError else { return XCTFail("\(error)") }
      XCTAssertEqual([error.line, error.column], [10, 23], error.description)  // the unclosed "("
      XCTAssertTrue(error.message.contains("not a supported regular expression"), error.message)
    }
  }
}
