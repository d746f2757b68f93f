import FCMLintCLI
@testable import FCMLintEngine
import FCMLintJSON
import XCTest

/// Paths inside this repository, found from this file, so tests run from any working directory.
enum Repository {
  static let root: String = {
    var path = #filePath
    for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }  // Tests/FCMLintTests/Support/x.swift
    return path
  }()

  static func path(_ relative: String) -> String { root + "/" + relative }

  static func read(_ relative: String) throws -> String {
    switch FileSystem.read(path(relative)) {
    case .success(let bytes): return String(decoding: bytes, as: UTF8.self)
    case .failure(let error): throw error
    }
  }

  /// Whether golden files should be rewritten instead of compared (`FCMLINT_UPDATE_GOLDEN=1 swift test`).
  static var updatingGoldens: Bool { ProcessInfo.processInfo.environment["FCMLINT_UPDATE_GOLDEN"] == "1" }

  static func write(_ relative: String, _ text: String) throws {
    try text.write(toFile: path(relative), atomically: true, encoding: .utf8)
  }
}

extension XCTestCase {
  /// The built-in pack, loaded as the binary loads it.
  func builtinRules(file: StaticString = #filePath, line: UInt = #line) -> RuleSet {
    do {
      return try BuiltinPack.load()
    } catch {
      XCTFail("the built-in pack does not load: \(error)", file: file, line: line)
      return RuleSet()
    }
  }

  /// Every corpus payload and rule example that parses, each read as each input kind: the
  /// documents equivalence tests compare two ways of linting on.
  func corpusAndExampleDocuments(_ rules: RuleSet, file: StaticString = #filePath, line: UInt = #line) -> [(name: String, document: JSONDocument)] {
    var texts: [(String, [UInt8])] = []
    let (files, errors) = FileSystem.files(under: Repository.path("corpus")) { $0.hasSuffix(".json") }
    XCTAssertEqual(errors.count, 0, file: file, line: line)
    for file in files {
      if case .success(let bytes) = FileSystem.read(file) { texts.append((file, bytes)) }
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
