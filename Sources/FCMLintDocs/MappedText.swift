/// Text made from part of a document (a code block's lines without their indentation, an HTML
/// block with its entities decoded, a Node.js object literal written out as the JSON the Admin
/// SDK sends), with the document offset each byte came from, so that diagnostics and fixes of the
/// text land in the document.
public struct MappedText: Sendable, Equatable {
  public var bytes: [UInt8]
  /// `origins[i]` is the document offset of `bytes[i]`; `origins[bytes.count]` is where the text
  /// ends in the document. A byte that was added (a quote around a Node.js key) takes the offset
  /// of the source byte it stands for.
  public var origins: [Int]

  public init(bytes: [UInt8] = [], origins: [Int] = [0]) {
    precondition(origins.count == bytes.count + 1)
    self.bytes = bytes
    self.origins = origins
  }

  /// The document's bytes `range`, unchanged.
  public init(_ document: [UInt8], _ range: Range<Int>) {
    bytes = Array(document[range])
    origins = Array(range.lowerBound...range.upperBound)
  }

  /// Appends `byte`, which came from document offset `origin`.
  public mutating func append(_ byte: UInt8, from origin: Int) {
    origins[origins.count - 1] = origin
    bytes.append(byte)
    origins.append(origin + 1)
  }

  /// Appends the document's bytes `range`, unchanged.
  public mutating func append(_ document: [UInt8], _ range: Range<Int>) {
    for offset in range { append(document[offset], from: offset) }
  }

  /// Appends bytes that stand for the document's bytes `range` (an entity decoded, an escape
  /// turned into its character): each maps to the range's start, and the text goes on after it.
  public mutating func append<Bytes: Sequence<UInt8>>(_ added: Bytes, standingFor range: Range<Int>) {
    let end = origins.count - 1
    origins[end] = range.lowerBound
    for byte in added {
      bytes.append(byte)
      origins.append(range.lowerBound)
    }
    origins[origins.count - 1] = range.upperBound
  }

  /// The document offset of text offset `offset` (0...bytes.count).
  public func origin(of offset: Int) -> Int { origins[max(0, min(offset, bytes.count))] }
}
