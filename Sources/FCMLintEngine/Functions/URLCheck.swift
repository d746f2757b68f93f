import FCMLintJSON

/// A string must be a URL with an allowed scheme and, when `extensions` is given, a path whose last
/// segment ends in one of them. The extension is read from the path only: in
/// `https://foo.bar.pizza-monster.png` the ".png" is part of the host name, and the path is empty.
struct URLCheck: RuleFunction {
  static let name = "url"
  static let summary = "A string must be an absolute URL with one of `schemes`, and its path must end in one of `extensions`."
  static let options = [
    OptionSpec("schemes", .strings, "allowed schemes, lower case (for example https); any when absent"),
    OptionSpec("extensions", .strings, "allowed file extensions of the path's last segment, without the dot; not checked when absent"),
  ]
  static let placeholders = ["scheme", "host", "extension", "allowed"]

  let schemes: [String]?
  let extensions: [String]?

  init(options: FunctionOptions) throws(OptionError) {
    schemes = options.strings("schemes")?.map { $0.lowercased() }
    extensions = options.strings("extensions")?.map { $0.lowercased() }
    if schemes == nil && extensions == nil { throw OptionError("needs 'schemes' or 'extensions'") }
    if let extensions, extensions.contains(where: { $0.hasPrefix(".") || $0.isEmpty }) {
      throw OptionError(option: "extensions", "write extensions without the leading dot, like 'png'")
    }
  }

  func check(_ target: JSONPath.Resolution, in context: FunctionContext) -> [Finding] {
    guard case .found(let id) = target, let text = context.document.string(id) else { return [] }
    let url = URLParts(text)
    var values = ["scheme": url.scheme ?? "", "host": url.host ?? "", "extension": url.pathExtension ?? ""]
    if let schemes {
      values["allowed"] = schemes.joined(separator: ", ")
      guard let scheme = url.scheme, url.host != nil else {
        return [Finding(target, detail: "'\(text)' is not an absolute URL (expected \(schemes.map { "\($0)://" }.joined(separator: " or "))...)", values)]
      }
      if !schemes.contains(scheme) {
        return [Finding(target, detail: "the scheme '\(scheme)' is not allowed here (use \(schemes.joined(separator: " or ")))", values)]
      }
    }
    if let extensions {
      values["allowed"] = extensions.map { "." + $0 }.joined(separator: ", ")
      guard let ext = url.pathExtension else {
        var detail = "the path of '\(text)' has no file extension"
        if let host = url.host, let dot = host.lastIndex(of: "."), extensions.contains(host[host.index(after: dot)...].lowercased()) {
          detail += " (the '\(host[dot...])' is part of the host name '\(host)', not of the path)"
        }
        return [Finding(target, detail: detail, values)]
      }
      if !extensions.contains(ext.lowercased()) {
        return [Finding(target, detail: "'.\(ext)' is not a supported extension (expected one of \(values["allowed"]!))", values)]
      }
    }
    return []
  }
}

/// The parts of a URL that rules look at, split per RFC 3986 without percent-decoding.
struct URLParts {
  var scheme: String?
  var host: String?
  var path: Substring
  var pathExtension: String?

  init(_ text: String) {
    var rest = Substring(text)
    if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isASCII, first.isLetter,
      rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
    {
      scheme = rest[..<colon].lowercased()
      rest = rest[rest.index(after: colon)...]
    }
    if rest.hasPrefix("//") {
      rest = rest.dropFirst(2)
      let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
      var authority = rest[..<end]
      if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
      if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") { authority = authority[..<colon] }
      host = authority.isEmpty ? nil : String(authority)
      rest = rest[end...]
    }
    path = rest[..<(rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex)]
    let lastSegment = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
    if let dot = lastSegment.lastIndex(of: "."), dot != lastSegment.startIndex, lastSegment.index(after: dot) < lastSegment.endIndex {
      pathExtension = String(lastSegment[lastSegment.index(after: dot)...])
    }
  }
}
