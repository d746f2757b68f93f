import FCMLintJSON

extension Rule.Condition {
  /// Whether the condition holds at `context.given`: a check holds when it finds nothing there.
  /// Conditions ask `passes`, not `check`, so no message is built for a finding thrown away.
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
