#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FCMLintFormatters
import FCMLintSystem
import FCMLintWorkspace

/// `--url-cache FILE`: what each image URL answered, kept between runs, so that a URL checked
/// within `--url-cache-max-age` is not fetched again and its findings (or none) are reported as
/// they were. Text, versioned, one entry a line and each finding on a line after it:
///
///     fcmlint-url-cache\t1
///     url\tCHECKED\tPLATFORMS\tOUTCOME\tURL
///     finding\tRULE\tDETAIL
///
/// (`\t` a tab; no URL or detail holds one). CHECKED is seconds since 1970,
/// PLATFORMS the bit mask of the platforms it was judged for (1 Android, 2 Apple, 4 web),
/// OUTCOME `fetched` or `failed` (an error status, DNS, connection, TLS, time-out). A file that cannot
/// be read or is not this format is ignored with a warning and written anew, as a cache is only a
/// saving; it is written whole to a temporary file renamed over it, so it is never half written.
struct URLCache {
  static let header = "fcmlint-url-cache\t1"
  /// `--url-cache-max-age`'s default: a day.
  static let defaultMaxAge: Double = 86_400

  struct Entry {
    var checked: Int
    var failed: Bool
    var findings: [(rule: String, detail: String)]
  }

  /// By "PLATFORMS\tURL", the line the checker is given.
  var entries: [String: Entry] = [:]

  /// Seconds since 1970.
  static func now() -> Int { Int(time(nil)) }

  /// The cache in `path`: empty when there is none yet; empty with a warning when it cannot be
  /// read or is not a cache.
  static func load(_ path: String) -> URLCache {
    guard FileSystem.exists(path) else { return URLCache() }
    let text: String
    switch FileSystem.read(path, limit: 256 << 20) {
    case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
    case .failure(let error):
      warn(path, "cannot be read (\(error.message))")
      return URLCache()
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    guard lines.first == Substring(header) else {
      warn(path, "is not an fcmlint URL cache of this version")
      return URLCache()
    }
    var cache = URLCache()
    var current: String? = nil
    for (number, line) in lines.enumerated().dropFirst() {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      switch (fields.first, fields.count) {
      case ("url", 5) where Int(fields[1]) != nil && UInt8(fields[2]) != nil && (fields[3] == "fetched" || fields[3] == "failed"):
        let key = "\(fields[2])\t\(fields[4])"
        cache.entries[key] = Entry(checked: Int(fields[1])!, failed: fields[3] == "failed", findings: [])
        current = key
      case ("finding", 3) where current != nil:
        cache.entries[current!]?.findings.append((String(fields[1]), String(fields[2])))
      default:
        warn(path, "line \(number + 1) is not an entry of an fcmlint URL cache")
        return URLCache()
      }
    }
    return cache
  }

  /// The entry of `key` if it was checked within `maxAge` seconds of `now`.
  func fresh(_ key: String, now: Int, maxAge: Double) -> Entry? {
    guard let entry = entries[key], entry.checked <= now, Double(now - entry.checked) <= maxAge else { return nil }
    return entry
  }

  /// Writes the entries checked within `maxAge` of `now`, sorted, replacing the file atomically;
  /// a warning if it cannot be written.
  func save(_ path: String, now: Int, maxAge: Double) {
    var text = Self.header + "\n"
    for key in entries.keys.sorted() {
      guard let entry = fresh(key, now: now, maxAge: maxAge), let tab = key.firstIndex(of: "\t") else { continue }
      text += "url\t\(entry.checked)\t\(key[..<tab])\t\(entry.failed ? "failed" : "fetched")\t\(key[key.index(after: tab)...])\n"
      for finding in entry.findings { text += "finding\t\(finding.rule)\t\(finding.detail)\n" }
    }
    if case .failure(let error) = FileSystem.write(text, to: path) { Self.warn(path, "cannot be written (\(error.message))", ignored: false) }
  }

  static func warn(_ path: String, _ problem: String, ignored: Bool = true) {
    Console.err("fcmlint: warning: --url-cache \(TextFormatter.printable(path)) \(problem)\(ignored ? ": ignored, and written anew" : "")\n")
  }
}
