import FCMLintCLI
import FCMLintEngine
import FCMLintFixes
import FCMLintFormatters
import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import XCTest

/// `corpus/` holds real payloads (the Firebase docs' samples verbatim, mistakes included, and
/// realistic valid and invalid requests); `corpus/expected.txt` is what fcmlint must report on them.
/// Regenerate after an intended change with `FCMLINT_UPDATE_GOLDEN=1 swift test --filter CorpusTests`
/// and review the diff.
final class CorpusTests: XCTestCase {
  /// The corpus as `fcmlint corpus` lints it, except `corpus/fragments/`, linted as
  /// `fcmlint --fragment corpus/fragments` does (the sender adds their targets).
  func lintCorpus() throws -> String {
    let linter = Linter(rules: builtinRules())
    var fragmentOptions = Linter.Options()
    fragmentOptions.fragment = true
    let fragmentLinter = Linter(rules: builtinRules(), options: fragmentOptions)
    let (files, errors) = FileSystem.files(under: Repository.path("corpus")) { $0.hasSuffix(".json") }
    XCTAssertTrue(errors.isEmpty, "\(errors)")
    var diagnostics: [Diagnostic] = []
    for file in files {
      let relative = String(file.dropFirst(Repository.root.count + 1))
      guard case .success(let bytes) = FileSystem.read(file) else { throw XCTSkip("unreadable \(file)") }
      diagnostics += (relative.hasPrefix("corpus/fragments/") ? fragmentLinter : linter).lint(bytes: bytes, file: relative)
    }
    diagnostics.sort(by: Diagnostic.ordered)
    return TextFormatter().format(Report(diagnostics: diagnostics, summary: Summary(files: files.count, diagnostics: diagnostics)))
  }

  func testCorpusMatchesExpectedDiagnostics() throws {
    let actual = try lintCorpus()
    if Repository.updatingGoldens {
      try Repository.write("corpus/expected.txt", actual)
      return
    }
    let expected = try Repository.read("corpus/expected.txt")
    XCTAssertEqual(actual, expected, "corpus output changed; if intended, run FCMLINT_UPDATE_GOLDEN=1 swift test --filter CorpusTests and review the diff")
  }

  /// The valid payloads must get no error or warning, whatever the golden file says.
  func testValidCorpusIsClean() throws {
    let linter = Linter(rules: builtinRules())
    let (files, _) = FileSystem.files(under: Repository.path("corpus/valid")) { $0.hasSuffix(".json") }
    XCTAssertFalse(files.isEmpty)
    for file in files {
      guard case .success(let bytes) = FileSystem.read(file) else { continue }
      let problems = linter.lint(bytes: bytes, file: file).filter { $0.severity != .info }
      XCTAssertEqual(problems.map { "\($0.rule) \($0.pointer): \($0.message)" }, [], file)
    }
  }

  /// The issue's acceptance check: the docs' REST sample fails on its trailing comma.
  func testRESTSampleReportsTrailingComma() throws {
    let linter = Linter(rules: builtinRules())
    guard case .success(let bytes) = FileSystem.read(Repository.path("corpus/docs-samples/send-image-rest.json")) else {
      return XCTFail("sample missing")
    }
    let found = linter.lint(bytes: bytes, file: "send-image-rest.json")
    XCTAssertEqual(found.map(\.rule), ["json-syntax", "webpush-image-header"])
    XCTAssertEqual(found.first?.message, "trailing comma before '}'")
    XCTAssertEqual(found.first.map { "\($0.start)" }, "5:36")
  }

  /// Issue 17: a file with a trailing comma and three other mistakes gets all four, and --fix
  /// repairs the comma (then, on the next pass, what the rules fix).
  func testATrailingCommaDoesNotHideTheOtherMistakes() throws {
    let text = """
      {
        "message": {
          "topic": "news",
          "notification": {"title": "Sale", "image": "https://cdn.example.com/sale.png",},
          "data": {"count": 3},
          "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Sale"}}},
          "webpush": {"headers": {"image": "https://cdn.example.com/sale.png"}}
        }
      }

      """
    let linter = Linter(rules: builtinRules())
    let found = linter.lint(bytes: Array(text.utf8), file: "sale.json")
    XCTAssertEqual(found.map { "\($0.start) \($0.rule)" }, [
      "4:82 json-syntax", "5:23 data-string-values", "6:33 apns-image-mutable-content", "6:34 apns-aps-key", "7:29 webpush-image-header",
    ])
    XCTAssertEqual(found[0].fix?.description, "remove the trailing comma")
    let fixed = Fixer(linter: linter).fix(bytes: Array(text.utf8), file: "sale.json")
    let out = String(decoding: fixed.bytes, as: UTF8.self)
    XCTAssertTrue(out.contains(#""image": "https://cdn.example.com/sale.png"},"#), out)
    XCTAssertTrue(out.contains(#""count": "3""#) && out.contains(#""mutable-content": 1"#), out)
    // The rename wins over inserting the same key beside it: one `mutable-content`, the author's,
    // and nothing left for a later --fix.
    XCTAssertFalse(out.contains("mutable_content"), out)
    XCTAssertEqual(out.components(separatedBy: "mutable-content").count, 2, out)
    XCTAssertEqual(fixed.diagnostics.map(\.rule), [], out)
  }
}
