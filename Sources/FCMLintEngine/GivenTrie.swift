import FCMLintJSON

/// Every `given` path of the active rules as one trie, walked once per document.
///
/// Rules share prefixes (many start at `$.message` or `$.message.apns.payload.aps`, and all of
/// them look up `message` first). Resolved one rule at a time, the built-in pack looked the same
/// members up again and again; through the trie each member on any path is looked up once.
/// Each path is a "slot" (its rule and its place in the rule's `given` list, numbered in that
/// order), and the walk reports (slot, node) pairs with the same nodes, in the same order, as
/// `JSONPath.forEachNode` would for that path alone.
struct GivenTrie: Sendable {
  /// A node: the slots of the paths that end here, and the edges to its children, as ranges of
  /// `slots` and `edges`. Nodes, edges and names are plain values in arrays, so the walk (every
  /// document, every step) does no reference counting.
  struct Node {
    var slots: Range<Int32>
    var edges: Range<Int32>
  }

  struct Edge {
    /// The segment's compiled lookup (its names in the trie's `names`).
    let step: JSONPath.Storage.Step
    let node: Int32
  }

  private(set) var nodes: [Node] = []
  private(set) var edges: [Edge] = []
  private(set) var slots: [Int32] = []
  private(set) var names = JSONDocument.NameTable()

  /// A trie the build laid out (`CompiledPack`), as `init(paths:)` made it.
  init(nodes: [Node], edges: [Edge], slots: [Int32], names: JSONDocument.NameTable) {
    self.nodes = nodes
    self.edges = edges
    self.slots = slots
    self.names = names
  }

  /// `paths[slot]` is the path of that slot; every path must start at the root (`$`).
  init(paths: [JSONPath]) {
    // The trie as linked lists first (no array per node): a node's first child and next
    // sibling, the slots ending at it, and the segment leading to it (a path's storage and depth).
    var firstChild: [Int32] = [-1], nextSibling: [Int32] = [-1], firstSlot: [Int32] = [-1]
    // The segment leading to a node: `paths[viaPath[node]]`'s at `viaDepth[node]` (the root's is
    // never read). Two arrays of a type every start has made already, not an array of tuples:
    // the runtime sets up each array element type the first time it is used (docs/performance.md).
    var viaPath: [Int32] = [0], viaDepth: [Int32] = [0]
    var nextSlot = [Int32](repeating: -1, count: paths.count), lastSlot: [Int32] = [-1]
    for (slot, path) in paths.enumerated() {
      let storage = path.storage
      var node = 0
      for depth in 0..<storage.count {
        var child = Int(firstChild[node]), last = -1
        while child >= 0, !Self.same((paths[Int(viaPath[child])].storage, Int(viaDepth[child])), (storage, depth)) {
          last = child
          child = Int(nextSibling[child])
        }
        if child < 0 {
          child = firstChild.count
          firstChild.append(-1)
          nextSibling.append(-1)
          firstSlot.append(-1)
          lastSlot.append(-1)
          viaPath.append(Int32(slot))
          viaDepth.append(Int32(depth))
          if last < 0 { firstChild[node] = Int32(child) } else { nextSibling[last] = Int32(child) }
        }
        node = child
      }
      // Slots in order at each node.
      if lastSlot[node] < 0 { firstSlot[node] = Int32(slot) } else { nextSlot[Int(lastSlot[node])] = Int32(slot) }
      lastSlot[node] = Int32(slot)
    }
    // Laid out breadth first from the root (node 0), each node's edges together.
    var order = [0], index = [Int32](repeating: 0, count: firstChild.count)
    order.reserveCapacity(firstChild.count)
    var i = 0
    while i < order.count {
      var child = Int(firstChild[order[i]])
      while child >= 0 {
        index[child] = Int32(order.count)
        order.append(child)
        child = Int(nextSibling[child])
      }
      i += 1
    }
    nodes.reserveCapacity(order.count)
    edges.reserveCapacity(order.count)
    slots.reserveCapacity(paths.count)
    for node in order {
      let firstSlotIndex = Int32(slots.count), firstEdge = Int32(edges.count)
      var slot = Int(firstSlot[node])
      while slot >= 0 {
        slots.append(Int32(slot))
        slot = Int(nextSlot[slot])
      }
      var child = Int(firstChild[node])
      while child >= 0 {
        let storage = paths[Int(viaPath[child])].storage, depth = Int(viaDepth[child])
        var step = storage.steps[depth]
        step.name = step.name.map { names.add(storage.names[$0]) }
        step.alternate = step.alternate.map { names.add(storage.names[$0]) }
        edges.append(Edge(step: step, node: index[child]))
        child = Int(nextSibling[child])
      }
      nodes.append(Node(slots: firstSlotIndex..<Int32(slots.count), edges: firstEdge..<Int32(edges.count)))
    }
  }

  /// Whether two paths' segments are the same (`Segment ==`), from their compiled steps.
  private static func same(_ a: (storage: JSONPath.Storage, depth: Int), _ b: (storage: JSONPath.Storage, depth: Int)) -> Bool {
    if a.storage === b.storage && a.depth == b.depth { return true }
    let x = a.storage.steps[a.depth], y = b.storage.steps[b.depth]
    guard x.kind == y.kind else { return false }
    switch x.kind {
    case .wildcard: return true
    case .index: return x.index == y.index
    case .member:
      guard let n = x.name, let m = y.name else { return false }
      return a.storage.names.equals(n, m, of: b.storage.names)
    }
  }

  /// Calls `visit(slot, node)` for every node each path selects in `document`.
  ///
  /// A document with a mount (a bare Message is mounted at ["message"]) is entered the way
  /// `JSONPath` enters it: the mount's names are matched against the paths' first segments
  /// without moving in the document; `$` alone is the file's root; a path that ends above the
  /// file selects nothing.
  func walk(_ document: JSONDocument, _ visit: (Int32, NodeID) -> Void) {
    let root = nodes[0]
    for slot in slots[Int(root.slots.lowerBound)..<Int(root.slots.upperBound)] { visit(slot, JSONDocument.root) }
    let mount = document.mount
    guard !mount.isEmpty else {
      for edge in root.edges { follow(Int(edge), from: JSONDocument.root, document, visit) }
      return
    }
    var level: [Int32] = [0]
    for name in mount {
      level = level.flatMap { node in nodes[Int(node)].edges.filter { edges[Int($0)].step.entersMount(name, names: names) }.map { edges[Int($0)].node } }
    }
    for node in level { walk(node, at: JSONDocument.root, document, visit) }
  }

  private func walk(_ index: Int32, at id: NodeID, _ document: JSONDocument, _ visit: (Int32, NodeID) -> Void) {
    let node = nodes[Int(index)]
    for slot in node.slots { visit(slots[Int(slot)], id) }
    for edge in node.edges { follow(Int(edge), from: id, document, visit) }
  }

  private func follow(_ edge: Int, from id: NodeID, _ document: JSONDocument, _ visit: (Int32, NodeID) -> Void) {
    let step = edges[edge].step, node = edges[edge].node
    if step.kind == .wildcard {
      let kind = document.kind(id)
      guard kind == .object || kind == .array else { return }
      for child in document.children(id) { walk(node, at: child, document, visit) }
    } else if let child = step.child(of: id, in: document, names: names) {
      walk(node, at: child, document, visit)
    }
  }
}
