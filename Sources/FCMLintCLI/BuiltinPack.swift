import FCMLintBuiltinRules
import FCMLintEngine

/// The rule pack compiled into the binary.
public enum BuiltinPack {
  /// The whole pack; without `documented`, the lean form that linting needs (no descriptions or
  /// examples), which loads in a third of the time.
  public static func load(documented: Bool = true) throws(ConfigurationError) -> RuleSet {
    documented
      ? try RuleSet(builtin: BuiltinRules.files, schemas: BuiltinRules.schemas)
      : try RuleSet(builtin: BuiltinRules.lintFiles, schemas: BuiltinRules.schemas, documented: false)
  }
}
