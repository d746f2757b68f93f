// Parsing a JavaScript object literal into a `LiteralTree`: members, elements, values, placeholders.

import FCMLintEngine

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

/// Reads a JavaScript/TypeScript object literal into a `LiteralTree` with an explicit stack.
struct LiteralParser {
  let source: [UInt8]
  /// Where the text ends for this parser: the source's end, or sooner (`NodeMessageLiteral.read`).
  let textEnd: Int
  var tree = LiteralTree()

  init(source: [UInt8], end: Int? = nil) {
    self.source = source
    textEnd = min(end ?? source.count, source.count)
  }

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
    guard start >= 0, start < textEnd, source[start] == UInt8(ascii: "{") else { return nil }
    var stack: [Frame] = []
    stack.append(open(isObject: true, at: start))
    var i = start + 1
    while true {
      guard let next = skipTrivia(i), next < textEnd else { return nil }
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
          guard let start = skipTrivia(after), start < textEnd else { return nil }
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
    guard var after = skipTrivia(end), after < textEnd else { return nil }
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
        let after = skipTrivia(close + 1), after < textEnd
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
    guard let after = skipTrivia(keyEnd), after < textEnd else { return nil }
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

  // MARK: Arithmetic

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
