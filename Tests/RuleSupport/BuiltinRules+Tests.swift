import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintTestSupport
import XCTest

extension XCTestCase {
  /// The built-in pack, loaded as the binary loads it.
  public func builtinRules(file: StaticString = #filePath, line: UInt = #line) -> RuleSet {
    do {
      return try BuiltinPack.load()
    } catch {
      XCTFail("the built-in pack does not load: \(error)", file: file, line: line)
      return RuleSet()
    }
  }
}

/// The rule files under `rules/` as written (YAML, with their line numbers for failure
/// messages), read and loaded in memory, with the schemas of `resources`.
public func repositoryRules(resources: RuleResources) throws -> RuleSet {
  var rules = RuleSet(resources: resources)
  for file in Repository.files(under: "rules", suffixes: [".yml", ".yaml"]) {
    try rules.add(repositoryRule(file, resources: resources))
  }
  return rules
}

/// One rule file, given by its full path.
public func repositoryRule(_ file: String, resources: RuleResources) throws -> Rule {
  try RuleLoader.load(text: String(decoding: Repository.bytes(atPath: file), as: UTF8.self), file: file, resources: resources)
}
