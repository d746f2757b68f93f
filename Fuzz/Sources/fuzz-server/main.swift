import FCMLintLanguageServer
import FuzzSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The language server on a stream the input describes, never crashing or hanging:
/// - first byte odd: the rest is the stream as it is (the base protocol's framing fuzzed);
/// - else the rest is message bodies separated by NUL bytes, each framed with its Content-Length,
///   between an `initialize` (workspace: a scratch folder) and `shutdown`/`exit`. Bits 1-2 of the
///   first byte pad each header to around its limit (8 KiB: under, at, over); bits 3-5 make each
///   `@@` in a body a run of text around the sizes the server once treated apart (1 MiB) and up
///   to 8 MiB, so small inputs reach large buffers.
func fuzzServer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = Fuzz.bytes(data, size)
  guard let mode = input.first else { return 0 }
  let stream = mode & 1 == 1 ? Array(input.dropFirst()) : framed(Array(input.dropFirst()), mode: mode)
  guard let fd = ServerScratch.stream(stream) else { return 0 }
  defer { close(fd) }
  let server = LanguageServer(version: "fuzz", input: fd, output: ServerScratch.devNull, endsWithItsClient: false)
  _ = server.run()
  return 0
}

/// The stream of a session: `initialize`, the bodies, `shutdown`, `exit`.
func framed(_ rest: [UInt8], mode: UInt8) -> [UInt8] {
  let padding = [0, 8192 - 64, 8192 - 22, 8192 + 16][Int(mode >> 1 & 3)]
  let run = [0, 4 << 10, 64 << 10, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 2 << 20, 8 << 20][Int(mode >> 3 & 7)]
  let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"rootUri":"file://\#(ServerScratch.folder)","capabilities":{"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}},"workspace.workspaceEdit":{"documentChanges":true}}}}"#
  var bodies: [[UInt8]] = [Array(initialize.utf8), Array(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#.utf8)]
  for body in rest.split(separator: 0, omittingEmptySubsequences: false) {
    bodies.append(run > 0 ? Fuzz.inflate(body, run) : Array(body))
  }
  bodies.append(Array(#"{"jsonrpc":"2.0","id":999999,"method":"shutdown"}"#.utf8))
  bodies.append(Array(#"{"jsonrpc":"2.0","method":"exit"}"#.utf8))
  var out: [UInt8] = []
  for body in bodies {
    var header = "Content-Length: \(body.count)\r\n"
    if padding > 0 { header += "X-Padding: " + String(repeating: "p", count: max(0, padding - header.utf8.count - 15)) + "\r\n" }
    out += Array((header + "\r\n").utf8) + body
  }
  return out
}

/// Where a session's stream is written for the server to read, and the folder it serves.
enum ServerScratch {
  static let folder: String = {
    let path = "/tmp/fcmlint-fuzz-server-\(getpid())"
    mkdir(path, 0o755)
    return path
  }()
  static let devNull = open("/dev/null", O_WRONLY)

  /// A descriptor reading `bytes` from their start (a file: a pipe would need a writer thread).
  static func stream(_ bytes: [UInt8]) -> Int32? {
    let path = folder + "/stream"
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return nil }
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
      if n <= 0 { break }
      written += n
    }
    lseek(fd, 0, SEEK_SET)
    return fd
  }
}

// Last: top-level values above are initialised in order, and this never returns.
Fuzz.run { fuzzServer($0, $1) }
