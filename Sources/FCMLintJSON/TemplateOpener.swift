#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONParser {
  /// Whether `bytes` hold a template placeholder opener: `{{`, `{%`, `${` or `$(`. Every file
  /// linted is asked, so the C library's vectorised `memchr` finds each '{' and '$' (in JSON
  /// mostly the openings of objects, a dozen a message) and only the byte after it is read.
  public static func containsTemplateOpener(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      // The last byte cannot start an opener.
      let searched = buffer.count - 1
      guard searched > 0, let base = buffer.baseAddress else { return false }
      func follows(_ first: UInt8, by one: UInt8, or other: UInt8) -> Bool {
        var from = 0
        while from < searched, let hit = memchr(base + from, Int32(first), searched - from) {
          let at = UnsafeRawPointer(hit) - base
          let next = buffer[at + 1]
          if next == one || next == other { return true }
          from = at + 1
        }
        return false
      }
      return follows(UInt8(ascii: "{"), by: UInt8(ascii: "{"), or: UInt8(ascii: "%"))
        || follows(UInt8(ascii: "$"), by: UInt8(ascii: "{"), or: UInt8(ascii: "("))
    }
  }
}
