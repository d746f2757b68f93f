@_exported import FCMLintDocs
@_exported import FCMLintEngine
@_exported import FCMLintFixes
@_exported import FCMLintFormatters
@_exported import FCMLintJSON
@_exported import FCMLintWorkspace
import CLibFuzzer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the fuzz targets share: the input as bytes, the rule pack, and checks whose failure is a
/// finding (libFuzzer saves the input that trips one, as for a crash).
public enum Fuzz {
  /// The repository, found from this file (Fuzz/Sources/FuzzSupport/FuzzSupport.swift).
  public static let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/")
  }()

  /// Hands the process to libFuzzer, which calls `body` with each input (the libFuzzer options
  /// are the command line's).
  public static func run(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, body))
  }

  /// `bytes` with each `@@` replaced by `count` letters: how a small input stands for a large one
  /// (the targets that reach the size limits).
  public static func inflate(_ bytes: ArraySlice<UInt8>, _ count: Int) -> [UInt8] {
    var out: [UInt8] = []
    var i = bytes.startIndex
    while i < bytes.endIndex {
      if bytes[i] == UInt8(ascii: "@"), i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "@") {
        out += repeatElement(UInt8(ascii: "a"), count: count)
        i += 2
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return out
  }

  public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
  }

  /// The built-in rule pack, read from `rules/` as fcmlint's build embeds it.
  public static let rules: RuleSet = {
    do {
      let schemaPath = repository + "/rules/schema/fcm-v1.json"
      guard case .success(let schema) = FileSystem.read(schemaPath) else { fatalError("cannot read \(schemaPath)") }
      let resources = try RuleSet.loadSchemas([(schemaPath, String(decoding: schema, as: UTF8.self))])
      var set = RuleSet(resources: resources)
      try set.addDirectory(repository + "/rules")
      return set
    } catch {
      fatalError("cannot load the rule pack: \(error)")
    }
  }()

  public static let linter = Linter(rules: rules)

  /// How many syntax errors the built-in pack reports in `bytes` (the parser keeps going after
  /// the first, see `SyntaxRecovery`).
  public static func syntaxErrors(_ bytes: [UInt8]) -> Int {
    linter.lint(bytes: bytes, file: "fuzz.json").filter { $0.rule == "json-syntax" }.count
  }

  /// A file that did not parse may change only by the syntax fixes (a trailing comma or a
  /// comment removed, a missing ',' inserted): it then parses, or has fewer syntax errors.
  public static func checkSyntaxFixes(before: [UInt8], after: [UInt8]) {
    guard (try? linter.parse(after).get()) == nil else { return }
    let was = syntaxErrors(before), now = syntaxErrors(after)
    check(now < was, "fixing an unparseable file left \(now) syntax errors, from \(was)")
  }

  /// A failed invariant: print it and abort, so libFuzzer records the input as a crash.
  public static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
      var text = "fuzz invariant failed (\(file):\(line)): \(message())\n"
      text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
      abort()
    }
  }

  /// Checks what every diagnostic must satisfy, and renders them in every format.
  public static func checkDiagnostics(_ diagnostics: [Diagnostic], bytes: [UInt8], file: String) {
    for d in diagnostics {
      check(d.file == file, "diagnostic for another file: \(d.file)")
      check(d.startOffset >= 0 && d.startOffset <= d.endOffset && d.endOffset <= bytes.count,
        "bad range \(d.startOffset)..<\(d.endOffset) of \(bytes.count) bytes [\(d.rule)]")
      check(d.start.line >= 1 && d.start.column >= 1 && d.end.line >= 1 && d.end.column >= 1, "bad position \(d.start)-\(d.end)")
      check(d.start <= d.end, "start after end: \(d.start)-\(d.end) [\(d.rule)]")
      check(!d.message.isEmpty, "empty message [\(d.rule)]")
      check(d.pointer.isEmpty || d.pointer.hasPrefix("/"), "bad pointer '\(d.pointer)'")
      if let fix = d.fix {
        for edit in fix.edits {
          check(edit.start >= 0 && edit.start <= edit.end && edit.end <= bytes.count, "bad fix edit \(edit.start)..<\(edit.end)")
        }
      }
    }
    let report = Report(diagnostics: diagnostics, summary: Summary(files: 1, diagnostics: diagnostics), files: [file])
    for format in OutputFormat.allCases {
      let text = format.formatter().format(report)
      // GitHub annotations and NDJSON are one line per diagnostic: none for none.
      check(!text.isEmpty || ((format == .github || format == .ndjson) && diagnostics.isEmpty), "empty \(format.rawValue) report")
    }
  }
}
