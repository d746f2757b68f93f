import FuzzSupport

/// Documentation pages above the size limits files and samples once had: the first byte picks the
/// format and a size around 1 MiB (under, at, over) up to 4 MiB; the rest is the page, each `@@`
/// in it a run of that many letters (inside a sample, a key or a string grows past the limit).
/// Finding and linting its samples never crash and every diagnostic lies in the page; the fixes
/// of a page whose samples are small are checked as fuzz-docs checks them.
func fuzzPages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = Fuzz.bytes(data, size)
  guard let selector = input.first else { return 0 }
  let format = DocumentFormat.allCases[Int(selector) % DocumentFormat.allCases.count]
  let run = [(1 << 20) - 1, 1 << 20, (1 << 20) + 1, 4 << 20][Int(selector >> 4 & 3)]
  let page = Fuzz.inflate(input.dropFirst(), run)
  let docs = DocumentLinter(linter: Fuzz.linter)
  let checked = docs.check(bytes: page, file: "fuzz.md", format: format)
  Fuzz.checkDiagnostics(checked.diagnostics, bytes: page, file: "fuzz.md")
  if page.count < 64 << 10 {
    let fixed = docs.fix(bytes: page, file: "fuzz.md", format: format)
    Fuzz.checkDiagnostics(fixed.diagnostics, bytes: fixed.bytes, file: "fuzz.md")
  }
  return 0
}

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzPages($0, $1) }
