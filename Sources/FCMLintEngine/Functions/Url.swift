import FCMLintJSON

/// A string must be a URL with an allowed scheme and, when `extensions` is given, a path whose last
/// segment ends in one of them. The extension is read from the path only: in
/// `https://foo.bar.pizza-monster.png` the ".png" is part of the host name, and the path is empty.
struct URLCheck: RuleFunction {
  static let name = "url"
  static let ignoresMissing = true
  static let summary = "A string must be an absolute URL with one of `schemes`, and its path must end in one of `extensions`."
  static let options = [
    OptionSpec("schemes", .strings, "allowed schemes, lower case (for example https); any when absent"),
    OptionSpec("extensions", .strings, "allowed file extensions of the path's last segment, without the dot; not checked when absent"),
    OptionSpec(
      "missingExtension", .string,
      "a path with no extension at all: `report` it (default), let it `pass` (a host name ending in one of `extensions` is still reported), or report `only` that case (not a wrong extension, nor one in the host name), so another rule can give it its own severity"),
  ]
  static let placeholders = ["scheme", "host", "extension", "allowed"]

  let schemes: [String]?
  let extensions: [String]?
  let missingExtension: MissingExtension
  /// `schemes` and `extensions` as bytes, for URLs that pass without a String made of them.
  private let schemeBytes: [[UInt8]]?
  private let extensionBytes: [[UInt8]]?
  enum MissingExtension: String { case report, pass, only }
  /// The lists as messages write them, made once: every checked URL used to build them.
  /// The lists messages name: joined for a finding only (every start makes this function).
  var schemeChoices: String { (schemes ?? []).joined(separator: " or ") }
  var schemeList: String { (schemes ?? []).joined(separator: ", ") }
  var extensionList: String { (extensions ?? []).map { "." + $0 }.joined(separator: ", ") }

  init(options: FunctionOptions) throws(OptionError) {
    schemes = options.strings("schemes")?.map { $0.lowercased() }
    extensions = options.strings("extensions")?.map { $0.lowercased() }
    if schemes == nil && extensions == nil { throw OptionError("needs 'schemes' or 'extensions'") }
    if let extensions, extensions.contains(where: { $0.hasPrefix(".") || $0.isEmpty }) {
      throw OptionError(option: "extensions", "write extensions without the leading dot, like 'png'")
    }
    let missing = options.string("missingExtension") ?? "report"
    guard let missingExtension = MissingExtension(rawValue: missing) else {
      throw OptionError(option: "missingExtension", "must be report, pass or only, not '\(missing)'")
    }
    if extensions == nil, missingExtension != .report { throw OptionError(option: "missingExtension", "needs 'extensions'") }
    self.missingExtension = missingExtension
    schemeBytes = schemes.map { $0.map { Array($0.utf8) } }
    extensionBytes = extensions.map { $0.map { Array($0.utf8) } }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target else { return [] }
    // Most URLs pass: those are read from the document's bytes, without a String (a String and
    // its parts cost about 2,000 instructions a URL).
    let node = context.document[id]
    if node.kind == .string, !node.valueHasEscapes {
      if plainlyPasses(context.document.bytes[(Int(node.start) + 1)..<(Int(node.end) - 1)]) { return [] }
    }
    guard let text = context.document.string(id) else { return [] }
    let url = URLParts(text)
    // The placeholder values, built only for a finding (most URLs have none).
    func values(allowed: String) -> [String: String] {
      ["scheme": url.scheme ?? "", "host": url.host ?? "", "extension": url.pathExtension ?? "", "allowed": allowed]
    }
    if let schemes {
      guard let scheme = url.scheme, url.host != nil else {
        return [Finding(target, detail: "'\(text)' is not an absolute URL (expected \(schemes.map { "\($0)://" }.joined(separator: " or "))...)", values(allowed: schemeList))]
      }
      if !schemes.contains(scheme) {
        return [Finding(target, detail: "the scheme '\(scheme)' is not allowed here (use \(schemeChoices))", values(allowed: schemeList))]
      }
    }
    if let extensions {
      var allowed: String { extensionList }
      // Outside `report`, "missing" means no dot at all in the last segment: ".txt" or "a." is a
      // file name whose extension is wrong, not one without an extension.
      if url.pathExtension == nil, missingExtension != .report, let suffix = url.lastDotSuffix {
        if missingExtension == .only || extensions.contains(suffix.lowercased()) { return [] }
        return [Finding(target, detail: "'.\(suffix)' is not a supported extension (expected one of \(allowed))", values(allowed: allowed))]
      }
      guard let ext = url.pathExtension else {
        var detail = "the path of '\(text)' has no file extension"
        var inHost = false
        if let host = url.host, let dot = host.lastIndex(of: "."), extensions.contains(host[host.index(after: dot)...].lowercased()) {
          detail += " (the '\(host[dot...])' is part of the host name '\(host)', not of the path)"
          inHost = true
        }
        switch missingExtension {
        case .report: break
        case .pass: if !inHost { return [] }
        case .only: if inHost { return [] }
        }
        return [Finding(target, detail: detail, values(allowed: allowed))]
      }
      if missingExtension == .only { return [] }
      if !extensions.contains(ext.lowercased()) {
        return [Finding(target, detail: "'.\(ext)' is not a supported extension (expected one of \(allowed))", values(allowed: allowed))]
      }
    }
    return []
  }
}

extension URLCheck {
  /// Whether the URL in `bytes` passes every check, read without making Strings; false also
  /// where it cannot tell that way (non-ASCII scheme or extension, the rarer options), and
  /// `check` then decides from the text.
  private func plainlyPasses(_ bytes: ArraySlice<UInt8>) -> Bool {
    let url = URLSpans(bytes)
    // The lists read in place, not bound (`if let` copied them, retaining them at every URL).
    if schemeBytes != nil {
      guard let scheme = url.scheme, url.host != nil, Self.contains(bytes, scheme, in: schemeBytes!) else { return false }
    }
    if extensionBytes != nil {
      guard let ext = url.pathExtension else { return false }
      if missingExtension == .only { return true }
      return Self.contains(bytes, ext, in: extensionBytes!)
    }
    return true
  }

  /// Whether `bytes[range]` spells one of `names` in any case (by index: iterating copied each name).
  private static func contains(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>, in names: [[UInt8]]) -> Bool {
    for i in names.indices where sameIgnoringASCIICase(bytes, range, names[i]) { return true }
    return false
  }

  /// Whether `bytes[range]` spells `lower` (lower-case ASCII) in any case. Non-ASCII never matches.
  private static func sameIgnoringASCIICase(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>, _ lower: [UInt8]) -> Bool {
    guard range.count == lower.count else { return false }
    var i = 0
    for position in range {
      var c = bytes[position]
      if c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") { c |= 0x20 }
      if c != lower[i] { return false }
      i += 1
    }
    return true
  }
}

/// The parts of a URL that rules look at, as ranges of the indices of its UTF-8 bytes (see
/// `URLParts`).
struct URLSpans {
  var scheme: Range<Int>?
  var host: Range<Int>?
  var pathExtension: Range<Int>?
  var lastDotSuffix: Range<Int>?

  init(_ b: ArraySlice<UInt8>) {
    func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    var i = b.startIndex
    if let colon = b.firstIndex(of: UInt8(ascii: ":")), colon > i, isLetter(b[i]),
      b[..<colon].allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
    {
      scheme = i..<colon
      i = colon + 1
    }
    if b.endIndex - i >= 2, b[i] == UInt8(ascii: "/"), b[i + 1] == UInt8(ascii: "/") {
      i += 2
      let end = b[i...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? b.endIndex
      var start = i, stop = end
      if let at = b[start..<stop].lastIndex(of: UInt8(ascii: "@")) { start = at + 1 }
      if let colon = b[start..<stop].lastIndex(of: UInt8(ascii: ":")), !(stop > start && b[stop - 1] == UInt8(ascii: "]")) { stop = colon }
      host = stop > start ? start..<stop : nil
      i = end
    }
    let pathEnd = b[i...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? b.endIndex
    let segmentStart = b[i..<pathEnd].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? i
    if let dot = b[segmentStart..<pathEnd].lastIndex(of: UInt8(ascii: ".")) {
      lastDotSuffix = (dot + 1)..<pathEnd
      if dot != segmentStart, dot + 1 < pathEnd { pathExtension = (dot + 1)..<pathEnd }
    }
  }
}

/// The parts of a URL that rules look at, split per RFC 3986 without percent-decoding. Works on
/// the UTF-8 bytes (every delimiter is ASCII), not on Characters: every image URL of every message
/// is split several times.
struct URLParts {
  var scheme: String?
  var host: String?
  /// The extension of the path's last segment, without the dot.
  var pathExtension: String?
  /// What follows the last dot of the path's last segment, even where that is no extension
  /// (".txt", a name that is all extension; "a.", an empty one); nil when the segment has no dot.
  var lastDotSuffix: String?

  init(_ text: String) {
    let b = Array(text.utf8)[...]
    let spans = URLSpans(b)
    func string(_ range: Range<Int>) -> String { String(decoding: b[range], as: UTF8.self) }
    scheme = spans.scheme.map { string($0).lowercased() }
    host = spans.host.map(string)
    pathExtension = spans.pathExtension.map(string)
    lastDotSuffix = spans.lastDotSuffix.map(string)
  }
}
