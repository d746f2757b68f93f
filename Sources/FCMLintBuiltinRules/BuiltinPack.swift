import FCMLintEngine

/// The rule pack compiled into the binary.
public enum BuiltinPack {
  /// The whole pack, read from its compiled form (`CompiledPack`): the build loaded and checked
  /// every rule file, so this compiles nothing. Descriptions and examples are read only when a
  /// rule's are asked for (`rules`, `explain`, the tests).
  public static func load() throws(ConfigurationError) -> RuleSet {
    RuleSet(compiled: BuiltinRules.pack, strings: BuiltinRules.strings, numbers: BuiltinRules.numbers)
  }
}
