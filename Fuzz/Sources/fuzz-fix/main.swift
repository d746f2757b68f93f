import FuzzSupport

/// Applying fixes to arbitrary bytes: never a crash, never a parseable file made unparseable, an
/// unparseable one changed only towards parsing (fewer syntax errors), edits always inside the
/// text, and the diff of the change renders.
func fuzzFix(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let original = Fuzz.bytes(data, size)
  // Parsed as the linter reads it (a template's unquoted placeholders too).
  let parsedBefore = (try? Fuzz.linter.parse(original).get()) != nil
  let result = Fixer(linter: Fuzz.linter).fix(bytes: original, file: "fuzz.json")
  Fuzz.check(result.fixed >= 0, "negative fix count")
  if result.bytes != original {
    if parsedBefore {
      Fuzz.check((try? Fuzz.linter.parse(result.bytes).get()) != nil, "a fix made the file unparseable")
    } else {
      Fuzz.checkSyntaxFixes(before: original, after: result.bytes)
    }
    _ = UnifiedDiff.make(original, result.bytes, path: "fuzz.json")
  }
  Fuzz.checkDiagnostics(result.diagnostics, bytes: result.bytes, file: "fuzz.json")
  // Every fix the linter offers applies within the text, alone or all together.
  let diagnostics = Fuzz.linter.lint(bytes: original, file: "fuzz.json")
  let fixes = diagnostics.compactMap(\.fix)
  for fix in fixes.prefix(8) { _ = Fixer.apply([fix], to: original) }
  _ = Fixer.apply(fixes, to: original)
  return 0
}

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzFix($0, $1) }
