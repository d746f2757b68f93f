import FCMLintBuiltinRules
import FCMLintEngine

/// The rule pack compiled into the binary.
public enum BuiltinPack {
  public static func load() throws(ConfigurationError) -> RuleSet {
    try RuleSet(builtin: BuiltinRules.files, schemas: BuiltinRules.schemas)
  }
}
