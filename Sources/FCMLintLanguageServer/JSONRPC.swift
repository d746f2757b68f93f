import FCMLintEngine
import FCMLintJSON
import FCMLintSystem
import FCMLintWorkspace

/// JSON-RPC 2.0 over standard input and output with LSP's base protocol: each message is a
/// `Content-Length: N` header block, a blank line, and N bytes of JSON
/// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#baseProtocol).
struct MessageReader {
  let fd: Int32
  /// A message larger than this is read and dropped (a client sending 64 MB at once is broken).
  static let maxMessage = 64 << 20
  /// A header block longer than this is malformed: LSP's is a line or two (Content-Length,
  /// Content-Type), and input without the blank line that ends one is neither held nor searched
  /// beyond this.
  static let maxHeader = 8 << 10
  /// The input read and not yet taken is `buffer[start..<end]`; reads go to `buffer[end...]`.
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var start = 0
  private var end = 0
  /// No header ends at a CR before this offset: each byte is searched once, however many reads
  /// a header takes to arrive.
  private var searched = 0
  /// Bytes searched for the end of a header so far: at most each byte once (the tests check it).
  private(set) var bytesSearched = 0
  /// The memory the buffer holds, which the longest message bounds, not the input (for the tests).
  var bufferSize: Int { buffer.capacity }

  init(fd: Int32) { self.fd = fd }

  enum Next {
    case message([UInt8])
    /// A header block without a usable Content-Length, or too long; a body too large: skipped.
    case malformed(String)
    case end
  }

  /// Whether more input is waiting right now (so a burst of changes can be taken whole before
  /// linting).
  func hasPendingInput() -> Bool {
    end > start || POSIX.hasInput(fd)
  }

  mutating func next() -> Next {
    // The header block.
    let headerEnd: Int
    switch findHeaderEnd(within: Self.maxHeader) {
    case .found(let at): headerEnd = at
    case .end: return .end
    case .tooLong:
      // Where the next message starts cannot be known: it is taken to start after the next
      // blank line.
      _ = findHeaderEnd(within: nil)
      return .malformed("a header block longer than \(Self.maxHeader) bytes (skipped to the next blank line)")
    }
    let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
    take(upTo: headerEnd + 4)
    var length: Int? = nil
    for line in header.split(separator: "\r\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "content-length" {
        length = Int(parts[1].drop { $0 == " " })
      }
    }
    guard let length, length >= 0 else { return .malformed("a message without a Content-Length header") }
    if length > Self.maxMessage {
      // Drop what is there and keep reading until the body has passed.
      var left = length
      while true {
        let dropped = min(left, end - start)
        take(upTo: start + dropped)
        left -= dropped
        if left == 0 { break }
        guard fill() else { return .end }
      }
      return .malformed("a message of \(length) bytes, more than \(Self.maxMessage)")
    }
    while end - start < length {
      guard fill() else { return .end }
    }
    let body = Array(buffer[start..<(start + length)])
    take(upTo: start + length)
    return .message(body)
  }

  private enum HeaderSearch {
    /// The offset of the blank line's CR LF CR LF.
    case found(Int)
    case tooLong
    case end
  }

  /// Finds the CR LF CR LF that ends the header block at `start`, reading as needed: searching on
  /// from where the last search stopped, and only `limit` bytes past `start`. With no limit, the
  /// input before the blank line is dropped as it is searched.
  private mutating func findHeaderEnd(within limit: Int?) -> HeaderSearch {
    while true {
      let from = max(start, searched)
      // The last offset a header end may start at, with what has arrived.
      let last = limit.map { min(end - 4, start + $0) } ?? end - 4
      var i = from
      while i <= last {
        if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
          bytesSearched += i + 1 - from
          searched = i
          if limit == nil { take(upTo: i + 4) }
          return .found(i)
        }
        i += 1
      }
      bytesSearched += i - from
      searched = i
      if let limit, i > start + limit { return .tooLong }
      if limit == nil { start = i }
      guard fill() else { return .end }
    }
  }

  /// Takes the input before `offset`: the next message starts there.
  private mutating func take(upTo offset: Int) {
    start = offset
    searched = offset
  }

  /// Reads what is available; false at the end of input. When the buffer is full, the input not
  /// yet taken moves to its front if that frees at least half of it, else the buffer doubles: so
  /// each byte is moved a bounded number of times, and the buffer stays within twice the longest
  /// message (or header) plus one read.
  private mutating func fill() -> Bool {
    if end == buffer.count {
      if start >= buffer.count / 2 {
        buffer.removeSubrange(0..<start)
        buffer.append(contentsOf: repeatElement(0, count: start))
        end -= start
        searched -= start
        start = 0
      } else {
        buffer.append(contentsOf: repeatElement(0, count: buffer.count))
      }
    }
    guard case .success(let n) = POSIX.read(fd, into: &buffer, from: end), n > 0 else { return false }
    end += n
    return true
  }
}

/// One incoming message, read from its JSON.
struct RPCMessage {
  let document: JSONDocument
  /// The request's id as written (a number or a string), to echo in the response; nil for a notification.
  let id: String?
  let method: String?
  let params: NodeID?

  init?(_ body: [UInt8]) {
    // A document's text is one string of the message: as long as the message may be.
    let options = JSONParser.Options(maxStringLength: MessageReader.maxMessage)
    guard case .success(let document) = JSONParser.parse(body, options: options), document.kind(JSONDocument.root) == .object else { return nil }
    self.document = document
    let root = JSONDocument.root
    id = document.member(root, "id").flatMap { id in
      let kind = document.kind(id)
      return kind == .number || kind == .string ? document.rawText(id) : nil
    }
    method = document.member(root, "method").flatMap(document.string)
    params = document.member(root, "params")
  }

  /// The node at `path` below `params` (object members by name, array elements by index).
  func value(_ path: String...) -> NodeID? { valueAt(path) }

  func string(_ path: String...) -> String? { valueAt(path).flatMap(document.string) }
  func int(_ path: String...) -> Int? { valueAt(path).flatMap { document.kind($0) == .number ? Int(document.rawText($0)) : nil } }

  private func valueAt(_ path: [String]) -> NodeID? {
    var node = params
    for name in path {
      guard let current = node else { return nil }
      if let index = Int(name), document.kind(current) == .array {
        node = Array(document.children(current)).dropFirst(index).first
      } else {
        node = document.kind(current) == .object ? document.member(current, name) : nil
      }
    }
    return node
  }
}

/// Writes messages with their header.
struct MessageWriter {
  let fd: Int32

  func send(_ json: String) {
    Console.write("Content-Length: \(json.utf8.count)\r\n\r\n" + json, to: fd)
  }

  func respond(id: String, result: String) {
    send("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"result\":\(result)}")
  }

  func respond(id: String, errorCode: Int, message: String) {
    send("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"error\":{\"code\":\(errorCode),\"message\":\(JSONText.quote(message))}}")
  }

  func notify(_ method: String, _ params: String) {
    send("{\"jsonrpc\":\"2.0\",\"method\":\(JSONText.quote(method)),\"params\":\(params)}")
  }
}

/// JSON-RPC and LSP error codes.
enum RPCError {
  static let parseError = -32700
  static let invalidRequest = -32600
  static let methodNotFound = -32601
  static let invalidParams = -32602
  static let serverNotInitialized = -32002
  /// LSP 3.17's RequestCancelled: the answer to a request the client cancelled.
  static let requestCancelled = -32800
  static let invalidRequestAfterShutdown = -32600
}
