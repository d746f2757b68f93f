import FCMLintJSON

/// The size of a value serialised as compact JSON (insignificant whitespace removed), in UTF-8
/// bytes: what a server counts when it measures a payload such as APNs's 4096-byte limit.
struct ByteSize: RuleFunction {
  static let name = "byteSize"
  static let ignoresMissing = true
  static let summary = "A value serialised as compact JSON must take at most `max` UTF-8 bytes."
  static let options = [OptionSpec("max", .integer, required: true, "the largest allowed size in bytes")]
  static let placeholders = ["size", "max", "over"]

  let max: Int

  init(options: FunctionOptions) { max = Int(options.number("max")!) }

  /// Bytes of the subtree at `id` without whitespace outside strings.
  static func compactSize(_ id: NodeID, in document: JSONDocument) -> Int {
    let node = document[id]
    var size = 0
    var inString = false
    var escaped = false
    for b in document.bytes[Int(node.start)..<Int(node.end)] {
      if inString {
        size += 1
        if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
      } else if b == UInt8(ascii: "\"") {
        inString = true
        size += 1
      } else if b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D {
        size += 1
      }
    }
    return size
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    // Compact JSON is never longer than the text as written: most values need no count.
    let node = context.document[id]
    guard Int(node.end - node.start) > max else { return [] }
    let size = Self.compactSize(id, in: context.document)
    guard size > max else { return [] }
    return [Finding(target, detail: "\(size) bytes as compact JSON, \(size - max) over the \(max)-byte limit",
      ["size": String(size), "max": String(max), "over": String(size - max)])]
  }
}
