import FuzzSupport

/// Rule and config files as hostile input: arbitrary bytes read as a rule file and as a
/// .fcmlint.yml. Loading must end in a rule (or config) or a ConfigurationError with a position,
/// quickly; a rule that loads is run over sample documents.
func fuzzRules(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  // fcmlint refuses rule and config files that are not UTF-8 before parsing them.
  guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
  do {
    let rule = try RuleLoader.load(text: text, file: "fuzz.yml", resources: Fuzz.rules.resources)
    var set = RuleSet(resources: Fuzz.rules.resources)
    try set.add(rule)
    let linter = Linter(rules: set)
    for sample in samples {
      let diagnostics = linter.lint(bytes: sample, file: "sample.json")
      Fuzz.checkDiagnostics(diagnostics, bytes: sample, file: "sample.json")
      _ = Fixer(linter: linter).fix(bytes: sample, file: "sample.json")
    }
    for example in rule.examples.valid + rule.examples.invalid {
      _ = linter.lint(bytes: Array(example.json.utf8), file: "example.json")
    }
  } catch {
    Fuzz.check(error.line >= 1 && error.column >= 1 && !error.message.isEmpty, "bad error \(error)")
  }
  do {
    let config = try Config.load(text: text, file: "fuzz.fcmlint.yml")
    _ = config.isIgnored("a/b.json")
  } catch {
    Fuzz.check(error.line >= 1 && error.column >= 1 && !error.message.isEmpty, "bad error \(error)")
  }
  return 0
}

let samples: [[UInt8]] = [
  #"{"message": {"topic": "news", "notification": {"title": "Hi", "image": "https://example.com/a.png"}, "apns": {"payload": {"aps": {"alert": {"title": "Hi"}}}, "fcm_options": {"image": "https://example.com/a.png"}}, "android": {"ttl": 3600, "priority": "high", "notification": {"color": "red"}}, "webpush": {"headers": {"image": "x"}}, "data": {"a": 1, "b": true}}}"#,
  #"{"token": "t", "data": {"from": "x"}, "android": {"ttl": "-1s"}}"#,
  #"{"aps": {"mutable_content": 1, "content-available": true}}"#,
  #"[1, "two", {"three": null}]"#,
].map { Array($0.utf8) }

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzRules($0, $1) }
