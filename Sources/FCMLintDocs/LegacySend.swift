import FCMLintJSON

/// The Admin SDK's legacy calls, `sendToDevice(tokens, payload, options)`, `sendToDeviceGroup`,
/// `sendToTopic` and `sendToCondition`: they posted the legacy HTTP API's flat body, the
/// payload's `notification` and `data` beside the target (`to`, or `condition`) and the options
/// in snake case (`contentAvailable` as `content_available`), to the API shut down in 2024. The
/// payload (a literal in the call, or one assigned to the name the call is given) is read as that
/// body, so that `legacy-http-body` reports it with what v1 wants.
enum LegacySend {
  static let calls: [(name: String, target: String)] = [
    ("sendToDeviceGroup(", "to"), ("sendToDevice(", "to"), ("sendToTopic(", "to"), ("sendToCondition(", "condition"),
  ]

  /// The legacy options the SDK renamed, by their SDK names.
  static let options: [String: String] = [
    "contentAvailable": "content_available", "mutableContent": "mutable_content", "timeToLive": "time_to_live",
    "collapseKey": "collapse_key", "dryRun": "dry_run", "restrictedPackageName": "restricted_package_name", "priority": "priority",
  ]

  /// How far before the call an assigned payload or options object is looked for.
  static let reach = 4000

  /// Reads a legacy call that starts on `line`; the offset past the call, or nil for none.
  static func scan(_ view: TextView, line: Range<Int>, limit: Int, blockStart: Int?, into found: inout SampleFinder.Found) -> Int? {
    guard let (call, target) = calls.lazy.compactMap({ c in view.find(c.name, in: line).map { ($0 + c.name.utf8.count, c.target) } }).first
    else { return nil }
    guard let first = argument(view, from: call, limit: limit), let second = argument(view, from: first.next, limit: limit),
      let (payloadStart, payload) = literal(view, second.range, before: line.lowerBound, encoding: found.nodeEncoding)
    else { return nil }
    var members: [(key: String, value: MappedText)] = []
    let targetRange = first.range
    var targetValue = MappedText(bytes: [], origins: [view.origin(targetRange.lowerBound)])
    targetValue.append(Array("\"{{target}}\"".utf8), standingFor: view.origin(targetRange.lowerBound)..<view.origin(targetRange.upperBound))
    members.append((target, targetValue))
    if !second.last, let third = argument(view, from: second.next, limit: limit),
      let (_, options) = literal(view, third.range, before: line.lowerBound, encoding: found.nodeEncoding),
      case .success(let document) = JSONParser.parse(options.bytes)
    {
      for child in document.children(JSONDocument.root) {
        guard let key = document.key(child), let wire = Self.options[key] else { continue }
        let node = document.nodes[Int(child)]
        var value = MappedText(bytes: [], origins: [options.origin(of: Int(node.start))])
        for i in Int(node.start)..<Int(node.end) { value.append(options.bytes[i], from: options.origins[i]) }
        members.append((wire, value))
      }
    }
    // The body: the payload's members, then the target and the options.
    guard let close = payload.bytes.lastIndex(of: UInt8(ascii: "}")) else { return nil }
    var text = MappedText(bytes: [], origins: [payload.origins[0]])
    for i in 0..<close { text.append(payload.bytes[i], from: payload.origins[i]) }
    var empty = TopLevelKeys.scan(payload.bytes)?.isEmpty ?? true
    for (key, value) in members {
      let at = value.origins[0]
      text.append(Array(((empty ? "" : ", ") + "\"\(key)\": ").utf8), standingFor: at..<at)
      for i in 0..<value.bytes.count { text.append(value.bytes[i], from: value.origins[i]) }
      empty = false
    }
    text.append(UInt8(ascii: "}"), from: payload.origins[close])
    text.origins[text.origins.count - 1] = payload.origins[payload.bytes.count]
    let block = blockStart ?? view.origin(payloadStart)
    if blockStart == nil { found.blockStarts.append(block) }
    // The payload literal is this body, not an Admin SDK message of its own.
    found.samples.removeAll { $0.language == .nodeLiteral && $0.start == payload.origins[0] }
    var sample = DocumentSample(text: text, language: .nodeLiteral, encoding: [], blockStart: block)
    sample.legacyCall = true
    found.samples.append(sample)
    // Past the call's last argument.
    var last = second
    while !last.last, let next = argument(view, from: last.next, limit: limit) { last = next }
    return last.next
  }

  /// The argument that starts at or after `from` (blanks and comments skipped): its range, where
  /// the next one starts, and whether the call closes after it.
  static func argument(_ view: TextView, from: Int, limit: Int) -> (range: Range<Int>, next: Int, last: Bool)? {
    // A call that does not close is not read to the page's end from each line.
    let limit = min(limit, from + reach * 4)
    var i = skip(view, from: from, limit: limit)
    let start = i
    var depth = 0
    while i < limit {
      let byte = view[i]
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        if depth == 0 {
          guard byte == UInt8(ascii: ")"), i > start else { return nil }
          return (start..<trimmed(view, start, i), i + 1, true)
        }
        depth -= 1
      case UInt8(ascii: ","):
        if depth == 0 { return (start..<trimmed(view, start, i), i + 1, false) }
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
        var j = i + 1
        while j < limit, view[j] != byte { j += view[j] == UInt8(ascii: "\\") ? 2 : 1 }
        i = j
      case UInt8(ascii: "/") where i + 1 < limit && view[i + 1] == UInt8(ascii: "/"):
        i = view.lineEnd(from: i) - 1
      default: break
      }
      i += 1
    }
    return nil
  }

  /// Past blanks, line breaks and comments.
  static func skip(_ view: TextView, from: Int, limit: Int) -> Int {
    var i = from
    while i < limit {
      if JSONContent.isWhitespace(view[i]) {
        i += 1
      } else if view[i] == UInt8(ascii: "/"), i + 1 < limit, view[i + 1] == UInt8(ascii: "/") {
        i = view.nextLine(from: i)
      } else if view[i] == UInt8(ascii: "/"), i + 1 < limit, view[i + 1] == UInt8(ascii: "*") {
        i = (view.find("*/", in: (i + 2)..<limit) ?? limit) + 2
      } else {
        break
      }
    }
    return min(i, limit)
  }

  static func trimmed(_ view: TextView, _ start: Int, _ end: Int) -> Int {
    var e = end
    while e > start, JSONContent.isWhitespace(view[e - 1]) { e -= 1 }
    return e
  }

  /// The object an argument is: a literal, or one assigned above the call to the name it is
  /// (`const payload = {...}`), read as JavaScript writes it.
  static func literal(_ view: TextView, _ range: Range<Int>, before: Int, encoding: NodeMessageLiteral.Encoding) -> (Int, MappedText)? {
    guard !range.isEmpty else { return nil }
    var start = range.lowerBound
    if view[start] != UInt8(ascii: "{") {
      let name = Array(view.bytes[range])
      guard name.allSatisfy({ $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "$") || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z")) || ($0 >= 0x30 && $0 <= 0x39) })
      else { return nil }
      guard let assigned = assignment(view, name: name, before: before) else { return nil }
      start = assigned
    }
    let within = min(view.count, start + NodeMessageLiteral.longestLiteral)
    guard let (json, _) = NodeMessageLiteral.read(view.bytes, from: start, as: .free, encoding: encoding, limit: within) else { return nil }
    let origins = json.origins.map { view.origin(min($0, view.count)) }
    return (start, MappedText(bytes: json.bytes, origins: origins))
  }

  /// The `{` of the last `name = {` (or `name: Type = {`) before `before`, within `reach`.
  static func assignment(_ view: TextView, name: [UInt8], before: Int) -> Int? {
    let from = max(0, before - reach)
    var best: Int? = nil
    var i = from
    let needle = String(decoding: name, as: UTF8.self)
    while let at = view.find(needle, in: i..<before) {
      i = at + 1
      let boundary = at == 0 || !isIdentifier(view[at - 1])
      let afterName = at + name.count
      guard boundary, afterName < view.count, !isIdentifier(view[afterName]) else { continue }
      let lineEnd = view.lineEnd(from: at)
      guard let equals = view.find("=", in: afterName..<lineEnd), equals + 1 < view.count, view[equals + 1] != UInt8(ascii: "=") else { continue }
      let brace = view.skipBlanks(from: equals + 1, to: lineEnd)
      if brace < lineEnd, view[brace] == UInt8(ascii: "{") { best = brace }
    }
    return best
  }

  static func isIdentifier(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
  }
}
