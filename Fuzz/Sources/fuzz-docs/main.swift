import FuzzSupport

/// Documentation pages: the first byte picks the format (Markdown, HTML, text), the rest is the
/// page. Finding, linting and fixing its samples never crash; every diagnostic lies in the page;
/// a fix changes the page only inside its samples (the text between samples stays byte for byte)
/// and keeps the same samples.
func fuzzDocs(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = Fuzz.bytes(data, size)
  guard let selector = input.first else { return 0 }
  let format = DocumentFormat.allCases[Int(selector) % DocumentFormat.allCases.count]
  let page = Array(input.dropFirst())
  let docs = DocumentLinter(linter: Fuzz.linter)
  let checked = docs.check(bytes: page, file: "fuzz.md", format: format)
  Fuzz.checkDiagnostics(checked.diagnostics, bytes: page, file: "fuzz.md")
  let fixed = docs.fix(bytes: page, file: "fuzz.md", format: format)
  Fuzz.check(fixed.fixed >= 0, "negative fix count")
  guard fixed.bytes != page else { return 0 }
  Fuzz.checkDiagnostics(fixed.diagnostics, bytes: fixed.bytes, file: "fuzz.md")
  let before = docs.samples(in: page, format: format)
  let after = docs.samples(in: fixed.bytes, format: format)
  Fuzz.check(before.count == after.count, "a fix changed the number of samples: \(before.count) to \(after.count)")
  Fuzz.check(outside(before, page) == outside(after, fixed.bytes), "a fix changed the page outside its samples")
  return 0
}

/// The page's bytes outside every sample's extent, in order, with a separator where a sample was.
func outside(_ samples: [DocumentSample], _ page: [UInt8]) -> [[UInt8]] {
  var ranges = samples.map { $0.text.origin(of: 0)..<max($0.text.origin(of: 0), $0.text.origin(of: $0.text.bytes.count)) }.sorted { $0.lowerBound < $1.lowerBound }
  var merged: [Range<Int>] = []
  for range in ranges {
    if let last = merged.last, range.lowerBound <= last.upperBound {
      merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
    } else {
      merged.append(range)
    }
  }
  ranges = merged
  var pieces: [[UInt8]] = []
  var at = 0
  for range in ranges {
    pieces.append(Array(page[min(at, page.count)..<min(range.lowerBound, page.count)]))
    at = range.upperBound
  }
  pieces.append(Array(page[min(at, page.count)...]))
  return pieces
}

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzDocs($0, $1) }
