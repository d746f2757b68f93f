import FCMLintJSON

/// Checks documents against a rule set: parse once, apply every active rule, produce diagnostics.
/// Immutable and `Sendable`, so one instance serves every thread of a parallel run.
public struct Linter: Sendable {
  public struct Options: Sendable {
    public var maxDepth: Int = JSONParser.Options.defaultMaxDepth
    /// The longest string or number literal, in bytes as written (`--max-string-length`).
    public var maxStringLength: Int = JSONParser.Options.defaultMaxStringLength
    /// What the files hold; nil decides it per file (`DocumentClassifier`), and a file that is
    /// not an FCM document is skipped.
    public var input: InputKind? = nil
    /// The documents are fragments: the sender adds the target at send time (`--fragment`).
    /// Rules read it through `FunctionContext.isFragment`.
    public var fragment = false
    /// The placeholders a template may hold (`.fcmlint.yml`'s `placeholders:`); an empty list
    /// reads every file as plain JSON.
    public var placeholders: PlaceholderSyntax = .default
    /// Sample values to render templates with before linting them (`--vars`; see `TemplateVariables`).
    public var variables: TemplateVariables? = nil
    /// The documents show a member of a message alone (a page's `"apns": {...}`, put between
    /// braces): the message's other members are not known, so nothing is reported for lacking
    /// them (see `TemplateMarks.openObjects`).
    public var openRoot = false
    /// Offsets where a documentation sample leaves something out (`...`, blanked in the text):
    /// a value that starts there is not known, and the object around one may hold members the
    /// sample does not show.
    public var holes: [Int] = []
    public init() {}
  }

  /// Active rules with their effective severity, in id order (the syntax rule and the rules
  /// fcmlint reports itself apart): the rules a document's walk applies.
  public let rules: [Rule]
  /// Every active rule, the syntax rule included, in id order.
  public let activeRules: [Rule]
  private let syntaxRule: Rule?
  /// The active rules fcmlint reports itself, outside the walk (`reportedRule`).
  private let reported: [Rule]
  public private(set) var options: Options
  /// The schemas and the aliases file's names the rules were loaded with: what the rules know of
  /// FCM, for code that needs it outside a rule (the parts of a message a documentation sample shows).
  public var resources: RuleResources { loadedWith.resources }
  public var aliases: Aliases { loadedWith.aliases.aliases }
  /// Behind one reference: a linter is copied for every file it lints.
  private let loadedWith: LoadedWith
  private final class LoadedWith: Sendable {
    let resources: RuleResources
    let aliases: RuleSet.AliasesSource
    init(_ ruleSet: RuleSet) {
      resources = ruleSet.resources
      aliases = ruleSet.aliasesSource
    }
  }

  /// This linter, reading its documents as `input` (nil: decided per document), as fragments or not.
  /// The rules stay compiled once: documentation samples of several kinds share them.
  public func reading(_ input: InputKind?, fragment: Bool, openRoot: Bool = false, placeholders: PlaceholderSyntax? = nil) -> Linter {
    var linter = self
    linter.options.input = input
    linter.options.fragment = fragment
    linter.options.openRoot = openRoot
    if let placeholders { linter.options.placeholders = placeholders }
    return linter
  }

  /// This linter, reading its documents with `holes` (`Options.holes`).
  public func reading(holes: [Int]) -> Linter {
    var linter = self
    linter.options.holes = holes
    return linter
  }

  /// `severities` overrides rule severities by id; a nil severity turns the rule off.
  public init(rules ruleSet: RuleSet, severities: [String: Severity?] = [:], options: Options = Options()) {
    loadedWith = LoadedWith(ruleSet)
    // Sorted by index, then copied once: a rule is a large value to move around.
    let all = ruleSet.rules
    var active: [Rule] = []
    active.reserveCapacity(all.count)
    // The built-in pack comes in id order (`RuleSet.start(withSorted:)` checked it): not
    // sorted again. Other sets are checked in one pass.
    let inOrder = ruleSet.isInIDOrder || all.indices.dropFirst().allSatisfy { all[$0 - 1].id < all[$0].id }
    for i in inOrder ? Array(all.indices) : all.indices.sorted(by: { all[$0].id < all[$1].id }) {
      guard !severities.isEmpty, let override = severities[all[i].id] else {
        active.append(all[i])
        continue
      }
      guard let severity = override else { continue }
      var rule = all[i]
      rule.severity = severity
      active.append(rule)
    }
    activeRules = active
    reported = active.filter(\.isReportedByFcmlint)
    if !reported.isEmpty { active.removeAll(where: \.isReportedByFcmlint) }
    if let syntax = active.firstIndex(where: \.reportsSyntax) {
      // One syntax rule: the first in id order.
      syntaxRule = active[syntax]
      active.removeAll(where: \.reportsSyntax)
    } else {
      syntaxRule = nil
    }
    rules = active
    self.options = options
    if let compiled = ruleSet.compiledPlan, compiled.plan.rules.count == rules.count {
      // The built-in pack with none of its rules turned off (a set a rule was added to has no
      // compiled plan, so as many rules are the same rules): the build laid its tables out.
      plan = compiled.plan
      givenTrie = compiled.trie
      slotRules = compiled.slotRules
      return
    }
    var paths: [JSONPath] = [], slotRules: [Int32] = []
    for (index, rule) in rules.enumerated() {
      for path in rule.given {
        paths.append(path)
        slotRules.append(Int32(index))
      }
    }
    plan = LintPlan(rules, sameChecks: rules.contains { !$0.isBuiltin })
    givenTrie = GivenTrie(paths: paths)
    self.slotRules = slotRules
  }

  /// `rules` as the hot loop reads them (`plan.rules[i]` is `rules[i]`). Stored in the linter
  /// itself: read through a class or a local copy, the loop copied each check out of its array.
  let plan: LintPlan
  /// The `given` paths of `rules`, rule by rule, as one trie; `slotRules[slot]` is the index in
  /// `rules` of the rule a slot's path belongs to.
  let givenTrie: GivenTrie
  let slotRules: [Int32]

  /// What linting one document found.
  public struct Outcome: Sendable {
    public var diagnostics: [Diagnostic]
    /// Why the document was not linted: it is not an FCM document (only when no input kind is given).
    public var skipped: String?
  }

  /// Lints one document; `file` names it in the diagnostics. A document that is not an FCM
  /// document (and no input kind forced) has none. With `options.variables`, a template is
  /// rendered with them first (see `check(bytes:file:variables:)`).
  public func lint(bytes: [UInt8], file: String) -> [Diagnostic] {
    check(bytes: bytes, file: file).diagnostics
  }

  /// Lints one document, or says why it is not one to lint.
  public func check(bytes: [UInt8], file: String) -> Outcome {
    if let variables = options.variables { return check(bytes: bytes, file: file, variables: variables) }
    return checkAsWritten(bytes: bytes, file: file)
  }

  func checkAsWritten(bytes: [UInt8], file: String) -> Outcome {
    switch parse(bytes) {
    case .failure(let error):
      if options.input == nil, case .other(let reason) = DocumentClassifier.classify(unparsed: bytes) {
        return Outcome(diagnostics: [], skipped: reason)
      }
      return Outcome(diagnostics: recovered(bytes, file: file, first: error), skipped: nil)
    case .success(let document):
      if options.input == nil, case .other(let reason) = DocumentClassifier.classify(document) {
        return Outcome(diagnostics: [], skipped: reason)
      }
      return Outcome(diagnostics: lint(document: document, file: file), skipped: nil)
    }
  }

  /// The diagnostics of a file that does not parse: every syntax error `SyntaxRecovery` finds
  /// (each repair a fix: delete a trailing comma or a comment, insert a missing ','), then the
  /// rules' findings on the tree it could read. Those carry no fixes: they are offered again once
  /// the syntax is fixed, on the text as it then is.
  func recovered(_ bytes: [UInt8], file: String, first: JSONSyntaxError) -> [Diagnostic] {
    let outcome = SyntaxRecovery.recover(bytes, first: first) { parse($0) }
    let locator = SourceLocator(bytes: bytes, queries: outcome.repairs.count * 2 + 16)
    var diagnostics: [Diagnostic] = []
    for repair in outcome.repairs {
      let error = repair.error
      let start = min(error.offset, bytes.count)
      let end = min(bytes.count, start + characterLength(bytes, at: start))
      guard var diagnostic = syntaxDiagnostic(
        file: file, message: error.message, start: locator.position(of: start), end: locator.position(of: end),
        startOffset: start, endOffset: end)
      else { continue }
      if let fix = repair.fix {
        let description: String
        switch error.kind {
        case .trailingComma: description = "remove the trailing comma"
        case .comment: description = "remove the comment"
        default: description = "insert the missing ','"
        }
        var edit = TextEdit(start: fix.start, end: fix.end, replacement: fix.replacement)
        edit.startPosition = locator.position(of: fix.start)
        edit.endPosition = locator.position(of: fix.end)
        diagnostic.fix = Fix(description: description, edits: [edit])
      }
      diagnostics.append(diagnostic)
    }
    // The rules read the tree whether or not json-syntax is on: no rule's findings depend on
    // another rule's severity.
    guard let document = outcome.document else { return diagnostics }
    if options.input == nil, case .other = DocumentClassifier.classify(document) { return diagnostics }
    for var d in lint(document: document, file: file)
    where d.rule != syntaxRule?.id && max(d.endOffset, d.startOffset) <= outcome.readUpTo {
      // Positions from the file's own text (a blanked comment may have held wide characters).
      d.startOffset = min(d.startOffset, bytes.count)
      d.endOffset = min(max(d.endOffset, d.startOffset), bytes.count)
      d.start = locator.position(of: d.startOffset)
      d.end = locator.position(of: d.endOffset)
      d.fix = nil
      diagnostics.append(d)
    }
    return diagnostics.sorted(by: Diagnostic.ordered)
  }

  /// Parses a file as `lint(bytes:file:)` reads it: a file with a placeholder opener is read as a
  /// template (unquoted placeholders, control tags between members, `JSONDocument.templates`).
  public func parse(_ bytes: [UInt8]) -> Result<JSONDocument, JSONSyntaxError> {
    let syntax = options.placeholders
    let templated = syntax.mayOccur(in: bytes)
    let parsed = JSONParser.parse(bytes, options: JSONParser.Options(
      maxDepth: options.maxDepth, maxStringLength: options.maxStringLength, templateTags: templated ? syntax.templateTags : nil))
    guard case .success(var document) = parsed else { return parsed }
    let kind = options.input ?? DocumentClassifier.kind(document)
    document.mount = kind.mount
    // Control tags alone make a template too: members in their blocks may not be rendered.
    if templated { document.templates = syntax.marks(document) ?? (document.controlTags.isEmpty ? nil : TemplateMarks()) }
    // A part of a message is read as a template is: what it does not show is not known, and
    // a rule is reported only for what it is sure of.
    if kind.isPart || options.openRoot || !options.holes.isEmpty {
      var marks = document.templates ?? TemplateMarks()
      marks.outsideUnknown = kind.isPart
      if options.openRoot { marks.openObjects.insert(JSONDocument.root) }
      for hole in options.holes { Self.mark(hole: hole, in: document, &marks) }
      document.templates = marks
    }
    return .success(document)
  }

  /// What a hole at `offset` leaves unknown: the value that starts there, or else the innermost
  /// object around it.
  static func mark(hole offset: Int, in document: JSONDocument, _ marks: inout TemplateMarks) {
    var id = JSONDocument.root
    var object: NodeID? = nil
    descend: while true {
      let node = document[id]
      if Int(node.start) == offset, id != JSONDocument.root {
        marks.unknown.insert(id)
        return
      }
      if node.kind == .object { object = id }
      for child in document.children(id) where Int(document[child].start) <= offset && offset < Int(document[child].end) {
        id = child
        continue descend
      }
      break
    }
    if let object { marks.openObjects.insert(object) }
  }

  /// A diagnostic of the syntax rule (as configured: its severity, or nil when it is off), for a
  /// document that cannot be read as JSON.
  public func syntaxDiagnostic(
    file: String, message detail: String, start: SourcePosition, end: SourcePosition, startOffset: Int = 0, endOffset: Int = 0
  ) -> Diagnostic? {
    syntaxRule?.diagnostic(file: file, detail: detail, start: start, end: end, startOffset: startOffset, endOffset: endOffset)
  }

  /// The rule `id` that fcmlint reports itself (`ReportedRules`), as configured: with its
  /// severity, or nil when it is off or not in the rule set.
  public func reportedRule(_ id: String) -> Rule? {
    reported.first { $0.id == id }
  }

  /// Lints a parsed document.
  public func lint(document: JSONDocument, file: String) -> [Diagnostic] {
    // Rules and checks by index (`rules`, a rule's `then`): appending a finding retains nothing.
    var found: [LintPlan.Found] = []
    // Where each finding was made, to put them back in rule order: slot << 32 | visit number.
    var foundAt: [UInt64] = []
    // One context for the document: per node only `given` changes. Its scratch lets functions
    // share work on this document (the schema rules' walk); it never leaves this call.
    let templated = document.templates != nil
    let scratch = templated ? templateScratch(document) : LintScratch()
    // A part of a message (an `aps` dictionary alone) is a fragment whatever the options say.
    let fragment = options.fragment || options.input?.isPart == true
    scratch.isFragment = fragment
    var context = FunctionContext(document: document, given: JSONDocument.root, isFragment: fragment, scratch: scratch)
    var memo = LintMemo()
    // One walk of the document through every rule's `given` paths (the trie), then each rule at
    // each node its paths select, in the order the walk reached them: rules that share a node
    // (and the checks they share, `LintMemo`) come together, so a document costs what its parts
    // and the checks that apply there cost. Callbacks and plain loops rather than arrays of
    // targets: this runs every check of every rule on every document, and most find nothing.
    var visited: [UInt64] = []  // slot << 32 | node
    // A request selects 50-100 `given` nodes: one allocation, not seven doublings.
    visited.reserveCapacity(128)
    givenTrie.walk(document) { slot, node in visited.append(UInt64(slot) << 32 | UInt64(UInt32(bitPattern: node))) }
    for (visit, entry) in visited.enumerated() {
      let slot = Int(entry >> 32), node = NodeID(bitPattern: UInt32(truncatingIfNeeded: entry))
      let ruleIndex = slotRules[slot]
      let rule = plan.rules[Int(ruleIndex)]
      let before = found.count
      defer { for _ in before..<found.count { foundAt.append(UInt64(slot) << 32 | UInt64(visit)) } }
      let alike = Int(plan.ruleMemo[Int(ruleIndex)])
      if alike >= 0, let same = memo.ruleFindings(alike, at: node) {
        // A rule alike ran here: what it found, for this rule.
        for i in same { found.append((ruleIndex, found[i].check, found[i].finding, node)) }
        continue
      }
      context.given = node
      if templated {
        if rule.when.isEmpty || plan.whenHoldsInTemplate(rule, context) == true {
          for position in rule.then {
            for finding in plan.checks[Int(plan.thenChecks[Int(position)])].evaluateInTemplate(at: node, context).findings {
              found.append((ruleIndex, position - rule.then.lowerBound, finding, node))
            }
          }
        }
      } else if rule.when.isEmpty || plan.whenHolds(rule, context, &memo) {
        plan.runThen(ruleIndex, context, &memo, into: &found)
      }
      if alike >= 0 { memo.setRuleFindings(before..<found.count, alike, at: node, plan: plan) }
    }
    // In rule order (and each rule's paths in their order, each path's nodes in document order),
    // as if each rule had resolved its own paths: the order repeats are removed in.
    if found.count > 1, zip(foundAt, foundAt.dropFirst()).contains(where: { $0 > $1 }) {
      let order = found.indices.sorted { foundAt[$0] != foundAt[$1] ? foundAt[$0] < foundAt[$1] : $0 < $1 }
      found = order.map { found[$0] }
    }
    guard !found.isEmpty else { return [] }

    let locator = SourceLocator(bytes: document.bytes, queries: found.count * 2)
    let fixes = FixBuilder(document: document)
    var pointers = JSONDocument.PointerMaker(document)
    var diagnostics: [Diagnostic] = []
    diagnostics.reserveCapacity(found.count)
    for (ruleIndex, checkIndex, finding, given) in found {
      let rule = rules[Int(ruleIndex)]
      let check = rule.then[Int(checkIndex)]
      let node = document[finding.node]
      let atKey = finding.atKey && node.keyStart >= 0
      let start = finding.range?.lowerBound ?? Int(atKey ? node.keyStart : node.start)
      let end = finding.range?.upperBound ?? Int(atKey ? node.keyEnd : node.end)
      var values = finding.values
      if values["value"] == nil { values["value"] = excerpt(finding.node, in: document) }
      if values["property"] == nil { values["property"] = document.key(finding.node) ?? "" }
      let pointer = pointers.pointer(finding.node)
      values["pointer"] = pointer
      let template = check.message ?? rule.message
      let message = template?.render(values) ?? values["detail"] ?? rule.summary
      var fix: Fix? = nil
      if let ruleFix = rule.fix, ruleFix.applies(to: finding.node, in: document),
        case (var edits, let key)? = fixes.edits(for: ruleFix.action, finding: finding, given: given, values: values), !edits.isEmpty
      {
        for i in edits.indices {
          edits[i].startPosition = locator.position(of: edits[i].start)
          edits[i].endPosition = locator.position(of: edits[i].end)
        }
        fix = Fix(description: ruleFix.description?.render(values) ?? Self.describe(ruleFix.action, values), edits: edits, key: key)
      }
      let diagnostic = Diagnostic(
        file: file, rule: rule.id, severity: rule.severity, message: message, pointer: pointer,
        start: locator.position(of: start), end: locator.position(of: end),
        startOffset: start, endOffset: end, docs: rule.docs, fix: fix)
      diagnostics.append(diagnostic)
    }
    diagnostics.sort(by: Diagnostic.ordered)
    return Self.removingRepeats(diagnostics)
  }

  /// Two `given` paths can reach the same node: each diagnostic once. Equal diagnostics are
  /// neighbours in sorted order, or at least in the same run of diagnostics that sort alike, so
  /// only such a run is searched (the whole list was, for each diagnostic: quadratic).
  static func removingRepeats(_ sorted: [Diagnostic]) -> [Diagnostic] {
    var kept: [Diagnostic] = []
    kept.reserveCapacity(sorted.count)
    var runStart = 0
    for diagnostic in sorted {
      if let last = kept.last, Diagnostic.ordered(last, diagnostic) { runStart = kept.count }
      if !kept[runStart...].contains(diagnostic) { kept.append(diagnostic) }
    }
    return kept
  }

  /// A scratch that renders the template's samples when a check needs them.
  private func templateScratch(_ document: JSONDocument) -> LintScratch {
    LintScratch(render: {
      TemplateSamples.texts.compactMap { sample in
        TemplateSamples.render(document, with: sample) { bytes in try? self.parse(bytes).get() }
      }
    })
  }

  static func describe(_ action: FixAction, _ values: [String: String]) -> String {
    switch action {
    case .set(let path, let value): return "set \(path.description) to \(value)"
    case .renameKey(let template): return "rename to '\(template.render(values))'"
    case .replaceValue: return "replace the value"
    case .moveInto(let path): return "move into \(path.description)"
    case .replacePattern(let pattern, let with): return with.isEmpty ? "remove /\(pattern.source)/" : "replace /\(pattern.source)/ with '\(with)'"
    }
  }

  /// Bytes in the UTF-8 character at `offset` (1 for an invalid byte, 0 at the end).
  private func characterLength(_ bytes: [UInt8], at offset: Int) -> Int {
    guard offset < bytes.count else { return 0 }
    let b = bytes[offset]
    let length = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    return min(length, bytes.count - offset)
  }
}
