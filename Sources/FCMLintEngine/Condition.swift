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
///
/// A check that several rules make (the same function, options, field and template handling:
/// one `Rule.Check`, or equal ones) is one check here, and a document pays for it once per node
/// (`LintMemo`): what a document costs follows the checks that apply to it, not the number of
/// rules that ask for them.
struct LintPlan {
  /// A check: its function at the place its path leads to.
  struct Check {
    /// The check's field, or `@` when it has none (`hasField`). Not an optional: binding one
    /// (`if let field`) copied the path, a retain and a release on every call.
    let path: JSONPath
    let hasField: Bool
    /// The check's function, or its stand-in until it is made (see `lazy`). A value in the struct
    /// (not an object's), so the loop borrows the check in place (`LintPlan`).
    let function: any RuleFunction
    let templates: FCMLintEngine.Rule.TemplateHandling
    /// `function`'s `ignoresMissing`: the check runs only where its field leads to a node.
    let ignoresMissing: Bool
    /// `function`'s `failsWhereMissing`: as a condition, it fails where its field leads nowhere.
    let failsWhereMissing: Bool
    /// `function`'s `readsTemplates`.
    let readsTemplates: Bool
    /// `function`'s `passingKinds`: where its target is a value of these kinds, it is not called.
    let passingKinds: UInt16
    /// For a check of the built-in pack whose function is made when first called, the rule's
    /// check, called directly rather than through `function`, its stand-in (the rule keeps it).
    let lazy: Unmanaged<FCMLintEngine.Rule.Check>?

    /// The function's findings for one target.
    @inline(__always)
    func functionFindings(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
      if let lazy { return FCMLintEngine.Rule.Check.findings(lazy, target, in: context) }
      return function.check(target, in: context)
    }

    /// Whether the function finds nothing for one target.
    @inline(__always)
    func functionPasses(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
      if let lazy { return FCMLintEngine.Rule.Check.passes(lazy, target, in: context) }
      return function.passes(target, in: context)
    }
  }

  /// A `when` condition; an `anyOf`'s and a `not`'s operands are `operands` of `conditions`.
  struct Condition {
    enum Kind: UInt8 { case check, anyOf, not }
    let kind: Kind
    /// For `check`: its index in `checks`.
    let check: Int32
    let operands: Range<Int32>
  }

  /// A rule: its top-level `when` conditions in `conditions`, its `then` checks in `thenChecks`
  /// (in the rule's order, so `thenChecks[then.lowerBound + i]` is `Rule.then[i]`'s check).
  struct Rule {
    let when: Range<Int32>
    let then: Range<Int32>
  }

  /// A finding of check `check` of `rules[rule]`'s `then`, at the `given` node `given`.
  typealias Found = (rule: Int32, check: Int32, finding: Finding, given: NodeID)

  private(set) var checks: [Check] = []
  private(set) var conditions: [Condition] = []
  private(set) var rules: [Rule] = []
  /// Each rule's `then`, rule after rule: indices in `checks`.
  private(set) var thenChecks: [Int32] = []
  /// Per check, its place in a document's `LintMemo` when rules make it more than once (as
  /// conditions or in `then`), else -1.
  private(set) var checkMemo: [Int32] = []
  private(set) var checkMemoCount = 0
  /// Per check, whether it has no field (read apart: reading it off `checks` copied the check).
  private(set) var fieldless: [Bool] = []
  /// Per check that runs only where its field leads, of a field that starts with a member of the
  /// `given` node (`@.image`, `@.fcm_options.image`): that member's `JSONPath.Storage.memberProbe`;
  /// 0 for other checks. About half of a document's check runs are of a field it does not have:
  /// one probe of the member table (`mayHaveMember`) answers most of those.
  private(set) var fieldProbes: [UInt64] = []
  /// Per rule, its place in `LintMemo` when another rule has the same `when` and `then` (the
  /// same checks in the same places: a rule copied under another id), shared by those rules;
  /// else -1. Such a rule finds at a node exactly what the first of them found there.
  private(set) var ruleMemo: [Int32] = []
  private(set) var ruleMemoCount = 0

  /// `sameChecks`: whether checks are told apart by what they do (`Rule.Check.signature`), as
  /// for rules loaded from different places, or by the kind the compiled pack gave them (the
  /// build compared their signatures), else by being one object.
  init(_ rules: [FCMLintEngine.Rule], sameChecks bySignature: Bool) {
    var sources: [FCMLintEngine.Rule.Check]? = nil
    self.init(rules, sameChecks: bySignature, sources: &sources)
  }

  /// The plan of `rules`, with the rule check each of its checks is made from (`sources[i]` for
  /// `checks[i]`): what the compiled pack writes of it.
  static func withSources(_ rules: [FCMLintEngine.Rule], sameChecks: Bool) -> (plan: LintPlan, sources: [FCMLintEngine.Rule.Check]) {
    var sources: [FCMLintEngine.Rule.Check]? = []
    let plan = LintPlan(rules, sameChecks: sameChecks, sources: &sources)
    return (plan, sources ?? [])
  }

  /// A plan the build laid out (`CompiledPack`): the tables `init(_:sameChecks:)` made for the
  /// built-in pack, with `checks[i]` made from `sources[i]` and `passingKinds[i]` (the build
  /// asked the function: no function is made for it at start). The pack has no two rules alike.
  init(
    sources: [FCMLintEngine.Rule.Check], passingKinds: [UInt16], conditions: [Condition], rules: [Rule], thenChecks: [Int32],
    checkMemo: [Int32], checkMemoCount: Int
  ) {
    checks.reserveCapacity(sources.count)
    for (source, kinds) in zip(sources, passingKinds) { checks.append(Check(source, passingKinds: kinds)) }
    self.conditions = conditions
    self.rules = rules
    self.thenChecks = thenChecks
    self.checkMemo = checkMemo
    self.checkMemoCount = checkMemoCount
    fieldless = checks.map { !$0.hasField }
    fieldProbes = Self.fieldProbes(checks)
    ruleMemo = Array(repeating: -1, count: rules.count)
  }

  private init(_ rules: [FCMLintEngine.Rule], sameChecks bySignature: Bool, sources: inout [FCMLintEngine.Rule.Check]?) {
    var checks: [Check] = [], conditions: [Condition] = [], thenChecks: [Int32] = []
    var numbers: [ObjectIdentifier: Int32] = [:]
    var kinds: [Int32] = []  // a compiled check's kind → its number here, or -1
    var signatures: [String: Int32] = [:]
    var conditionUses: [Int32] = [], thenUses: [Int32] = []
    // About one check per `then` check and top-level condition: allocated once, not grown
    // (nested conditions may add a few).
    let checkCount = rules.reduce(0) { $0 + $1.then.count + $1.when.count }
    checks.reserveCapacity(checkCount)
    conditionUses.reserveCapacity(checkCount)
    thenUses.reserveCapacity(checkCount)
    thenChecks.reserveCapacity(rules.reduce(0) { $0 + $1.then.count })
    func number(_ check: FCMLintEngine.Rule.Check) -> Int32 {
      var number = Int32(checks.count)
      if !bySignature, check.kind >= 0 {
        // The built-in pack: told by the kind the build gave it, no hashing.
        let kind = Int(check.kind)
        if kind >= kinds.count { kinds += repeatElement(-1, count: kind + 1 - kinds.count) }
        if kinds[kind] >= 0 { return kinds[kind] }
        kinds[kind] = number
      } else {
        let identity = ObjectIdentifier(check)
        if let number = numbers[identity] { return number }
        if bySignature {
          let signature = check.signature
          if let known = signatures[signature] { number = known } else { signatures[signature] = number }
        }
        numbers[identity] = number
      }
      if number == checks.count {
        checks.append(Check(check))
        sources?.append(check)
        conditionUses.append(0)
        thenUses.append(0)
      }
      return number
    }
    // `list` as consecutive conditions (their operands after them); returns their range.
    func place(_ list: [FCMLintEngine.Rule.Condition]) -> Range<Int32> {
      let first = conditions.count
      conditions += repeatElement(Condition(kind: .not, check: -1, operands: 0..<0), count: list.count)
      for (offset, condition) in list.enumerated() {
        switch condition {
        case .check(let check):
          let n = number(check)
          conditionUses[Int(n)] += 1
          conditions[first + offset] = Condition(kind: .check, check: n, operands: 0..<0)
        case .anyOf(let operands):
          conditions[first + offset] = Condition(kind: .anyOf, check: -1, operands: place(operands))
        case .not(let operand):
          conditions[first + offset] = Condition(kind: .not, check: -1, operands: place([operand]))
        }
      }
      return Int32(first)..<Int32(first + list.count)
    }
    var planned: [Rule] = []
    planned.reserveCapacity(rules.count)
    for rule in rules {
      let then = Int32(thenChecks.count)..<Int32(thenChecks.count + rule.then.count)
      for check in rule.then {
        let n = number(check)
        thenChecks.append(n)
        thenUses[Int(n)] += 1
      }
      planned.append(Rule(when: place(rule.when), then: then))
    }
    // A memo place for each check made more than once (as a condition, or in `then`).
    func places(_ uses: [Int32]) -> (places: [Int32], count: Int) {
      var next: Int32 = 0
      let places = uses.map { uses -> Int32 in
        guard uses > 1 else { return -1 }
        defer { next += 1 }
        return next
      }
      return (places, Int(next))
    }
    (checkMemo, checkMemoCount) = places(zip(conditionUses, thenUses).map { $0 + $1 })
    fieldless = checks.map { !$0.hasField }
    fieldProbes = Self.fieldProbes(checks)
    // Rules alike only where checks were compared by what they do (the built-in pack has no
    // two rules alike, and its start does not pay for looking).
    ruleMemo = Array(repeating: -1, count: planned.count)
    if bySignature {
      var bodies: [[Int32]: Int] = [:]
      for (index, rule) in planned.enumerated() {
        // The rule's conditions (kinds, checks, where their operands are from its first) and
        // its `then` checks.
        var body: [Int32] = [Int32(rule.when.count)]
        func add(_ range: Range<Int32>) {
          for i in range {
            let c = conditions[Int(i)]
            let operands = c.operands.isEmpty ? 0 : c.operands.lowerBound - rule.when.lowerBound
            body += [Int32(c.kind.rawValue), c.check, operands, Int32(c.operands.count)]
            add(c.operands)
          }
        }
        add(rule.when)
        body += thenChecks[Int(rule.then.lowerBound)..<Int(rule.then.upperBound)]
        guard let first = bodies[body] else {
          bodies[body] = index
          continue
        }
        if ruleMemo[first] < 0 {
          ruleMemo[first] = Int32(ruleMemoCount)
          ruleMemoCount += 1
        }
        ruleMemo[index] = ruleMemo[first]
      }
    }
    self.checks = checks
    self.conditions = conditions
    self.thenChecks = thenChecks
    self.rules = planned
  }

  /// `fieldProbes` of `checks`, read in place (a check passed by value is copied, its
  /// function and path retained). A check without a field has `@`, whose probe is 0.
  private static func fieldProbes(_ checks: [Check]) -> [UInt64] {
    var probes: [UInt64] = []
    probes.reserveCapacity(checks.count)
    for i in checks.indices { probes.append(checks[i].ignoresMissing ? checks[i].path.storage.memberProbe : 0) }
    return probes
  }

  /// Whether `check`'s field may be at `node` (see `fieldProbes`); true for a check without a probe.
  @inline(__always)
  func fieldMayBe(_ check: Int, at node: NodeID, in document: JSONDocument) -> Bool {
    let probe = fieldProbes[check]
    guard probe != 0 else { return true }
    let name = UInt32(truncatingIfNeeded: probe), alternate = UInt32(truncatingIfNeeded: probe >> 32)
    return document.mayHaveMember(node, hash: name) || (alternate != name && document.mayHaveMember(node, hash: alternate))
  }

  /// Whether every top-level `when` condition of `rule` holds at `context.given`.
  @inline(__always)
  func whenHolds(_ rule: Rule, _ context: FunctionContext, _ memo: inout LintMemo) -> Bool {
    rule.when.allSatisfy { holds(Int($0), context, &memo) }
  }

  /// Whether condition `index` holds at `context.given`: a check holds when it finds nothing there.
  private func holds(_ index: Int, _ context: FunctionContext, _ memo: inout LintMemo) -> Bool {
    let condition = conditions[index]
    switch condition.kind {
    case .check:
      let check = Int(condition.check)
      // Without its field here, the check passes (only what is there can fail).
      guard fieldMayBe(check, at: context.given, in: context.document) else { return true }
      let slot = checkMemo[check]
      guard slot >= 0 else { return checks[check].passes(context) }
      if let known = memo.passes(Int(slot), at: context.given, fieldless: fieldless[check]) { return known }
      let passes = checks[check].passes(context)
      memo.setPasses(passes, Int(slot), at: context.given, plan: self)
      return passes
    case .anyOf: return condition.operands.contains { holds(Int($0), context, &memo) }
    case .not: return !holds(Int(condition.operands.lowerBound), context, &memo)
    }
  }

  /// Appends the findings of the `then` checks of `rules[rule]` at `context.given` to `found`.
  @inline(__always)
  func runThen(_ rule: Int32, _ context: FunctionContext, _ memo: inout LintMemo, into found: inout [Found]) {
    let then = rules[Int(rule)].then
    for position in then {
      let check = Int(thenChecks[Int(position)])
      let number = position - then.lowerBound
      // Without its field here, the check finds nothing (it runs only where the field is).
      guard fieldMayBe(check, at: context.given, in: context.document) else { continue }
      let slot = checkMemo[check]
      guard slot >= 0 else {
        checks[check].run(at: context.given, context, rule: rule, check: number, into: &found)
        continue
      }
      if let known = memo.findings(Int(slot), at: context.given) {
        // The findings the first rule got, for this one.
        for i in known { found.append((rule, number, found[i].finding, context.given)) }
        continue
      }
      let start = found.count
      checks[check].run(at: context.given, context, rule: rule, check: number, into: &found)
      memo.setFindings(start..<found.count, Int(slot), at: context.given, plan: self)
    }
  }
}

/// What a document's shared checks found (see `LintPlan`): per check, the last node it ran at
/// and what is known there: whether it passes (asked by a condition), where its findings are in
/// the document's list (asked by a `then`), or both. Rules that share a check meet the same
/// nodes one after another (their `given` paths end at the same place of the trie), so one node
/// per check is enough.
struct LintMemo {
  private struct Entry {
    var node: NodeID = -1
    var passes: Bool? = nil
    var findings: Range<Int32>? = nil
  }
  private var checks: [Entry] = []
  private var rules: [(node: NodeID, findings: Range<Int32>)] = []

  init() {}

  /// Whether the check passes at `node`, if known. A `then` that found nothing there answers it
  /// too when the check has no field: then a condition and a `then` ask the function the same.
  func passes(_ slot: Int, at node: NodeID, fieldless: Bool) -> Bool? {
    guard slot < checks.count, checks[slot].node == node else { return nil }
    if let passes = checks[slot].passes { return passes }
    guard fieldless, let findings = checks[slot].findings else { return nil }
    return findings.isEmpty
  }

  mutating func setPasses(_ passes: Bool, _ slot: Int, at node: NodeID, plan: LintPlan) {
    if checks.isEmpty { checks = Self.filled(Entry(), plan.checkMemoCount) }
    if checks[slot].node != node { checks[slot] = Entry(node: node) }
    checks[slot].passes = passes
  }

  /// Where the check's findings at `node` are in the document's list, if known. A check that
  /// passes there finds nothing.
  func findings(_ slot: Int, at node: NodeID) -> Range<Int>? {
    guard slot < checks.count, checks[slot].node == node else { return nil }
    if let findings = checks[slot].findings { return Int(findings.lowerBound)..<Int(findings.upperBound) }
    return checks[slot].passes == true ? 0..<0 : nil
  }

  mutating func setFindings(_ findings: Range<Int>, _ slot: Int, at node: NodeID, plan: LintPlan) {
    if checks.isEmpty { checks = Self.filled(Entry(), plan.checkMemoCount) }
    if checks[slot].node != node { checks[slot] = Entry(node: node) }
    checks[slot].findings = Int32(findings.lowerBound)..<Int32(findings.upperBound)
  }

  /// For rules alike (`LintPlan.ruleMemo`): where the findings of the last of them to run at
  /// `node` are.
  func ruleFindings(_ slot: Int, at node: NodeID) -> Range<Int>? {
    guard slot < rules.count, rules[slot].node == node else { return nil }
    return Int(rules[slot].findings.lowerBound)..<Int(rules[slot].findings.upperBound)
  }

  /// `count` copies of `value`. Not `Array(repeating:count:)`: that is not specialized, and looks
  /// up the array's storage type in the runtime's metadata cache on every call; appending to an
  /// empty array is (docs/performance.md).
  @inline(__always)
  private static func filled<Element>(_ value: Element, _ count: Int) -> [Element] {
    var array: [Element] = []
    array.append(addingCapacity: count) { $0.append(repeating: value, count: count) }
    return array
  }

  mutating func setRuleFindings(_ findings: Range<Int>, _ slot: Int, at node: NodeID, plan: LintPlan) {
    if rules.isEmpty { rules = Self.filled((-1, 0..<0), plan.ruleMemoCount) }
    rules[slot] = (node, Int32(findings.lowerBound)..<Int32(findings.upperBound))
  }
}

extension LintPlan.Check {
  /// The check of `check`, as the loop reads it (in an extension: the memberwise init stays).
  /// `passingKinds` as the build found them, or nil to ask the function (made now if it may
  /// have any).
  @inline(__always)
  init(_ check: FCMLintEngine.Rule.Check, passingKinds: UInt16? = nil) {
    let (function, lazy) = check.forPlan
    let field = check.field, type = check.functionType
    self.init(
      path: field ?? JSONPath.here, hasField: field != nil, function: function, templates: check.templates,
      ignoresMissing: type.ignoresMissing, failsWhereMissing: type.failsWhereMissing, readsTemplates: type.readsTemplates,
      passingKinds: passingKinds ?? (type.passesByKind ? check.made.function.passingKinds : 0), lazy: lazy)
  }

  /// Whether the function passes at `id` by the kind of its value alone (`passingKinds`).
  @inline(__always)
  func passesByKind(_ id: NodeID, in document: JSONDocument) -> Bool {
    passingKinds != 0 && passingKinds & 1 << document.kind(id).rawValue != 0
  }

  /// Whether the check finds nothing at `context.given` (at every place its field leads to).
  /// Conditions ask `passes`, not `check`, so no message is built for a finding thrown away.
  func passes(_ context: FunctionContext) -> Bool {
    guard hasField else { return passesByKind(context.given, in: context.document) || functionPasses(.found(context.given), in: context) }
    if ignoresMissing {
      // Only what is there can fail.
      if path.isSingular {
        guard let id = path.resolveNode(in: context.document, from: context.given) else { return true }
        return passesByKind(id, in: context.document) || functionPasses(.found(id), in: context)
      }
      var clean = true
      path.forEachNode(in: context.document, from: context.given) { id in
        if clean, !functionPasses(.found(id), in: context) { clean = false }
      }
      return clean
    }
    if failsWhereMissing, path.isSingular {
      guard let id = path.resolveNode(in: context.document, from: context.given) else { return false }
      return passesByKind(id, in: context.document) || functionPasses(.found(id), in: context)
    }
    if path.isSingular {
      // A root path outside a mounted document (`$.message.notification` in an ApnsConfig alone)
      // reads as absent, as the functions of `then` see it; read as passing, every condition on
      // one held (an image rule fired on a part without any image).
      let target = path.resolveOne(in: context.document, from: context.given) ?? .missing(nearest: JSONDocument.root, missing: "")
      return functionPasses(target, in: context)
    }
    var clean = true
    path.forEachResolution(in: context.document, from: context.given) { target in
      if clean, !functionPasses(target, in: context) { clean = false }
    }
    return clean
  }

  /// Appends the findings of the check at `node` (at every place its field leads to) to `found`,
  /// with `rule` and `check` (their indices). Not inlined: inlined into the loop, the check was
  /// copied out of its array (retaining its function and path) for every node.
  @inline(never)
  func run(at node: NodeID, _ context: FunctionContext, rule: Int32, check: Int32, into found: inout [LintPlan.Found]) {
    // Most fields lead nowhere in a given document: a function that finds nothing there is not
    // asked.
    if ignoresMissing, hasField {
      if path.isSingular {
        guard let id = path.resolveNode(in: context.document, from: node), !passesByKind(id, in: context.document) else { return }
        let findings = functionFindings(.found(id), in: context)
        for finding in findings { found.append((rule, check, finding, node)) }
        return
      }
      path.forEachNode(in: context.document, from: node) { id in
        guard !passesByKind(id, in: context.document) else { return }
        for finding in functionFindings(.found(id), in: context) { found.append((rule, check, finding, node)) }
      }
      return
    }
    // Most fields lead to one place: resolve it directly, without a walk and its closure.
    if hasField, !path.isSingular {
      path.forEachResolution(in: context.document, from: node) { target in
        for finding in functionFindings(target, in: context) { found.append((rule, check, finding, node)) }
      }
      return
    }
    let target: JSONPath.Resolution
    if hasField {
      guard let resolution = path.resolveOne(in: context.document, from: node) else { return }
      target = resolution
    } else {
      target = .found(node)
    }
    if case .found(let id) = target, passesByKind(id, in: context.document) { return }
    let findings = functionFindings(target, in: context)
    if !findings.isEmpty {
      for finding in findings { found.append((rule, check, finding, node)) }
    }
  }
}
