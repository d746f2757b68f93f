import FCMLintJSON

/// The image URLs of a message, where they are written, and which platforms fetch each: what
/// `--check-urls` fetches. Found here, on the lint path's own tree, so that the module that
/// fetches them (FCMLintURLCheck) needs no JSON and the lint path no HTTP client.
public struct ImageURL: Sendable, Equatable {
  public var url: String
  public var pointer: String
  public var start: SourcePosition
  public var end: SourcePosition
  public var startOffset: Int
  public var endOffset: Int
  /// The platforms that show the image from this field (the more specific field of a platform
  /// overrides `notification.image` for it).
  public var platforms: ImagePlatforms
}

public struct ImagePlatforms: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let android = ImagePlatforms(rawValue: 1)
  public static let apple = ImagePlatforms(rawValue: 2)
  public static let web = ImagePlatforms(rawValue: 4)
}

/// An image URL not fetched, and why (a `--verbose` note).
public struct SkippedImageURL: Sendable, Equatable {
  public var url: String
  public var line: Int
  public var reason: String
  /// Where it is written (a byte offset), to find its line in a template it was rendered from.
  var offset = 0
}

/// Where a message's image URLs are, from the rules' aliases (rules/aliases.yml), each with the
/// platforms that show it: made once per rule set, as paths, so both proto3 spellings
/// (`fcm_options`, `fcmOptions`) and android_v2 are found as the rules find them.
public struct ImageFields: Sendable {
  struct Field: Sendable {
    var paths: [JSONPath]
    var platforms: ImagePlatforms
  }
  let fields: [Field]

  /// `Images` (the fields a device downloads) split by platform: `ApnsImage` Apple's,
  /// `AndroidNotifications`' images Android's, the rest (`notification.image`) every platform's
  /// whose own field is absent ("If present, it will override
  /// google.firebase.fcm.v1.Notification.image", FCM's REST reference). The web push image,
  /// which the browser fetches, has no alias (the rules name it where they check it).
  public init(aliases: Aliases) {
    let apple = aliases.paths["ApnsImage"] ?? []
    let android = (aliases.paths["AndroidNotifications"] ?? []).map { $0 + ".image" }
    let common = (aliases.paths["Images"] ?? []).filter { !apple.contains($0) && !android.contains($0) }
    func paths(_ texts: [String]) -> [JSONPath] { texts.compactMap { try? JSONPath($0) } }
    fields = [
      Field(paths: paths(common), platforms: [.android, .apple, .web]), Field(paths: paths(android), platforms: .android),
      Field(paths: paths(apple), platforms: .apple), Field(paths: paths(["$.message.webpush.notification.image"]), platforms: .web),
    ]
  }
}

public enum ImageURLs {
  /// The image URLs of `document` (as the linter parsed it: its mount says where it sits in a
  /// request), and those skipped: placeholders, which only a rendering knows, and names
  /// reserved for examples (RFC 2606, RFC 6761), which no server answers.
  public static func find(
    in document: JSONDocument, fields: ImageFields, placeholders: PlaceholderSyntax = .default
  ) -> (urls: [ImageURL], skipped: [SkippedImageURL]) {
    let everyPlatform: ImagePlatforms = [.android, .apple, .web]
    var found: [(NodeID, ImagePlatforms)] = []
    var overridden: ImagePlatforms = []
    for field in fields.fields {
      for path in field.paths {
        path.forEachNode(in: document) { node in
          guard document.kind(node) == .string else { return }
          found.append((node, field.platforms))
          if field.platforms != everyPlatform { overridden.formUnion(field.platforms) }
        }
      }
    }
    guard !found.isEmpty else { return ([], []) }
    let locator = SourceLocator(bytes: document.bytes, queries: found.count * 2)
    var urls: [ImageURL] = [], skipped: [SkippedImageURL] = []
    for (node, fieldPlatforms) in found {
      var platforms = fieldPlatforms
      if fieldPlatforms == everyPlatform { platforms.subtract(overridden) }
      guard !platforms.isEmpty, let url = document.string(node) else { continue }
      let start = Int(document[node].start), end = Int(document[node].end)
      let position = locator.position(of: start)
      if placeholders.mayOccur(in: Array(url.utf8)) || document.templates?.unknown.contains(node) == true {
        skipped.append(SkippedImageURL(url: url, line: position.line, reason: "it holds a placeholder", offset: start))
        continue
      }
      if let reason = skipReason(url) {
        skipped.append(SkippedImageURL(url: url, line: position.line, reason: reason, offset: start))
        continue
      }
      urls.append(ImageURL(
        url: url, pointer: document.pointer(node), start: position, end: locator.position(of: end), startOffset: start, endOffset: end,
        platforms: platforms))
    }
    return (urls, skipped)
  }

  /// Why `url` is not fetched, if it is not: only http and https URLs are, and not those of
  /// names reserved for examples. Addresses are always fetched (127.0.0.1 included: a local
  /// server answers there).
  public static func skipReason(_ url: String) -> String? {
    let lower = url.lowercased()
    let rest: Substring
    if lower.hasPrefix("https://") {
      rest = lower.dropFirst(8)
    } else if lower.hasPrefix("http://") {
      rest = lower.dropFirst(7)
    } else {
      return "it is not an http or https URL"
    }
    var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    var host = authority
    if host.hasPrefix("[") {
      return nil  // an IPv6 address
    }
    if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
    if host.hasSuffix(".") { host = host.dropLast() }
    if host.isEmpty { return "it has no host" }
    if host.allSatisfy({ $0.isNumber || $0 == "." }) { return nil }
    for domain in ["example.com", "example.org", "example.net"] where host == domain || host.hasSuffix("." + domain) {
      return "\(domain) is reserved for examples"
    }
    for suffix in ["example", "test", "invalid"] where host == suffix || host.hasSuffix("." + suffix) {
      return ".\(suffix) is reserved for examples"
    }
    return nil
  }
}

extension Linter {
  /// The image URLs of `bytes`, read as `check(bytes:file:)` reads them: with `--vars`, a
  /// template's URLs as rendered (a placeholder the values fill is fetched as it renders; one
  /// they do not fill is skipped), at the template's places; else as written, a URL with a
  /// placeholder skipped.
  public func imageURLs(bytes: [UInt8], fields: ImageFields) -> (urls: [ImageURL], skipped: [SkippedImageURL]) {
    if let variables = options.variables, options.placeholders.mayOccur(in: bytes) {
      let rendered = RenderedTemplate.render(bytes, syntax: options.placeholders, variables: variables)
      let found = imageURLsAsWritten(bytes: rendered.bytes, fields: fields)
      guard !found.urls.isEmpty || !found.skipped.isEmpty else { return found }
      let locator = SourceLocator(bytes: bytes, queries: (found.urls.count + found.skipped.count) * 2)
      let urls = found.urls.map { url in
        var url = url
        url.startOffset = rendered.templateOffset(url.startOffset, end: false)
        url.endOffset = max(url.startOffset, rendered.templateOffset(url.endOffset, end: true))
        url.start = locator.position(of: url.startOffset)
        url.end = locator.position(of: url.endOffset)
        return url
      }
      let skipped = found.skipped.map { skipped in
        var skipped = skipped
        skipped.offset = rendered.templateOffset(skipped.offset, end: false)
        skipped.line = locator.position(of: skipped.offset).line
        return skipped
      }
      return (urls, skipped)
    }
    return imageURLsAsWritten(bytes: bytes, fields: fields)
  }

  private func imageURLsAsWritten(bytes: [UInt8], fields: ImageFields) -> (urls: [ImageURL], skipped: [SkippedImageURL]) {
    guard case .success(let document) = parse(bytes) else { return ([], []) }
    if options.input == nil, case .other = DocumentClassifier.classify(document) { return ([], []) }
    return ImageURLs.find(in: document, fields: fields, placeholders: options.placeholders)
  }
}
