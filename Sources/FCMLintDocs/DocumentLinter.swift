import FCMLintEngine
import FCMLintFixes
import FCMLintJSON

/// Lints and fixes the message samples of a documentation page: each sample is read as a file
/// would be (kind, fragments, templates, syntax recovery), and every diagnostic and fix is moved
/// to the page's own bytes, lines and columns.
public struct DocumentLinter: Sendable {
  public let linter: Linter
  private let vocabulary: Vocabulary

  /// The placeholder syntaxes a page's samples are read with: the linter's own (or the default,
  /// for Node.js literals) and a page's `<Your topic>`.
  private let pagePlaceholders: (own: PlaceholderSyntax, node: PlaceholderSyntax)

  public init(linter: Linter) {
    self.linter = linter
    vocabulary = Vocabulary(linter)
    // Compiled once per process for the default syntax; a config's own, once per linter.
    let own = linter.options.placeholders.patterns == PlaceholderSyntax.defaultPatterns
      ? Self.defaultPagePlaceholders
      : (try? PlaceholderSyntax(patterns: linter.options.placeholders.patterns + [Self.anglePlaceholder])) ?? linter.options.placeholders
    pagePlaceholders = (own, Self.defaultPagePlaceholders)
  }

  static let defaultPagePlaceholders = try! PlaceholderSyntax(patterns: PlaceholderSyntax.defaultPatterns + [anglePlaceholder])

  /// A value a page's reader fills in, written `<Your topic>`, `<DEVICE_TOKEN>`, `<image-url>`:
  /// a word in angle brackets (letters, digits, spaces, `_`, `.`, `-`), not known yet. In a page
  /// only: a JSON file's `<...>` is text, as FCM gets it.
  static let anglePlaceholder = #"<[A-Za-z][A-Za-z0-9 _.\-]*>"#

  /// `reader` reading a page's placeholders too, for a sample whose text has a `<` (the others
  /// keep the default syntax's faster search).
  func withPagePlaceholders(_ reader: Linter, text: [UInt8]) -> Linter {
    guard text.contains(UInt8(ascii: "<")) else { return reader }
    let syntax = reader.options.placeholders.patterns == PlaceholderSyntax.defaultPatterns ? pagePlaceholders.node : pagePlaceholders.own
    guard !syntax.isEmpty else { return reader }
    return reader.reading(reader.options.input, fragment: reader.options.fragment, openRoot: reader.options.openRoot, placeholders: syntax)
  }

  /// What a sample's top-level keys are told by, from what the rules know of FCM: the fields of
  /// Message and ApnsConfig in the schema, and the aliases file's `ApsKeys` and
  /// `ApsDictionaryKeys`; and how a Node.js literal is sent, with the aliases file's renames.
  struct Vocabulary: Sendable {
    var messageFields: Set<String> = []
    /// The Message fields FCM fills in itself (`name`): no evidence either way in a sample.
    var outputOnlyMessageFields: Set<String> = []
    var apnsConfigFields: Set<String> = []
    /// The fields of every type a Message holds (Notification, AndroidConfig...): written at the
    /// top of a sample, a misplaced field, not a foreign key.
    var partFields: Set<String> = []
    /// The fields of the type each object-valued Message field holds, by both of its names.
    var fieldsOf: [String: Set<String>] = [:]
    var apsKeys: Set<String>
    var apsDictionaryKeys: Set<String>
    /// The legacy API's notification keys (`LegacyNotificationKeys`).
    var legacyNotificationKeys: Set<String>
    var nodeEncoding: NodeMessageLiteral.Encoding

    init(_ linter: Linter) {
      func fields(_ type: String) -> Set<String> {
        guard let type = linter.resources.schemas.values.lazy.compactMap({ $0.types[type] }).first else { return [] }
        return Set(type.fields.filter { !$0.outputOnly }.flatMap { [$0.json, $0.proto] })
      }
      messageFields = fields("Message")
      if let message = linter.resources.schemas.values.lazy.compactMap({ $0.types["Message"] }).first {
        outputOnlyMessageFields = Set(message.fields.filter(\.outputOnly).flatMap { [$0.json, $0.proto] })
      }
      let types = linter.resources.schemas.values.flatMap(\.types)
      for (name, type) in types where name != "Message" {
        partFields.formUnion(type.fields.flatMap { [$0.json, $0.proto] })
      }
      if let message = types.first(where: { $0.key == "Message" })?.value {
        for field in message.fields {
          guard let ref = field.ref, let type = types.first(where: { $0.key == ref })?.value else { continue }
          let names = Set(type.fields.flatMap { [$0.json, $0.proto] })
          fieldsOf[field.json] = names
          fieldsOf[field.proto] = names
        }
      }
      apnsConfigFields = fields("ApnsConfig")
      apsKeys = Set(linter.aliases.strings("ApsKeys") ?? [])
      apsDictionaryKeys = Set(linter.aliases.strings("ApsDictionaryKeys") ?? [])
      legacyNotificationKeys = Set(linter.aliases.strings("LegacyNotificationKeys") ?? [])
      nodeEncoding = NodeMessageLiteral.Encoding(linter.aliases)
    }
  }

  /// The candidate samples of a page, as `check` and `fix` find them; those of a UTF-16 page are
  /// its text's, each byte mapped to the page's bytes.
  public func samples(in bytes: [UInt8], format: DocumentFormat) -> [DocumentSample] {
    guard let page = UTF16Page(bytes) else { return samples(inText: bytes, format: format) }
    return samples(inText: page.text, format: format).map { sample in
      var sample = sample
      sample.text.origins = sample.text.origins.map(page.origin)
      sample.blockStart = page.origin(sample.blockStart)
      return sample
    }
  }

  /// The candidate samples of a UTF-8 page.
  func samples(inText bytes: [UInt8], format: DocumentFormat) -> [DocumentSample] {
    SampleFinder.samples(in: bytes, format: format, nodeEncoding: vocabulary.nodeEncoding)
  }

  /// The rule of the diagnostic at an elision (a rule of the pack, info by default).
  public static let elidedSampleRule = ReportedRules.elidedSample

  public struct Outcome: Sendable {
    public var diagnostics: [Diagnostic]
    /// Samples that were FCM documents and linted.
    public var samples: Int
    /// Why the page was not linted: none of its samples is an FCM document.
    public var skipped: String?
    /// Every sample found in the page, for `fix` to start from without searching it again.
    public var found: [DocumentSample] = []
    /// The samples read and not linted, as not FCM documents: their line in the page and why.
    public var skippedSamples: [(line: Int, reason: String)] = []
  }

  /// The page's samples linted; a UTF-16 page (with its byte order mark) is read as UTF-8 and its
  /// diagnostics given the page's offsets.
  public func check(bytes: [UInt8], file: String, format: DocumentFormat) -> Outcome {
    guard let page = UTF16Page(bytes) else { return check(text: bytes, file: file, format: format) }
    var outcome = check(text: page.text, file: file, format: format)
    outcome.diagnostics = outcome.diagnostics.map(page.placed)
    return outcome
  }

  /// `check` of a UTF-8 page.
  func check(text bytes: [UInt8], file: String, format: DocumentFormat) -> Outcome {
    check(samples(inText: bytes, format: format), of: bytes, file: file)
  }

  /// The diagnostics of `samples`, found in the UTF-8 page `bytes`.
  func check(_ samples: [DocumentSample], of bytes: [UInt8], file: String) -> Outcome {
    var diagnostics: [Diagnostic] = []
    var linted = 0
    let locator = SourceLocator(bytes: bytes, queries: 64)
    var skippedSamples: [(line: Int, reason: String)] = []
    let sendsToFCM = SampleShape.sendsToFCM(bytes)
    let onlyHuawei = SampleShape.sendsOnlyToHuawei(bytes)
    let words = SampleShape.PageWords(bytes)
    let elided = linter.reportedRule(Self.elidedSampleRule)
    for sample in samples where !sample.disabled {
      let found: [Diagnostic]
      switch lint(sample, file: file, page: bytes, sendsToFCM: sendsToFCM, onlyHuawei: onlyHuawei, words: words) {
      case .linted(let diagnostics): found = diagnostics
      case .skipped(let reason):
        skippedSamples.append((locator.position(of: sample.start).line, reason))
        continue
      }
      linted += 1
      diagnostics += found.map { place($0, of: sample, locator: locator) }
      if let elision = sample.elision, let elided {
        let offset = sample.text.origin(of: elision)
        let position = locator.position(of: offset)
        diagnostics.append(elided.diagnostic(
          file: file, detail: "elided sample: what it leaves out is not known, and it is not fixed", start: position, end: position,
          startOffset: offset, endOffset: offset))
      }
    }
    guard linted > 0 else {
      let blocks = samples.count
      let reason = blocks == 0 ? "it holds no message samples" : "none of its \(blocks) code \(blocks == 1 ? "sample is" : "samples are") an FCM document"
      return Outcome(diagnostics: [], samples: 0, skipped: reason, found: samples, skippedSamples: skippedSamples)
    }
    return Outcome(diagnostics: diagnostics.sorted(by: Diagnostic.ordered), samples: linted, skipped: nil, found: samples, skippedSamples: skippedSamples)
  }

  enum Linted {
    case linted([Diagnostic])
    case skipped(String)
  }

  /// The text of a sample as it is linted: a JSON sample's comments are the page's annotations,
  /// blanked out (offsets kept).
  static func lintedText(_ sample: DocumentSample) -> [UInt8] {
    guard sample.language == .json else { return sample.text.bytes }
    return SampleShape.blankingComments(sample.text.bytes) ?? sample.text.bytes
  }

  /// The diagnostics of one sample, against its text; why it is skipped when it is not an FCM
  /// document.
  /// `sendsToFCM`: whether the page names FCM's endpoint (`SampleShape.sendsToFCM`).
  /// `onlyHuawei`: whether it sends only to Huawei Push Kit (`SampleShape.sendsOnlyToHuawei`).
  /// `words`: where the page's evidence words are (`SampleShape.PageWords`), found once per page.
  func lint(_ sample: DocumentSample, file: String, page: [UInt8], sendsToFCM: Bool, onlyHuawei: Bool = false, words: SampleShape.PageWords? = nil) -> Linted {
    var bytes = Self.lintedText(sample)
    // An elision is a hole: what it leaves out is not known, and the rest is checked.
    var holes: [Int] = []
    if sample.elision != nil, sample.language == .json { (bytes, holes) = Elision.holes(in: bytes, elisions: Elision.all(in: sample.text.bytes)) }
    var reader: Linter
    let words = words ?? SampleShape.PageWords(page)
    let huawei = SampleShape.huaweiNearby(words, pageCount: page.count, sample: sample, pageSendsOnlyToHuawei: onlyHuawei)
    let nearby = SampleShape.sayNearby(words, pageCount: page.count, sample: sample)
    let expo = SampleShape.expoNearby(words, pageCount: page.count, sample: sample)
    switch reading(sample, bytes: bytes, evidence: SampleShape.Evidence(nearby: nearby, pageSendsToFCM: sendsToFCM, huawei: huawei, expo: expo)) {
    case .lint(let linter): reader = withPagePlaceholders(linter, text: bytes)
    case .skip(let reason): return .skipped(reason)
    }
    if !holes.isEmpty { reader = reader.reading(holes: holes) }
    let outcome = reader.check(bytes: bytes, file: file)
    if let reason = outcome.skipped { return .skipped(reason) }
    // A MulticastMessage's `tokens` are its own field, which the SDK sends as each message's token.
    if sample.multicast { return .linted(outcome.diagnostics.filter { $0.pointer != "/tokens" && !$0.pointer.hasPrefix("/tokens/") }) }
    return .linted(outcome.diagnostics)
  }

  /// The linter that reads the sample as what it is: a send request as configured; a bare
  /// Message, an APNs payload, an ApnsConfig or an `aps` dictionary alone as a fragment (the
  /// page shows a part of a message); nil when it is none of these.
  ///
  /// A Node.js literal is the message `send` takes, and nothing else: an object passed to another
  /// call (`headers({"mutable-content": 1})` in the Firebase page's prose) is not a sample. Its
  /// JSON writes expressions as `{{...}}` placeholders, so it is read with the default
  /// placeholder syntax whatever the config's is.
  ///
  /// A bare Message, and what a request's `message` holds, are read by their shape
  /// (`SampleShape`) unless the page says, just before it, that it is sent to FCM. A request is
  /// sent as it is, its target required, only where the page sends to FCM's endpoint: elsewhere
  /// it goes through a service that adds the target (Azure Notification Hubs, a template), and is
  /// read as a fragment.
  func reading(_ sample: DocumentSample, bytes: [UInt8], evidence: SampleShape.Evidence) -> Reading {
    let nearby = evidence.nearby
    let notMessage = Reading.skip("it is not an FCM message")
    if evidence.huawei {
      return .skip("it is sent to Huawei Push Kit (HMS), whose message looks like FCM's and is not one")
    }
    let expoMessage = Reading.skip("it is sent to Expo's push service, whose message (\"to\", \"title\", \"body\", \"data\"...) is not FCM's")
    if evidence.expo { return expoMessage }
    if sample.labelledLegacy, let keys = TopLevelKeys.scan(bytes), !keys.contains("message"),
      keys.contains("to") || keys.contains("registration_ids")
    {
      return .skip("it is the legacy API's body, labelled as the form the page migrates from")
    }
    if sample.legacyCall {
      // The legacy API's body: legacy-http-body says what v1 wants instead.
      return .lint(linter.reading(.message, fragment: true, placeholders: .default))
    }
    if sample.language == .nodeLiteral, sample.restRequest {
      // Sent to FCM's endpoint as it is where the page says so; elsewhere a service adds the target.
      let request = linter.reading(.request, fragment: !(nearby || evidence.pageSendsToFCM), placeholders: .default)
      guard case .success(let document) = request.parse(bytes), case .fcm(.request) = DocumentClassifier.classify(document) else { return notMessage }
      if !nearby, let keys = SampleShape.messageKeys(document),
        let reason = SampleShape.reasonNotRequest(messageKeys: keys, vocabulary: vocabulary, foreignByValue: SampleShape.messageForeignByValue(document))
      {
        return .skip(reason)
      }
      return .lint(request)
    }
    if sample.language == .nodeLiteral {
      let node = linter.reading(.message, fragment: true, placeholders: .default)
      guard case .success(let document) = node.parse(bytes), case .fcm(.message) = DocumentClassifier.classify(document),
        let keys = TopLevelKeys.scan(bytes), keys.contains(where: vocabulary.messageFields.contains)
      else { return notMessage }
      return .lint(node)
    }
    switch sample.sns {
    case .fcmV1?: return .lint(linter.reading(.request, fragment: true))
    case .fcmLegacy?:
      return .skip("it is Amazon SNS's FCM payload in its legacy form, from which SNS builds the request to FCM (its fcmV1Message form is v1's own and is checked)")
    case .apns?: return .lint(linter.reading(.apns, fragment: true))
    case nil: break
    }
    if sample.inline {
      guard let keys = TopLevelKeys.scan(bytes), keys.contains("message") || keys.contains(where: vocabulary.messageFields.contains) else { return notMessage }
    }
    if linter.options.input != nil { return .lint(sample.wrapped ? linter.reading(linter.options.input, fragment: true, openRoot: true) : linter) }
    // A page's text is not a pipeline's payload: a block whose keys cannot be read is not a
    // sample (a file like it is linted, so that its syntax error is seen).
    guard let keys = TopLevelKeys.scan(bytes), !keys.isEmpty else { return .skip("it holds no JSON object whose keys can be read") }
    // An `aps` dictionary alone has keys the classifier takes for a misplaced Message's.
    if let part = part(keys) { return .lint(linter.reading(part, fragment: true)) }
    let verdict: DocumentClassifier.Verdict
    var shape: (keys: [String], holds: (String) -> [String]?)
    /// The sample as a tree, read past its syntax errors when it is a request that has to show
    /// what its `message` holds.
    var tree: JSONDocument? = nil
    switch linter.parse(bytes) {
    case .success(let document):
      if SampleShape.isExpoMessage(document) { return expoMessage }
      verdict = DocumentClassifier.classify(document)
      shape = SampleShape.keys(document) ?? (keys, { _ in nil })
      tree = document
    case .failure(let error):
      verdict = DocumentClassifier.classify(unparsed: bytes)
      shape = (keys, { _ in nil })
      if case .fcm(.request) = verdict, !nearby { tree = SyntaxRecovery.recover(bytes, first: error) { linter.parse($0) }.document }
    }
    if case .fcm(.request) = verdict, !nearby, let tree, let messageKeys = SampleShape.messageKeys(tree),
      let reason = SampleShape.reasonNotRequest(messageKeys: messageKeys, vocabulary: vocabulary, foreignByValue: SampleShape.messageForeignByValue(tree))
    {
      return .skip(reason)
    }
    switch verdict {
    case .fcm(.request) where !sample.wrapped && (nearby || evidence.pageSendsToFCM): return .lint(linter)
    case .fcm(.message) where !nearby:
      let values = tree.map { SampleShape.valueEvidence($0, vocabulary: vocabulary) } ?? (neutral: [], foreign: [])
      if !values.neutral.isEmpty, shape.keys.allSatisfy(values.neutral.contains) {
        return .skip("its only key, \"name\", is the one FCM fills in: a send's response, not a message")
      }
      if let reason = SampleShape.reasonNotMessage(
        keys: shape.keys.filter { !values.neutral.contains($0) }, holds: shape.holds, vocabulary: vocabulary, foreignByValue: values.foreign)
      {
        return .skip(reason)
      }
      return .lint(linter.reading(.message, fragment: true, openRoot: sample.wrapped))
    case .fcm(let kind): return .lint(linter.reading(kind, fragment: true, openRoot: sample.wrapped))
    case .other(let reason): return .skip(reason)
    }
  }

  /// `reading` of a sample that is linted, or nil.
  func linter(for sample: DocumentSample, bytes: [UInt8], evidence: SampleShape.Evidence) -> Linter? {
    if case .lint(let linter) = reading(sample, bytes: bytes, evidence: evidence) { return withPagePlaceholders(linter, text: bytes) }
    return nil
  }

  /// How a sample is read: linted by this linter, or skipped for this reason.
  enum Reading {
    case lint(Linter)
    case skip(String)
  }

  /// The part of a message a sample's top-level keys make, when the classifier finds none: an
  /// ApnsConfig alone (with a payload or headers), or an `aps` dictionary alone (with a key that
  /// tells one).
  func part(_ keys: [String]) -> InputKind? {
    guard !keys.isEmpty else { return nil }
    if keys.allSatisfy(vocabulary.apnsConfigFields.contains), keys.contains("payload") || keys.contains("headers") { return .apnsConfig }
    if keys.allSatisfy(vocabulary.apsKeys.contains), keys.contains(where: vocabulary.apsDictionaryKeys.contains) { return .aps }
    return nil
  }

  /// A sample's diagnostic at the page's own place; its fix too, when the sample's text is the
  /// page's (a Node.js literal's JSON is not; an elided sample is not fixed).
  func place(_ diagnostic: Diagnostic, of sample: DocumentSample, locator: SourceLocator) -> Diagnostic {
    var d = diagnostic
    let text = sample.text
    d.startOffset = text.origin(of: d.startOffset)
    d.endOffset = max(d.startOffset, text.origin(of: d.endOffset))
    d.start = locator.position(of: d.startOffset)
    d.end = locator.position(of: d.endOffset)
    if d.message.contains(" line ") {
      d.message = Self.pagePositions(in: d.message, of: text, locator: locator, syntax: d.pointer.isEmpty)
    }
    if let fix = d.fix {
      d.fix = documentEdits(fix.edits, of: sample).map { edits in
        Fix(description: fix.description, edits: edits.map { edit in
          var edit = edit
          edit.startPosition = locator.position(of: edit.start)
          edit.endPosition = locator.position(of: edit.end)
          return edit
        })
      }
    }
    return d
  }

  /// A syntax message names where an unclosed object or array was opened ("opened at line 1,
  /// column 1"), and a duplicate key the line of its first ("also on line 2"), in the sample's own
  /// lines; the reader has the page's, so the places are moved there. The last occurrence is the
  /// finding's own (a key's text comes before it).
  static func pagePositions(in message: String, of text: MappedText, locator: SourceLocator, syntax: Bool) -> String {
    var message = message
    for phrase in syntax ? ["opened at line "] : ["(also on line "] {
      guard let found = message.ranges(of: phrase).last else { continue }
      let rest = message[found.upperBound...]
      let lineDigits = rest.prefix { $0.isASCII && $0.isNumber }
      guard let line = Int(lineDigits) else { continue }
      var end = rest.dropFirst(lineDigits.count).startIndex
      var column: Int? = nil
      if syntax {
        let afterLine = message[end...]
        guard afterLine.hasPrefix(", column ") else { continue }
        let columnDigits = afterLine.dropFirst(", column ".count).prefix { $0.isASCII && $0.isNumber }
        guard let value = Int(columnDigits) else { continue }
        column = value
        end = columnDigits.endIndex
      }
      // The sample's offset of that position: positions grow with offsets, so a binary search.
      let sample = SourceLocator(bytes: text.bytes)
      let target = SourcePosition(line: line, column: column ?? 1)
      var lo = 0, hi = text.bytes.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if sample.position(of: mid) < target { lo = mid + 1 } else { hi = mid }
      }
      let page = locator.position(of: text.origin(of: lo))
      let place = column == nil ? "\(page.line)" : "\(page.line), column \(page.column)"
      message = String(message[..<found.upperBound]) + place + message[end...]
    }
    return message
  }

  /// The edits of a sample's text as edits of the page, or nil when they cannot be written there.
  func documentEdits(_ edits: [TextEdit], of sample: DocumentSample) -> [TextEdit]? {
    guard sample.language == .json, sample.elision == nil else { return nil }
    let count = sample.text.bytes.count
    let linted = Self.lintedText(sample)
    var placed: [TextEdit] = []
    for edit in edits {
      // A comment is the page's annotation, which no fix deletes.
      guard edit.start <= edit.end, edit.end <= count, !(edit.start..<edit.end).contains(where: { linted[$0] != sample.text.bytes[$0] }) else { return nil }
      // The braces put around a member alone are not the page's.
      if sample.wrapped && (edit.start < 1 || edit.end > count - 1) { return nil }
      var replacement = Array(edit.replacement.utf8)
      for step in sample.encoding { replacement = step.encode(replacement) }
      placed.append(TextEdit(start: sample.text.origin(of: edit.start), end: sample.text.origin(of: edit.end), replacement: String(decoding: replacement, as: UTF8.self)))
    }
    return placed
  }

  /// Fixes every sample that can be fixed, editing only its bytes of the page. Each sample is
  /// fixed as a file would be, and its edits are written into the page through the sample's map
  /// (last sample first, so earlier samples keep their places). The page is then searched again:
  /// a sample that does not read back exactly as fixed (an edit that changed how the page is
  /// read) has its fixes withdrawn, and the others are written again without it.
  /// The result is a file's (`passes` empty: the edits are the samples', not the page's).
  ///
  /// `checked` is the check of `original` when the caller made it (its samples are not searched
  /// for again); only the fixes of what `reported` keeps are applied. A UTF-16 page is fixed as
  /// UTF-8 and written back in UTF-16 (not at all when it does not decode exactly).
  public func fix(bytes original: [UInt8], file: String, format: DocumentFormat, checked: Outcome? = nil, reported: Fixer.Reported? = nil) -> Fixer.Result {
    guard let page = UTF16Page(original) else { return fix(text: original, file: file, format: format, checked: checked, reported: reported) }
    guard page.exact else {
      return Fixer.Result(
        bytes: original, fixed: 0, diagnostics: check(bytes: original, file: file, format: format).diagnostics,
        refused: ["the page is not valid UTF-16, so it cannot be written back as it was: its samples are not fixed"])
    }
    let result = fix(text: page.text, file: file, format: format, checked: nil, reported: reported)
    guard result.bytes != page.text else {
      return Fixer.Result(bytes: original, fixed: 0, diagnostics: result.diagnostics.map(page.placed), refused: result.refused)
    }
    let written = page.encode(result.bytes)
    return Fixer.Result(bytes: written, fixed: result.fixed, diagnostics: check(bytes: written, file: file, format: format).diagnostics, refused: result.refused)
  }

  /// `fix` of a UTF-8 page.
  func fix(text original: [UInt8], file: String, format: DocumentFormat, checked: Outcome?, reported: Fixer.Reported?) -> Fixer.Result {
    let samples = checked?.found ?? self.samples(inText: original, format: format)
    var plans: [(index: Int, result: Fixer.Result)] = []
    var refused: [String] = []
    let locator = SourceLocator(bytes: original, queries: samples.count)
    let sendsToFCM = SampleShape.sendsToFCM(original)
    let onlyHuawei = SampleShape.sendsOnlyToHuawei(original)
    let words = SampleShape.PageWords(original)
    for (index, sample) in samples.enumerated() {
      let text = Self.lintedText(sample)
      guard !sample.disabled, sample.language == .json, sample.elision == nil,
        let reader = linter(
          for: sample, bytes: text,
          evidence: SampleShape.Evidence(
            nearby: SampleShape.sayNearby(words, pageCount: original.count, sample: sample), pageSendsToFCM: sendsToFCM,
            huawei: SampleShape.huaweiNearby(words, pageCount: original.count, sample: sample, pageSendsOnlyToHuawei: onlyHuawei),
            expo: SampleShape.expoNearby(words, pageCount: original.count, sample: sample)))
      else { continue }
      let result = Fixer(linter: reader).fix(bytes: text, file: file, reported: reported)
      let line = locator.position(of: sample.start).line
      refused += result.refused.map { "sample at line \(line): \($0)" }
      if result.fixed > 0, result.bytes != text { plans.append((index, result)) }
    }
    if plans.isEmpty {
      return Fixer.Result(bytes: original, fixed: 0, diagnostics: (checked ?? check(samples, of: original, file: file)).diagnostics, refused: refused)
    }
    var withdrawn = Set<Int>()
    // Each round withdraws at least one sample; a page needing more than a few is left as it was.
    // Each sample's edits are written into its own region of the page, and the regions spliced in
    // once: the work follows the samples' sizes, not their number times the page's.
    var regions: [Int: (range: Range<Int>, bytes: [UInt8])] = [:]
    for (index, result) in plans {
      if let region = write(result.passes, of: samples[index], in: original) { regions[index] = region } else { withdrawn.insert(index) }
    }
    for _ in 0..<4 {
      var page: [UInt8] = []
      page.reserveCapacity(original.count)
      var position = 0
      var fixed = 0
      let inOrder = plans.filter { regions[$0.index] != nil }.sorted { regions[$0.index]!.range.lowerBound < regions[$1.index]!.range.lowerBound }
      for (index, result) in inOrder where !withdrawn.contains(index) {
        guard let region = regions[index], region.range.lowerBound >= position else {
          withdrawn.insert(index)
          continue
        }
        page += original[position..<region.range.lowerBound]
        page += region.bytes
        position = region.range.upperBound
        fixed += result.fixed
      }
      page += original[position...]
      let again = self.samples(inText: page, format: format)
      var mismatched = plans.filter { plan in
        !withdrawn.contains(plan.index) && (again.count != samples.count || Self.lintedText(again[plan.index]) != plan.result.bytes)
      }.map(\.index)
      // When the samples themselves changed, which one did it is not known: withdraw them all.
      if again.count != samples.count { mismatched = plans.map(\.index) }
      guard !mismatched.isEmpty else {
        for index in withdrawn.sorted() {
          refused.append("sample at line \(locator.position(of: samples[index].start).line): its fixes could not be written into the page, which keeps it as it was")
        }
        let diagnostics = fixed == 0 && page == original ? (checked ?? check(samples, of: original, file: file)).diagnostics : check(again, of: page, file: file).diagnostics
        return Fixer.Result(bytes: page, fixed: fixed, diagnostics: diagnostics, refused: refused)
      }
      withdrawn.formUnion(mismatched)
    }
    refused.append("the fixes of this page's samples could not be written into it: it is left as it was")
    return Fixer.Result(bytes: original, fixed: 0, diagnostics: (checked ?? check(samples, of: original, file: file)).diagnostics, refused: refused)
  }

  /// Replays a sample's fix passes on its region of the page through the sample's map, keeping
  /// the map up to date as text is replaced: the region (of `page`) and what it becomes, or nil
  /// when an edit cannot be placed.
  func write(_ passes: [[TextEdit]], of sample: DocumentSample, in document: [UInt8]) -> (range: Range<Int>, bytes: [UInt8])? {
    guard let low = sample.text.origins.min(), let high = sample.text.origins.max(), low <= high, high <= document.count else { return nil }
    var page = Array(document[low..<high])
    var text = MappedText(bytes: sample.text.bytes, origins: sample.text.origins.map { $0 - low })
    // The text as linted beside it: where the two differ is a comment, which no edit may touch.
    var linted = Self.lintedText(sample)
    for pass in passes {
      var previousStart = Int.max
      for edit in pass.sorted(by: { ($0.start, $0.end) > ($1.start, $1.end) }) {
        let count = text.bytes.count
        guard edit.start <= edit.end, edit.end <= count else { return nil }
        // The braces put around a member alone are not the page's.
        if sample.wrapped && (edit.start < 1 || edit.end > count - 1) { return nil }
        if (edit.start..<edit.end).contains(where: { linted[$0] != text.bytes[$0] }) { return nil }
        let start = text.origin(of: edit.start), end = text.origin(of: edit.end)
        guard start <= end, end <= previousStart, end <= page.count else { return nil }
        previousStart = start
        let inserted = Array(edit.replacement.utf8)
        guard start >= 0 else { return nil }
        let (written, offsets) = SampleEncoding.encode(inserted, through: sample.encoding)
        page.replaceSubrange(start..<end, with: written)
        let shift = written.count - (end - start)
        var origins = Array(text.origins[..<edit.start])
        origins += offsets.dropLast().map { start + $0 }
        origins += text.origins[edit.end...].map { $0 >= end ? $0 + shift : $0 }
        text = MappedText(bytes: Array(text.bytes[..<edit.start]) + inserted + Array(text.bytes[edit.end...]), origins: origins)
        linted = Array(linted[..<edit.start]) + inserted + Array(linted[edit.end...])
      }
    }
    return (low..<high, page)
  }
}
