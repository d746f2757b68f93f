import FCMLintJSON

/// Bounds on a string's length (in Unicode characters, or UTF-8 bytes with `bytes: true`), an
/// array's element count or an object's member count.
struct Length: RuleFunction {
  static let name = "length"
  static let ignoresMissing = true
  static let summary = "The length of a string (characters, or UTF-8 bytes), array or object must lie within `min`..`max`."
  static let options = [
    OptionSpec("min", .integer, "the smallest allowed length"),
    OptionSpec("max", .integer, "the largest allowed length"),
    OptionSpec("bytes", .bool, "measure strings in UTF-8 bytes instead of characters"),
  ]
  static let placeholders = ["length", "min", "max"]

  let min: Int?
  let max: Int?
  let bytes: Bool

  init(options: FunctionOptions) throws(OptionError) {
    min = options.number("min").map { Int($0) }
    max = options.number("max").map { Int($0) }
    bytes = options.bool("bytes") ?? false
    if min == nil && max == nil { throw OptionError("needs 'min' or 'max'") }
    if let min, let max, min > max { throw OptionError("'min' is larger than 'max'") }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    let document = context.document
    let length: Int
    let unit: String
    switch document.kind(id) {
    case .string:
      length = stringLength(id, in: document)
      unit = bytes ? "bytes" : "characters"
    case .array:
      length = Int(document[id].childCount)
      unit = "elements"
    case .object:
      length = Int(document[id].childCount)
      unit = "members"
    default:
      return []
    }
    // Built for a finding only.
    var values: [String: String] { ["length": String(length), "min": min.map(String.init) ?? "", "max": max.map(String.init) ?? ""] }
    if let min, length < min {
      return [Finding(target, detail: "\(length) \(unit), fewer than the minimum \(min)", values)]
    }
    if let max, length > max {
      return [Finding(target, detail: "\(length) \(unit), more than the maximum \(max) (over by \(length - max))", values)]
    }
    return []
  }

  /// A string's length without decoding it where the literal tells: without escapes its UTF-8
  /// bytes are the literal's inside, and when they are all ASCII each is one character.
  /// Counting characters (grapheme clusters) costs about 1,800 instructions a string, and most
  /// values the rules measure are plain ASCII.
  private func stringLength(_ id: NodeID, in document: JSONDocument) -> Int {
    let node = document[id]
    if !node.valueHasEscapes {
      let inside = document.bytes[(Int(node.start) + 1)..<(Int(node.end) - 1)]
      if bytes || inside.allSatisfy({ $0 < 0x80 }) { return inside.count }
    }
    let s = document.string(id)!
    return bytes ? s.utf8.count : s.count
  }
}
