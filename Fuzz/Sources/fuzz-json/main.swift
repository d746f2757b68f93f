import FuzzSupport

/// The JSON parser on arbitrary bytes: it must return a tree or an error, never crash or hang,
/// and what it returns must be consistent (ranges inside the input, children inside parents,
/// positions valid), and every accessor of the tree must work on every node.
func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  // Small limits, so the fuzzer reaches them; and the defaults.
  // And as a template (unquoted placeholders, control tags between members).
  let templates = JSONParser.Options(templateTags: PlaceholderSyntax.default.templateTags)
  for options in [JSONParser.Options(maxDepth: 16, maxStringLength: 64), JSONParser.Options(), templates] {
    let locator = SourceLocator(bytes: bytes)
    switch JSONParser.parse(bytes, options: options) {
    case .failure(let error):
      Fuzz.check(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside 0...\(bytes.count)")
      Fuzz.check(!error.message.isEmpty, "empty error message")
      let p = locator.position(of: error.offset)
      Fuzz.check(p.line >= 1 && p.column >= 1, "bad position \(p)")
    case .success(let document):
      Fuzz.check(!document.nodes.isEmpty, "no root")
      var depth = 0
      for index in document.nodes.indices {
        let id = NodeID(index)
        let node = document[id]
        Fuzz.check(node.start >= 0 && node.start < node.end && Int(node.end) <= bytes.count, "node \(index) range \(node.start)..<\(node.end)")
        if node.parent >= 0 {
          let parent = document[node.parent]
          Fuzz.check(node.parent < id, "parent after child")
          Fuzz.check(parent.start < node.start && node.end <= parent.end, "child outside parent")
          Fuzz.check((node.keyStart >= 0) == (parent.kind == .object), "key presence does not match the parent kind")
        }
        var count: Int32 = 0
        var previousEnd: Int32 = node.start
        for child in document.children(id) {
          count += 1
          Fuzz.check(document[child].parent == id, "child's parent is not the node")
          Fuzz.check(document[child].start >= previousEnd, "children out of order")
          previousEnd = document[child].end
        }
        Fuzz.check(count == node.childCount, "childCount \(node.childCount), children \(count)")
        switch node.kind {
        case .string: Fuzz.check(document.string(id) != nil, "string without a value")
        case .number: Fuzz.check(document.number(id) != nil, "number '\(document.rawText(id))' without a Double")
        default: break
        }
        if node.keyStart >= 0 { Fuzz.check(document.key(id) != nil, "member without a key") }
        let pointer = document.pointer(id)
        Fuzz.check(pointer.isEmpty == (id == JSONDocument.root), "pointer '\(pointer)'")
        _ = document.pathComponent(id)
        _ = document.rawText(id)
        _ = locator.position(of: Int(node.start))
        _ = locator.position(of: Int(node.end))
        var up = node.parent
        var d = 1
        while up >= 0 {
          d += 1
          up = document[up].parent
        }
        depth = max(depth, d)
      }
      Fuzz.check(depth <= options.maxDepth + 1, "depth \(depth) over the limit \(options.maxDepth)")
      for duplicate in document.duplicateKeys {
        let parent = document[duplicate].parent
        Fuzz.check(parent >= 0 && document.kind(parent) == .object, "duplicate key outside an object")
      }
    }
  }
  return 0
}

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzJSON($0, $1) }
