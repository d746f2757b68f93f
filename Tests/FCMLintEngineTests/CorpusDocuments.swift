@testable import FCMLintEngine
import FCMLintJSON
import FCMLintTestSupport
import XCTest

extension XCTestCase {
  /// Every corpus payload and rule example that parses, each read as each input kind: the
  /// documents equivalence tests compare two ways of linting on.
  func corpusAndExampleDocuments(_ rules: RuleSet, file: StaticString = #filePath, line: UInt = #line) -> [(name: String, document: JSONDocument)] {
    var texts: [(String, [UInt8])] = []
    let files = Repository.files(under: "corpus", suffixes: [".json"])
    XCTAssertFalse(files.isEmpty, file: file, line: line)
    for file in files {
      if let bytes = try? Repository.bytes(atPath: file) { texts.append((file, bytes)) }
    }
    for rule in rules.rules {
      for example in rule.examples.valid + rule.examples.invalid {
        texts.append(("\(rule.id) example at line \(example.line)", Array(example.json.utf8)))
      }
    }
    var out: [(String, JSONDocument)] = []
    for (name, bytes) in texts {
      guard case .success(var document) = JSONParser.parse(bytes) else { continue }
      for kind in InputKind.allCases {
        document.mount = kind.mount
        out.append(("\(name) as \(kind.rawValue)", document))
      }
    }
    return out
  }
}
