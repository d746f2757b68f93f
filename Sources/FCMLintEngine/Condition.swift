import FCMLintJSON

/// A rule's `when`: the rule applies to a `given` node only when every condition holds. Everything
/// about conditions is in this file: the kinds, how a rule file writes them, how the linter's
/// plan lays them out, and when they hold. A new kind is a case, a branch in
/// `RuleReader.condition`, one in `LintPlan.place` and one in `LintPlan.holds`.
///
/// ```yaml
/// when:
///   - field: '@.fcm_options.image'          # a check: holds when it finds nothing (with a field
///     function: absent                      # of several paths, nothing at any of them)
///   - anyOf: [<condition>, <condition>]      # holds when one of them holds
///   - not: <condition>                       # holds when the condition does not
/// ```
extension Rule {
  public indirect enum Condition: Sendable {
    /// Holds when the check finds nothing.
    case check(Check)
    case anyOf([Condition])
    case not(Condition)
  }
}

extension RuleReader {
  func condition(_ value: DataValue) throws(ConfigurationError) -> Rule.Condition {
    if case .mapping(let m) = value.node, m.count == 1, case .scalar(let key, _, _) = m[0].key.node, key == "anyOf" || key == "not" {
      let inner = m[0].value
      if key == "not" { return .not(try condition(inner)) }
      var conditions: [Rule.Condition] = []
      for item in try inner.sequence(what: "anyOf") { conditions.append(try condition(item)) }
      if conditions.isEmpty { throw inner.fail("anyOf needs at least one condition") }
      return .anyOf(conditions)
    }
    // A field that stands for several paths holds when the check holds at each of them.
    let checks = try checks(value)
    if checks.count == 1 { return .check(checks[0]) }
    return .not(.anyOf(checks.map { .not(.check($0)) }))
  }
}

/// The active rules as the hot loop reads them: their checks and `when` conditions as plain
/// values in flat arrays, reached by index.
///
/// The loop runs every check of every rule at every `given` node. Read out of a class (a rule, a
/// `Rule.Check`) or out of a buffer, a check is retained and released around each call, with
/// its function and path; an element of an array of structs is borrowed in place. So the plan
/// holds no class of its own, and nothing in it is copied per node.
struct LintPlan {
  /// A check: its function at the place its path leads to.
  struct Check {
    let field: JSONPath?
    let function: any RuleFunction
    let templates: FCMLintEngine.Rule.TemplateHandling
  }

  /// A `when` condition; an `anyOf`'s and a `not`'s operands are `operands` of `conditions`.
  struct Condition {
    enum Kind: UInt8 { case check, anyOf, not }
    let kind: Kind
    /// For `check`: its index in `checks`.
    let check: Int32
    let operands: Range<Int32>
  }

  /// A rule: its top-level `when` conditions in `conditions`, its `then` checks in `checks`
  /// (in the rule's order, so `then.lowerBound + i` is `Rule.then[i]`).
  struct Rule {
    let when: Range<Int32>
    let then: Range<Int32>
  }

  /// A finding of check `check` of `rules[rule]`'s `then`, at the `given` node `given`.
  typealias Found = (rule: Int32, check: Int32, finding: Finding, given: NodeID)

  private(set) var checks: [Check] = []
  private(set) var conditions: [Condition] = []
  private(set) var rules: [Rule] = []

  init(_ rules: [FCMLintEngine.Rule]) {
    for rule in rules {
      let then = Int32(checks.count)..<Int32(checks.count + rule.then.count)
      checks += rule.then.map { Check(field: $0.field, function: $0.function, templates: $0.templates) }
      self.rules.append(Rule(when: place(rule.when), then: then))
    }
  }

  /// Adds `list` as consecutive conditions (their operands after them); returns their range.
  private mutating func place(_ list: [FCMLintEngine.Rule.Condition]) -> Range<Int32> {
    let first = conditions.count
    conditions += repeatElement(Condition(kind: .not, check: -1, operands: 0..<0), count: list.count)
    for (offset, condition) in list.enumerated() {
      switch condition {
      case .check(let check):
        conditions[first + offset] = Condition(kind: .check, check: Int32(checks.count), operands: 0..<0)
        checks.append(Check(field: check.field, function: check.function, templates: check.templates))
      case .anyOf(let operands):
        conditions[first + offset] = Condition(kind: .anyOf, check: -1, operands: place(operands))
      case .not(let operand):
        conditions[first + offset] = Condition(kind: .not, check: -1, operands: place([operand]))
      }
    }
    return Int32(first)..<Int32(first + list.count)
  }

  /// Whether every top-level `when` condition of `rule` holds at `context.given`.
  @inline(__always)
  func whenHolds(_ rule: Rule, _ context: FunctionContext) -> Bool {
    rule.when.allSatisfy { holds(Int($0), context) }
  }

  /// Whether condition `index` holds at `context.given`: a check holds when it finds nothing there.
  private func holds(_ index: Int, _ context: FunctionContext) -> Bool {
    let condition = conditions[index]
    switch condition.kind {
    case .check: return checks[Int(condition.check)].passes(context)
    case .anyOf: return condition.operands.contains { holds(Int($0), context) }
    case .not: return !holds(Int(condition.operands.lowerBound), context)
    }
  }
}

extension LintPlan.Check {
  /// Whether the check finds nothing at `context.given` (at every place its field leads to).
  /// Conditions ask `passes`, not `check`, so no message is built for a finding thrown away.
  func passes(_ context: FunctionContext) -> Bool {
    guard let field else { return function.passes(.found(context.given), in: context) }
    if field.isSingular {
      // A root path outside a mounted document (`$.message.notification` in an ApnsConfig alone)
      // reads as absent, as the functions of `then` see it; read as passing, every condition on
      // one held (an image rule fired on a part without any image).
      let target = field.resolveOne(in: context.document, from: context.given) ?? .missing(nearest: JSONDocument.root, missing: "")
      return function.passes(target, in: context)
    }
    var clean = true
    field.forEachResolution(in: context.document, from: context.given) { target in
      if clean, !function.passes(target, in: context) { clean = false }
    }
    return clean
  }

  /// Appends the findings of the check at `node` (at every place its field leads to) to `found`,
  /// with `rule` and `check` (their indices). Not inlined: inlined into the loop, the check was
  /// copied out of its array (retaining its function and path) for every node.
  @inline(never)
  func run(at node: NodeID, _ context: FunctionContext, rule: Int32, check: Int32, into found: inout [LintPlan.Found]) {
    // Most fields lead to one place: resolve it directly, without a walk and its closure.
    if let field, !field.isSingular {
      field.forEachResolution(in: context.document, from: node) { target in
        for finding in function.check(target, in: context) { found.append((rule, check, finding, node)) }
      }
      return
    }
    let target: JSONPath.Resolution
    if let field {
      guard let resolution = field.resolveOne(in: context.document, from: node) else { return }
      target = resolution
    } else {
      target = .found(node)
    }
    let findings = function.check(target, in: context)
    if !findings.isEmpty {
      for finding in findings { found.append((rule, check, finding, node)) }
    }
  }
}
