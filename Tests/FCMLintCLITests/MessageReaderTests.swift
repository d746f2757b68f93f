@testable import FCMLintLanguageServer
import FCMLintSystem
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The language server's message reader: a header block is searched once, however many reads it
/// takes to arrive, and only so far; input is held by the message, not by the stream. Counted,
/// not timed (100 MB without a blank line took 38 s when each read searched the header again).
final class MessageReaderTests: XCTestCase {
  static func frame(_ body: String) -> [UInt8] { Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8) }

  /// Everything the reader makes of `input`, written into a pipe by another thread in pieces of
  /// the pipe's size, and the reader at the end.
  func read(_ input: [UInt8]) throws -> (found: [String], reader: MessageReader) {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let writeEnd = fds[1]
    let writer = Thread {
      _ = POSIX.write(input, to: writeEnd)
      close(writeEnd)
    }
    writer.start()
    var reader = MessageReader(fd: fds[0])
    var found: [String] = []
    loop: while true {
      switch reader.next() {
      case .message(let body): found.append("message " + String(decoding: body, as: UTF8.self))
      case .malformed(let why): found.append("malformed: " + why)
      case .end: break loop
      }
    }
    close(fds[0])
    return (found, reader)
  }

  func testAnUnterminatedHeaderIsSearchedOnceAndNotHeld() throws {
    let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
    let input = Self.frame("{}") + junk + Array("\r\n\r\n".utf8) + Self.frame("[1]")
    let (found, reader) = try read(input)
    XCTAssertEqual(
      found, ["message {}", "malformed: a header block longer than 8192 bytes (skipped to the next blank line)", "message [1]"])
    XCTAssertLessThanOrEqual(reader.bytesSearched, input.count, "each byte searched once")
    XCTAssertLessThanOrEqual(reader.bufferSize, 1 << 17, "the junk is dropped as it is searched, not held")
  }

  /// The limit is on the header block: one of exactly `maxHeader` bytes is read, one byte more is
  /// malformed (and skipped to its blank line), and the messages after each are read as usual.
  func testTheHeaderLimitIsExact() throws {
    func message(header size: Int, body: String) -> [UInt8] {
      let start = "Content-Length: \(body.utf8.count)\r\nX-Padding: "
      return Array((start + String(repeating: "p", count: size - start.utf8.count) + "\r\n\r\n" + body).utf8)
    }
    let input = message(header: MessageReader.maxHeader, body: "{}") + message(header: MessageReader.maxHeader + 1, body: "") + Self.frame("[2]")
    let (found, _) = try read(input)
    XCTAssertEqual(found.count, 3, "\(found)")
    XCTAssertEqual(found.first, "message {}")
    XCTAssertTrue(found.dropFirst().first?.hasPrefix("malformed: a header block longer than") == true, "\(found)")
    XCTAssertEqual(found.last, "message [2]")
  }

  /// Bodies arrive in pieces, many messages in one read, a body larger than the limit is
  /// dropped: the buffer holds about the longest message, however long the stream.
  func testManyMessagesAndALargeOne() throws {
    let large = "[" + String(repeating: "1,", count: 600_000) + "1]"
    var input: [UInt8] = []
    for i in 0..<20_000 { input += Self.frame("[\(i)]") }
    input += Self.frame(large) + Self.frame("{}")
    let (found, reader) = try read(input)
    XCTAssertEqual(found.count, 20_002)
    XCTAssertEqual(found[19_999], "message [19999]")
    XCTAssertEqual(found[20_000].utf8.count, "message ".utf8.count + large.utf8.count)
    XCTAssertEqual(found.last, "message {}")
    XCTAssertLessThanOrEqual(reader.bytesSearched, input.count)
    XCTAssertLessThanOrEqual(reader.bufferSize, 4 * large.utf8.count)
  }
}

extension LanguageServerTests {
  /// Through the binary: megabytes of input without a blank line are one malformed header, and
  /// the server answers the next request.
  func testAnOverlongHeaderIsSkippedAndTheServerGoesOn() throws {
    let session = try start()
    session.sendRaw(Data(repeating: UInt8(ascii: "x"), count: 4 << 20) + Data("\r\n\r\n".utf8))
    let uri = root.appendingPathComponent("h.json").absoluteString
    try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": Self.broken]])
    XCTAssertFalse(try session.diagnostics(for: uri).isEmpty)
    XCTAssertTrue(try session.request("shutdown").keys.contains("result"))
    try session.notify("exit", [:])
    session.process.waitUntilExit()
    XCTAssertEqual(session.process.terminationStatus, 0)
  }
}
