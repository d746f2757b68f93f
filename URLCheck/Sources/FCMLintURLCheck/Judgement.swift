/// What an answer means for the platforms that show the image: the findings of `--check-urls`,
/// each as its rule id and the message's detail.
public enum Judgement {
  public struct Platforms: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let android = Platforms(rawValue: 1)
    public static let apple = Platforms(rawValue: 2)
    public static let web = Platforms(rawValue: 4)
  }

  public struct Finding: Sendable, Equatable {
    public var rule: String
    public var detail: String
  }

  /// Android's limit: "Images for notifications are limited to 1MB in size"
  /// (https://firebase.google.com/docs/cloud-messaging/android/send-image); the SDK's
  /// ImageDownload.MAX_IMAGE_SIZE_BYTES is 1024 * 1024.
  public static let androidLimit = 1024 * 1024
  public static let androidPage = "https://firebase.google.com/docs/cloud-messaging/android/send-image"
  /// Apple's limit for image attachments: 10 MB
  /// (https://developer.apple.com/documentation/usernotifications/unnotificationattachment).
  public static let appleLimit = 10 * 1024 * 1024
  public static let applePage = "https://developer.apple.com/documentation/usernotifications/unnotificationattachment"

  /// The image formats by their magic bytes, extensions and media types.
  public enum Format: String, Sendable {
    case png = "PNG", jpeg = "JPEG", gif = "GIF", webp = "WebP", bmp = "BMP", heif = "HEIF", avif = "AVIF", svg = "SVG", html = "HTML"

    static func sniff(_ bytes: [UInt8]) -> Format? {
      func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
        bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
      }
      if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
      if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
      if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
      if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
      if starts(Array("BM".utf8)) { return .bmp }
      if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
        let brand = String(decoding: bytes[8..<12], as: UTF8.self)
        if brand.hasPrefix("avi") { return .avif }
        if ["heic", "heix", "mif1", "msf1", "hevc", "heim", "heis"].contains(brand) { return .heif }
      }
      // Markup: an error page (or an SVG), after any BOM and white space.
      var text = String(decoding: bytes, as: UTF8.self).lowercased()[...]
      if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
      text = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
      if text.hasPrefix("<svg") || (text.hasPrefix("<?xml") && text.contains("<svg")) { return .svg }
      for opener in ["<!doctype html", "<html", "<head", "<body", "<!--", "<?xml", "<title", "<h1", "<p>"] where text.hasPrefix(opener) {
        return .html
      }
      return nil
    }

    static func of(mediaType: String) -> Format? {
      let type = mediaType.split(separator: ";").first.map { String($0).lowercased().filter { $0 != " " } } ?? ""
      switch type {
      case "image/png", "image/apng": return .png
      case "image/jpeg", "image/jpg", "image/pjpeg": return .jpeg
      case "image/gif": return .gif
      case "image/webp": return .webp
      case "image/bmp", "image/x-ms-bmp": return .bmp
      case "image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence": return .heif
      case "image/avif": return .avif
      case "image/svg+xml": return .svg
      case "text/html", "application/xhtml+xml": return .html
      default: return nil
      }
    }

    static func of(url: String) -> Format? {
      let path = url.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "#", maxSplits: 1).first ?? "" } ?? ""
      guard let slash = path.lastIndex(of: "/"), let dot = path[slash...].lastIndex(of: ".") else { return nil }
      switch path[path.index(after: dot)...].lowercased() {
      case "png": return .png
      case "jpg", "jpeg", "jpe": return .jpeg
      case "gif": return .gif
      case "webp": return .webp
      case "bmp": return .bmp
      case "heic", "heif": return .heif
      case "avif": return .avif
      case "svg": return .svg
      default: return nil
      }
    }
  }

  public static func findings(url: String, answer: URLChecker.Answer, platforms: Platforms, slow: Double) -> [Finding] {
    var found: [Finding] = []
    if let failure = answer.failure {
      let via = answer.redirects > 0 ? " (after \(answer.redirects) redirect\(answer.redirects == 1 ? "" : "s"), at \(answer.finalURL))" : ""
      return [Finding(rule: "image-url-unreachable", detail: "the image cannot be fetched: \(URLChecker.describe(failure))\(via); the notification shows no image")]
    }
    if let (from, to) = answer.downgrade {
      found.append(Finding(
        rule: "image-url-insecure-redirect",
        detail: "\(from) redirects to plain http (\(to)): iOS refuses it (App Transport Security) and browsers block it as mixed content; redirect to https"))
    }
    let headerType = answer.contentType
    let byHeader = headerType.flatMap(Format.of(mediaType:))
    let byBytes = Format.sniff(answer.firstBytes)
    let byName = Format.of(url: url)
    let isImageType = headerType.map { $0.lowercased().hasPrefix("image/") } ?? false
    if byBytes == .html || (byBytes == nil && !isImageType && !answer.firstBytes.isEmpty) || (byBytes == nil && byHeader == .html) {
      let served = headerType.map { "served as \($0)" } ?? "served without a Content-Type"
      let what = byBytes == .html ? "an HTML page" : "not an image"
      found.append(Finding(rule: "image-url-not-an-image", detail: "the URL answers with \(what) (\(served)); the notification shows no image"))
      return found + timing(answer, slow: slow)
    }
    if headerType != nil && !isImageType && byBytes != nil {
      found.append(Finding(
        rule: "image-url-type-mismatch",
        detail: "the image (\(byBytes!.rawValue) by its first bytes) is served as \(headerType!), not image/*: the Firebase iOS helper types an attachment without an extension by its image/* type"))
    }
    var stated: [(String, Format)] = []
    if let byName { stated.append(("the URL's extension", byName)) }
    if let byHeader, isImageType { stated.append(("the Content-Type (\(headerType!))", byHeader)) }
    if let byBytes {
      for (source, format) in stated where format != byBytes {
        found.append(Finding(
          rule: "image-url-type-mismatch",
          detail: "\(source) says \(format.rawValue) but the file is \(byBytes.rawValue): the Firebase iOS helper names the attachment by the extension, and iOS rejects one whose contents do not match"))
        break
      }
    } else if stated.count == 2, stated[0].1 != stated[1].1 {
      found.append(Finding(
        rule: "image-url-type-mismatch",
        detail: "\(stated[0].0) says \(stated[0].1.rawValue) but \(stated[1].0) says \(stated[1].1.rawValue)"))
    }
    let actual = byBytes ?? byHeader ?? byName
    if let actual {
      if platforms.contains(.apple), ![.png, .jpeg, .gif].contains(actual) {
        found.append(Finding(
          rule: "image-url-type-mismatch",
          detail: "\(actual.rawValue) is not an image type of Apple's notification attachments (JPEG, GIF, PNG: \(applePage)); iOS shows no image"))
      } else if platforms.contains(.android), [.svg, .avif].contains(actual) {
        found.append(Finding(rule: "image-url-type-mismatch", detail: "\(actual.rawValue) is not an image type Android decodes for notifications; use PNG or JPEG"))
      }
    }
    if let size = answer.size {
      if platforms.contains(.android), size > androidLimit {
        found.append(Finding(
          rule: "image-url-too-large",
          detail: "the image is \(megabytes(size)) (\(size) bytes), over Android's 1 MB limit for notification images (\(androidPage)); Android shows no image"))
      } else if platforms.contains(.apple), size > appleLimit {
        found.append(Finding(
          rule: "image-url-too-large",
          detail: "the image is \(megabytes(size)) (\(size) bytes), over Apple's 10 MB limit for image attachments (\(applePage)); iOS shows no image"))
      }
    }
    return found + timing(answer, slow: slow)
  }

  static func timing(_ answer: URLChecker.Answer, slow: Double) -> [Finding] {
    guard answer.seconds > slow else { return [] }
    return [Finding(
      rule: "image-url-slow",
      detail: "the image took \(URLChecker.seconds(answer.seconds)) to answer, more than the budget of \(URLChecker.seconds(slow)): a notification service extension has about 30 s in all, and a slow answer may leave the notification without its image")]
  }

  static func megabytes(_ size: Int) -> String {
    let tenths = (Double(size) / 1024 / 1024 * 10).rounded()
    return "\(tenths / 10) MB"
  }
}
