import FCMLintCLI
import FCMLintEngine
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
}
