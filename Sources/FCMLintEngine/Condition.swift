import FCMLintJSON

/// A rule's `when`: the rule applies to a `given` node only when every condition holds. Everything
/// about conditions is in this file: the kinds, how a rule file writes them, and when they hold.
/// A new kind is a case, a branch in `RuleReader.condition` and a branch in `holds`.
///
/// ```yaml
/// when:
///   - field: '@.fcm_options.image'          # a check: holds when it finds nothing
///     function: absent
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
    return .check(try check(value))
  }
}

extension Rule.Condition {
  /// Whether the condition holds at `context.given`. Checks answer `passes`, not `check`, so no
  /// message is built for a finding that would be thrown away.
  func holds(_ context: FunctionContext) -> Bool {
    switch self {
    case .check(let check): return check.passes(context)
    case .anyOf(let operands): return operands.contains { $0.holds(context) }
    case .not(let operand): return !operand.holds(context)
    }
  }
}

extension Rule.Check {
  /// Whether the check finds nothing at `context.given` (at every place its field leads to).
  func passes(_ context: FunctionContext) -> Bool {
    guard let field else { return function.passes(.found(context.given), in: context) }
    if field.isSingular {
      guard let target = field.resolveOne(in: context.document, from: context.given) else { return true }
      return function.passes(target, in: context)
    }
    var clean = true
    field.forEachResolution(in: context.document, from: context.given) { target in
      if clean, !function.passes(target, in: context) { clean = false }
    }
    return clean
  }
}
