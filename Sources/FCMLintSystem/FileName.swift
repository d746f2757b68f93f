#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File names are bytes; above this module a path is a Swift `String`, which holds only Unicode
/// scalars. The two meet here, losslessly, so that any name the system allows can be opened,
/// walked, fixed and shown:
///
/// - `decode` turns the bytes of a name or path (a directory entry, a word of the command line,
///   getcwd, realpath, a `file://` URI's percent-escapes) into a String. Valid UTF-8 becomes its
///   scalars; each byte that is not part of valid UTF-8 becomes one *escape scalar*,
///   U+10FF00 + the byte (U+10FF80 to U+10FFFF, the end of plane 16, private use; a byte below
///   0x80 is always valid).
///   A valid name that itself holds one of those 128 scalars has that scalar's four bytes
///   escaped too, so no escape scalar comes out of decoding but from one byte.
/// - `withPath` and `bytes` turn a String back into the bytes it came from (an escape scalar is
///   its byte, any other scalar its UTF-8), for every system call of this module that takes a
///   path: `bytes(decode(b)) == b` for all bytes.
/// - `shown` is a name as display text: each escape scalar as `\xNN` (the format's own escaping
///   of control characters and quotes still applies after it).
///
/// Like Python's `surrogateescape`, which Swift cannot use (a String holds no lone surrogate).
public enum FileName {
  /// The escape scalars are U+10FF00 + byte, for the bytes 0x80 to 0xFF.
  static let escapeBase: UInt32 = 0x10FF00

  /// The byte an escape scalar stands for; nil for any other scalar.
  static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
    scalar.value >= 0x10FF80 ? UInt8(truncatingIfNeeded: scalar.value) : nil
  }

  /// A name or path from the system's bytes (no NUL among them).
  public static func decode(_ bytes: some Collection<UInt8>) -> String {
    bytes.withContiguousStorageIfAvailable(decode(buffer:)) ?? Array(bytes).withUnsafeBufferPointer(decode(buffer:))
  }

  /// A path from a NUL-terminated C string the system gave.
  static func decode(cString: UnsafePointer<CChar>) -> String {
    let count = strlen(cString)
    return cString.withMemoryRebound(to: UInt8.self, capacity: count) { decode(buffer: UnsafeBufferPointer(start: $0, count: count)) }
  }

  static func decode(buffer b: UnsafeBufferPointer<UInt8>) -> String {
    // Valid UTF-8 without an escape scalar's bytes (all names, nearly) is its String as it is.
    // Checked here, byte by byte: `String(validating:as:)`, being generic, looked up type
    // metadata on every call (about 0.4 M instructions over a walk of 500 files).
    var i = 0
    while i < b.count {
      let length = validSequenceLength(b, at: i)
      if length == 0 { return escaping(b) }
      i += length
    }
    return String(decoding: b, as: UTF8.self)
  }

  /// The slow path: each byte that starts no valid sequence (or one of an escape scalar's
  /// bytes) as its escape scalar.
  static func escaping(_ b: UnsafeBufferPointer<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    var i = 0
    while i < b.count {
      let length = validSequenceLength(b, at: i)
      if length == 0 {
        scalars.append(Unicode.Scalar(escapeBase + UInt32(b[i]))!)
        i += 1
      } else {
        var value = length == 1 ? UInt32(b[i]) : UInt32(b[i]) & (0xFF >> (length + 1))
        for k in 1..<length { value = value << 6 | UInt32(b[i + k] & 0x3F) }
        scalars.append(Unicode.Scalar(value)!)
        i += length
      }
    }
    return String(scalars)
  }

  /// The length of the well-formed UTF-8 sequence at `i` (Unicode's table 3-7), 0 where none
  /// starts or where it encodes an escape scalar (F4 8F BE..BF xx): each of its bytes is then
  /// escaped on its own.
  @inline(__always)
  static func validSequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    let lead = b[i]
    if lead < 0x80 { return 1 }
    func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool { i + k < b.count && range.contains(b[i + k]) }
    switch lead {
    case 0xC2...0xDF: return continuation(1) ? 2 : 0
    case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
    case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
    case 0xE1...0xEF: return continuation(1) && continuation(2) ? 3 : 0
    case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF4:
      guard continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) else { return 0 }
      return b[i + 1] == 0x8F && b[i + 2] >= 0xBE ? 0 : 4
    default: return 0
    }
  }

  /// Whether `text` may hold an escape scalar: its UTF-8 has the byte 0xF4, which starts every
  /// scalar from U+100000 on (one memchr: iterating the UTF-8 view cost 800 instructions a file).
  @inline(__always)
  static func mayHoldEscapes(_ text: String) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { $0.count > 0 && memchr($0.baseAddress!, 0xF4, $0.count) != nil } ?? text.utf8.contains(0xF4)
  }

  /// The bytes `path` stands for (no NUL added).
  public static func bytes(_ path: String) -> [UInt8] {
    guard mayHoldEscapes(path) else { return Array(path.utf8) }
    var out: [UInt8] = []
    out.reserveCapacity(path.utf8.count)
    for scalar in path.unicodeScalars {
      if let byte = escapedByte(scalar) { out.append(byte) } else { out.append(contentsOf: UTF8.encode(scalar)!) }
    }
    return out
  }

  /// Calls `body` with `path` as the NUL-terminated bytes it stands for: how every system call
  /// here is given a path.
  static func withPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
    guard mayHoldEscapes(path) else { return try path.withCString(body) }
    return try (bytes(path) + [0]).withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
  }

  /// Two paths at once (rename).
  static func withPaths<Result>(_ a: String, _ b: String, _ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
    try withPath(a) { a in try withPath(b) { b in try body(a, b) } }
  }

  /// A name's bytes hashed (64-bit FNV-1a), for tables of names that compare their bytes.
  public static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }

  /// Where a name's `hash` goes in a table of `1 << bits` slots: the top bits of the hash times
  /// an odd number drawn once a run (multiply-shift). File names are whatever a repository holds,
  /// and FNV-1a is easy to steer: names made to share the bits a table reads would make each
  /// insertion walk past all the others; they cannot know which bits these are.
  public static func slot(_ hash: UInt64, bits: Int) -> Int {
    Int(truncatingIfNeeded: (hash &* slotMultiplier) >> UInt64(64 - bits))
  }

  private static let slotMultiplier = UInt64.random(in: 0...UInt64.max) | 1

  /// A name as display text: each byte that is not UTF-8 as `\xNN` (lower-case hex), the rest
  /// as it is. The one place a name becomes text to show; report formats escape what they must
  /// after it.
  public static func shown(_ name: String) -> String {
    guard mayHoldEscapes(name) else { return name }
    var out = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      if let byte = escapedByte(scalar) {
        let digits = Array("0123456789abcdef".unicodeScalars)
        out.append(contentsOf: ["\\", "x", digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// The words of the command line, the program's name first, decoded as names are: a word
  /// that is not UTF-8 (a file name a shell's glob expanded) keeps its bytes.
  /// (`CommandLine.arguments` replaces such bytes with U+FFFD, naming no file.)
  public static var commandLine: [String] {
    (0..<Int(CommandLine.argc)).map { index in
      CommandLine.unsafeArgv[index].map { decode(cString: $0) } ?? ""
    }
  }
}
