import FCMLintJSON

/// Every `given` path of the active rules as one trie, walked once per document.
///
/// Rules share prefixes: nine start at `$.message`, five at `$.message.apns.payload.aps`, and all
/// of them look up `message` first. Resolved one rule at a time, the built-in pack made about 350
/// member lookups per message; through the trie each member on any path is looked up once.
/// Each path is a "slot" (its rule and its place in the rule's `given` list, numbered in that
/// order), and the walk reports (slot, node) pairs with the same nodes, in the same order, as
/// `JSONPath.forEachNode` would for that path alone.
final class GivenTrie: Sendable {
  final class Node: Sendable {
    /// The slots of the paths that end here.
    let slots: [Int32]
    let edges: [Edge]
    /// `edges` as the walk reads them: plain values, with no reference to retain per step.
    let steps: [Step]
    init(slots: [Int32], edges: [Edge]) {
      self.slots = slots
      self.edges = edges
      steps = edges.map {
        Step(path: Unmanaged.passUnretained($0.path), depth: $0.depth, wildcard: $0.path.steps[$0.depth].kind == .wildcard,
             node: Unmanaged.passUnretained($0.node))
      }
    }
  }

  /// An edge, unretained (its `Edge` keeps the path and node alive as long as the trie).
  struct Step {
    let path: Unmanaged<JSONPath.Storage>
    let depth: Int
    let wildcard: Bool
    let node: Unmanaged<Node>
  }

  struct Edge: Sendable {
    let segment: JSONPath.Segment
    /// A path with this segment, and the segment's place in it: its compiled lookup.
    let path: JSONPath.Storage
    let depth: Int
    let node: Node
  }

  let root: Node

  /// `paths[slot]` is the path of that slot; every path must start at the root (`$`).
  init(paths: [JSONPath]) {
    root = Self.build(paths.enumerated().map { (Int32($0.offset), $0.element, 0) })
  }

  private static func build(_ entries: [(slot: Int32, path: JSONPath, depth: Int)]) -> Node {
    var slots: [Int32] = []
    var groups: [(segment: JSONPath.Segment, path: JSONPath.Storage, depth: Int, entries: [(Int32, JSONPath, Int)])] = []
    for (slot, path, depth) in entries {
      let storage = path.storage
      guard depth < storage.segments.count else {
        slots.append(slot)
        continue
      }
      let segment = storage.segments[depth]
      if let i = groups.firstIndex(where: { $0.segment == segment }) {
        groups[i].entries.append((slot, path, depth + 1))
      } else {
        groups.append((segment, storage, depth, [(slot, path, depth + 1)]))
      }
    }
    return Node(slots: slots, edges: groups.map { Edge(segment: $0.segment, path: $0.path, depth: $0.depth, node: build($0.entries)) })
  }

  /// Calls `visit(slot, node)` for every node each path selects in `document`.
  ///
  /// A document with a mount (a bare Message is mounted at ["message"]) is entered the way
  /// `JSONPath` enters it: the mount's names are matched against the paths' first segments
  /// without moving in the document; `$` alone is the file's root; a path that ends above the
  /// file selects nothing.
  func walk(_ document: JSONDocument, _ visit: (Int32, NodeID) -> Void) {
    for slot in root.slots { visit(slot, JSONDocument.root) }
    let mount = document.mount
    guard !mount.isEmpty else {
      for step in root.steps { follow(step, from: JSONDocument.root, document, visit) }
      return
    }
    var level = [root]
    for name in mount {
      level = level.flatMap { node in node.edges.filter { $0.segment.entersMount(name) }.map { $0.node } }
    }
    for node in level { walk(node, at: JSONDocument.root, document, visit) }
  }

  private func walk(_ node: Node, at id: NodeID, _ document: JSONDocument, _ visit: (Int32, NodeID) -> Void) {
    for slot in node.slots { visit(slot, id) }
    for step in node.steps { follow(step, from: id, document, visit) }
  }

  private func follow(_ edge: Step, from id: NodeID, _ document: JSONDocument, _ visit: (Int32, NodeID) -> Void) {
    if edge.wildcard {
      let kind = document.kind(id)
      guard kind == .object || kind == .array else { return }
      edge.node._withUnsafeGuaranteedRef { node in
        for child in document.children(id) { walk(node, at: child, document, visit) }
      }
    } else if let child = edge.path._withUnsafeGuaranteedRef({ $0.child(edge.depth, of: id, in: document) }) {
      edge.node._withUnsafeGuaranteedRef { walk($0, at: child, document, visit) }
    }
  }
}
