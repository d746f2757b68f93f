import FuzzSupport

/// A full lint of arbitrary bytes with the built-in rule pack, read as each input kind, and the
/// report in every format.
func fuzzLint(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  let detected = Fuzz.linter.lint(bytes: bytes, file: "fuzz.json")
  Fuzz.checkDiagnostics(detected, bytes: bytes, file: "fuzz.json")
  // The first byte picks an explicit input kind, so every kind sees every shape of document.
  if let first = bytes.first {
    var options = Linter.Options()
    options.input = InputKind.allCases[Int(first) % InputKind.allCases.count]
    let diagnostics = Linter(rules: Fuzz.rules, options: options).lint(bytes: bytes, file: "fuzz.json")
    Fuzz.checkDiagnostics(diagnostics, bytes: bytes, file: "fuzz.json")
  }
  // Linting is a function of the bytes.
  Fuzz.check(Fuzz.linter.lint(bytes: bytes, file: "fuzz.json") == detected, "two lints of the same bytes differ")
  return 0
}

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzLint($0, $1) }
