import Dispatch
import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintFixes
import FCMLintDocs
import FCMLintJSON
import FCMLintSystem
import FCMLintWorkspace
import Synchronization

/// `fcmlint lsp`: a Language Server Protocol server over standard input and output.
///
/// Open documents are linted as the command line lints files, through the same `Workspace` and
/// `FileJob`: the nearest `.fcmlint.yml` and its `ignore:`, `overrides:` and `suppress:`, JSON
/// files and documentation pages (Markdown and HTML, text where the config's `docs:` says so),
/// from the editor's text, not the file on disk. Diagnostics go out with
/// `textDocument/publishDiagnostics` after open, change and save; a burst of changes is taken
/// whole before linting (each message read while more are waiting only marks its document).
/// Fixes are quick fixes, and "fix all" gives the edits `--fix` makes, each edit naming the
/// document version it was computed for; hover and completion read the FCM v1 schema
/// (`FieldCompletion`). Config files are watched (`client/registerCapability`, when the client
/// can register watchers; otherwise their modification times are compared on every open and
/// save), and a change re-lints every open document. Requests are answered in order on one
/// thread; before one is handled, the messages already waiting are read ahead, and a
/// `$/cancelRequest` among them for it makes its answer RequestCancelled, without its work.
public final class LanguageServer {
  private var reader: MessageReader
  private let writer: MessageWriter
  private let input: Int32
  /// Whether the process ends soon after the client closes `input` (see `exitWhenTheClientHangsUp`).
  private let endsWithItsClient: Bool
  private let version: String
  private let pack: @Sendable () throws(ConfigurationError) -> RuleSet
  private var initialized = false
  private var shutdownRequested = false

  private struct Document {
    var text: [UInt8]
    var version: Int?
    var dirty = true
    /// The diagnostics of the last lint of `text`.
    var diagnostics: [Diagnostic] = []
    var linter: Int? = nil
    /// Whether the last lint read it as an FCM JSON document (completion is offered only then).
    var isFCM = false
  }
  private var documents: [String: Document] = [:]
  private var workspace: Workspace? = nil
  /// The config's `suppress:` entries, as the command line applies them (no baseline here).
  private var waivers = Waivers(baseline: nil, recording: nil)
  private var configError: String? = nil
  /// What the client can do (from `initialize`).
  private var canRegisterWatchers = false
  private var relativePatterns = false
  private var versionedEdits = false
  /// Config files a watcher was registered for, and the registrations sent.
  private var watched: Set<String> = []
  private var registrations = 0
  /// Each config file read, as it was then (see `configsChanged`), and the config each open
  /// document's folder had.
  private var configStamps: [String: FileSystem.Stamp?] = [:]
  private var governingConfig: [String: String?] = [:]
  /// The FCM v1 schema, for hover on field names and values and for completion.
  private lazy var schema: Schema? = (try? RuleSet.loadSchemas(BuiltinRules.schemas))?.schemas.values.first
  /// Its descriptions, read on the first completion or hover that shows one.
  private lazy var descriptions: SchemaDescriptions? = BuiltinRules.schemaDescriptions.first.flatMap { SchemaDescriptions(json: $0.json) }

  /// A server answering as fcmlint `version`, with the built-in rules (and each config's own),
  /// on standard input and output; the process ends when its client hangs up.
  public convenience init(version: String) {
    self.init(version: version, input: 0, output: 1, endsWithItsClient: true)
  }

  /// A server reading `input` and writing `output` (file descriptors). With `endsWithItsClient`
  /// false the process is left alone when `input` closes, and `run` simply returns: for a host
  /// that runs servers in process (the fuzz target).
  public init(version: String, input: Int32, output: Int32, endsWithItsClient: Bool) {
    self.version = version
    pack = BuiltinPack.load
    self.input = input
    self.endsWithItsClient = endsWithItsClient
    reader = MessageReader(fd: input)
    writer = MessageWriter(fd: output)
  }

  /// A message as read from standard input: parsed (nil when it is not a JSON-RPC message),
  /// skipped, or the end of input.
  private enum Incoming {
    case message(RPCMessage?)
    case malformed(String)
    case end
  }
  /// Messages read ahead of the one being handled, in the order they came (see `readAhead`):
  /// `queue[queueStart...]`, taken from the front without moving the rest.
  private var queue: [Incoming] = []
  private var queueStart = 0
  /// The ids (as JSON text) that `$/cancelRequest`s read ahead name, each with how many: a cancel
  /// is found by its id, not by scanning the queue for every request.
  private var cancelled: [String: Int] = [:]

  private func nextQueued() -> Incoming? {
    guard queueStart < queue.count else { return nil }
    let next = queue[queueStart]
    queueStart += 1
    if queueStart == queue.count {
      queue.removeAll(keepingCapacity: true)
      queueStart = 0
    }
    return next
  }

  /// Whether `shutdown` was asked for, for the watch on the input (see `exitWhenTheClientHangsUp`).
  private static let shutDown = Atomic<Bool>(false)

  /// Serves until `exit` or the end of input; the process's exit status.
  public func run() -> Int32 {
    if endsWithItsClient { Self.exitWhenTheClientHangsUp(input) }
    while true {
      switch nextQueued() ?? read() {
      case .end:
        return shutdownRequested ? 0 : 1
      case .malformed(let why):
        log("fcmlint lsp: skipped \(why)")
      case .message(let message):
        if let status = handle(message) { return status }
      }
      if queueStart == queue.count && !reader.hasPendingInput() { flush() }
    }
  }

  /// A server must not outlive its client: once the client has closed the server's input, the
  /// process ends within a moment even while a lint is still running (a pathological document
  /// or config could otherwise keep a core busy long after the editor is gone). The main loop
  /// ends by itself when it reads the end of input; this watch is for when it is busy.
  private static func exitWhenTheClientHangsUp(_ input: Int32) {
    DispatchQueue.global().async {
      POSIX.waitForHangUp(input)
      // Time for the main loop to read what is left (the client's `exit`) and end as it should.
      POSIX.pause(seconds: 2)
      POSIX.exitNow(shutDown.load(ordering: .relaxed) ? 0 : 1)
    }
  }

  private func read() -> Incoming {
    switch reader.next() {
    case .message(let body): return .message(RPCMessage(body))
    case .malformed(let why): return .malformed(why)
    case .end: return .end
    }
  }

  /// Takes every message already waiting on standard input into `queue`, so a request can see a
  /// `$/cancelRequest` for it that came after it. Handling order does not change: `run` takes
  /// the queue first.
  private func readAhead() {
    while reader.hasPendingInput() {
      if queueStart < queue.count, case .end? = queue.last { return }
      let incoming = read()
      if case .message(let message?) = incoming, message.id == nil, message.method == "$/cancelRequest",
        let named = message.value("id"), message.document.kind(named) == .number || message.document.kind(named) == .string
      {
        cancelled[message.document.rawText(named), default: 0] += 1
      }
      queue.append(incoming)
    }
  }

  /// Whether a `$/cancelRequest` waiting in `queue` names the request `id` (the same JSON text:
  /// 7 and "7" are different ids). The cancel has then done its work; when its turn comes it is
  /// a notification like any other cancel of an answered request, and ignored.
  private func takeCancel(for id: String) -> Bool {
    guard let count = cancelled[id] else { return false }
    cancelled[id] = count > 1 ? count - 1 : nil
    return true
  }

  /// Handles one message; an exit status when it is `exit`.
  private func handle(_ message: RPCMessage?) -> Int32? {
    guard let message else {
      writer.send("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\(RPCError.parseError),\"message\":\"not a JSON-RPC message\"}}")
      return nil
    }
    guard let method = message.method else { return nil }  // a response to our registrations: nothing to do
    if method == "exit" { return shutdownRequested ? 0 : 1 }
    if let id = message.id {
      // A request cancelled before it is handled is answered without doing its work; a cancel
      // for a request already answered, or for no request, is a notification like any other.
      readAhead()
      if takeCancel(for: id) {
        writer.respond(id: id, errorCode: RPCError.requestCancelled, message: "the request was cancelled")
        return nil
      }
      if !initialized && method != "initialize" {
        writer.respond(id: id, errorCode: RPCError.serverNotInitialized, message: "the server is not initialized")
        return nil
      }
      if shutdownRequested {
        writer.respond(id: id, errorCode: RPCError.invalidRequestAfterShutdown, message: "the server is shutting down")
        return nil
      }
      switch method {
      case "initialize": initialize(id, message)
      case "shutdown":
        shutdownRequested = true
        Self.shutDown.store(true, ordering: .relaxed)
        writer.respond(id: id, result: "null")
      case "textDocument/codeAction": codeActions(id, message)
      case "textDocument/hover": hover(id, message)
      case "textDocument/completion": complete(id, message)
      default: writer.respond(id: id, errorCode: RPCError.methodNotFound, message: "method not found: \(method)")
      }
      return nil
    }
    guard initialized, !shutdownRequested else { return nil }
    switch method {
    case "initialized":
      watchConfigs()
    case "textDocument/didOpen":
      guard let uri = message.string("textDocument", "uri"), let text = message.string("textDocument", "text") else { return nil }
      documents[uri] = Document(text: Array(text.utf8), version: message.int("textDocument", "version"))
      if Self.isConfig(uri) || configsChanged(opening: uri) { resetConfigs() }
    case "textDocument/didChange":
      guard let uri = message.string("textDocument", "uri"), var document = documents[uri], let changes = message.value("contentChanges")
      else { return nil }
      for change in message.document.children(changes) {
        guard let textNode = message.document.member(change, "text"), let text = message.document.string(textNode) else { continue }
        if let range = message.document.member(change, "range"), let (start, end) = Self.byteRange(range, in: message.document, of: document.text) {
          document.text.replaceSubrange(start..<end, with: Array(text.utf8))
        } else {
          document.text = Array(text.utf8)
        }
      }
      document.version = message.int("textDocument", "version")
      document.dirty = true
      documents[uri] = document
    case "textDocument/didSave":
      guard let uri = message.string("textDocument", "uri") else { return nil }
      if Self.isConfig(uri) || configsChanged(opening: uri) { resetConfigs() }
      if let text = message.string("text") { documents[uri]?.text = Array(text.utf8) }
      documents[uri]?.dirty = true
    case "textDocument/didClose":
      guard let uri = message.string("textDocument", "uri") else { return nil }
      documents[uri] = nil
      publish(uri, [], version: nil)
    case "workspace/didChangeWatchedFiles":
      resetConfigs()
    case "$/cancelRequest":
      // Its turn came: a cancel its request did not take (that request was answered already)
      // is forgotten.
      if let named = message.value("id"), let count = cancelled[message.document.rawText(named)] {
        cancelled[message.document.rawText(named)] = count > 1 ? count - 1 : nil
      }
    default:
      break  // initialized, $/setTrace, and a $/cancelRequest for a request already answered
    }
    return nil
  }

  private func initialize(_ id: String, _ message: RPCMessage) {
    initialized = true
    func flag(_ node: NodeID?) -> Bool { node.map { message.document.kind($0) == .true } ?? false }
    canRegisterWatchers = flag(message.value("capabilities", "workspace", "didChangeWatchedFiles", "dynamicRegistration"))
    relativePatterns = flag(message.value("capabilities", "workspace", "didChangeWatchedFiles", "relativePatternSupport"))
    versionedEdits = flag(message.value("capabilities", "workspace", "workspaceEdit", "documentChanges"))
    writer.respond(id: id, result: """
      {"capabilities":{"positionEncoding":"utf-16","textDocumentSync":{"openClose":true,"change":2,"save":{"includeText":false}},\
      "codeActionProvider":{"codeActionKinds":["quickfix","source.fixAll.fcmlint"]},"hoverProvider":true,\
      "completionProvider":{"triggerCharacters":["\\"",":"]}},\
      "serverInfo":{"name":"fcmlint","version":\(JSONText.quote(version))}}
      """)
  }

  // MARK: - Linting

  private func resetConfigs() {
    workspace = nil
    waivers = Waivers(baseline: nil, recording: nil)
    configStamps = [:]
    governingConfig = [:]
    for uri in documents.keys { documents[uri]?.dirty = true }
  }

  /// The workspace of the server's working directory, read again after a config change.
  private func currentWorkspace() -> Workspace? {
    if let workspace { return workspace }
    do {
      // As `fcmlint` with no options lints a file; linters are freed when configs change.
      var settings = RunSettings()
      settings.offline = true
      workspace = try Workspace(settings: settings, pack: pack, keptUntilExit: false)
      configError = nil
    } catch {
      report(config: "\(error)")
    }
    return workspace
  }

  private func report(config message: String) {
    if configError != message {
      configError = message
      writer.notify("window/showMessage", "{\"type\":1,\"message\":\(JSONText.quote("fcmlint: " + message))}")
    }
  }

  /// Whether a config file changed since it was read, or the document `uri` now has another
  /// config than when it was last linted: the fallback for clients that do not watch files for
  /// the server, checked on every open and save.
  private func configsChanged(opening uri: String) -> Bool {
    for (file, stamp) in configStamps where FileSystem.stamp(file) != stamp { return true }
    let folder = Path.directory(of: Path.absolute(Self.path(of: uri)))
    var discovery = ConfigDiscovery()
    let now = discovery.configFile(governing: folder)
    if let before = governingConfig[folder], before != now { return true }
    governingConfig[folder] = now
    return false
  }

  /// Registers a watcher for every config file read so far that has none (and, the first time,
  /// for `.fcmlint.yml` files anywhere), when the client can.
  private func watchConfigs() {
    guard let workspace, initialized, canRegisterWatchers else { return }
    let files = workspace.configFiles
    let new = files.filter { !watched.contains($0) }
    guard registrations == 0 || !new.isEmpty else { return }
    var watchers: [String] = []
    if registrations == 0 { watchers.append("{\"globPattern\":\(JSONText.quote("**/" + Config.fileName))}") }
    for file in new {
      // An extended config can have any name and lie outside the workspace folder.
      let absolute = Path.absolute(file)
      if relativePatterns {
        let folder = Path.directory(of: absolute), name = String(absolute.dropFirst(folder.count == 1 ? 1 : folder.count + 1))
        watchers.append("{\"globPattern\":{\"baseUri\":\(JSONText.quote(Self.uri(ofPath: folder))),\"pattern\":\(JSONText.quote(name))}}")
      } else {
        watchers.append("{\"globPattern\":\(JSONText.quote(absolute))}")
      }
      watched.insert(file)
    }
    registrations += 1
    let id = "fcmlint-watch-\(registrations)"
    writer.send("""
      {"jsonrpc":"2.0","id":\(JSONText.quote(id)),"method":"client/registerCapability","params":{"registrations":[\
      {"id":\(JSONText.quote(id)),"method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[\(watchers.joined(separator: ","))]}}]}}
      """)
  }

  /// Lints every document changed since its last lint and publishes the results.
  private func flush() {
    for uri in documents.keys.sorted() where documents[uri]!.dirty { lint(uri) }
    watchConfigs()
  }

  private func lint(_ uri: String) {
    guard var document = documents[uri] else { return }
    document.dirty = false
    document.isFCM = false
    document.linter = nil
    defer { documents[uri] = document }
    guard let workspace = currentWorkspace() else {
      document.diagnostics = []
      return
    }
    let path = Self.path(of: uri)
    let job: FileJob
    do {
      job = try workspace.job(for: .buffer(name: path, bytes: document.text))
    } catch {
      report(config: "\(error)")
      document.diagnostics = []
      publish(uri, [], version: document.version)
      return
    }
    // The state of each config file as it was read, before anything is published from it, and
    // which config the document's folder had.
    for file in workspace.configFiles where configStamps[file] == nil { configStamps[file] = FileSystem.stamp(file) }
    let folder = Path.directory(of: Path.absolute(path))
    if governingConfig[folder] == nil {
      var discovery = ConfigDiscovery()
      governingConfig[folder] = .some(discovery.configFile(governing: folder))
    }
    // JSON files and pages; other text (a .ts file, say) is not this server's.
    guard job.format != nil || Self.isJSON(uri) else {
      document.diagnostics = []
      publish(uri, [], version: document.version)
      return
    }
    let result = job.run(.none, waivers: waivers)
    document.linter = job.linterIndex
    document.isFCM = result.read && job.format == nil
    document.diagnostics = result.diagnostics
    if let error = result.error {
      // Read in full, but over the limit its config sets: said where the text starts.
      let start = SourcePosition(line: 1, column: 1)
      document.diagnostics = [Diagnostic(
        file: path, rule: "", severity: .error, message: error.message, pointer: "", start: start, end: start, startOffset: 0, endOffset: 0,
        docs: "")]
    }
    publish(uri, document.diagnostics, version: document.version)
  }

  private func publish(_ uri: String, _ diagnostics: [Diagnostic], version: Int?) {
    let items = diagnostics.map(Self.lspDiagnostic).joined(separator: ",")
    let versionPart = version.map { ",\"version\":\($0)" } ?? ""
    writer.notify("textDocument/publishDiagnostics", "{\"uri\":\(JSONText.quote(uri))\(versionPart),\"diagnostics\":[\(items)]}")
  }

  static func lspDiagnostic(_ d: Diagnostic) -> String {
    let severity: Int
    switch d.severity {
    case .error: severity = 1
    case .warning: severity = 2
    case .info: severity = 3
    }
    // A finding names its rule; a file fcmlint could not lint (over its size limit) names none.
    var out = "{\"range\":\(range(d.start, d.end)),\"severity\":\(severity)" + (d.rule.isEmpty ? "" : ",\"code\":\(JSONText.quote(d.rule))") + ",\"source\":\"fcmlint\""
    // href is a URI: a page of the rule's repository, named by its path, is named in the hover instead.
    if Rule.isWebAddress(d.docs) { out += ",\"codeDescription\":{\"href\":\(JSONText.quote(d.docs))}" }
    out += ",\"message\":\(JSONText.quote(d.message)),\"data\":{\"pointer\":\(JSONText.quote(d.pointer))}}"
    return out
  }

  /// An LSP range from 1-based line and UTF-16 column positions.
  static func range(_ start: SourcePosition, _ end: SourcePosition) -> String {
    "{\"start\":{\"line\":\(start.line - 1),\"character\":\(start.column - 1)},\"end\":{\"line\":\(end.line - 1),\"character\":\(end.column - 1)}}"
  }

  // MARK: - Code actions and hover

  private func current(_ uri: String) -> Document? {
    if documents[uri]?.dirty == true { lint(uri) }
    return documents[uri]
  }

  private func codeActions(_ id: String, _ message: RPCMessage) {
    guard let uri = message.string("textDocument", "uri"), let document = current(uri) else {
      writer.respond(id: id, result: "[]")
      return
    }
    let locator = SourceLocator(bytes: document.text)
    var wanted: Range<Int>? = nil
    if let range = message.value("range"), let (start, end) = Self.byteRange(range, in: message.document, of: document.text) { wanted = start..<end }
    var only: [String] = []
    if let kinds = message.value("context", "only") { only = message.document.children(kinds).compactMap(message.document.string) }
    func allowed(_ kind: String) -> Bool { only.isEmpty || only.contains { kind == $0 || kind.hasPrefix($0 + ".") } }
    var actions: [String] = []
    if allowed("quickfix") {
      for d in document.diagnostics {
        guard let fix = d.fix else { continue }
        if let wanted, !(d.startOffset <= wanted.upperBound && wanted.lowerBound <= d.endOffset) { continue }
        let edits = fix.edits.map { "{\"range\":\(Self.range(locator.position(of: $0.start), locator.position(of: $0.end))),\"newText\":\(JSONText.quote($0.replacement))}" }
        actions.append(
          "{\"title\":\(JSONText.quote(fix.description + " (" + d.rule + ")")),\"kind\":\"quickfix\",\"diagnostics\":[\(Self.lspDiagnostic(d))],"
            + "\"edit\":\(workspaceEdit(uri, document, edits))}")
      }
    }
    if allowed("source.fixAll.fcmlint"), document.diagnostics.contains(where: { $0.fix != nil }), let workspace,
      let job = try? workspace.job(for: .buffer(name: Self.path(of: uri), bytes: document.text))
    {
      let fixed = job.run(.write, waivers: Waivers(baseline: nil, recording: nil)).fixedBytes ?? document.text
      if fixed != document.text, let edit = Self.minimalEdit(from: document.text, to: fixed, locator: locator) {
        actions.append("{\"title\":\"Fix all fcmlint problems\",\"kind\":\"source.fixAll.fcmlint\",\"edit\":\(workspaceEdit(uri, document, [edit]))}")
      }
    }
    writer.respond(id: id, result: "[" + actions.joined(separator: ",") + "]")
  }

  /// A WorkspaceEdit of `edits` to the document: as a TextDocumentEdit naming the version its
  /// text had, when the client takes those (it then refuses the edit for a text it no longer
  /// has), else as plain changes.
  private func workspaceEdit(_ uri: String, _ document: Document, _ edits: [String]) -> String {
    if versionedEdits {
      let version = document.version.map(String.init) ?? "null"
      return "{\"documentChanges\":[{\"textDocument\":{\"uri\":\(JSONText.quote(uri)),\"version\":\(version)},\"edits\":[\(edits.joined(separator: ","))]}]}"
    }
    return "{\"changes\":{\(JSONText.quote(uri)):[\(edits.joined(separator: ","))]}}"
  }

  /// One edit from `old` to `new`: what lies between their common start and common end (cut at
  /// whole characters).
  static func minimalEdit(from old: [UInt8], to new: [UInt8], locator: SourceLocator) -> String? {
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
    while prefix > 0 && (old.indices.contains(prefix) && old[prefix] & 0xC0 == 0x80) { prefix -= 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
    while suffix > 0 && old[old.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
    guard let text = String(validating: new[prefix..<(new.count - suffix)], as: UTF8.self) else { return nil }
    return "{\"range\":\(range(locator.position(of: prefix), locator.position(of: old.count - suffix))),\"newText\":\(JSONText.quote(text))}"
  }

  private func hover(_ id: String, _ message: RPCMessage) {
    guard let uri = message.string("textDocument", "uri"), let document = current(uri),
      let line = message.int("position", "line"), let character = message.int("position", "character"),
      let offset = Self.byteOffset(line: line, character: character, in: document.text)
    else {
      writer.respond(id: id, result: "null")
      return
    }
    var parts: [String] = []
    let rules = document.linter.flatMap { index in workspace?.linters[index] }
    for d in document.diagnostics where d.startOffset <= offset && offset <= max(d.endOffset, d.startOffset + 1) {
      let summary = rules?.activeRules.first { $0.id == d.rule }?.summary ?? ""
      let docs = Rule.isWebAddress(d.docs) || d.docs.isEmpty
        ? "[\(d.rule) docs](\(d.docs))" : "Docs: `\(d.docs)` in the rule's repository; `fcmlint explain \(d.rule)`"
      parts.append("**\(d.rule)** (\(d.severity.rawValue)): \(summary.isEmpty ? d.message : summary)\n\n\(docs)")
    }
    // Read as the linter reads it (a bare Message under its mount, past syntax errors), so a
    // buffer being typed still gets the field's description; other JSON gets its pointer.
    let parsed: JSONDocument?
    if document.isFCM, let linter = rules {
      parsed = FieldCompletion.parse(document.text, around: offset, linter: linter)
    } else if Self.isJSON(uri) {
      parsed = try? JSONParser.parse(document.text).get()
    } else {
      parsed = nil  // a page: its samples' diagnostics only
    }
    if let parsed, let node = Self.innermost(parsed, at: offset) {
      if let schema, let field = Self.fieldDescription(parsed, node, schema: schema, descriptions: descriptions) { parts.append(field) }
      var maker = JSONDocument.PointerMaker(parsed)
      let pointer = maker.pointer(node)
      parts.append("JSON Pointer: `\(pointer.isEmpty ? "\"\"" : pointer)`")
    }
    guard !parts.isEmpty else {
      writer.respond(id: id, result: "null")
      return
    }
    writer.respond(id: id, result: "{\"contents\":{\"kind\":\"markdown\",\"value\":\(JSONText.quote(parts.joined(separator: "\n\n---\n\n")))}}")
  }

  /// What the FCM v1 schema says of the field `node` is (or is in): its name in both spellings,
  /// its type, the values of an enum, and the message type it belongs to; then the discovery
  /// document's description of it.
  static func fieldDescription(_ document: JSONDocument, _ node: NodeID, schema: Schema, descriptions: SchemaDescriptions? = nil) -> String? {
    guard let place = SchemaPlace(node, in: document, schema: schema), let field = place.field, let owner = place.owner else { return nil }
    let line = SchemaPlace.describe(field, owner: owner.name)
    guard let text = descriptions?.field(owner.name, field.json) else { return line }
    return line + "\n\n" + text
  }

  /// Field names and enum values from the FCM v1 schema at the cursor (see `FieldCompletion`);
  /// none in a document that is not an FCM document, and `[]` when nothing fits.
  private func complete(_ id: String, _ message: RPCMessage) {
    guard let uri = message.string("textDocument", "uri"), let document = current(uri), document.isFCM,
      let index = document.linter, let workspace, let schema,
      let line = message.int("position", "line"), let character = message.int("position", "character"),
      let offset = Self.byteOffset(line: line, character: character, in: document.text)
    else {
      writer.respond(id: id, result: "[]")
      return
    }
    let completion = FieldCompletion(schema: schema, descriptions: descriptions)
    let items = completion.items(document.text, at: offset, linter: workspace.linters[index])
    writer.respond(id: id, result: "[" + items.joined(separator: ",") + "]")
  }

  /// The deepest node whose key or value holds `offset`.
  static func innermost(_ document: JSONDocument, at offset: Int) -> NodeID? {
    var node = JSONDocument.root
    guard Int(document[node].start) <= offset && offset <= Int(document[node].end) else { return nil }
    descend: while true {
      for child in document.children(node) {
        let n = document[child]
        let from = n.keyStart >= 0 ? Int(n.keyStart) : Int(n.start)
        if from <= offset && offset < Int(n.end) {
          node = child
          continue descend
        }
      }
      return node
    }
  }

  // MARK: - Positions and URIs

  /// The byte offset of an LSP position (line, UTF-16 character); nil past the end.
  static func byteOffset(line: Int, character: Int, in text: [UInt8]) -> Int? {
    guard line >= 0, character >= 0 else { return nil }
    var i = 0, currentLine = 0
    while currentLine < line {
      guard let newline = text[i...].firstIndex(where: { $0 == 10 || $0 == 13 }) else { return nil }
      i = newline + (text[newline] == 13 && newline + 1 < text.count && text[newline + 1] == 10 ? 2 : 1)
      currentLine += 1
    }
    var units = 0
    while i < text.count, text[i] != 10, text[i] != 13, units < character {
      let b = text[i]
      let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
      units += length == 4 ? 2 : 1
      i = min(text.count, i + length)
    }
    return i
  }

  static func byteRange(_ range: NodeID, in document: JSONDocument, of text: [UInt8]) -> (Int, Int)? {
    func position(_ name: String) -> Int? {
      guard let p = document.member(range, name), let l = document.member(p, "line"), let c = document.member(p, "character"),
        let line = Int(document.rawText(l)), let character = Int(document.rawText(c))
      else { return nil }
      return byteOffset(line: line, character: character, in: text) ?? text.count
    }
    guard let start = position("start"), let end = position("end"), start <= end else { return nil }
    return (start, end)
  }

  static func isJSON(_ uri: String) -> Bool {
    let lower = uri.lowercased()
    return lower.hasSuffix(".json") || lower.hasPrefix("untitled:")
  }

  static func isConfig(_ uri: String) -> Bool { uri.hasSuffix("/" + Config.fileName) }

  /// The `file://` URI of an absolute path: its bytes (`FileName`), percent-encoded where a URI
  /// needs it.
  static func uri(ofPath path: String) -> String {
    var out = "file://"
    for byte in FileName.bytes(path) {
      let safe = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "/-._~".utf8.contains(byte)
      if safe {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let digits = Array("0123456789ABCDEF".utf8)
        out += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
      }
    }
    return out
  }

  /// The file path of a `file://` URI (percent-decoded into bytes, which `FileName` reads, so a
  /// name that is not UTF-8 keeps them); other schemes are linted as if in the working
  /// directory, under their last path segment.
  static func path(of uri: String) -> String {
    guard uri.hasPrefix("file://") else {
      let name = uri.split(separator: "/").last.map(String.init) ?? "untitled.json"
      return name.lowercased().hasSuffix(".json") ? name : name + ".json"
    }
    var bytes: [UInt8] = []
    let raw = Array(uri.utf8.dropFirst(7))
    var i = 0
    while i < raw.count {
      if raw[i] == UInt8(ascii: "%"), i + 2 < raw.count, let value = UInt8(String(decoding: raw[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
        bytes.append(value)
        i += 3
      } else {
        bytes.append(raw[i])
        i += 1
      }
    }
    var path = FileName.decode(bytes)
    // file://host/path: only the local host is a path here.
    if !path.hasPrefix("/"), let slash = path.firstIndex(of: "/") { path = String(path[slash...]) }
    return path
  }

  private func log(_ text: String) {
    writer.notify("window/logMessage", "{\"type\":4,\"message\":\(JSONText.quote(text))}")
  }
}

