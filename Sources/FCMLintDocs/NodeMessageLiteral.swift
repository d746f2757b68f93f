import FCMLintEngine

/// A message of the Node.js Admin SDK written in a documentation sample as a JavaScript or
/// TypeScript object literal (`const message = { notification: { imageUrl: '...' }, ... }`),
/// read as the JSON the SDK sends for it, so that the rules check what FCM receives and their
/// diagnostics land on the sample's own bytes.
///
/// Two steps: `LiteralParser` reads the JavaScript syntax into a tree (no recursion, nesting
/// capped), then `WireWriter` writes the tree as JSON through the SDK's encoding, which is data:
/// `NodeMessageLiteral.fields`, per object of the message the keys the encoder renames and the
/// values it converts. The encoding is the one of `validateMessage` and the functions it calls in
/// firebase-admin-node's src/messaging/messaging-internal.ts (types in messaging-api.ts,
/// durations from `transformMillisecondsToSecondsString` in src/utils/index.ts), at commit
/// 5a203f67 (release 14.3.0).
///
/// What JavaScript cannot tell before it runs becomes a template placeholder: an identifier
/// (`topic: topicName`), a call, `new Date()`, a shorthand property (`{ token }`) is written as
/// `{{topicName}}`, which the linter reads as a value not known yet. Arithmetic of number
/// literals (`3600 * 1000`) is evaluated.
public enum NodeMessageLiteral {
  /// Reads the JavaScript/TypeScript object literal that starts at `start` (a `{`) in `source`,
  /// as the Node.js Admin SDK would send it: the JSON text of its wire form, each byte mapped to
  /// the source, and the offset just past the literal's closing `}`. nil when the text there is
  /// not an object literal (unbalanced, not JS-like).
  ///
  /// Every output byte maps to the source byte it came from: an added quote or a renamed key to
  /// the key's first byte, a converted value (a ttl written as a duration) to the value's first
  /// byte, an escape re-encoded to the escape's start. A space after each key and value maps to
  /// the source offset just past it, so the end of a range maps to the end of the source token.
  public static func read(_ source: [UInt8], from start: Int) -> (json: MappedText, end: Int)? {
    read(source, from: start, as: .message)
  }

  /// `read` with the literal taken as the object `shape` of a message; `.free` reads it as plain
  /// JavaScript, without the SDK's encoding.
  static func read(_ source: [UInt8], from start: Int, as shape: Shape) -> (json: MappedText, end: Int)? {
    var parser = LiteralParser(source: source)
    guard let (root, end) = parser.parse(from: start) else { return nil }
    var writer = WireWriter(source: source, tree: parser.tree)
    writer.write(root, shape: shape)
    return (writer.out, end)
  }

  /// Object literals nested deeper than this are not read (the parser keeps its own stack, so
  /// this bounds memory and work, not recursion).
  public static let maxDepth = 512

  // MARK: The SDK's encoding

  /// The objects of a message whose keys or values the SDK's encoder changes. Everything else
  /// (data, headers, webpush, the fcmOptions of the message and of android, apns.payload beside
  /// aps) is sent as given: `.free`.
  enum Shape: Sendable {
    case free, message, notification, android, androidNotification, lightSettings
    case apns, apnsPayload, aps, apsAlert, criticalSound, apnsFcmOptions
  }

  /// A value conversion of the encoder. A value of another type than the one converted is sent
  /// as given (the SDK would throw; the rules report it on the wire form).
  enum Conversion: Sendable, Equatable {
    case none
    /// `topic`: a leading "/topics/" removed (validateMessage).
    case topicName
    /// A number of milliseconds as a duration string, "3.500000000s" or "5s"
    /// (transformMillisecondsToSecondsString).
    case durationMillis
    /// An array of numbers of milliseconds, each as a duration string (vibrateTimingsMillis).
    case durationsMillis
    /// android.notification.priority: 'PRIORITY_' + the value upper-cased.
    case notificationPriority
    /// visibility, proxy: upper-cased.
    case upperCase
    /// contentAvailable, mutableContent, critical: true is sent as 1, false is dropped.
    case oneForTrue
    /// lightSettings.color '#RRGGBB' or '#RRGGBBAA' as {red, green, blue, alpha} in 0...1.
    case lightColor
    /// eventTimestamp: a `Date` as its toISOString() ("2019-10-20T18:30:00.000Z").
    case isoDate
  }

  /// What the encoder does with one key of an object: the wire name it renames the key to, the
  /// conversion of its value, and the shape of its value when that is an object.
  struct Field: Sendable {
    var wire: String? = nil
    var conversion: Conversion = .none
    var shape: Shape = .free
  }

  /// The encoder as a table: per object of a message, the keys it renames or converts or
  /// descends into (messaging-internal.ts: validateMessage, validateNotification,
  /// validateAndroidConfig, validateAndroidNotification, validateLightSettings,
  /// validateApnsConfig, validateApnsPayload, validateAps, validateApsAlert, validateApsSound,
  /// validateApnsFcmOptions). Keys already in wire form are not listed: they pass unchanged and
  /// the SDK does not look into them, except the aps flags it converts under either name.
  static let fields: [Shape: [String: Field]] = {
    func renames(_ pairs: [(String, String)]) -> [String: Field] {
      var fields: [String: Field] = [:]
      for (key, wire) in pairs { fields[key] = Field(wire: wire) }
      return fields
    }
    var android = renames([
      ("collapseKey", "collapse_key"), ("restrictedPackageName", "restricted_package_name"), ("directBootOk", "direct_boot_ok"),
      ("bandwidthConstrainedOk", "bandwidth_constrained_ok"), ("restrictedSatelliteOk", "restricted_satellite_ok"),
    ])
    android["ttl"] = Field(conversion: .durationMillis)
    android["notification"] = Field(shape: .androidNotification)
    var androidNotification = renames([
      ("clickAction", "click_action"), ("bodyLocKey", "body_loc_key"), ("bodyLocArgs", "body_loc_args"),
      ("titleLocKey", "title_loc_key"), ("titleLocArgs", "title_loc_args"), ("channelId", "channel_id"), ("imageUrl", "image"),
      ("localOnly", "local_only"), ("defaultVibrateTimings", "default_vibrate_timings"), ("defaultSound", "default_sound"),
      ("defaultLightSettings", "default_light_settings"), ("notificationCount", "notification_count"),
    ])
    androidNotification["eventTimestamp"] = Field(wire: "event_time", conversion: .isoDate)
    androidNotification["priority"] = Field(wire: "notification_priority", conversion: .notificationPriority)
    androidNotification["vibrateTimingsMillis"] = Field(wire: "vibrate_timings", conversion: .durationsMillis)
    androidNotification["lightSettings"] = Field(wire: "light_settings", shape: .lightSettings)
    androidNotification["visibility"] = Field(conversion: .upperCase)
    androidNotification["proxy"] = Field(conversion: .upperCase)
    return [
      .message: [
        "topic": Field(conversion: .topicName), "notification": Field(shape: .notification), "android": Field(shape: .android),
        "apns": Field(shape: .apns),
      ],
      .notification: renames([("imageUrl", "image")]),
      .android: android,
      .androidNotification: androidNotification,
      .lightSettings: [
        "color": Field(conversion: .lightColor),
        "lightOnDurationMillis": Field(wire: "light_on_duration", conversion: .durationMillis),
        "lightOffDurationMillis": Field(wire: "light_off_duration", conversion: .durationMillis),
      ],
      .apns: [
        "liveActivityToken": Field(wire: "live_activity_token"), "payload": Field(shape: .apnsPayload),
        "fcmOptions": Field(shape: .apnsFcmOptions),
      ],
      .apnsPayload: ["aps": Field(shape: .aps)],
      .aps: [
        "alert": Field(shape: .apsAlert), "sound": Field(shape: .criticalSound),
        "contentAvailable": Field(wire: "content-available", conversion: .oneForTrue),
        "content-available": Field(conversion: .oneForTrue),
        "mutableContent": Field(wire: "mutable-content", conversion: .oneForTrue),
        "mutable-content": Field(conversion: .oneForTrue),
        "threadId": Field(wire: "thread-id"),
      ],
      .apsAlert: renames([
        ("locKey", "loc-key"), ("locArgs", "loc-args"), ("titleLocKey", "title-loc-key"), ("titleLocArgs", "title-loc-args"),
        ("subtitleLocKey", "subtitle-loc-key"), ("subtitleLocArgs", "subtitle-loc-args"), ("actionLocKey", "action-loc-key"),
        ("launchImage", "launch-image"),
      ]),
      .criticalSound: ["critical": Field(conversion: .oneForTrue)],
      .apnsFcmOptions: renames([("imageUrl", "image")]),
    ]
  }()
}

// MARK: - The literal's tree

/// A JavaScript object literal as values: strings decoded (each byte with its source offset),
/// numbers with their value, everything else a placeholder.
struct LiteralTree {
  enum Kind: UInt8 {
    case object, array, string, number, boolTrue, boolFalse, null, undefined, placeholder
    /// An array hole (`[1, , 2]`), sent as null.
    case hole
  }

  struct Node {
    var kind: Kind
    /// The value's source bytes (a string with its quotes, a container with its brackets).
    var range: Range<Int>
    /// An object's `members` or an array's `elements`.
    var children: Range<Int> = 0..<0
    /// A string's decoded content or a placeholder's `{{...}}` text, each byte with its origin.
    var text = MappedText()
    var number: Double? = nil
    /// Whether a number's source text is a JSON number, copied as written.
    var isJSONNumber = false
  }

  struct Member {
    /// The decoded key, each byte with its origin.
    var key: MappedText
    /// The key's source bytes, quotes included.
    var keyRange: Range<Int>
    var quoted: Bool
    /// The `:` (the key's start for a shorthand property).
    var colon: Int
    /// The `,` after the member, if any.
    var comma: Int?
    var value: Int
  }

  struct Element {
    var value: Int
    var comma: Int?
  }

  var nodes: [Node] = []
  var members: [Member] = []
  var elements: [Element] = []
}

// MARK: - Reading JavaScript

/// Reads a JavaScript/TypeScript object literal into a `LiteralTree` with an explicit stack.
struct LiteralParser {
  let source: [UInt8]
  var tree = LiteralTree()

  init(source: [UInt8]) { self.source = source }

  /// An object or array being read.
  private struct Frame {
    var isObject: Bool
    var node: Int
    /// After `{`, `[` or `,`: an item may come; after an item, only `,` or the closer.
    var expectsItem = true
    var members: [LiteralTree.Member] = []
    var elements: [LiteralTree.Element] = []
    /// An object's member whose value is being read.
    var pendingKey: LiteralTree.Member? = nil
  }

  /// The root node and the offset past the literal, or nil.
  mutating func parse(from start: Int) -> (Int, Int)? {
    guard start >= 0, start < source.count, source[start] == UInt8(ascii: "{") else { return nil }
    var stack: [Frame] = []
    stack.append(open(isObject: true, at: start))
    var i = start + 1
    while true {
      guard let next = skipTrivia(i), next < source.count else { return nil }
      i = next
      let c = source[i]
      let top = stack.count - 1
      let closer = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
      if c == closer {
        // Close the container and hand it to its parent as a value.
        let frame = stack.removeLast()
        let node = frame.node
        tree.nodes[node].range = tree.nodes[node].range.lowerBound..<(i + 1)
        if frame.isObject {
          tree.nodes[node].children = tree.members.count..<(tree.members.count + frame.members.count)
          tree.members.append(contentsOf: frame.members)
        } else {
          tree.nodes[node].children = tree.elements.count..<(tree.elements.count + frame.elements.count)
          tree.elements.append(contentsOf: frame.elements)
        }
        if stack.isEmpty { return (node, i + 1) }
        guard let after = attach(node, to: &stack[stack.count - 1], end: i + 1) else { return nil }
        i = after
        continue
      }
      if !stack[top].expectsItem {
        // Only a comma may come between items.
        guard c == UInt8(ascii: ",") else { return nil }
        if stack[top].isObject {
          if !stack[top].members.isEmpty { stack[top].members[stack[top].members.count - 1].comma = i }
        } else if !stack[top].elements.isEmpty {
          stack[top].elements[stack[top].elements.count - 1].comma = i
        }
        stack[top].expectsItem = true
        i += 1
        continue
      }
      // An elision (`...other`, a spread, or documentation's `...` and `…`): skipped.
      if let after = ellipsis(at: i) {
        guard let end = scanExpression(after, stopAtComma: true) else { return nil }
        stack[top].expectsItem = false
        i = end
        continue
      }
      var valueStart = i
      if stack[top].isObject {
        guard let member = readKey(at: i) else { return nil }
        switch member {
        case .skipped(let end):
          stack[top].expectsItem = false
          i = end
          continue
        case .shorthand(var key):
          let node = placeholderNode(key.keyRange, anchor: key.keyRange.lowerBound)
          key.value = node
          stack[top].members.append(key)
          stack[top].expectsItem = false
          i = key.keyRange.upperBound
          continue
        case .value(let key, let after):
          stack[top].pendingKey = key
          guard let start = skipTrivia(after), start < source.count else { return nil }
          valueStart = start
        }
      } else if c == UInt8(ascii: ",") {
        // A hole: an array item left out, sent as null.
        tree.nodes.append(LiteralTree.Node(kind: .hole, range: i..<i))
        stack[top].elements.append(LiteralTree.Element(value: tree.nodes.count - 1, comma: i))
        i += 1
        continue
      }
      // A value.
      let v = source[valueStart]
      if v == UInt8(ascii: "{") || v == UInt8(ascii: "[") {
        guard stack.count < NodeMessageLiteral.maxDepth else { return nil }
        stack.append(open(isObject: v == UInt8(ascii: "{"), at: valueStart))
        i = valueStart + 1
        continue
      }
      guard let (node, end) = scalar(at: valueStart) else { return nil }
      guard let after = attach(node, to: &stack[stack.count - 1], end: end) else { return nil }
      i = after
    }
  }

  /// A new container's frame, its node reserved.
  private mutating func open(isObject: Bool, at offset: Int) -> Frame {
    tree.nodes.append(LiteralTree.Node(kind: isObject ? .object : .array, range: offset..<(offset + 1)))
    return Frame(isObject: isObject, node: tree.nodes.count - 1)
  }

  /// Adds the value `node` (read up to `end`) to `frame`, and returns where reading goes on. A
  /// value that an operator, a call or a member access follows (`3600 * 1000`, `[a].join()`) is
  /// the start of an expression: the node becomes the expression's value.
  private mutating func attach(_ node: Int, to frame: inout Frame, end: Int) -> Int? {
    guard var after = skipTrivia(end), after < source.count else { return nil }
    let c = source[after]
    let closer = frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
    if c != UInt8(ascii: ","), c != closer {
      let start = tree.nodes[node].range.lowerBound
      if let word = identifier(at: after), word.elementsEqual("as".utf8) || word.elementsEqual("satisfies".utf8) {
        // A TypeScript assertion (`'high' as const`) does not change the value.
        guard let typeEnd = scanExpression(after, stopAtComma: true) else { return nil }
        after = typeEnd
      } else {
        guard let expressionEnd = scanExpression(start, stopAtComma: true) else { return nil }
        tree.nodes[node] = expressionNode(start..<trimmedEnd(start, expressionEnd))
        after = expressionEnd
      }
    }
    if frame.isObject {
      guard var member = frame.pendingKey else { return nil }
      member.value = node
      frame.members.append(member)
      frame.pendingKey = nil
    } else {
      frame.elements.append(LiteralTree.Element(value: node, comma: nil))
    }
    frame.expectsItem = false
    return after
  }

  private enum KeyRead {
    /// A key and `:`; the value starts after the offset.
    case value(LiteralTree.Member, Int)
    /// `{ token }`: the key is its own value.
    case shorthand(LiteralTree.Member)
    /// A member that is not data (computed key, method, accessor): skipped up to the offset.
    case skipped(Int)
  }

  /// The member that starts at `i`, or nil when it is not JavaScript.
  private mutating func readKey(at i: Int) -> KeyRead? {
    let c = source[i]
    if c == UInt8(ascii: "[") {
      // A computed key (`[field]: value`, `[name]() {}`): not a known name.
      guard let close = scanExpression(i + 1, stopAtComma: false), source[close] == UInt8(ascii: "]"),
        let after = skipTrivia(close + 1), after < source.count
      else { return nil }
      let valueStart = source[after] == UInt8(ascii: ":") ? after + 1 : after
      guard let end = scanExpression(valueStart, stopAtComma: true) else { return nil }
      return .skipped(end)
    }
    if c == UInt8(ascii: "*") {
      // A generator method.
      guard let end = scanExpression(i, stopAtComma: true) else { return nil }
      return .skipped(end)
    }
    var key = MappedText(bytes: [], origins: [i])
    var keyEnd: Int
    var quoted = false
    var isIdentifier = false
    if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
      guard let (text, end) = decodeQuoted(at: i) else { return nil }
      key = text
      keyEnd = end
      quoted = true
    } else if let word = identifier(at: i) {
      keyEnd = i + word.count
      key.append(source, i..<keyEnd)
      isIdentifier = true
    } else if let (_, end, _) = numberLiteral(at: i) {
      keyEnd = end
      key.append(source, i..<keyEnd)
    } else {
      return nil
    }
    var member = LiteralTree.Member(key: key, keyRange: i..<keyEnd, quoted: quoted, colon: i, comma: nil, value: -1)
    guard let after = skipTrivia(keyEnd), after < source.count else { return nil }
    switch source[after] {
    case UInt8(ascii: ":"):
      member.colon = after
      return .value(member, after + 1)
    case UInt8(ascii: ","), UInt8(ascii: "}"):
      return isIdentifier ? .shorthand(member) : nil
    case UInt8(ascii: "("):
      // A method: `send() { ... }`.
      guard let end = scanExpression(i, stopAtComma: true) else { return nil }
      return .skipped(end)
    default:
      // `get name() {}`, `async send() {}`: an accessor or a method.
      let accessors: [[UInt8]] = [Array("get".utf8), Array("set".utf8), Array("async".utf8), Array("static".utf8)]
      if isIdentifier, accessors.contains(key.bytes),
        identifier(at: after) != nil || [UInt8(ascii: "["), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "*")].contains(source[after])
      {
        guard let end = scanExpression(i, stopAtComma: true) else { return nil }
        return .skipped(end)
      }
      return nil
    }
  }

  /// The scalar value at `i` (a string, a number, a keyword, or an expression) and where it ends.
  private mutating func scalar(at i: Int) -> (Int, Int)? {
    let c = source[i]
    if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
      guard let (text, end) = decodeQuoted(at: i) else { return nil }
      tree.nodes.append(LiteralTree.Node(kind: .string, range: i..<end, text: text))
      return (tree.nodes.count - 1, end)
    }
    if c == UInt8(ascii: "`") {
      guard let (text, end) = decodeTemplate(at: i) else { return nil }
      tree.nodes.append(LiteralTree.Node(kind: .string, range: i..<end, text: text))
      return (tree.nodes.count - 1, end)
    }
    if let word = identifier(at: i) {
      let end = i + word.count
      let kind: LiteralTree.Kind?
      switch String(decoding: word, as: UTF8.self) {
      case "true": kind = .boolTrue
      case "false": kind = .boolFalse
      case "null", "NaN", "Infinity": kind = .null  // JSON.stringify sends NaN and Infinity as null
      case "undefined": kind = .undefined  // and leaves the member out
      default: kind = nil
      }
      if let kind {
        tree.nodes.append(LiteralTree.Node(kind: kind, range: i..<end))
        return (tree.nodes.count - 1, end)
      }
    }
    // A number literal; `attach` reads on when an operator follows it (`3600 * 1000`).
    if let (value, end, isJSON) = numberLiteral(at: i) {
      tree.nodes.append(LiteralTree.Node(kind: .number, range: i..<end, number: value, isJSONNumber: isJSON))
      return (tree.nodes.count - 1, end)
    }
    // Anything else is read as an expression up to the next `,` or closer: a signed number,
    // arithmetic, an identifier, a call, `new Date()`.
    guard let end = scanExpression(i, stopAtComma: true) else { return nil }
    tree.nodes.append(expressionNode(i..<trimmedEnd(i, end)))
    return (tree.nodes.count - 1, end)
  }

  /// The value of the expression `range`: a number when it is one (copied as written when it is
  /// JSON) or arithmetic of number literals, else a placeholder.
  private func expressionNode(_ range: Range<Int>) -> LiteralTree.Node {
    var start = range.lowerBound
    if start < range.upperBound, source[start] == UInt8(ascii: "-") { start += 1 }
    if let (value, end, isJSON) = numberLiteral(at: start), end == range.upperBound, isJSON {
      return LiteralTree.Node(kind: .number, range: range, number: start > range.lowerBound ? -value : value, isJSONNumber: true)
    }
    if let value = evaluateArithmetic(range) {
      return LiteralTree.Node(kind: .number, range: range, number: value)
    }
    if let joined = concatenation(range) {
      return LiteralTree.Node(kind: .string, range: range, text: joined)
    }
    var text = MappedText(bytes: [], origins: [range.lowerBound])
    appendPlaceholder(range, anchor: range.lowerBound, to: &text)
    return LiteralTree.Node(kind: .placeholder, range: range, text: text)
  }

  /// String literals joined with `+` (`'a long ' + 'title'`), as a long string is written: the
  /// text, each byte mapped to its own literal.
  private func concatenation(_ range: Range<Int>) -> MappedText? {
    var text = MappedText(bytes: [], origins: [range.lowerBound])
    var i = range.lowerBound
    var parts = 0
    while true {
      guard let start = skipTrivia(i), start < range.upperBound else { return nil }
      let c = source[start]
      let part: (MappedText, Int)?
      if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
        part = decodeQuoted(at: start)
      } else if c == UInt8(ascii: "`") {
        part = decodeTemplate(at: start)
      } else {
        return nil
      }
      guard let (piece, end) = part, end <= range.upperBound else { return nil }
      for k in piece.bytes.indices { text.append(piece.bytes[k], from: piece.origins[k]) }
      parts += 1
      guard let next = skipTrivia(end) else { return nil }
      if next >= range.upperBound { return parts > 1 ? text : nil }
      guard source[next] == UInt8(ascii: "+") else { return nil }
      i = next + 1
    }
  }

  private mutating func placeholderNode(_ range: Range<Int>, anchor: Int) -> Int {
    var text = MappedText(bytes: [], origins: [anchor])
    appendPlaceholder(range, anchor: anchor, to: &text)
    tree.nodes.append(LiteralTree.Node(kind: .placeholder, range: range, text: text))
    return tree.nodes.count - 1
  }

  /// The longest expression text a placeholder keeps (the linter reads placeholders up to 512
  /// bytes).
  static let longestPlaceholderText = 200

  /// Appends `{{expression}}` for the source `range`: braces dropped so that it stays one
  /// placeholder, white space and line breaks as one space, `{{value}}` when nothing is left,
  /// `{{js: ...}}` when the text would read as a template's control tag or include
  /// (`{{/regex/}}`, `{{template.body}}`: `PlaceholderSyntax.isValueTag` decides, as the linter will).
  func appendPlaceholder(_ range: Range<Int>, anchor: Int, to text: inout MappedText) {
    var inner = MappedText(bytes: [], origins: [anchor])
    var written = 0
    var pendingSpace: Int? = nil
    var i = range.lowerBound
    while i < range.upperBound {
      let c = source[i]
      if let width = whitespaceWidth(at: i) {
        if written > 0, pendingSpace == nil { pendingSpace = i }
        i += width
        continue
      }
      if c == UInt8(ascii: "{") || c == UInt8(ascii: "}") {
        i += 1
        continue
      }
      // Stop before the limit, at the start of a character.
      if written >= Self.longestPlaceholderText, c & 0xC0 != 0x80 { break }
      if let space = pendingSpace {
        inner.append(UInt8(ascii: " "), from: space)
        written += 1
        pendingSpace = nil
      }
      inner.append(c, from: i)
      written += 1
      i += 1
    }
    if written == 0 { inner.append(Array("value".utf8), standingFor: anchor..<anchor) }
    let open = [UInt8(ascii: "{"), UInt8(ascii: "{")], close = [UInt8(ascii: "}"), UInt8(ascii: "}")]
    text.append(open, standingFor: anchor..<anchor)
    if !PlaceholderSyntax.isValueTag(open + inner.bytes + close) { text.append(Array("js: ".utf8), standingFor: anchor..<anchor) }
    for (k, byte) in inner.bytes.enumerated() { text.append(byte, from: inner.origins[k]) }
    text.append(close, standingFor: anchor..<range.upperBound)
  }

  // MARK: Tokens

  /// `...` or `…` at `i`: the offset after it.
  private func ellipsis(at i: Int) -> Int? {
    if i + 2 < source.count, source[i] == UInt8(ascii: "."), source[i + 1] == UInt8(ascii: "."), source[i + 2] == UInt8(ascii: ".") {
      return i + 3
    }
    if i + 2 < source.count, source[i] == 0xE2, source[i + 1] == 0x80, source[i + 2] == 0xA6 { return i + 3 }
    return nil
  }

  /// The identifier at `i` (ASCII letters, digits, `_`, `$`, and any non-ASCII character that is
  /// not white space), or nil.
  func identifier(at i: Int) -> ArraySlice<UInt8>? {
    var end = i
    while end < source.count {
      let c = source[end]
      let isStart = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$")
      if isStart || (end > i && c >= 0x30 && c <= 0x39) {
        end += 1
      } else if c >= 0x80, whitespaceWidth(at: end) == nil, ellipsis(at: end) == nil {
        end += 1
      } else {
        break
      }
    }
    return end > i ? source[i..<end] : nil
  }

  /// The width of the white space character at `i` (ASCII white space, no-break space, the BOM,
  /// the Unicode spaces and line separators), or nil.
  func whitespaceWidth(at i: Int) -> Int? {
    let c = source[i]
    if c == 0x20 || (c >= 0x09 && c <= 0x0D) { return 1 }
    if c == 0xC2, i + 1 < source.count, source[i + 1] == 0xA0 { return 2 }
    if i + 2 < source.count {
      let b1 = source[i + 1], b2 = source[i + 2]
      if c == 0xEF, b1 == 0xBB, b2 == 0xBF { return 3 }
      if c == 0xE2, b1 == 0x80, (b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF { return 3 }
      if c == 0xE3, b1 == 0x80, b2 == 0x80 { return 3 }
    }
    return nil
  }

  /// The offset after white space and comments from `i`; nil for an unterminated comment.
  func skipTrivia(_ start: Int) -> Int? {
    var i = start
    while i < source.count {
      if let width = whitespaceWidth(at: i) {
        i += width
      } else if source[i] == UInt8(ascii: "/"), i + 1 < source.count, source[i + 1] == UInt8(ascii: "/") {
        while i < source.count, source[i] != 0x0A, source[i] != 0x0D { i += 1 }
      } else if source[i] == UInt8(ascii: "/"), i + 1 < source.count, source[i + 1] == UInt8(ascii: "*") {
        i += 2
        while i + 1 < source.count, !(source[i] == UInt8(ascii: "*") && source[i + 1] == UInt8(ascii: "/")) { i += 1 }
        guard i + 1 < source.count else { return nil }
        i += 2
      } else {
        break
      }
    }
    return i
  }

  /// `end` moved back over ASCII white space (a comment before the `,` stays part of an
  /// expression's text, which is harmless).
  private func trimmedEnd(_ start: Int, _ end: Int) -> Int {
    var e = end
    while e > start, source[e - 1] == 0x20 || (source[e - 1] >= 0x09 && source[e - 1] <= 0x0D) { e -= 1 }
    return e
  }

  /// The end of the expression that starts at `start`: the offset of the first `,` (when
  /// `stopAtComma`) or unmatched closer outside brackets, strings, template literals and
  /// comments. nil when brackets do not match, a `;` ends the statement, a `:` outside brackets
  /// belongs to no `?` (`{ a: 1 b: 2 }`), or the text ends.
  func scanExpression(_ start: Int, stopAtComma: Bool) -> Int? {
    // Open brackets, each as its closer; `templateText` while in a template literal's text and
    // `templateHole` inside its `${...}`.
    let templateText: UInt8 = 0, templateHole: UInt8 = 1
    var stack: [UInt8] = []
    // Conditional operators outside brackets still waiting for their `:`.
    var openConditionals = 0
    var i = start
    while i < source.count {
      let c = source[i]
      if stack.last == templateText {
        if c == UInt8(ascii: "\\") {
          i += 2
        } else if c == UInt8(ascii: "`") {
          stack.removeLast()
          i += 1
        } else if c == UInt8(ascii: "$"), i + 1 < source.count, source[i + 1] == UInt8(ascii: "{") {
          stack.append(templateHole)
          i += 2
        } else {
          i += 1
        }
        continue
      }
      switch c {
      case UInt8(ascii: "'"), UInt8(ascii: "\""):
        guard let end = skipQuoted(at: i) else { return nil }
        i = end
      case UInt8(ascii: "`"):
        stack.append(templateText)
        i += 1
      case UInt8(ascii: "/"):
        if i + 1 < source.count, source[i + 1] == UInt8(ascii: "/") || source[i + 1] == UInt8(ascii: "*") {
          guard let end = skipTrivia(i) else { return nil }
          i = end
        } else {
          i += 1
        }
      case UInt8(ascii: "("): stack.append(UInt8(ascii: ")")); i += 1
      case UInt8(ascii: "["): stack.append(UInt8(ascii: "]")); i += 1
      case UInt8(ascii: "{"): stack.append(UInt8(ascii: "}")); i += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        guard let top = stack.last else { return i }
        if top == templateHole, c == UInt8(ascii: "}") {
          stack.removeLast()
        } else {
          guard top == c else { return nil }
          stack.removeLast()
        }
        i += 1
      case UInt8(ascii: ","):
        if stack.isEmpty, stopAtComma { return i }
        i += 1
      case UInt8(ascii: ";"):
        if stack.isEmpty { return nil }
        i += 1
      case UInt8(ascii: "?") where stack.isEmpty:
        // Not `??` nor `?.` (optional chaining; `a?.5:b` is a conditional).
        let next = i + 1 < source.count ? source[i + 1] : 0
        if next == UInt8(ascii: "?") {
          i += 2
        } else if next == UInt8(ascii: "."), !(i + 2 < source.count && source[i + 2] >= 0x30 && source[i + 2] <= 0x39) {
          i += 2
        } else {
          openConditionals += 1
          i += 1
        }
      case UInt8(ascii: ":") where stack.isEmpty:
        guard openConditionals > 0 else { return nil }
        openConditionals -= 1
        i += 1
      default:
        i += 1
      }
    }
    return nil
  }

  /// The offset after the quoted string at `i`, or nil when it does not end on its line.
  private func skipQuoted(at i: Int) -> Int? {
    let quote = source[i]
    var k = i + 1
    while k < source.count {
      let c = source[k]
      if c == quote { return k + 1 }
      if c == 0x0A || c == 0x0D { return nil }
      k += c == UInt8(ascii: "\\") ? 2 : 1
    }
    return nil
  }

  // MARK: Strings

  /// The decoded content of the '...' or "..." string at `i` and the offset after it.
  func decodeQuoted(at i: Int) -> (MappedText, Int)? {
    let quote = source[i]
    var text = MappedText(bytes: [], origins: [i + 1])
    var k = i + 1
    while k < source.count {
      let c = source[k]
      if c == quote { return (text, k + 1) }
      if c == 0x0A || c == 0x0D { return nil }
      if c == UInt8(ascii: "\\") {
        guard let (bytes, end) = decodeEscape(at: k) else { return nil }
        text.append(bytes, standingFor: k..<end)
        k = end
        continue
      }
      text.append(c, from: k)
      k += 1
    }
    return nil
  }

  /// The decoded content of the template literal at `i` (each `${expression}` as a `{{...}}`
  /// placeholder) and the offset after it.
  func decodeTemplate(at i: Int) -> (MappedText, Int)? {
    var text = MappedText(bytes: [], origins: [i + 1])
    var k = i + 1
    while k < source.count {
      let c = source[k]
      if c == UInt8(ascii: "`") { return (text, k + 1) }
      if c == UInt8(ascii: "\\") {
        guard let (bytes, end) = decodeEscape(at: k) else { return nil }
        text.append(bytes, standingFor: k..<end)
        k = end
      } else if c == UInt8(ascii: "$"), k + 1 < source.count, source[k + 1] == UInt8(ascii: "{") {
        guard let end = scanExpression(k + 2, stopAtComma: false), source[end] == UInt8(ascii: "}") else { return nil }
        appendPlaceholder((k + 2)..<end, anchor: k, to: &text)
        k = end + 1
      } else if c == 0x0D {
        // A template's CR LF and CR are read as LF.
        text.append(0x0A, from: k)
        k += k + 1 < source.count && source[k + 1] == 0x0A ? 2 : 1
      } else {
        text.append(c, from: k)
        k += 1
      }
    }
    return nil
  }

  /// The bytes the escape at `i` (a backslash) stands for and the offset after it.
  private func decodeEscape(at i: Int) -> ([UInt8], Int)? {
    guard i + 1 < source.count else { return nil }
    let e = source[i + 1]
    switch e {
    case UInt8(ascii: "n"): return ([0x0A], i + 2)
    case UInt8(ascii: "r"): return ([0x0D], i + 2)
    case UInt8(ascii: "t"): return ([0x09], i + 2)
    case UInt8(ascii: "b"): return ([0x08], i + 2)
    case UInt8(ascii: "f"): return ([0x0C], i + 2)
    case UInt8(ascii: "v"): return ([0x0B], i + 2)
    case UInt8(ascii: "0") where !(i + 2 < source.count && source[i + 2] >= 0x30 && source[i + 2] <= 0x39):
      return ([0x00], i + 2)
    case 0x0A: return ([], i + 2)  // a line continuation
    case 0x0D: return ([], i + 2 < source.count && source[i + 2] == 0x0A ? i + 3 : i + 2)
    case UInt8(ascii: "x"):
      guard let value = hexValue(i + 2, count: 2) else { return nil }
      return (utf8(value), i + 4)
    case UInt8(ascii: "u"):
      guard let (value, end) = unicodeEscape(at: i) else { return nil }
      if value >= 0xD800, value <= 0xDBFF, end + 1 < source.count, source[end] == UInt8(ascii: "\\"),
        let (low, lowEnd) = unicodeEscape(at: end), low >= 0xDC00, low <= 0xDFFF
      {
        return (utf8(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)), lowEnd)
      }
      return (utf8(value), end)
    default:
      // Any other character stands for itself (`\'`, `\"`, `\\`, `\``, `\$`), whole.
      var end = i + 2
      while end < source.count, source[end] & 0xC0 == 0x80 { end += 1 }
      return (Array(source[(i + 1)..<end]), end)
    }
  }

  /// `\uXXXX` or `\u{X...}` at `i`: the code unit or point and the offset after it.
  private func unicodeEscape(at i: Int) -> (UInt32, Int)? {
    guard i + 2 < source.count, source[i + 1] == UInt8(ascii: "u") else { return nil }
    if source[i + 2] == UInt8(ascii: "{") {
      var value: UInt32 = 0
      var k = i + 3
      while k < source.count, let digit = hexDigit(source[k]) {
        value = value * 16 + digit
        guard value <= 0x10FFFF else { return nil }
        k += 1
      }
      guard k > i + 3, k < source.count, source[k] == UInt8(ascii: "}") else { return nil }
      return (value, k + 1)
    }
    guard let value = hexValue(i + 2, count: 4) else { return nil }
    return (value, i + 6)
  }

  private func hexValue(_ start: Int, count: Int) -> UInt32? {
    guard start + count <= source.count else { return nil }
    var value: UInt32 = 0
    for k in start..<(start + count) {
      guard let digit = hexDigit(source[k]) else { return nil }
      value = value * 16 + digit
    }
    return value
  }

  private func hexDigit(_ c: UInt8) -> UInt32? {
    switch c {
    case 0x30...0x39: return UInt32(c - 0x30)
    case 0x41...0x46: return UInt32(c - 0x41 + 10)
    case 0x61...0x66: return UInt32(c - 0x61 + 10)
    default: return nil
    }
  }

  /// The UTF-8 bytes of a code point; a lone surrogate becomes U+FFFD.
  private func utf8(_ value: UInt32) -> [UInt8] {
    let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
    return Array(String(Character(scalar)).utf8)
  }

  // MARK: Numbers

  /// The radix of a `0x`, `0o` or `0b` literal, by its letter in lower case.
  private static let radixes: [UInt8: Double] = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2]

  /// The numeric literal at `i` (decimal, `.5`, `1e3`, `1_000`, hex, octal, binary): its value,
  /// the offset after it, and whether its text is a JSON number. nil when none starts here or
  /// letters follow it (`1n`, `5px`).
  func numberLiteral(at i: Int) -> (Double, Int, Bool)? {
    guard i < source.count else { return nil }
    func isDigit(_ k: Int) -> Bool { k < source.count && source[k] >= 0x30 && source[k] <= 0x39 }
    var k = i
    var value: Double
    var isJSON = true
    if source[k] == UInt8(ascii: "0"), k + 1 < source.count, let radix = Self.radixes[source[k + 1] | 0x20] {
      k += 2
      value = 0
      var digits = 0
      while k < source.count {
        if source[k] == UInt8(ascii: "_") {
          k += 1
          continue
        }
        guard let digit = hexDigit(source[k]), Double(digit) < radix else { break }
        value = value * radix + Double(digit)
        digits += 1
        k += 1
      }
      guard digits > 0 else { return nil }
      isJSON = false
    } else {
      guard isDigit(k) || (source[k] == UInt8(ascii: ".") && isDigit(k + 1)) else { return nil }
      var text: [UInt8] = []
      func digits() {
        while k < source.count, isDigit(k) || (source[k] == UInt8(ascii: "_") && isDigit(k + 1) && k > i) {
          if source[k] == UInt8(ascii: "_") { isJSON = false } else { text.append(source[k]) }
          k += 1
        }
      }
      let integerStart = k
      digits()
      let integerDigits = text.count
      if integerDigits == 0 || (integerDigits > 1 && source[integerStart] == UInt8(ascii: "0")) { isJSON = false }
      if k < source.count, source[k] == UInt8(ascii: ".") {
        text.append(UInt8(ascii: "."))
        k += 1
        let before = text.count
        digits()
        if text.count == before {
          // `5.` is 5.
          text.removeLast()
          isJSON = false
        }
      }
      if k < source.count, source[k] == UInt8(ascii: "e") || source[k] == UInt8(ascii: "E") {
        var e = k + 1
        if e < source.count, source[e] == UInt8(ascii: "+") || source[e] == UInt8(ascii: "-") { e += 1 }
        if isDigit(e) {
          text.append(UInt8(ascii: "e"))
          text.append(contentsOf: source[(k + 1)..<e])
          k = e
          digits()
        }
      }
      guard let parsed = Double(String(decoding: text.first == UInt8(ascii: ".") ? [UInt8(ascii: "0")] + text : text, as: UTF8.self)) else {
        return nil
      }
      value = parsed
    }
    if identifier(at: k) != nil { return nil }
    return (value, k, isJSON)
  }

  /// The value of `range` when it is arithmetic of number literals (`3600 * 1000`, `-(2 + 3)`,
  /// `1746475860808 + 60`): `+ - * / %`, unary signs and parentheses.
  func evaluateArithmetic(_ range: Range<Int>) -> Double? {
    var values: [Double] = []
    // Operators waiting for their right operand; "u" and "p" are unary minus and plus.
    var operators: [UInt8] = []
    func precedence(_ op: UInt8) -> Int {
      switch op {
      case UInt8(ascii: "u"), UInt8(ascii: "p"): return 3
      case UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "%"): return 2
      case UInt8(ascii: "+"), UInt8(ascii: "-"): return 1
      default: return 0
      }
    }
    func apply(_ op: UInt8) -> Bool {
      if op == UInt8(ascii: "u") || op == UInt8(ascii: "p") {
        guard let a = values.popLast() else { return false }
        values.append(op == UInt8(ascii: "u") ? -a : a)
        return true
      }
      guard let b = values.popLast(), let a = values.popLast() else { return false }
      switch op {
      case UInt8(ascii: "+"): values.append(a + b)
      case UInt8(ascii: "-"): values.append(a - b)
      case UInt8(ascii: "*"): values.append(a * b)
      case UInt8(ascii: "/"): values.append(a / b)
      case UInt8(ascii: "%"): values.append(a.truncatingRemainder(dividingBy: b))
      default: return false
      }
      return true
    }
    var expectsOperand = true
    var i = range.lowerBound
    while true {
      guard let next = skipTrivia(i) else { return nil }
      i = next
      if i >= range.upperBound { break }
      let c = source[i]
      if expectsOperand {
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") {
          operators.append(c == UInt8(ascii: "-") ? UInt8(ascii: "u") : UInt8(ascii: "p"))
          i += 1
        } else if c == UInt8(ascii: "(") {
          operators.append(c)
          i += 1
        } else if let (value, end, _) = numberLiteral(at: i), end <= range.upperBound {
          values.append(value)
          expectsOperand = false
          i = end
        } else {
          return nil
        }
      } else if c == UInt8(ascii: ")") {
        while let op = operators.last, op != UInt8(ascii: "(") {
          guard apply(operators.removeLast()) else { return nil }
        }
        guard operators.popLast() == UInt8(ascii: "(") else { return nil }
        i += 1
      } else if "+-*/%".utf8.contains(c) {
        // `**` and other operators are not evaluated.
        if i + 1 < range.upperBound, source[i + 1] == c, c == UInt8(ascii: "*") { return nil }
        while let op = operators.last, op != UInt8(ascii: "("), precedence(op) >= precedence(c) {
          guard apply(operators.removeLast()) else { return nil }
        }
        operators.append(c)
        expectsOperand = true
        i += 1
      } else {
        return nil
      }
    }
    guard !expectsOperand else { return nil }
    while let op = operators.popLast() {
      guard op != UInt8(ascii: "("), apply(op) else { return nil }
    }
    guard values.count == 1, let value = values.first, value.isFinite else { return nil }
    return value
  }
}

// MARK: - Writing the wire form

/// Writes a `LiteralTree` as JSON through the SDK's encoding, with an explicit stack of tasks.
struct WireWriter {
  let source: [UInt8]
  let tree: LiteralTree
  var out = MappedText()

  init(source: [UInt8], tree: LiteralTree) {
    self.source = source
    self.tree = tree
  }

  private enum Task {
    case value(Int, NodeMessageLiteral.Shape, NodeMessageLiteral.Conversion)
    /// A member's key, renamed to the bytes given.
    case key(Int, [UInt8]?)
    case byte(UInt8, Int)
  }

  mutating func write(_ root: Int, shape: NodeMessageLiteral.Shape) {
    var tasks: [Task] = [.value(root, shape, .none)]
    while let task = tasks.popLast() {
      switch task {
      case .byte(let byte, let origin):
        out.append(byte, from: origin)
      case .key(let index, let wire):
        let member = tree.members[index]
        if let wire {
          out.append([UInt8(ascii: "\"")] + wire + [UInt8(ascii: "\"")], standingFor: member.keyRange)
        } else {
          let open = member.keyRange.lowerBound
          writeString(member.key, open: open, close: member.quoted ? member.keyRange.upperBound - 1 : open)
        }
      case .value(let id, let shape, let conversion):
        if conversion != .none, convert(id, conversion) { continue }
        let node = tree.nodes[id]
        switch node.kind {
        case .object:
          let fields = NodeMessageLiteral.fields[shape] ?? [:]
          var kept: [(Int, NodeMessageLiteral.Field?)] = []
          for index in node.children {
            let member = tree.members[index]
            let field = fields.isEmpty ? nil : fields[String(decoding: member.key.bytes, as: UTF8.self)]
            let value = tree.nodes[member.value]
            // JSON.stringify leaves undefined out; the SDK deletes a false flag it converts.
            if value.kind == .undefined || (field?.conversion == .oneForTrue && value.kind == .boolFalse) { continue }
            kept.append((index, field))
          }
          tasks.append(.byte(UInt8(ascii: "}"), node.range.upperBound - 1))
          for (position, (index, field)) in kept.enumerated().reversed() {
            let member = tree.members[index]
            tasks.append(.byte(UInt8(ascii: " "), tree.nodes[member.value].range.upperBound))
            tasks.append(.value(member.value, field?.shape ?? .free, field?.conversion ?? .none))
            tasks.append(.byte(UInt8(ascii: ":"), member.colon))
            tasks.append(.byte(UInt8(ascii: " "), member.keyRange.upperBound))
            tasks.append(.key(index, field?.wire.map { Array($0.utf8) }))
            if position > 0 {
              let previous = tree.members[kept[position - 1].0]
              tasks.append(.byte(UInt8(ascii: ","), previous.comma ?? tree.nodes[previous.value].range.upperBound))
            }
          }
          out.append(UInt8(ascii: "{"), from: node.range.lowerBound)
        case .array:
          let elementConversion: NodeMessageLiteral.Conversion = conversion == .durationsMillis ? .durationMillis : .none
          let elements = Array(node.children)
          tasks.append(.byte(UInt8(ascii: "]"), node.range.upperBound - 1))
          for (position, index) in elements.enumerated().reversed() {
            let element = tree.elements[index]
            tasks.append(.byte(UInt8(ascii: " "), tree.nodes[element.value].range.upperBound))
            tasks.append(.value(element.value, .free, elementConversion))
            if position > 0 {
              let previous = tree.elements[elements[position - 1]]
              tasks.append(.byte(UInt8(ascii: ","), previous.comma ?? tree.nodes[previous.value].range.upperBound))
            }
          }
          out.append(UInt8(ascii: "["), from: node.range.lowerBound)
        case .string:
          writeString(node.text, open: node.range.lowerBound, close: node.range.upperBound - 1)
        case .number:
          if node.isJSONNumber {
            out.append(source, node.range)
          } else {
            out.append(Array(Self.jsNumber(node.number ?? 0).utf8), standingFor: node.range)
          }
        case .boolTrue, .boolFalse:
          out.append(source, node.range)
        case .null, .undefined, .hole:
          // In an array, undefined and a hole are sent as null.
          let start = node.range.lowerBound
          out.append(Array("null".utf8), standingFor: start..<max(node.range.upperBound, start))
        case .placeholder:
          var k = 0
          while k < node.text.bytes.count { k = appendCharacter(node.text, at: k) }
        }
      }
    }
  }

  /// Writes node `id` converted, or returns false when its value is not of the type converted.
  private mutating func convert(_ id: Int, _ conversion: NodeMessageLiteral.Conversion) -> Bool {
    let node = tree.nodes[id]
    let open = node.range.lowerBound
    switch conversion {
    case .none, .durationsMillis:
      return false
    case .topicName:
      let prefix = Array("/topics/".utf8)
      guard node.kind == .string, node.text.bytes.starts(with: prefix) else { return false }
      writeString(node.text, open: open, close: node.range.upperBound - 1, from: prefix.count)
    case .durationMillis:
      guard node.kind == .number, let millis = node.number, millis >= 0, millis.isFinite else { return false }
      out.append(Array("\"\(Self.duration(millis: millis))\"".utf8), standingFor: node.range)
    case .notificationPriority:
      guard node.kind == .string else { return false }
      writeString(node.text, open: open, close: node.range.upperBound - 1, prefix: Array("PRIORITY_".utf8), upperCased: true)
    case .upperCase:
      guard node.kind == .string else { return false }
      writeString(node.text, open: open, close: node.range.upperBound - 1, upperCased: true)
    case .oneForTrue:
      guard node.kind == .boolTrue else { return false }
      out.append([UInt8(ascii: "1")], standingFor: node.range)
    case .lightColor:
      guard node.kind == .string, let color = Self.rgba(node.text.bytes) else { return false }
      let names = ["red", "green", "blue", "alpha"]
      let json = "{" + zip(names, color).map { "\"\($0)\":\(Self.jsNumber($1))" }.joined(separator: ",") + "}"
      out.append(Array(json.utf8), standingFor: node.range)
    case .isoDate:
      guard node.kind == .placeholder, let date = dateString(node.range) else { return false }
      out.append(Array("\"\(date)\"".utf8), standingFor: node.range)
    }
    return true
  }

  /// Writes a decoded string as a JSON string: `open` and `close` are the origins of its quotes,
  /// `prefix` is added (mapped to `open`), the content from byte `from` on is escaped as JSON
  /// needs, each escape mapped to its character's origin.
  private mutating func writeString(
    _ text: MappedText, open: Int, close: Int, from: Int = 0, prefix: [UInt8] = [], upperCased: Bool = false
  ) {
    out.append(UInt8(ascii: "\""), from: open)
    for byte in prefix { out.append(byte, from: open) }
    var k = from
    while k < text.bytes.count {
      var byte = text.bytes[k]
      let origin = text.origins[k]
      if upperCased, byte >= 0x61, byte <= 0x7A { byte -= 0x20 }
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        out.append(UInt8(ascii: "\\"), from: origin)
        out.append(byte, from: origin)
      case 0x08, 0x09, 0x0A, 0x0C, 0x0D:
        let letters: [UInt8] = Array("btn_fr".utf8)
        out.append(UInt8(ascii: "\\"), from: origin)
        out.append(letters[Int(byte) - 0x08], from: origin)
      case 0x00..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        for b in [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]] {
          out.append(b, from: origin)
        }
      case 0x80...:
        k = appendCharacter(text, at: k)
        continue
      default:
        out.append(byte, from: origin)
      }
      k += 1
    }
    out.append(UInt8(ascii: "\""), from: close)
  }

  /// Appends the UTF-8 character at `k` of `text`, or U+FFFD for a byte that starts none (the
  /// JSON reader takes only UTF-8), and returns the offset after it.
  private mutating func appendCharacter(_ text: MappedText, at k: Int) -> Int {
    let bytes = text.bytes
    let lead = bytes[k]
    var length = 0
    var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range (no overlong form, surrogate or value over U+10FFFF)
    switch lead {
    case 0x00...0x7F: length = 1
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: length = 0
    }
    var valid = length > 0 && k + length <= bytes.count
    if valid, length > 1 {
      valid = bytes[k + 1] >= low && bytes[k + 1] <= high && bytes[(k + 2)..<(k + length)].allSatisfy { $0 & 0xC0 == 0x80 }
    }
    guard valid else {
      for byte in [UInt8(0xEF), 0xBF, 0xBD] { out.append(byte, from: text.origins[k]) }
      return k + 1
    }
    for j in k..<(k + length) { out.append(bytes[j], from: text.origins[j]) }
    return k + length
  }

  // MARK: Conversions

  /// transformMillisecondsToSecondsString: "5s", or "0.005000000s" with nine digits of nanos.
  static func duration(millis: Double) -> String {
    let seconds = (millis / 1000).rounded(.down)
    let nanos = ((millis - seconds * 1000) * 1_000_000).rounded(.down)
    guard nanos > 0 else { return jsNumber(seconds) + "s" }
    let digits = jsNumber(nanos)
    return jsNumber(seconds) + "." + String(repeating: "0", count: max(0, 9 - digits.count)) + digits + "s"
  }

  /// A number as JavaScript writes it where that matters here: integers without ".0".
  static func jsNumber(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 9.0e18 { return String(Int64(value)) }
    return value.description
  }

  /// validateLightSettings: '#RRGGBB' (alpha FF) or '#RRGGBBAA' as four fractions of 255.
  static func rgba(_ text: [UInt8]) -> [Double]? {
    guard text.count == 7 || text.count == 9, text.first == UInt8(ascii: "#") else { return nil }
    var values: [Double] = []
    var k = 1
    while k < text.count {
      guard let high = hexDigit(text[k]), let low = hexDigit(text[k + 1]) else { return nil }
      values.append(Double(high * 16 + low) / 255.0)
      k += 2
    }
    if values.count == 3 { values.append(1) }
    return values
  }

  private static func hexDigit(_ c: UInt8) -> Int? {
    switch c {
    case 0x30...0x39: return Int(c - 0x30)
    case 0x41...0x46: return Int(c - 0x41 + 10)
    case 0x61...0x66: return Int(c - 0x61 + 10)
    default: return nil
    }
  }

  /// `new Date(<ISO string or milliseconds>)` as Date.prototype.toISOString writes it, or nil
  /// for any other expression or a date that needs the local time zone.
  private func dateString(_ range: Range<Int>) -> String? {
    let parser = LiteralParser(source: source)
    var i = range.lowerBound
    func expect(_ word: String) -> Bool {
      guard let next = parser.skipTrivia(i) else { return false }
      let bytes = Array(word.utf8)
      guard next + bytes.count <= range.upperBound, Array(source[next..<(next + bytes.count)]) == bytes else { return false }
      i = next + bytes.count
      return true
    }
    guard expect("new"), parser.skipTrivia(i) != i, expect("Date"), expect("("), let argument = parser.skipTrivia(i), argument < range.upperBound
    else { return nil }
    var millis: Double
    var end: Int
    let c = source[argument]
    if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
      guard let (text, after) = parser.decodeQuoted(at: argument), let parsed = Self.parseISODate(text.bytes) else { return nil }
      millis = parsed
      end = after
    } else if let (value, after, _) = parser.numberLiteral(at: argument) {
      millis = value
      end = after
    } else {
      return nil
    }
    i = end
    guard expect(")"), i == range.upperBound else { return nil }
    return Self.isoString(millis: millis)
  }

  /// The milliseconds since 1970 of an ISO 8601 date as `Date` parses it: `YYYY-MM-DD` (UTC), or
  /// with `THH:mm[:ss[.sss]]` and `Z` or `±HH:mm` (without an offset it is local time: nil).
  static func parseISODate(_ text: [UInt8]) -> Double? {
    var k = 0
    func number(_ digits: Int) -> Int? {
      guard k + digits <= text.count else { return nil }
      var value = 0
      for _ in 0..<digits {
        guard text[k] >= 0x30, text[k] <= 0x39 else { return nil }
        value = value * 10 + Int(text[k] - 0x30)
        k += 1
      }
      return value
    }
    func skip(_ c: Character) -> Bool {
      guard k < text.count, text[k] == UInt8(ascii: c.unicodeScalars.first!) else { return false }
      k += 1
      return true
    }
    guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), (1...12).contains(month),
      (1...31).contains(day)
    else { return nil }
    var millis = Double(daysFromCivil(year, month, day)) * 86_400_000
    if k == text.count { return millis }
    guard skip("T") || skip(" "), let hour = number(2), skip(":"), let minute = number(2), hour <= 24, minute <= 59 else { return nil }
    var second = 0, fraction = 0.0
    if skip(":") {
      guard let s = number(2), s <= 59 else { return nil }
      second = s
      if skip(".") {
        var scale = 100.0
        let start = k
        while k < text.count, text[k] >= 0x30, text[k] <= 0x39 {
          fraction += Double(text[k] - 0x30) * scale
          scale /= 10
          k += 1
        }
        guard k > start else { return nil }
        fraction = fraction.rounded(.down)
      }
    }
    millis += Double(hour * 3_600_000 + minute * 60_000 + second * 1000) + fraction
    if skip("Z") {
      return k == text.count ? millis : nil
    }
    guard k < text.count, text[k] == UInt8(ascii: "+") || text[k] == UInt8(ascii: "-") else { return nil }
    let sign = text[k] == UInt8(ascii: "+") ? 1.0 : -1.0
    k += 1
    guard let offsetHours = number(2), skip(":"), let offsetMinutes = number(2), k == text.count else { return nil }
    return millis - sign * Double(offsetHours * 3_600_000 + offsetMinutes * 60_000)
  }

  /// toISOString: "YYYY-MM-DDTHH:mm:ss.sssZ", for years 0 to 9999.
  static func isoString(millis: Double) -> String? {
    guard millis.isFinite, millis == millis.rounded() else { return nil }
    let total = Int64(millis)
    let days = Int((Double(total) / 86_400_000).rounded(.down))
    let inDay = Int(total - Int64(days) * 86_400_000)
    let (year, month, day) = civilFromDays(days)
    guard (0...9999).contains(year) else { return nil }
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):"
      + "\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))Z"
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day since 1970-01-01 (civil_from_days).
  static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
