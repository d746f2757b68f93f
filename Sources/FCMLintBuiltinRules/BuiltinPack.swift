import FCMLintEngine

/// The rule pack compiled into the binary.
public enum BuiltinPack {
  /// The whole pack; without `documented`, what linting needs (no descriptions or examples),
  /// compiled from the specs the build wrote as code, with no rule text to parse.
  public static func load(documented: Bool = true) throws(ConfigurationError) -> RuleSet {
    documented
      ? try RuleSet(builtin: BuiltinRules.files, schemas: BuiltinRules.schemas)
      : try RuleSet(builtin: BuiltinRules.lintSpecs(), schemas: BuiltinRules.schemas)
  }
}
