import FCMLintEngine

/// The rule pack compiled into the binary.
public enum BuiltinPack {
  /// The whole pack. Descriptions and examples are built only when a rule's are read (`rules`,
  /// `explain`, the tests), so a run that only lints never builds them.
  public static func load() throws(ConfigurationError) -> RuleSet {
    try RuleSet(builtin: BuiltinRules.rules(), aliases: BuiltinRules.aliases(), schemas: BuiltinRules.schemas)
  }
}
