import FCMLintJSON

/// An Amazon SNS message with a payload per platform: each platform's payload is JSON kept in a
/// JSON string (`{"default": "...", "GCM": "{\"fcmV1Message\": ...}", "APNS": "{\"aps\": ...}"}`),
/// and each is read as what SNS sends for it, mapped back through the string's escapes:
///
/// - `GCM` (or `FCM`) with a top-level `fcmV1Message`: an FCM HTTP v1 request body, whose target
///   SNS adds (https://docs.aws.amazon.com/sns/latest/dg/sns-fcm-v1-payloads.html);
/// - `GCM` without it: SNS's own FCM payload of legacy keys, from which SNS builds the request
///   (skipped, with that reason);
/// - `APNS`, `APNS_SANDBOX`, `APNS_VOIP`, `APNS_VOIP_SANDBOX`: an APNs payload.
/// `default`, `ADM`, `BAIDU` and the rest are no FCM payload.
enum SNSMessage {
  enum Platform: Sendable, Equatable {
    /// `fcmV1Message`'s value: a v1 request body without its target.
    case fcmV1
    /// SNS's legacy FCM payload form.
    case fcmLegacy
    case apns
  }

  static let keys: [(name: String, platform: Platform)] = [
    ("\"GCM\"", .fcmLegacy), ("\"FCM\"", .fcmLegacy), ("\"APNS\"", .apns), ("\"APNS_SANDBOX\"", .apns), ("\"APNS_VOIP\"", .apns),
    ("\"APNS_VOIP_SANDBOX\"", .apns),
  ]

  /// Adds the platform payloads held in the JSON text `range` of `view` as samples.
  static func scan(_ view: TextView, _ range: Range<Int>, blockStart: Int, into found: inout SampleFinder.Found) {
    var i = range.lowerBound
    while i < range.upperBound {
      guard view[i] == UInt8(ascii: "\""), let (name, platform) = keys.first(where: { view.hasPrefix($0.name, at: i) }) else {
        i += 1
        continue
      }
      i += name.utf8.count
      var j = i
      while j < range.upperBound, JSONContent.isWhitespace(view[j]) { j += 1 }
      guard j < range.upperBound, view[j] == UInt8(ascii: ":") else { continue }
      j += 1
      while j < range.upperBound, JSONContent.isWhitespace(view[j]) { j += 1 }
      guard j < range.upperBound, view[j] == UInt8(ascii: "\"") else { continue }
      // A string that does not close ends the search: it would be read to the end again.
      guard let (text, end) = decode(view, quote: j, limit: range.upperBound) else { return }
      i = end
      let inner = TextView(text, encoding: [.jsonString] + view.encoding)
      var first = 0
      while first < inner.count, JSONContent.isWhitespace(inner[first]) { first += 1 }
      guard first < inner.count, inner[first] == UInt8(ascii: "{") else { continue }
      var start = first
      var kind = platform
      if platform == .fcmLegacy, let key = inner.find("\"fcmV1Message\"", in: first..<inner.count) {
        // The v1 form: the request body is `fcmV1Message`'s object.
        var k = key + "\"fcmV1Message\"".utf8.count
        while k < inner.count, JSONContent.isWhitespace(inner[k]) || inner[k] == UInt8(ascii: ":") { k += 1 }
        guard k < inner.count, inner[k] == UInt8(ascii: "{") else { continue }
        start = k
        kind = .fcmV1
      }
      let close = JSONContent.extent(inner, from: start, limit: inner.count)
      let sampleText = inner.text(start..<close)
      var sample = DocumentSample(text: sampleText, language: .json, encoding: inner.encoding, blockStart: blockStart)
      sample.elision = Elision.find(in: sampleText.bytes)
      sample.sns = kind
      found.samples.append(sample)
    }
  }

  /// The JSON string at `quote` with its escapes decoded, each byte mapped to the document, and
  /// the offset past its closing quote; a page may break the string over lines (SNS's own pages
  /// do, for reading), so it ends only at its quote. An invalid escape stands for itself.
  static func decode(_ view: TextView, quote: Int, limit: Int) -> (MappedText, Int)? {
    var text = MappedText(bytes: [], origins: [view.origin(quote + 1)])
    var decoded: [UInt8] = []
    var i = quote + 1
    while i < limit {
      let byte = view[i]
      if byte == UInt8(ascii: "\"") {
        text.origins[text.origins.count - 1] = view.origin(i)
        return (text, i + 1)
      }
      decoded.removeAll(keepingCapacity: true)
      if byte == UInt8(ascii: "\\"), let length = JSONStringDecoder.decodeEscape(view.bytes[quote..<limit], at: i, into: &decoded) {
        text.append(decoded, standingFor: view.origin(i)..<view.origin(i + length))
        i += length
        continue
      }
      text.append(byte, from: view.origin(i))
      i += 1
    }
    return nil
  }
}
