/// Comments that turn checking off for samples that are wrong on purpose (a page showing a
/// mistake): `<!-- fcmlint-disable-next-block -->` skips the next code block,
/// `<!-- fcmlint-disable -->` every sample up to `<!-- fcmlint-enable -->`. Text after the
/// marker's name is a reason (`<!-- fcmlint-disable-next-block: shows the old API -->`). Markers
/// inside code blocks are text the page shows, not markers.
enum Markers {
  enum Kind { case disableNextBlock, disable, enable }

  static func find(in document: [UInt8], excluding code: [Range<Int>]) -> [(offset: Int, kind: Kind)] {
    let view = TextView(document)
    var markers: [(offset: Int, kind: Kind)] = []
    var i = 0
    while let open = view.find("<!--", in: i..<view.count) {
      let close = view.find("-->", in: (open + 4)..<view.count) ?? view.count
      i = min(view.count, close + 3)
      guard !code.contains(where: { $0.contains(open) }) else { continue }
      let body = view.skipBlanks(from: open + 4, to: close)
      var kind: Kind? = nil
      for (name, k) in [("fcmlint-disable-next-block", Kind.disableNextBlock), ("fcmlint-disable", .disable), ("fcmlint-enable", .enable)] {
        let end = body + name.utf8.count
        if view.hasPrefix(name, at: body), end <= close, end == close || !isNameByte(view[end]) {
          kind = k
          break
        }
      }
      if let kind { markers.append((open, kind)) }
    }
    return markers
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "-") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
  }

  /// Marks the samples the markers turn off.
  static func apply(_ markers: [(offset: Int, kind: Kind)], blockStarts: [Int], to samples: inout [DocumentSample]) {
    guard !markers.isEmpty else { return }
    let blocks = blockStarts.sorted()
    var disabledBlocks = Set<Int>()
    var ranges: [Range<Int>] = []
    var disabledFrom: Int? = nil
    for marker in markers {
      switch marker.kind {
      case .disableNextBlock:
        if let next = blocks.first(where: { $0 > marker.offset }) { disabledBlocks.insert(next) }
      case .disable:
        if disabledFrom == nil { disabledFrom = marker.offset }
      case .enable:
        if let from = disabledFrom { ranges.append(from..<marker.offset) }
        disabledFrom = nil
      }
    }
    if let from = disabledFrom { ranges.append(from..<Int.max) }
    for i in samples.indices {
      let sample = samples[i]
      if disabledBlocks.contains(sample.blockStart) || ranges.contains(where: { $0.contains(sample.blockStart) }) {
        samples[i].disabled = true
      }
    }
  }
}
