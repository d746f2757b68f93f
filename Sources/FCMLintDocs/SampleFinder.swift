/// Finds the message samples of a documentation page: the code blocks and pieces of text that
/// could be FCM documents. Which of them really are is decided as for a file (the caller
/// classifies each sample's text); the finder only has to miss none and keep positions exact. A
/// sample may be as long as its page, which is read under the limit a file is read under: a
/// length of its own would drop what the same bytes in a file get reported.
public enum SampleFinder {
  /// Every candidate sample of `document`, in document order, with the markers applied; Node.js
  /// message literals are read through `nodeEncoding` (`DocumentLinter.samples` passes its rules').
  public static func samples(in document: [UInt8], format: DocumentFormat, nodeEncoding: NodeMessageLiteral.Encoding) -> [DocumentSample] {
    var found = Found(nodeEncoding: nodeEncoding)
    let view = TextView(document)
    switch format {
    case .markdown: MarkdownBlocks.scan(view, into: &found)
    case .html: HTMLBlocks.scan(view, into: &found)
    case .text: PlainText.scan(view, depth: 0, blockStart: nil, into: &found)
    }
    var samples = found.samples.sorted { $0.start < $1.start }
    Markers.apply(Markers.find(in: document, excluding: found.codeRanges), blockStarts: found.blockStarts, to: &samples)
    return samples
  }

  /// What a scan gathers.
  struct Found {
    /// How Node.js message literals are read.
    let nodeEncoding: NodeMessageLiteral.Encoding
    var samples: [DocumentSample] = []
    /// The document offsets of every code block seen (samples or not), for markers.
    var blockStarts: [Int] = []
    /// The document ranges of code blocks, where a marker is text, not a marker.
    var codeRanges: [Range<Int>] = []
  }

  /// How deep text kept inside text is searched (a page's JSON blob holding the page again).
  static let deepestView = 2
}

/// Bytes to search, with the document offset each came from (nil: they are the document's own),
/// and how the document writes text put into them.
struct TextView {
  let bytes: [UInt8]
  let origins: [Int]?
  let encoding: [SampleEncoding]
  /// Where the text starts: after a UTF-8 byte order mark that starts a page, which is no text
  /// (a fence or JSON after it starts the line, as in a file the mark is skipped).
  let textStart: Int

  init(_ document: [UInt8]) {
    bytes = document
    origins = nil
    encoding = []
    textStart = document.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  }

  init(_ text: MappedText, encoding: [SampleEncoding]) {
    bytes = text.bytes
    origins = text.origins
    self.encoding = encoding
    textStart = 0
  }

  var count: Int { bytes.count }
  subscript(i: Int) -> UInt8 { bytes[i] }

  func origin(_ offset: Int) -> Int { origins?[offset] ?? offset }

  /// The bytes `range` as a mapped text of the document.
  func text(_ range: Range<Int>) -> MappedText {
    guard let origins else { return MappedText(bytes, range) }
    return MappedText(bytes: Array(bytes[range]), origins: Array(origins[range.lowerBound...range.upperBound]))
  }

  /// The end of the line that holds `offset` (the offset of its line break, or the end).
  func lineEnd(from offset: Int) -> Int {
    var i = offset
    while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
    return i
  }

  /// The start of the next line after `offset`'s line.
  func nextLine(from offset: Int) -> Int {
    var i = lineEnd(from: offset)
    if i < bytes.count, bytes[i] == 0x0D { i += 1 }
    if i < bytes.count, bytes[i] == 0x0A { i += 1 }
    return i
  }

  /// The first byte from `offset` that is not a space or a tab (nor the byte order mark).
  func skipBlanks(from offset: Int, to end: Int? = nil) -> Int {
    let end = end ?? bytes.count
    var i = offset < textStart ? min(textStart, end) : offset
    while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    return i
  }

  func hasPrefix(_ prefix: String, at offset: Int, ignoringCase: Bool = false) -> Bool {
    var i = offset
    for expected in prefix.utf8 {
      guard i < bytes.count else { return false }
      let byte = bytes[i]
      if ignoringCase ? Self.lower(byte) != Self.lower(expected) : byte != expected { return false }
      i += 1
    }
    return true
  }

  /// The first occurrence of `needle` in `range`, or nil.
  func find(_ needle: String, in range: Range<Int>, ignoringCase: Bool = false) -> Int? {
    let first = needle.utf8.first!
    var i = range.lowerBound
    let last = range.upperBound - needle.utf8.count
    while i <= last {
      if (ignoringCase ? Self.lower(bytes[i]) == Self.lower(first) : bytes[i] == first), hasPrefix(needle, at: i, ignoringCase: ignoringCase) {
        return i
      }
      i += 1
    }
    return nil
  }

  static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
