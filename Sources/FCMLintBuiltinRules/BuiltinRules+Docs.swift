// `BuiltinRules` is generated at build time by the EmbedRules plugin (Sources/embed-rules) from
// rules/**/*.yml and rules/schema/*.json (a schema's `*.descriptions.json` included); this target holds
// nothing else.
