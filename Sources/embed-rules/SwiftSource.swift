import FCMLintEngine

/// Swift source code for rule specs: what embed-rules writes so that the built-in pack starts
/// from `RuleSpec.compile` instead of parsing rule text. Every value is written out in full, with
/// dictionaries in key order, so the same rules always give the same file.
enum SwiftSource {
  struct Unwritable: Error { var message: String }

  static func rule(_ r: RuleSpec) throws(Unwritable) -> String {
    guard r.description.isEmpty, r.examples == Rule.Examples() else {
      throw Unwritable(message: "lint specs leave out the description and examples")
    }
    return """
      RuleSpec(
            id: \(string(r.id)), severity: .\(r.severity.rawValue), summary: \(string(r.summary)), description: "",
            docs: \(string(r.docs)),
            given: \(list(r.given.map(located))),
            when: \(try list(r.when.map(condition))),
            then: \(try list(r.then.map(check))),
            message: \(optional(r.message.map(located))),
            fix: \(try optional(r.fix.map(fix))),
            examples: Rule.Examples(), source: \(string(r.source)), isBuiltin: \(r.isBuiltin), idLine: \(r.idLine), idColumn: \(r.idColumn))
      """
  }

  static func check(_ c: CheckSpec) throws(Unwritable) -> String {
    let options = try c.options.sorted { $0.key < $1.key }.map { entry throws(Unwritable) in "\(string(entry.key)): \(try option(entry.value))" }
    return "CheckSpec(field: \(optional(c.field.map(located))), function: \(string(c.function)), "
      + "options: \(dictionary(options)), "
      + "optionsLine: \(c.optionsLine), optionsColumn: \(c.optionsColumn), message: \(optional(c.message.map(located))))"
  }

  static func condition(_ c: ConditionSpec) throws(Unwritable) -> String {
    switch c {
    case .check(let check): return "ConditionSpec.check(\(try self.check(check)))"
    case .not(let inner): return "ConditionSpec.not(\(try condition(inner)))"
    case .anyOf(let items): return "ConditionSpec.anyOf(\(try list(items.map(condition))))"
    }
  }

  static func option(_ o: OptionSource) throws(Unwritable) -> String {
    switch o {
    case .string(let s): return "OptionSource.string(\(string(s)))"
    case .strings(let s): return "OptionSource.strings(\(list(s.map(string))))"
    case .bool(let b): return "OptionSource.bool(\(b))"
    case .number(let n): return "OptionSource.number(\(try number(n)))"
    case .value(let v): return "OptionSource.value(\(try literal(v)))"
    case .path(let p): return "OptionSource.path(\(located(p)))"
    case .paths(let p): return "OptionSource.paths(\(list(p.map(located))))"
    case .pattern(let p): return "OptionSource.pattern(\(located(p)))"
    case .stringMap(let m):
      let entries = m.sorted { $0.key < $1.key }.map { "\(string($0.key)): \(string($0.value))" }
      return "OptionSource.stringMap(\(dictionary(entries)))"
    }
  }

  static func fix(_ f: FixSpec) throws(Unwritable) -> String {
    let action: String
    switch f.action {
    case .set(let path, let value): action = ".set(\(located(path)), \(try literal(value)))"
    case .renameKey(let t): action = ".renameKey(\(located(t)))"
    case .replaceValue(let t): action = ".replaceValue(\(located(t)))"
    case .moveInto(let path): action = ".moveInto(\(located(path)))"
    case .replacePattern(let p, let with): action = ".replacePattern(\(located(p)), with: \(string(with)))"
    }
    let values = try f.values.map { values throws(Unwritable) in list(try values.map(literal)) }
    return "FixSpec(action: \(action), kinds: \(optional(f.kinds.map { list($0.map(string)) })), "
      + "values: \(optional(values)), description: \(optional(f.description.map(located))))"
  }

  static func literal(_ v: LiteralValue) throws(Unwritable) -> String {
    switch v {
    case .string(let s): return "LiteralValue.string(\(string(s)))"
    case .number(let n): return "LiteralValue.number(\(try number(n)))"
    case .bool(let b): return "LiteralValue.bool(\(b))"
    case .null: return "LiteralValue.null"
    case .array(let items): return "LiteralValue.array(\(list(try items.map(literal))))"
    case .object(let members):
      let entries = try members.map { member throws(Unwritable) in "(\(string(member.0)), \(try literal(member.1)))" }
      return "LiteralValue.object(\(list(entries)))"
    }
  }

  static func located(_ l: Located<String>) -> String {
    "Located(\(string(l.value)), line: \(l.line), column: \(l.column), quoted: \(l.quoted))"
  }

  static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

  /// A dictionary literal of `key: value` entries (`[:]` when there are none).
  static func dictionary(_ entries: [String]) -> String { entries.isEmpty ? "[:]" : list(entries) }

  static func optional(_ text: String?) -> String { text ?? "nil" }

  static func number(_ n: Double) throws(Unwritable) -> String {
    if n.isNaN { throw Unwritable(message: "NaN has no Swift literal") }
    if n.isInfinite { return n < 0 ? "-Double.infinity" : "Double.infinity" }
    return "\(n)"
  }

  /// A Swift string literal: quotes, backslashes and control characters escaped.
  static func string(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
