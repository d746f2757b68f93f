// `BuiltinRules` is generated at build time by the EmbedRules plugin (Sources/embed-rules) from
// rules/**/*.yml and rules/schema/*.json; this target holds nothing else.
