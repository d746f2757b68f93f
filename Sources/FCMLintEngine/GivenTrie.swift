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
  /// Each edge's segment, for entering a document's mount (see `walk`).
  private(set) var segments: [JSONPath.Segment] = []
  private(set) var slots: [Int32] = []
  private(set) var names = JSONDocument.NameTable()

  /// `paths[slot]` is the path of that slot; every path must start at the root (`$`).
  init(paths: [JSONPath]) {
    _ = add(paths.enumerated().map { (Int32($0.offset), $0.element, 0) })
  }

  /// Adds the node for `entries` (paths with the segments before `depth` behind them) and
  /// everything under it; returns its index. Children are added before their parent's edges, so
  /// each node's edges are contiguous.
  private mutating func add(_ entries: [(slot: Int32, path: JSONPath, depth: Int)]) -> Int32 {
    var ending: [Int32] = []
    var groups: [(segment: JSONPath.Segment, step: JSONPath.Storage.Step, names: JSONDocument.NameTable, entries: [(Int32, JSONPath, Int)])] = []
    for (slot, path, depth) in entries {
      let storage = path.storage
      guard depth < storage.segments.count else {
        ending.append(slot)
        continue
      }
      let segment = storage.segments[depth]
      if let i = groups.firstIndex(where: { $0.segment == segment }) {
        groups[i].entries.append((slot, path, depth + 1))
      } else {
        groups.append((segment, storage.steps[depth], storage.names, [(slot, path, depth + 1)]))
      }
    }
    let index = Int32(nodes.count)
    nodes.append(Node(slots: 0..<0, edges: 0..<0))
    var children: [Edge] = []
    for group in groups {
      var step = group.step
      step.name = step.name.map { names.add(group.names[$0]) }
      step.alternate = step.alternate.map { names.add(group.names[$0]) }
      children.append(Edge(step: step, node: add(group.entries)))
    }
    let firstSlot = Int32(slots.count), firstEdge = Int32(edges.count)
    slots += ending
    edges += children
    segments += groups.map(\.segment)
    nodes[Int(index)] = Node(slots: firstSlot..<Int32(slots.count), edges: firstEdge..<Int32(edges.count))
    return index
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
      level = level.flatMap { node in nodes[Int(node)].edges.filter { segments[Int($0)].entersMount(name) }.map { edges[Int($0)].node } }
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
