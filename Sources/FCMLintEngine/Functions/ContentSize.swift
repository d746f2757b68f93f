import FCMLintJSON

/// The total UTF-8 size of the keys and string values under several paths: how FCM measures a
/// message ("the total size of the payload data ... includes both the keys and the values").
/// The message names each part counted and its share, so the biggest contributor is obvious.
/// Each node counts once, however many paths reach it: proto3 JSON reads `android_v2` and
/// `androidV2` as one field, and a path written either way finds both spellings.
struct ContentSize: RuleFunction {
  static let name = "contentSize"
  static let summary = "The UTF-8 bytes of all keys and scalar values under `paths` must total at most `max`."
  static let options = [
    OptionSpec("paths", .paths, required: true, "the parts that count, relative to the given node ('@') or absolute ('$')"),
    OptionSpec("max", .integer, required: true, "the largest allowed total in bytes"),
  ]
  static let placeholders = ["size", "max", "over", "parts"]

  let paths: [JSONPath]
  let max: Int

  init(options: FunctionOptions) {
    paths = options.paths("paths")!
    max = Int(options.number("max")!)
  }

  static func contentBytes(_ id: NodeID, in document: JSONDocument) -> Int {
    // Node ids follow source order, so the subtree of `id` is `id` and the nodes after it that
    // start before it ends: one pass over a range, no stack.
    let end = document[id].end
    let count = document.nodeCount
    var total = 0
    var next = id
    while Int(next) < count {
      let node = document[next]
      if next != id {
        if node.start >= end { break }
        // Strings count as their decoded UTF-8; without escapes that is the literal's inside.
        if node.keyStart >= 0 {
          total += node.keyHasEscapes ? document.key(next)!.utf8.count : Int(node.keyEnd - node.keyStart) - 2
        }
      }
      switch node.kind {
      case .object, .array, .null: break
      case .string: total += node.valueHasEscapes ? document.string(next)!.utf8.count : Int(node.end - node.start) - 2
      default: total += Int(node.end - node.start)
      }
      next += 1
    }
    return total
  }

  /// The distinct nodes the paths select, in `paths` order, leaving out any inside another one
  /// (its keys and values count with that one).
  private func parts(_ context: FunctionContext) -> [NodeID] {
    let document = context.document
    var parts: [NodeID] = []
    parts.reserveCapacity(paths.count)
    for i in paths.indices {  // by index: a `for path in` copy retained each path
      paths[i].forEachNode(in: document, from: context.given) { id in
        // Node ids follow source order: a node is inside another when it comes after it and
        // starts before the other ends.
        func contains(_ outer: NodeID, _ inner: NodeID) -> Bool { outer <= inner && document[inner].start < document[outer].end }
        if parts.contains(where: { contains($0, id) }) { return }
        if parts.contains(where: { contains(id, $0) }) { parts.removeAll { contains(id, $0) } }
        parts.append(id)
      }
    }
    return parts
  }

  /// The total over every part, without naming them: `parts` in a buffer on the stack (every
  /// message is measured), or in an array when they are many.
  private func size(_ context: FunctionContext) -> Int {
    let document = context.document
    let total: Int? = withUnsafeTemporaryAllocation(of: NodeID.self, capacity: 16) { parts in
      var count = 0, overflow = false
      for i in paths.indices {
        paths[i].forEachNode(in: document, from: context.given) { id in
          func contains(_ outer: NodeID, _ inner: NodeID) -> Bool { outer <= inner && document[inner].start < document[outer].end }
          if overflow || parts[0..<count].contains(where: { contains($0, id) }) { return }
          var kept = 0
          for j in 0..<count where !contains(id, parts[j]) {
            parts[kept] = parts[j]
            kept += 1
          }
          count = kept
          guard count < parts.count else { return overflow = true }
          parts[count] = id
          count += 1
        }
      }
      if overflow { return nil }
      var size = 0
      for id in parts[0..<count] { size += Self.contentBytes(id, in: document) }
      return size
    }
    if let total { return total }
    var size = 0
    for id in parts(context) { size += Self.contentBytes(id, in: document) }
    return size
  }

  /// Whether the parts cannot exceed `max`: a key or string counts at most the bytes it is
  /// written with (an escape decodes to fewer), so no part holds more than the whole document.
  private func fitsWhole(_ context: FunctionContext) -> Bool {
    context.document.bytes.count <= max
  }

  func passes(_ target: JSONPath.Resolution, in context: FunctionContext) -> Bool {
    fitsWhole(context) || size(context) <= max
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    // Most messages are within the limit: sum first, list the parts only for a finding.
    guard !fitsWhole(context), size(context) > max else { return [] }
    let document = context.document
    let parts = parts(context).map { ($0, Self.contentBytes($0, in: document)) }
    let size = parts.reduce(0) { $0 + $1.1 }
    guard size > max else { return [] }
    // Names only for the message, which is rarely needed.
    let named = parts.map { (document.pointer($0.0), $0.1) }
    let list = named.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
    return [Finding(target, detail: "\(size) bytes of keys and values (\(list)), \(size - max) over the \(max)-byte limit",
      ["size": String(size), "max": String(max), "over": String(size - max), "parts": list])]
  }
}
