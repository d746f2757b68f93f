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
/// messages), read and loaded in memory with `rules/aliases.yml` and the schemas of `resources`.
public func repositoryRules(resources: RuleResources) throws -> RuleSet {
  var rules = RuleSet(resources: resources)
  let files = try Repository.files(under: "rules", suffixes: [".yml", ".yaml"]).map { file in
    (path: file, text: String(decoding: try Repository.bytes(atPath: file), as: UTF8.self))
  }
  try rules.addFolder(Repository.path("rules"), files: files)
  return rules
}

/// One rule file, given by its full path, with the names of `rules/aliases.yml`.
public func repositoryRule(_ file: String, resources: RuleResources) throws -> Rule {
  let aliasesFile = Repository.path("rules/" + Aliases.fileName)
  let aliases = try Aliases().adding(DataValue(yaml: String(decoding: Repository.bytes(atPath: aliasesFile), as: UTF8.self), file: aliasesFile))
  return try RuleLoader.load(text: String(decoding: Repository.bytes(atPath: file), as: UTF8.self), file: file, resources: resources, aliases: aliases)
}
