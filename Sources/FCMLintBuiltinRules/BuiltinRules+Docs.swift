// `BuiltinRules.files` is generated at build time by the EmbedRules plugin from rules/**/*.yml.
extension BuiltinRules {
  /// The number of built-in rule files.
  public static var count: Int { files.count }
}
