import FuzzSupport

/// The fix pass under random rule sets: whatever rules run, fixing must never make a parseable
/// file unparseable (or an unparseable one worse), add a duplicate key, change a byte outside the edits it reports, or grow the
/// file past the limit.
///
/// Input: a document, then optionally a NUL byte and a rule-set choice. The choice picks which
/// built-in rules run (a bit each) and up to three generated rules with fixes (renames, sets,
/// value rewrites, moves, pattern replacements) over paths and keys drawn from FCM's own. A
/// document without the NUL runs with every built-in rule.
func fuzzFixer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = Fuzz.bytes(data, size)
  var document = input
  var choice: [UInt8] = []
  if let nul = input.lastIndex(of: 0) {
    document = Array(input[..<nul])
    choice = Array(input[(nul + 1)...].prefix(32))
  }
  var rules = RuleChoice(choice)
  let linter = rules.linter()
  let result = Fixer(linter: linter).fix(bytes: document, file: "fuzz.json")

  // Replaying the passes' edits, spliced here independently of the fixer, gives its output: no
  // byte outside an edit changed.
  var replayed = document
  for edits in result.passes {
    var out: [UInt8] = []
    var position = 0
    for edit in edits {
      Fuzz.check(edit.start >= position && edit.start <= edit.end && edit.end <= replayed.count,
        "edits out of order or out of range: \(edit.start)..<\(edit.end) after \(position) of \(replayed.count)")
      out += replayed[position..<edit.start]
      out += Array(edit.replacement.utf8)
      position = edit.end
    }
    out += replayed[position...]
    replayed = out
  }
  Fuzz.check(replayed == result.bytes, "the fixed text differs from the original outside the reported edits")
  if result.bytes == document { return 0 }
  Fuzz.check(result.bytes.count <= Fixer.growthLimit(document.count), "grew past the limit: \(document.count) -> \(result.bytes.count)")
  guard case .success(let before) = linter.parse(document) else {
    // Only the syntax rule's fixes apply to a file that does not parse.
    Fuzz.checkSyntaxFixes(before: document, after: result.bytes)
    return 0
  }
  guard case .success(let after) = linter.parse(result.bytes) else {
    Fuzz.check(false, "a fix made the file unparseable")
    return 0
  }
  let duplicatesBefore = duplicateNames(before), duplicatesAfter = duplicateNames(after)
  for (name, count) in duplicatesAfter where count > duplicatesBefore[name, default: 0] {
    Fuzz.check(false, "a fix added a duplicate key '\(name)'")
  }
  Fuzz.checkDiagnostics(result.diagnostics, bytes: result.bytes, file: "fuzz.json")
  return 0
}

func duplicateNames(_ document: JSONDocument) -> [String: Int] {
  var names: [String: Int] = [:]
  for member in document.duplicateKeys { names[document.key(member) ?? "", default: 0] += 1 }
  return names
}

/// A rule set read from bytes: each byte taken in turn, zero when they run out.
struct RuleChoice {
  var bytes: [UInt8]
  var next = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func byte() -> Int {
    defer { next += 1 }
    return next < bytes.count ? Int(bytes[next]) : 0
  }
  mutating func pick<T>(_ list: [T]) -> T { list[byte() % list.count] }

  static let givens = ["$.message", "$.message.data", "$.message.notification", "$.message.apns.payload.aps",
    "$.message.apns.payload", "$.message.android.notification", "$.message.webpush.notification", "$.message.*", "$.message.*.*", "$"]
  static let keys = ["image", "title", "data", "mutable-content", "mutable_content", "mutableContent", "thread-id",
    "thread_id", "a", "b", "a_b", "aB", "ttl", "topic", "aps", "notification", "x"]
  static let values = ["1", "\"s\"", "true", "{}", "[]", "null", "{\"a\": 1}", "\"\\u00e9\\n\""]
  static let replacements = [#""{raw}s""#, "[{raw}, {raw}]", "{rawString}", #""x""#, "{raw}", "[]", #""\u00e9""#]
  static let destinations = ["$.message.webpush.notification", "$.message.data", "$.message.apns.payload.aps", "$.message", "@.x"]
  static let patterns = [("^/topics/", ""), ("a", "bb"), ("^", "x"), ("\\\\.png$", ".jpg"), ("[0-9]+", "")]

  mutating func linter() -> Linter {
    guard !bytes.isEmpty else { return Fuzz.linter }
    var set = RuleSet(resources: Fuzz.rules.resources)
    // A bit per built-in rule, from four bytes.
    var mask: UInt32 = 0
    for _ in 0..<4 { mask = mask << 8 | UInt32(byte()) }
    for (i, rule) in Fuzz.rules.rules.enumerated() where mask & (1 << UInt32(i % 32)) != 0 {
      try? set.add(rule)
    }
    for n in 0..<(byte() % 4) {
      let text = generatedRule(id: "generated-\(n)")
      guard let rule = try? RuleLoader.load(text: text, file: "generated.yml", resources: set.resources) else {
        Fuzz.check(false, "a generated rule did not load:\n\(text)")
        continue
      }
      try? set.add(rule)
    }
    return Linter(rules: set)
  }

  mutating func generatedRule(id: String) -> String {
    let given = pick(Self.givens), key = pick(Self.keys)
    var text = """
      id: \(id)
      severity: \(pick(["error", "warning", "info"]))
      summary: generated
      description: generated by the fixer fuzz target
      docs: https://example.com
      given: '\(given)'

      """
    switch byte() % 5 {
    case 0:
      text += "then: {field: \"@['\(key)']\", function: absent}\nfix: {renameKey: '\(pick(Self.keys))'}\n"
    case 1:
      text += "then: {field: \"@['\(key)']\", function: present}\nfix: {set: \"@['\(key)']\", value: \(pick(Self.values))}\n"
    case 2:
      text += "then: {field: \"@['\(key)']\", function: type, options: {type: [\(pick(["string", "object", "array"]))]}}\n"
      text += "fix: {replaceValue: '\(pick(Self.replacements))'}\n"
    case 3:
      text += "then: {field: \"@['\(key)']\", function: absent}\nfix: {moveInto: '\(pick(Self.destinations))'}\n"
    default:
      let (pattern, with) = pick(Self.patterns)
      text += "then: {field: \"@['\(key)']\", function: pattern, options: {notMatch: '\(pattern)'}}\n"
      text += "fix: {replacePattern: '\(pattern)', with: '\(with)'}\n"
    }
    return text
  }
}

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzFixer($0, $1) }
