import FCMLintJSON
import LinearRegex
import Synchronization

/// The built-in pack as the build compiles it: every rule already read, checked and compiled
/// (paths parsed, patterns compiled to their matchers, messages split into parts, options typed),
/// written by `write` in the compact form of `CompactWriter` and embedded in the binary as static
/// data. A start reads it back (`RuleSet(compiled:)`): no YAML, no rule keys, no path or pattern
/// parsed, no name looked up by hashing; each function is made from its typed options, as the
/// loader makes it. The rule files stay the source: `embed-rules` loads them with `RuleLoader`,
/// as a user's, so a broken rule fails the build at its line and column, and then writes this.
///
/// Each rule's description and examples, and the aliases file's names, are read only when asked
/// for (`rules`, `explain`, the tests, a user's rule folder, a documentation page).
public enum CompiledPack {
  /// Changed whenever the form changes, so a binary never reads a form it does not know.
  static let version: UInt64 = 11
  static let magic = "fcmlint compiled pack"

  /// The compact form of `rules` (in this order), with `documentation[i]` the tree of
  /// `rules[i]`'s description and examples, the aliases the rules were read with, and the
  /// schemas they may name. Every rule must come from `RuleLoader` (its checks keep their options).
  public static func write(rules: [Rule], documentation: [DataValue], aliases: Aliases, resources: RuleResources) -> (bytes: [UInt8], strings: [String], numbers: [Int32]) {
    precondition(rules.count == documentation.count)
    var writer = PackWriter()
    writer.main.count(rules.count)
    for (rule, tree) in zip(rules, documentation) { writer.write(rule, documentation: tree) }
    writer.main.count(writer.tail.bytes.count)
    writer.write(aliases)
    let rulesPart = writer.main.bytes

    // What rules refer to by number, before them: the schemas, then each distinct check.
    writer.main = CompactWriter(strings: writer.strings)
    let schemas = resources.schemas.keys.sorted().map { resources.schemas[$0]! }
    writer.main.count(schemas.count)
    for schema in schemas { writer.write(schema) }
    writer.main.count(writer.checks.count)
    for (check, kind) in zip(writer.checks, writer.checkKinds) { writer.writeBody(check, kind: kind) }
    let definitionsPart = writer.main.bytes

    // Paths and patterns first, each once: a path as its steps, their names in one table.
    var out = CompactWriter(strings: writer.strings)
    out.string(magic)
    out.uint(version)
    var names = JSONDocument.NameTable()
    let pathSteps = writer.paths.map { path in
      let storage = path.storage
      return storage.steps.map { step in
        var step = step
        step.name = step.name.map { names.add(storage.names[$0]) }
        step.alternate = step.alternate.map { names.add(storage.names[$0]) }
        return step
      }
    }
    out.utf8(names.bytes)
    out.count(writer.paths.count)
    for (path, steps) in zip(writer.paths, pathSteps) {
      out.bool(path.anchor == .root)
      out.string(path.description)
      out.count(steps.count)
      for (step, name) in zip(steps, path.storage.missingNames) {
        out.write(step)
        out.string(name)
      }
    }
    out.count(writer.patterns.count)
    for pattern in writer.patterns { pattern.write(to: &out) }
    out.append(definitionsPart)
    out.count(rulesPart.count)
    let rulesAndTail = out.bytes + rulesPart + writer.tail.bytes
    let strings = writer.strings.list

    // Then the schemas' walks, and the linter's tables for these rules, laid out from the rules
    // as a start reads them back (checks told apart by their kinds, as a start does): numbers,
    // which the build writes as an array literal of the binary's data, so a start takes them as
    // they are, undecoded.
    let (readRules, _, readResources, checks, _) = read(staticCopy(rulesAndTail), count: rulesAndTail.count, strings: strings, numbers: nil)
    var tables = PackNumbers()
    for schema in schemas { tables.add(schema.walk) }
    tables.write(Linter(rules: ruleSet(readRules, readResources)), checks: checks)
    return (rulesAndTail, strings, tables.numbers)
  }

  /// The rules read back (in id order, as a start reads them), as a set without the compiled
  /// tables: a linter of it builds its own.
  private static func ruleSet(_ rules: [Rule], _ resources: RuleResources) -> RuleSet {
    var set = RuleSet(resources: resources)
    set.start(withSorted: rules)
    return set
  }

  /// `bytes` where `read` may keep reading them for the life of the program: a copy that is
  /// never freed (the build's and the tests' reads; a start reads static data).
  private static func staticCopy(_ bytes: [UInt8]) -> UnsafePointer<UInt8> {
    let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
    copy.initialize(from: bytes, count: bytes.count)
    return UnsafePointer(copy)
  }

  /// Reads `bytes` back and writes what it read again: nil when that gives the same bytes,
  /// else where they part (for the build, which refuses a pack that does not read back).
  package static func checkRoundTrip(_ pack: (bytes: [UInt8], strings: [String], numbers: [Int32])) -> String? {
    // Static data in the binary; here a copy that is never freed.
    let bytes = pack.bytes
    let (rules, aliases, resources, _, plan) = read(staticCopy(bytes), count: bytes.count, strings: pack.strings, numbers: pack.numbers)
    // The tables a start takes are the ones its rules make.
    let built = Linter(rules: ruleSet(rules, resources))
    guard let plan else { return "no linter tables" }
    guard plan.layout == CompiledPlan(plan: built.plan, trie: built.givenTrie, slotRules: built.slotRules).layout else {
      return "the linter tables differ from the ones its rules make"
    }
    for schema in resources.schemas.values where schema.walk.layout != Schema.Walk(schema.messageTypes).layout {
      return "the walk of schema \(schema.name) differs from the one its types make"
    }
    let trees = rules.map { rule -> DataValue in
      guard case .later(let tree) = rule.documentationSource else { preconditionFailure() }
      return tree()
    }
    let again = write(rules: rules, documentation: trees, aliases: aliases(), resources: resources)
    guard again.bytes != bytes || again.strings != pack.strings || again.numbers != pack.numbers else { return nil }
    guard again.numbers == pack.numbers else { return "the walks and linter tables do not write back as read" }
    let at = zip(again.bytes, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(again.bytes.count, bytes.count)
    return "byte \(at) of \(bytes.count) (read back: \(again.bytes.count) bytes, \(again.strings.count) strings of \(pack.strings.count))"
  }

  /// Reads what `write` wrote. `base` must stay valid for the life of the program (the
  /// documentation and the aliases are read from it when first asked for): static data.
  /// The schemas' walks and the linter's tables come from `numbers`, which `write` gave with the
  /// bytes (nil: the walks are made from the schemas, and there are no linter tables).
  static func read(
    _ base: UnsafePointer<UInt8>, count: Int, strings: [String], numbers: [Int32]?
  ) -> (rules: [Rule], aliases: @Sendable () -> Aliases, resources: RuleResources, checks: [Rule.Check], plan: CompiledPlan?) {
    var input = CompactReader(base, count: count, strings: strings)
    precondition(input.string() == magic && input.uint() == version, "the compiled rule pack is of another version")
    var reader = PackReader(base: base, count: count, strings: strings)
    let names = JSONDocument.NameTable(bytes: input.utf8())
    let pathCount = input.count()
    reader.paths.reserveCapacity(pathCount)
    for _ in 0..<pathCount {
      let anchor: JSONPath.Anchor = input.bool() ? .root : .current
      let description = input.string()
      var steps: [JSONPath.Storage.Step] = [], missingNames: [String] = []
      let stepCount = input.count()
      steps.reserveCapacity(stepCount)
      missingNames.reserveCapacity(stepCount)
      for _ in 0..<stepCount {
        steps.append(input.step())
        missingNames.append(input.string())
      }
      reader.paths.append(JSONPath(anchor: anchor, description: description, steps: steps, names: names, missingNames: missingNames))
    }
    let patternCount = input.count()
    reader.patterns.reserveCapacity(patternCount)
    for _ in 0..<patternCount {
      let regex = LinearRegex(reading: &input)
      reader.patterns.append(CompiledPattern(regex: regex, source: regex.source))
    }
    reader.input = input
    reader.numbers = numbers.map(PackNumbersReader.init)
    var resources = RuleResources()
    for _ in 0..<reader.input.count() {
      let schema = reader.schema()
      resources.schemas[schema.name] = schema
    }
    reader.resources = resources
    reader.tables = PackTables(base: base, count: count, strings: strings, paths: reader.paths, patterns: reader.patterns, resources: resources)
    let checkCount = reader.input.count()
    reader.checks.reserveCapacity(checkCount)
    for _ in 0..<checkCount { reader.checks.append(reader.checkBody()) }
    reader.rules = PackRules(tables: reader.tables!, checks: reader.checks)
    let mainLength = reader.input.count()
    reader.tail = reader.input.offset + mainLength
    var rules: [Rule] = []
    let ruleCount = reader.input.count()
    rules.reserveCapacity(ruleCount)
    for _ in 0..<ruleCount { rules.append(reader.rule()) }
    let aliasesAt = reader.tail + reader.input.count()
    let tail = reader.tail
    let address = UInt(bitPattern: base)
    let plan = reader.numbers?.compiledPlan(checks: reader.checks)
    return (rules, {
      var aliasesReader = PackReader(base: UnsafePointer(bitPattern: address)!, count: count, strings: strings)
      aliasesReader.tail = tail
      aliasesReader.input.offset = aliasesAt
      return aliasesReader.aliases()
    }, resources, reader.checks, plan)
  }
}

extension RuleSet {
  /// The built-in pack from its compiled form (`CompiledPack`), which must be static data: a
  /// string literal the build wrote, the table of string literals it refers to, and the schemas'
  /// walks and the linter's tables as an array literal of numbers.
  public init(compiled pack: StaticString, strings: [String], numbers: [Int32]) {
    precondition(pack.hasPointerRepresentation)
    let (rules, aliases, resources, _, plan) = CompiledPack.read(pack.utf8Start, count: pack.utf8CodeUnitCount, strings: strings, numbers: numbers)
    self.init(resources: resources, aliases: aliases)
    // In id order, each id once: the build wrote them so.
    start(withSorted: rules)
    compiledPlan = plan
  }
}

/// Writes a pack: `main` what every start reads, `tail` what is read only when asked for (each
/// rule's documentation, the aliases), `paths` and `patterns` what rules refer to by number.
private struct PackWriter {
  let strings = CompactWriter.Strings()
  lazy var main = CompactWriter(strings: strings)
  lazy var tail = CompactWriter(strings: strings)
  var paths: [JSONPath] = []
  var pathNumbers: [String: Int] = [:]
  var patterns: [LinearRegex] = []
  var patternNumbers: [String: Int] = [:]
  /// Each distinct check once (its signature and message), and its kind: the number of its
  /// signature, shared by checks that differ only in their message (see `LintPlan`).
  var checks: [Rule.Check] = []
  var checkKinds: [Int] = []
  var checkNumbers: [String: Int] = [:]
  var kindNumbers: [String: Int] = [:]

  mutating func write(_ schema: Schema) {
    main.string(schema.name)
    main.string(schema.root)
    main.count(schema.messageTypes.count)
    for type in schema.messageTypes {
      main.string(type.name)
      main.count(type.fields.count)
      for field in type.fields {
        main.string(field.json)
        main.string(field.proto)
        main.count(Schema.Field.Kind.allCases.firstIndex(of: field.kind)!)
        main.bool(field.repeated)
        main.bool(field.ref != nil)
        if let ref = field.ref { main.string(ref) }
        main.int(Int(field.refTypeIndex))
        main.count(field.values.count)
        for value in field.values { main.string(value) }
        main.bool(field.deprecated)
        main.bool(field.outputOnly)
      }
    }
    // The names of the walk (`Schema.Walk`), whose slots are among the pack's numbers
    // (`PackNumbers`): copied in one piece, where the numbers hold a byte each.
    main.utf8(schema.walk.names.bytes)
  }

  mutating func write(_ rule: Rule, documentation: DataValue) {
    main.string(rule.id)
    main.count(Severity.allCases.firstIndex(of: rule.severity)!)
    main.string(rule.summary)
    main.string(rule.docs)
    main.string(rule.source)
    main.bool(rule.isBuiltin)
    main.count(rule.idLine)
    main.count(rule.idColumn)
    main.count(tail.bytes.count)
    Self.write(documentation, to: &tail)
    main.bool(rule.reportsSyntax)
    main.bool(rule.isReportedByFcmlint)
    // The body after its length: a start steps over it, and reads it when first asked for
    // (`BodySource`).
    let outer = main
    main = CompactWriter(strings: strings)
    main.count(rule.given.count)
    for path in rule.given { write(path) }
    main.count(rule.when.count)
    for condition in rule.when { write(condition) }
    main.count(rule.then.count)
    for check in rule.then { write(check) }
    write(rule.message)
    if let fix = rule.fix {
      main.bool(true)
      write(fix)
    } else {
      main.bool(false)
    }
    let bodyBytes = main.bytes
    main = outer
    main.count(bodyBytes.count)
    main.append(bodyBytes)
  }

  mutating func write(_ condition: Rule.Condition) {
    switch condition {
    case .check(let check):
      main.count(0)
      write(check)
    case .anyOf(let conditions):
      main.count(1)
      main.count(conditions.count)
      for condition in conditions { write(condition) }
    case .not(let condition):
      main.count(2)
      write(condition)
    }
  }

  mutating func write(_ check: Rule.Check) {
    let signature = check.signature
    let key = signature + "\u{0}" + (check.message.map { JSONText.quote($0.source) } ?? "-")
    if let number = checkNumbers[key] { return main.count(number) }
    let kind = kindNumbers[signature] ?? kindNumbers.count
    kindNumbers[signature] = kind
    checkNumbers[key] = checks.count
    main.count(checks.count)
    checks.append(check)
    checkKinds.append(kind)
  }

  mutating func writeBody(_ check: Rule.Check, kind: Int) {
    main.count(kind)
    guard let index = FunctionRegistry.all.firstIndex(where: { $0.name == check.functionName }) else {
      preconditionFailure("unknown function '\(check.functionName)'")
    }
    main.count(index)
    if let field = check.field {
      main.bool(true)
      write(field)
    } else {
      main.bool(false)
    }
    // The options after their length: a start steps over them, and the check's function is made
    // from them when the check first runs (`Rule.Check.made`).
    let options = check.options.entries
    let outer = main
    main = CompactWriter(strings: strings)
    main.count(options.count)
    for (key, value) in options {
      main.string(key)
      write(value)
    }
    let optionBytes = main.bytes
    main = outer
    main.count(optionBytes.count)
    main.append(optionBytes)
    write(check.message)
    main.count(Rule.TemplateHandling.allCases.firstIndex(of: check.templates)!)
  }

  mutating func write(_ value: OptionValue) {
    switch value {
    case .string(let s):
      main.count(0)
      main.string(s)
    case .strings(let strings):
      main.count(1)
      main.count(strings.count)
      for s in strings { main.string(s) }
    case .bool(let b):
      main.count(2)
      main.bool(b)
    case .number(let n):
      main.count(3)
      main.double(n)
    case .value(let literal):
      main.count(4)
      write(literal)
    case .path(let path):
      main.count(5)
      write(path)
    case .paths(let paths):
      main.count(6)
      main.count(paths.count)
      for path in paths { write(path) }
    case .pattern(let pattern):
      main.count(7)
      write(pattern)
    case .stringMap(let map):
      main.count(8)
      main.count(map.count)
      for (key, value) in map {
        main.string(key)
        main.string(value)
      }
    }
  }

  mutating func write(_ literal: LiteralValue) {
    switch literal {
    case .string(let s):
      main.count(0)
      main.string(s)
    case .number(let n):
      main.count(1)
      main.double(n)
    case .bool(let b):
      main.count(b ? 3 : 2)
    case .null: main.count(4)
    case .array(let items):
      main.count(5)
      main.count(items.count)
      for item in items { write(item) }
    case .object(let members):
      main.count(6)
      main.count(members.count)
      for (key, value) in members {
        main.string(key)
        write(value)
      }
    }
  }

  mutating func write(_ fix: RuleFix) {
    switch fix.action {
    case .set(let path, let value):
      main.count(0)
      write(path)
      write(value)
    case .renameKey(let template):
      main.count(1)
      write(template)
    case .replaceValue(let template):
      main.count(2)
      write(template)
    case .moveInto(let path):
      main.count(3)
      write(path)
    case .replacePattern(let pattern, let with):
      main.count(4)
      write(pattern)
      main.string(with)
    }
    main.bool(fix.kinds != nil)
    if let kinds = fix.kinds {
      main.count(kinds.count)
      for kind in kinds { main.string(kind) }
    }
    main.bool(fix.values != nil)
    if let values = fix.values {
      main.count(values.count)
      for value in values { write(value) }
    }
    main.bool(fix.matching != nil)
    if let matching = fix.matching { write(matching) }
    write(fix.description)
  }

  mutating func write(_ template: MessageTemplate?) {
    guard let template else { return main.bool(false) }
    main.bool(true)
    write(template)
  }

  mutating func write(_ template: MessageTemplate) { main.string(template.source) }

  mutating func write(_ path: JSONPath) {
    if let number = pathNumbers[path.description] {
      precondition(paths[number] == path)
      return main.count(number)
    }
    pathNumbers[path.description] = paths.count
    main.count(paths.count)
    paths.append(path)
  }

  mutating func write(_ pattern: CompiledPattern) {
    precondition(pattern.source == pattern.regex.source)
    if let number = patternNumbers[pattern.source] { return main.count(number) }
    patternNumbers[pattern.source] = patterns.count
    main.count(patterns.count)
    patterns.append(pattern.regex)
  }

  mutating func write(_ aliases: Aliases) {
    tail.count(aliases.paths.count)
    for (name, paths) in aliases.paths.sorted(by: { $0.key < $1.key }) {
      tail.string(name)
      tail.count(paths.count)
      for path in paths { tail.string(path) }
    }
    tail.count(aliases.definitions.count)
    for (name, tree) in aliases.definitions.sorted(by: { $0.key < $1.key }) {
      tail.string(name)
      Self.write(tree, to: &tail)
    }
    tail.count(aliases.origins.count)
    for (name, file) in aliases.origins.sorted(by: { $0.key < $1.key }) {
      tail.string(name)
      tail.string(file)
    }
  }

  /// A tree with its positions; every node of it is of the root's file.
  static func write(_ tree: DataValue, to out: inout CompactWriter) {
    out.string(tree.file)
    writeNode(tree, to: &out)
  }

  private static func writeNode(_ value: DataValue, to out: inout CompactWriter) {
    out.count(value.line)
    out.count(value.column)
    switch value.node {
    case .scalar(let text, let kind, let quoted):
      let kinds: [DataNode.ScalarKind] = [.string, .int, .float, .bool, .null]
      out.count(kinds.firstIndex(of: kind)!)
      out.bool(quoted)
      out.string(text)
    case .sequence(let items):
      out.count(5)
      out.count(items.count)
      for item in items { writeNode(item, to: &out) }
    case .mapping(let members):
      out.count(6)
      out.count(members.count)
      for (key, value) in members {
        writeNode(key, to: &out)
        writeNode(value, to: &out)
      }
    }
  }
}

/// Reads a pack (see `PackWriter`).
private struct PackReader {
  let base: UnsafePointer<UInt8>
  let count: Int
  var input: CompactReader
  /// Where the part read when asked for starts.
  var tail = 0
  var paths: [JSONPath] = []
  var patterns: [CompiledPattern] = []
  var checks: [Rule.Check] = []
  var resources = RuleResources()
  /// What checks read their options with, when they are first run.
  var tables: PackTables?
  /// What rules read their bodies with, when first asked for.
  var rules: PackRules?
  /// The pack's tables of numbers (`PackNumbers`): the schemas' walks, then the linter's tables.
  /// Nil while the build reads its own pack back before it writes them.
  var numbers: PackNumbersReader?

  init(base: UnsafePointer<UInt8>, count: Int, strings: [String]) {
    self.base = base
    self.count = count
    input = CompactReader(base, count: count, strings: strings)
  }

  /// A reader of a check's options at `offset`.
  init(tables: PackTables, offset: Int) {
    self.init(base: tables.base, count: tables.count, strings: tables.strings)
    input.offset = offset
    paths = tables.paths
    patterns = tables.patterns
    resources = tables.resources
  }

  mutating func schema() -> Schema {
    let name = input.string(), root = input.string()
    var types: [Schema.MessageType] = []
    var refs: [(Schema.Field, Int32)] = []
    let typeCount = input.count()
    types.reserveCapacity(typeCount)
    for _ in 0..<typeCount {
      let typeName = input.string()
      var fields: [Schema.Field] = []
      let fieldCount = input.count()
      fields.reserveCapacity(fieldCount)
      for _ in 0..<fieldCount {
        let json = input.string(), proto = input.string()
        let kind = Schema.Field.Kind.allCases[input.count()]
        let repeated = input.bool()
        let ref = input.bool() ? input.string() : nil
        let refIndex = Int32(input.int())
        var values: [String] = []
        let valueCount = input.count()
        values.reserveCapacity(valueCount)
        for _ in 0..<valueCount { values.append(input.string()) }
        let deprecated = input.bool(), outputOnly = input.bool()
        let field = Schema.Field(
          json: json, proto: proto, kind: kind, repeated: repeated, ref: ref, values: values, deprecated: deprecated, outputOnly: outputOnly)
        if refIndex >= 0 { refs.append((field, refIndex)) }
        fields.append(field)
      }
      types.append(Schema.MessageType(name: typeName, fields: fields))
    }
    for (field, index) in refs {
      field.refType = types[Int(index)]
      field.refTypeIndex = index
    }
    let names = JSONDocument.NameTable(bytes: input.utf8())
    return Schema(name: name, root: root, messageTypes: types, walk: numbers?.walk(types, names: names) ?? Schema.Walk(types))
  }

  mutating func rule() -> Rule {
    let id = input.string()
    let severity = Severity.allCases[input.count()]
    let summary = input.string(), docs = input.string(), source = input.string()
    let isBuiltin = input.bool()
    let idLine = input.count(), idColumn = input.count()
    let documentationAt = tail + input.count()
    let address = UInt(bitPattern: base), count = self.count, strings = input.strings
    let documentation: @Sendable () -> DataValue = {
      var reader = CompactReader(UnsafePointer(bitPattern: address)!, count: count, offset: documentationAt, strings: strings)
      return PackReader.tree(&reader)
    }
    let reportsSyntax = input.bool(), isReportedByFcmlint = input.bool()
    let bodyLength = input.count()
    precondition(input.offset + bodyLength <= count, "the compiled rule pack is cut short")
    let body = BodySource(reading: rules!, at: input.offset, reportsSyntax: reportsSyntax, isReportedByFcmlint: isReportedByFcmlint)
    input.offset += bodyLength
    return Rule(
      id: id, severity: severity, summary: summary, documentation: .later(documentation), docs: docs, body: body, source: source,
      isBuiltin: isBuiltin, idLine: idLine, idColumn: idColumn)
  }

  /// A rule's body (see `PackWriter.write(_:documentation:)`).
  mutating func ruleBody() -> Rule.Body {
    var given: [JSONPath] = []
    let givenCount = input.count()
    given.reserveCapacity(givenCount)
    for _ in 0..<givenCount { given.append(path()) }
    var when: [Rule.Condition] = []
    let whenCount = input.count()
    when.reserveCapacity(whenCount)
    for _ in 0..<whenCount { when.append(condition()) }
    var then: [Rule.Check] = []
    let thenCount = input.count()
    then.reserveCapacity(thenCount)
    for _ in 0..<thenCount { then.append(check()) }
    let message = template()
    let fix = input.bool() ? self.fix() : nil
    return Rule.Body(given: given, when: when, then: then, message: message, fix: fix)
  }

  mutating func condition() -> Rule.Condition {
    switch input.count() {
    case 0: return .check(check())
    case 1:
      var conditions: [Rule.Condition] = []
      let n = input.count()
      conditions.reserveCapacity(n)
      for _ in 0..<n { conditions.append(condition()) }
      return .anyOf(conditions)
    default: return .not(condition())
    }
  }

  mutating func check() -> Rule.Check { checks[input.count()] }

  mutating func checkBody() -> Rule.Check {
    let kind = Int32(input.count())
    let function = FunctionRegistry.all[input.count()]
    let field = input.bool() ? path() : nil
    let optionsLength = input.count()
    precondition(input.offset + optionsLength <= count, "the compiled rule pack is cut short")
    let optionsAt = input.offset
    input.offset += optionsLength
    let message = template()
    let templates = Rule.TemplateHandling.allCases[input.count()]
    return Rule.Check(
      field: field, reading: tables!, at: optionsAt, functionType: function, message: message, templates: templates, kind: kind)
  }

  /// A check's options (see `PackWriter.writeBody`).
  mutating func options() -> FunctionOptions {
    var options = FunctionOptions(resources: resources)
    let optionCount = input.count()
    if optionCount > 0 {
      options.entries.reserveCapacity(optionCount)
      for _ in 0..<optionCount {
        let key = input.string()
        options.entries.append((key, option()))
      }
    }
    return options
  }

  mutating func option() -> OptionValue {
    switch input.count() {
    case 0: return .string(input.string())
    case 1:
      var strings: [String] = []
      let n = input.count()
      strings.reserveCapacity(n)
      for _ in 0..<n { strings.append(input.string()) }
      return .strings(strings)
    case 2: return .bool(input.bool())
    case 3: return .number(input.double())
    case 4: return .value(literal())
    case 5: return .path(path())
    case 6:
      var paths: [JSONPath] = []
      let n = input.count()
      paths.reserveCapacity(n)
      for _ in 0..<n { paths.append(path()) }
      return .paths(paths)
    case 7: return .pattern(pattern())
    default:
      // In key order, as written: read without hashing a key.
      var keys: [String] = [], values: [String] = []
      let n = input.count()
      keys.reserveCapacity(n)
      values.reserveCapacity(n)
      for _ in 0..<n {
        keys.append(input.string())
        values.append(input.string())
      }
      return .stringMap(StringMap(sortedKeys: keys, values: values))
    }
  }

  mutating func literal() -> LiteralValue {
    switch input.count() {
    case 0: return .string(input.string())
    case 1: return .number(input.double())
    case 2: return .bool(false)
    case 3: return .bool(true)
    case 4: return .null
    case 5:
      var items: [LiteralValue] = []
      let n = input.count()
      items.reserveCapacity(n)
      for _ in 0..<n { items.append(literal()) }
      return .array(items)
    default:
      var members: [(String, LiteralValue)] = []
      let n = input.count()
      members.reserveCapacity(n)
      for _ in 0..<n {
        let key = input.string()
        members.append((key, literal()))
      }
      return .object(members)
    }
  }

  mutating func fix() -> RuleFix {
    let action: FixAction
    switch input.count() {
    case 0:
      let target = path()
      action = .set(target, literal())
    case 1: action = .renameKey(templateBody())
    case 2: action = .replaceValue(templateBody())
    case 3: action = .moveInto(path())
    default:
      let pattern = pattern()
      action = .replacePattern(pattern, with: input.string())
    }
    var kinds: [String]? = nil
    if input.bool() {
      kinds = []
      for _ in 0..<input.count() { kinds!.append(input.string()) }
    }
    var values: [LiteralValue]? = nil
    if input.bool() {
      values = []
      for _ in 0..<input.count() { values!.append(literal()) }
    }
    let matching = input.bool() ? pattern() : nil
    return RuleFix(action: action, kinds: kinds, values: values, matching: matching, description: template())
  }

  mutating func template() -> MessageTemplate? {
    input.bool() ? templateBody() : nil
  }

  mutating func templateBody() -> MessageTemplate { MessageTemplate(checked: input.string()) }

  mutating func path() -> JSONPath { paths[input.count()] }

  mutating func pattern() -> CompiledPattern { patterns[input.count()] }

  mutating func aliases() -> Aliases {
    var aliases = Aliases()
    let pathCount = input.count()
    aliases.paths.reserveCapacity(pathCount)
    for _ in 0..<pathCount {
      let name = input.string()
      var paths: [String] = []
      for _ in 0..<input.count() { paths.append(input.string()) }
      aliases.paths[name] = paths
    }
    let definitionCount = input.count()
    aliases.definitions.reserveCapacity(definitionCount)
    for _ in 0..<definitionCount {
      let name = input.string()
      aliases.definitions[name] = Self.tree(&input)
    }
    let originCount = input.count()
    aliases.origins.reserveCapacity(originCount)
    for _ in 0..<originCount {
      let name = input.string()
      aliases.origins[name] = input.string()
    }
    return aliases
  }

  static func tree(_ input: inout CompactReader) -> DataValue {
    let file = input.string()
    return node(&input, file: file)
  }

  private static func node(_ input: inout CompactReader, file: String) -> DataValue {
    let line = input.count(), column = input.count()
    let node: DataNode
    switch input.count() {
    case 5:
      var items: [DataValue] = []
      let n = input.count()
      items.reserveCapacity(n)
      for _ in 0..<n { items.append(Self.node(&input, file: file)) }
      node = .sequence(items)
    case 6:
      var members: [(key: DataValue, value: DataValue)] = []
      let n = input.count()
      members.reserveCapacity(n)
      for _ in 0..<n {
        let key = Self.node(&input, file: file)
        members.append((key, Self.node(&input, file: file)))
      }
      node = .mapping(members)
    case let tag:
      let kinds: [DataNode.ScalarKind] = [.string, .int, .float, .bool, .null]
      let quoted = input.bool()
      node = .scalar(input.string(), kinds[tag], quoted: quoted)
    }
    return DataValue(node: node, file: file, line: line, column: column)
  }
}

/// What a check of the pack needs to read its options when it first runs: the pack's bytes (static
/// data, never written) and the paths, patterns and schemas its options refer to by number.
final class PackTables: @unchecked Sendable {
  let base: UnsafePointer<UInt8>
  let count: Int
  let strings: [String]
  let paths: [JSONPath]
  let patterns: [CompiledPattern]
  let resources: RuleResources

  init(base: UnsafePointer<UInt8>, count: Int, strings: [String], paths: [JSONPath], patterns: [CompiledPattern], resources: RuleResources) {
    self.base = base
    self.count = count
    self.strings = strings
    self.paths = paths
    self.patterns = patterns
    self.resources = resources
  }
}

/// What a rule's body is read with when first asked for: the pack's tables and its checks.
final class PackRules: Sendable {
  let tables: PackTables
  let checks: [Rule.Check]

  init(tables: PackTables, checks: [Rule.Check]) {
    self.tables = tables
    self.checks = checks
  }
}

/// A rule's `Rule.Body`: read with the rule (a rule file's), or, for a rule of the built-in pack,
/// from the pack when first asked for. A start then reads no rule's paths, conditions and messages
/// (the lint plan has what linting needs; a report asks for the rules that found something), so
/// what the linter asks of every rule at start (`reportsSyntax`, `isReportedByFcmlint`) the pack
/// keeps beside it. Threads that race to read one keep the first stored and drop their own.
final class BodySource: @unchecked Sendable {
  private let ready: Rule.Body?
  private let pack: PackRules?
  private let offset: Int
  private let slot = Atomic<UInt>(0)
  /// Whether a check of the body is `ValidJSON`'s (see `Rule.reportsSyntax`).
  let reportsSyntax: Bool
  /// Whether a check of the body is `ReportedByFcmlint`'s (see `Rule.isReportedByFcmlint`).
  let isReportedByFcmlint: Bool

  init(_ body: Rule.Body) {
    ready = body
    pack = nil
    offset = 0
    reportsSyntax = body.checks(with: ValidJSON.self)
    isReportedByFcmlint = body.checks(with: ReportedByFcmlint.self)
  }

  init(reading pack: PackRules, at offset: Int, reportsSyntax: Bool, isReportedByFcmlint: Bool) {
    ready = nil
    self.pack = pack
    self.offset = offset
    self.reportsSyntax = reportsSyntax
    self.isReportedByFcmlint = isReportedByFcmlint
  }

  deinit { slot.releaseObject(Rule.Body.self) }

  /// Whether the body is read (for tests).
  var isRead: Bool { ready != nil || slot.isSet }

  /// The body, read first if it is not yet.
  var body: Rule.Body { ready ?? (slot.stored(Rule.Body.self) ?? slot.store(readNow())).takeUnretainedValue() }

  @inline(never) private func readNow() -> Rule.Body {
    var reader = PackReader(tables: pack!.tables, offset: offset)
    reader.checks = pack!.checks
    return reader.ruleBody()
  }
}

/// A slot for an object made when first asked for (a rule's body, a check's function): the
/// address of the object it retains, 0 until then. Threads that race to make one keep the first
/// stored and release their own.
extension Atomic where Value == UInt {
  var isSet: Bool { load(ordering: .acquiring) != 0 }

  /// The stored object, if one was made.
  @inline(__always)
  func stored<Object: AnyObject>(_: Object.Type) -> Unmanaged<Object>? {
    let stored = load(ordering: .acquiring)
    return stored != 0 ? Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: stored).unsafelyUnwrapped) : nil
  }

  /// Stores `object` unless another thread stored one first; the object stored.
  @inline(never)
  func store<Object: AnyObject>(_ object: Object) -> Unmanaged<Object> {
    let mine = Unmanaged.passRetained(object)
    let (stored, other) = compareExchange(
      expected: 0, desired: UInt(bitPattern: mine.toOpaque()), successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
    if stored { return mine }
    mine.release()
    return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: other).unsafelyUnwrapped)
  }

  /// Releases the stored object, if one was made (its holder's `deinit`).
  func releaseObject<Object: AnyObject>(_: Object.Type) {
    let stored = load(ordering: .acquiring)
    if stored != 0 { Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: stored).unsafelyUnwrapped).release() }
  }
}

/// A check's function and the options it was made with (see `Rule.Check.made`).
final class MadeFunction: Sendable {
  let function: any RuleFunction
  let options: FunctionOptions

  init(function: any RuleFunction, options: FunctionOptions) {
    self.function = function
    self.options = options
  }
}

/// A check's function: made with the check (a rule file's), or, for a check of the built-in pack,
/// made from the pack when the check first runs. A start then makes no function (making them all
/// cost more than linting a small file, and a document runs a few dozen of the pack's checks:
/// docs/performance.md). Threads that race to make one keep the first stored and drop their own.
extension Rule.Check {
  /// Whether the function is made (for tests).
  var isMade: Bool { ready != nil || madeSlot.isSet }

  /// The function and its options, made first if they are not yet.
  var made: MadeFunction { ready ?? storedOrMade.takeUnretainedValue() }

  /// What the lint plan holds for the check: the function once it is made; before, a stand-in
  /// (`LazyFunction`) and this check, which the plan calls directly (`findings(_:_:in:)`) as
  /// long as the rule that holds the check keeps it.
  var forPlan: (function: any RuleFunction, lazy: Unmanaged<Rule.Check>?) {
    if isMade { return (made.function, nil) }
    return (LazyFunction(check: self), Unmanaged.passUnretained(self))
  }

  /// The function's findings for one target. Neither the check nor what it made is retained: the
  /// plan calls a check's function through here for every node it reaches.
  @inline(__always) static func findings(_ check: Unmanaged<Rule.Check>, _ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    check._withUnsafeGuaranteedRef { $0.findings(target, in: context) }
  }

  /// Whether the function finds nothing for one target (see `findings(_:_:in:)`).
  @inline(__always) static func passes(_ check: Unmanaged<Rule.Check>, _ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    check._withUnsafeGuaranteedRef { $0.passes(target, in: context) }
  }

  @inline(__always) func findings(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    if let ready { return ready.function.check(target, in: context) }
    return storedOrMade._withUnsafeGuaranteedRef { $0.function.check(target, in: context) }
  }

  @inline(__always) func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    if let ready { return ready.function.passes(target, in: context) }
    return storedOrMade._withUnsafeGuaranteedRef { $0.function.passes(target, in: context) }
  }

  /// The function made from the pack: the stored one, or one made now.
  @inline(__always) private var storedOrMade: Unmanaged<MadeFunction> { madeSlot.stored(MadeFunction.self) ?? madeSlot.store(makeNow()) }

  @inline(never) private func makeNow() -> MadeFunction {
    var reader = PackReader(tables: pack!, offset: optionsOffset)
    let options = reader.options()
    let function: any RuleFunction
    do {
      function = try functionType.init(options: options)
    } catch {
      preconditionFailure("\(functionType.name) refuses the options the build gave it: \(error.message)")
    }
    return MadeFunction(function: function, options: options)
  }
}

/// A check of the pack whose function is not made yet, as the lint plan holds it (the plan calls
/// the source itself; a call through this goes to the function the source makes on the first).
/// Not a function rule files name (it is in no registry); the plan reads a check's static traits
/// from the function's own type.
struct LazyFunction: RuleFunction {
  static let name = "(made when first called)"
  static let summary = ""
  static let options: [OptionSpec] = []
  let check: Rule.Check

  init(check: Rule.Check) { self.check = check }

  init(options: FunctionOptions) throws(OptionError) {
    throw OptionError("made only from the compiled pack")
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    check.findings(target, in: context)
  }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    check.passes(target, in: context)
  }
}

/// The linter's tables for the whole built-in pack, as the build laid them out (`CompiledPack`):
/// a linter of every built-in rule, whatever their severities, takes them instead of building them
/// at each start (`Linter.init`).
struct CompiledPlan: Sendable {
  let plan: LintPlan
  let trie: GivenTrie
  let slotRules: [Int32]

  /// Everything in the tables as numbers, each check by the objects it is made of and a trie
  /// edge by its names' bytes: equal for two linters of the same rules only if their tables are.
  var layout: [Int] {
    var out: [Int] = []
    for check in plan.checks {
      out += [
        Int(bitPattern: UInt(bitPattern: ObjectIdentifier(check.path.storage))), check.hasField ? 1 : 0,
        Int(bitPattern: UInt(bitPattern: ObjectIdentifier(type(of: check.function)))),
        check.lazy.map { Int(bitPattern: $0.toOpaque()) } ?? 0, Rule.TemplateHandling.allCases.firstIndex(of: check.templates)!,
        check.ignoresMissing ? 1 : 0, check.failsWhereMissing ? 1 : 0, check.readsTemplates ? 1 : 0, Int(check.passingKinds),
      ]
    }
    out.append(-1)
    for c in plan.conditions { out += [Int(c.kind.rawValue), Int(c.check), Int(c.operands.lowerBound), Int(c.operands.upperBound)] }
    out.append(-1)
    for r in plan.rules { out += [Int(r.when.lowerBound), Int(r.when.upperBound), Int(r.then.lowerBound), Int(r.then.upperBound)] }
    out.append(-1)
    out += plan.thenChecks.map(Int.init) + [-1] + plan.checkMemo.map(Int.init) + [plan.checkMemoCount, -1]
    out += plan.fieldless.map { $0 ? 1 : 0 } + [-1] + plan.ruleMemo.map(Int.init) + [plan.ruleMemoCount, -1]
    for node in trie.nodes { out += [Int(node.slots.lowerBound), Int(node.slots.upperBound), Int(node.edges.lowerBound), Int(node.edges.upperBound)] }
    out.append(-1)
    for edge in trie.edges {
      let step = edge.step
      out += [Int(step.kind.rawValue), Int(step.index), Int(edge.node)]
      for name in [step.name, step.alternate] {
        out.append(-2)
        if let name { out += trie.names[name].map(Int.init) + [Int(name.hash)] }
      }
    }
    out.append(-1)
    out += trie.slots.map(Int.init) + [-1] + slotRules.map(Int.init)
    return out
  }
}

/// The schemas' walks (`Schema.Walk`) and the linter's tables (`CompiledPlan`) as one list of
/// numbers, which the build writes into the binary as an array literal: the compiler lays it out
/// as the array itself in the binary's data, so a start reads the numbers where they lie, with no
/// decoding of the pack's compact form (numbers of varying length, each read with its own checks)
/// and no name hashed.
struct PackNumbers {
  private(set) var numbers: [Int32] = []

  mutating func add(_ number: Int) {
    precondition(number >= Int(Int32.min) && number <= Int(Int32.max), "a number of the pack's tables is out of range")
    numbers.append(Int32(number))
  }

  mutating func add(_ range: Range<Int32>) {
    numbers.append(range.lowerBound)
    numbers.append(range.upperBound)
  }

  /// A path's step, its names by where they are in their table.
  mutating func add(_ step: JSONPath.Storage.Step) {
    add(Int(step.kind.rawValue))
    for name in [step.name, step.alternate] {
      if let name {
        add(1)
        numbers.append(name.start)
        numbers.append(name.count)
        numbers.append(Int32(bitPattern: name.hash))
      } else {
        add(0)
      }
    }
    numbers.append(step.index)
  }

  /// A schema's walk (`Schema.Walk`): each type's table with the slots in use, each with its
  /// hashes, so a start hashes no name. The names' bytes are in the pack (`write(_ schema:)`),
  /// the shapes come from the schema's fields.
  mutating func add(_ walk: Schema.Walk) {
    add(walk.slots.count)
    add(walk.tables.count)
    for table in walk.tables {
      add(Int(table.mask) + 1)
      let used = (0...Int(table.mask)).filter { walk.slots[Int(table.slots) + $0].name != nil }
      add(used.count)
      for slot in used {
        let entry = walk.slots[Int(table.slots) + slot], name = entry.name!
        add(slot)
        numbers.append(entry.field)
        numbers.append(name.start)
        numbers.append(name.count)
        numbers.append(Int32(bitPattern: name.hash))
        numbers.append(Int32(bitPattern: UInt32(truncatingIfNeeded: entry.hash)))
        numbers.append(Int32(bitPattern: UInt32(truncatingIfNeeded: entry.hash >> 32)))
      }
    }
  }

  /// `linter`'s tables, its checks by their numbers in `checks` (the pack's).
  mutating func write(_ linter: Linter, checks: [Rule.Check]) {
    var checkNumbers: [ObjectIdentifier: Int] = [:]
    for (number, check) in checks.enumerated() { checkNumbers[ObjectIdentifier(check)] = number }
    // The plan again, to learn which rule check each of its checks is made from.
    let (plan, sources) = LintPlan.withSources(linter.rules, sameChecks: false)
    add(sources.count)
    for source in sources { add(checkNumbers[ObjectIdentifier(source)]!) }
    for check in plan.checks { add(Int(check.passingKinds)) }
    add(plan.conditions.count)
    for condition in plan.conditions {
      add(Int(condition.kind.rawValue))
      add(Int(condition.check))
      add(condition.operands)
    }
    add(plan.rules.count)
    for rule in plan.rules {
      add(rule.when)
      add(rule.then)
    }
    add(plan.thenChecks.count)
    for check in plan.thenChecks { add(Int(check)) }
    for slot in plan.checkMemo { add(Int(slot)) }
    add(plan.checkMemoCount)

    let trie = linter.givenTrie
    add(trie.nodes.count)
    for node in trie.nodes {
      add(node.slots)
      add(node.edges)
    }
    add(trie.edges.count)
    for edge in trie.edges {
      add(edge.step)
      add(Int(edge.node))
    }
    add(trie.slots.count)
    for slot in trie.slots { add(Int(slot)) }
    add(trie.names.bytes.count)
    for byte in trie.names.bytes { add(Int(byte)) }
    for rule in linter.slotRules { add(Int(rule)) }
  }
}

/// Reads what `PackNumbers` wrote, in order. The numbers come from the build, never from a
/// user: malformed ones are a bug of the build, and stop the program.
struct PackNumbersReader {
  private let numbers: [Int32]
  private var at = 0

  init(_ numbers: [Int32]) { self.numbers = numbers }

  private mutating func next() -> Int32 {
    defer { at += 1 }
    return numbers[at]
  }

  private mutating func count() -> Int {
    let n = Int(next())
    precondition(n >= 0, "the pack's numbers are malformed")
    return n
  }

  private mutating func range() -> Range<Int32> {
    let lower = next(), upper = next()
    precondition(lower <= upper, "the pack's numbers are malformed")
    return lower..<upper
  }

  private mutating func list<Element>(count n: Int, _ read: (inout PackNumbersReader) -> Element) -> [Element] {
    var elements: [Element] = []
    elements.reserveCapacity(n)
    for _ in 0..<n { elements.append(read(&self)) }
    return elements
  }

  private mutating func list<Element>(_ read: (inout PackNumbersReader) -> Element) -> [Element] {
    list(count: count(), read)
  }

  private mutating func stepName() -> JSONDocument.NameTable.Name? {
    guard next() != 0 else { return nil }
    let start = next(), count = next()
    return JSONDocument.NameTable.Name(start: start, count: count, hash: UInt32(bitPattern: next()))
  }

  private mutating func step() -> JSONPath.Storage.Step {
    let kind = JSONPath.Storage.Step.Kind(rawValue: UInt8(truncatingIfNeeded: count()))!
    let name = stepName(), alternate = stepName()
    return JSONPath.Storage.Step(kind: kind, name: name, alternate: alternate, index: next())
  }

  /// What `PackNumbers.add(_ walk:)` wrote, for `types` and the walk's `names`: each field's
  /// shape from the field.
  mutating func walk(_ types: [Schema.MessageType], names: JSONDocument.NameTable) -> Schema.Walk {
    var slots = [Schema.Walk.Slot](repeating: Schema.Walk.Slot(hash: 0, field: -1, name: nil), count: count())
    var tables: [Schema.Walk.Table] = [], shapes: [Schema.Walk.Shape] = []
    let tableCount = count()
    precondition(tableCount <= types.count, "the pack's numbers are malformed")
    tables.reserveCapacity(tableCount)
    shapes.reserveCapacity(types.reduce(0) { $0 + $1.fields.count })
    var base = 0
    for type in types.prefix(tableCount) {
      let size = count()
      tables.append(Schema.Walk.Table(
        slots: Int32(base), mask: Int32(size - 1), shift: UInt64(64 - size.trailingZeroBitCount), shapes: Int32(shapes.count)))
      for _ in 0..<count() {
        let slot = count(), field = next()
        let start = next(), length = next(), nameHash = UInt32(bitPattern: next())
        let low = UInt64(UInt32(bitPattern: next())), high = UInt64(UInt32(bitPattern: next()))
        slots[base + slot] = Schema.Walk.Slot(
          hash: high << 32 | low, field: field, name: JSONDocument.NameTable.Name(start: start, count: length, hash: nameHash))
      }
      base += size
      for field in type.fields { shapes.append(Schema.Walk.Shape(kind: field.kind, repeated: field.repeated, refType: field.refTypeIndex)) }
    }
    return Schema.Walk(tables: tables, slots: slots, shapes: shapes, names: names)
  }

  /// The tables, their checks made from `checks` (the pack's).
  mutating func compiledPlan(checks: [Rule.Check]) -> CompiledPlan {
    let sources = list { checks[$0.count()] }
    let passingKinds = list(count: sources.count) { UInt16(truncatingIfNeeded: $0.count()) }
    let conditions = list { table in
      let kind = LintPlan.Condition.Kind(rawValue: UInt8(truncatingIfNeeded: table.count()))!
      let check = table.next()
      return LintPlan.Condition(kind: kind, check: check, operands: table.range())
    }
    let rules = list { table in
      let when = table.range()
      return LintPlan.Rule(when: when, then: table.range())
    }
    let thenChecks = list { $0.next() }
    let checkMemo = list(count: sources.count) { $0.next() }
    let plan = LintPlan(
      sources: sources, passingKinds: passingKinds, conditions: conditions, rules: rules, thenChecks: thenChecks, checkMemo: checkMemo,
      checkMemoCount: count())

    let nodes = list { table in
      let slots = table.range()
      return GivenTrie.Node(slots: slots, edges: table.range())
    }
    let edges = list { table in
      let step = table.step()
      return GivenTrie.Edge(step: step, node: table.next())
    }
    let slots = list { $0.next() }
    let names = JSONDocument.NameTable(bytes: list { UInt8(truncatingIfNeeded: $0.next()) })
    let slotRules = list(count: slots.count) { $0.next() }
    precondition(at == numbers.count, "the pack's numbers are longer than their parts")
    return CompiledPlan(plan: plan, trie: GivenTrie(nodes: nodes, edges: edges, slots: slots, names: names), slotRules: slotRules)
  }
}

extension CompactWriter {
  /// A path's step, its names by where they are in their table.
  mutating func write(_ step: JSONPath.Storage.Step) {
    count(Int(step.kind.rawValue))
    for name in [step.name, step.alternate] {
      bool(name != nil)
      if let name {
        count(Int(name.start))
        count(Int(name.count))
        uint(UInt64(name.hash))
      }
    }
    int(Int(step.index))
  }
}

extension CompactReader {
  /// What `write(_:)` wrote of a step.
  mutating func step() -> JSONPath.Storage.Step {
    let kind = JSONPath.Storage.Step.Kind(rawValue: UInt8(count()))!
    let name = bool() ? JSONDocument.NameTable.Name(start: Int32(count()), count: Int32(count()), hash: UInt32(uint())) : nil
    let alternate = bool() ? JSONDocument.NameTable.Name(start: Int32(count()), count: Int32(count()), hash: UInt32(uint())) : nil
    return JSONPath.Storage.Step(kind: kind, name: name, alternate: alternate, index: Int32(int()))
  }
}
