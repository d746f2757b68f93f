import FCMLintEngine
import FCMLintJSON
import FCMLintSystem

/// JSON-RPC 2.0 over standard input and output with LSP's base protocol: each message is a
/// `Content-Length: N` header block, a blank line, and N bytes of JSON
/// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#baseProtocol).
struct MessageReader {
  let fd: Int32
  /// A message larger than this is read and dropped (a client sending 64 MB at once is broken).
  static let maxMessage = 64 << 20
  private var buffer: [UInt8] = []
  private var start = 0

  init(fd: Int32) { self.fd = fd }

  enum Next {
    case message([UInt8])
    /// A header block without a usable Content-Length, or a body too large: skipped.
    case malformed(String)
    case end
  }

  /// Whether more input is waiting right now (so a burst of changes can be taken whole before
  /// linting).
  func hasPendingInput() -> Bool {
    buffer.count > start || POSIX.hasInput(fd)
  }

  mutating func next() -> Next {
    // The header block.
    var headerEnd: Int? = nil
    while headerEnd == nil {
      if let end = find([13, 10, 13, 10], from: start) {
        headerEnd = end
      } else if !fill() {
        return .end
      }
    }
    let header = String(decoding: buffer[start..<headerEnd!], as: UTF8.self)
    start = headerEnd! + 4
    var length: Int? = nil
    for line in header.split(separator: "\r\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "content-length" {
        length = Int(parts[1].drop { $0 == " " })
      }
    }
    guard let length, length >= 0 else { return .malformed("a message without a Content-Length header") }
    while buffer.count - start < length {
      if length > Self.maxMessage {
        // Drop what is there and keep reading until the body has passed.
        var left = length - (buffer.count - start)
        buffer.removeAll(keepingCapacity: true)
        start = 0
        while left > 0 {
          guard fill() else { return .end }
          let take = min(left, buffer.count)
          buffer.removeFirst(take)
          left -= take
        }
        return .malformed("a message of \(length) bytes, more than \(Self.maxMessage)")
      }
      guard fill() else { return .end }
    }
    let body = Array(buffer[start..<(start + length)])
    start += length
    if start > 1 << 16 {
      buffer.removeFirst(start)
      start = 0
    }
    return .message(body)
  }

  private func find(_ pattern: [UInt8], from: Int) -> Int? {
    guard buffer.count >= pattern.count else { return nil }
    var i = from
    while i + pattern.count <= buffer.count {
      if buffer[i] == pattern[0] && buffer[i + 1] == pattern[1] && buffer[i + 2] == pattern[2] && buffer[i + 3] == pattern[3] { return i }
      i += 1
    }
    return nil
  }

  /// Reads what is available; false at the end of input.
  private mutating func fill() -> Bool {
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: 1 << 16))
    let n = (try? POSIX.read(fd, into: &buffer, from: old).get()) ?? 0
    buffer.removeSubrange((old + n)...)
    return n > 0
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
    guard case .success(let document) = JSONParser.parse(body), document.kind(JSONDocument.root) == .object else { return nil }
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
