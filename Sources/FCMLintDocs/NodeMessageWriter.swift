// Writing a `LiteralTree` as JSON through the SDK's encoding, each output byte mapped to its source.

import FCMLintJSON

/// Writes a `LiteralTree` as JSON through the SDK's encoding, with an explicit stack of tasks.
struct WireWriter {
  let source: [UInt8]
  let tree: LiteralTree
  let encoding: NodeMessageLiteral.Encoding
  var out = MappedText()

  init(source: [UInt8], tree: LiteralTree, encoding: NodeMessageLiteral.Encoding) {
    self.source = source
    self.tree = tree
    self.encoding = encoding
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
          var kept: [(Int, NodeMessageLiteral.Field?)] = []
          for index in node.children {
            let member = tree.members[index]
            let field = shape == .free ? nil : encoding.field(String(decoding: member.key.bytes, as: UTF8.self), in: shape)
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

  /// Writes a decoded string as a JSON string: `open` and `close` are the origins of its quotes,
  /// `prefix` is added (mapped to `open`), the content from byte `from` on is escaped as JSON
  /// needs, each escape mapped to its character's origin.
  mutating func writeString(
    _ text: MappedText, open: Int, close: Int, from: Int = 0, prefix: [UInt8] = [], upperCased: Bool = false
  ) {
    out.append(UInt8(ascii: "\""), from: open)
    for byte in prefix { out.append(byte, from: open) }
    var k = from
    while k < text.bytes.count {
      var byte = text.bytes[k]
      let origin = text.origins[k]
      if upperCased, byte >= 0x61, byte <= 0x7A { byte -= 0x20 }
      if byte >= 0x80 {
        k = appendCharacter(text, at: k)
        continue
      }
      if let escaped = JSONText.escape(Unicode.Scalar(byte)) {
        for b in escaped.utf8 { out.append(b, from: origin) }
      } else {
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
}
