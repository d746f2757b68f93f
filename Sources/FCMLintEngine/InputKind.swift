import FCMLintJSON

/// What a file holds. Rules are written against a send request; the other kinds are read as the
/// part of a send request they are (see `JSONDocument.mount`).
public enum InputKind: String, Sendable, CaseIterable {
  /// `{"message": {...}}`, optionally with `validate_only`.
  case request
  /// A bare Message: `{"token": ..., "notification": ...}`.
  case message
  /// A bare APNs payload: `{"aps": {...}, ...}`, as Apple-side payload files are written.
  case apns
  /// An ApnsConfig alone: `{"headers": {...}, "payload": {...}}`, as documentation shows the
  /// `apns` part of a message. Never decided by the classifier: `--input` or a docs sample.
  case apnsConfig = "apns-config"
  /// An `aps` dictionary alone: `{"alert": {...}, "badge": 1}`. Never decided by the classifier.
  case aps

  var mount: [String] {
    switch self {
    case .request: return []
    case .message: return ["message"]
    case .apns: return ["message", "apns", "payload"]
    case .apnsConfig: return ["message", "apns"]
    case .aps: return ["message", "apns", "payload", "aps"]
    }
  }

  /// Whether a document of this kind is a part of a message by definition, so the sender adds
  /// the target (read as `--fragment`).
  public var isPart: Bool { self == .apnsConfig || self == .aps }
}

/// Decides, before linting, whether a JSON file is an FCM document at all, and which kind.
///
/// A repository's JSON files are mostly not messages (`package.json`, `tsconfig.json`,
/// `firebase.json`, schemas, editor settings), and linting them as bare Messages reports errors
/// that are all false. The decision reads only the top-level keys, so it works on a document
/// that does not parse (a message with a trailing comma is still linted and its syntax error
/// reported; a `tsconfig.json` with comments is skipped):
/// - a `message` member that is an object, or any `message` member beside nothing but
///   `validate_only`, makes a send request;
/// - an `aps` member makes an APNs payload;
/// - otherwise the keys are weighed: Message fields (`token`, `notification`, `android`, ...,
///   in either spelling), near misses of them (`andriod`, `Notification`) and fields of the legacy
///   HTTP API (`to`, `registration_ids`) and `aps` keys or APNs headers out of place count for a message, other keys against it. A file is a
///   bare Message when it has a distinctive Message field and at least as many message keys as
///   others (more than the others, if the only distinctive ones are misspelled), or when every key
///   is a message key (a data-only fragment such as `{"data": {...}}`).
public enum DocumentClassifier {
  /// A top-level member as the classifier sees it; `isObject` is nil when the value is unknown
  /// (the document did not parse).
  public struct Member: Sendable {
    public var key: String
    public var isObject: Bool?
    public init(key: String, isObject: Bool?) {
      self.key = key
      self.isObject = isObject
    }
  }

  public enum Verdict: Sendable, Equatable {
    case fcm(InputKind)
    /// Not an FCM document; the reason is shown with `--verbose`.
    case other(reason: String)
  }

  /// The kind of a parsed document.
  public static func classify(_ document: JSONDocument) -> Verdict {
    let root = JSONDocument.root
    guard document.kind(root) == .object else {
      return .other(reason: "the top level is \(article(document.kind(root).name)), not an object")
    }
    // Nearly every file linted is a send request: told without making a string of each key.
    if let message = document.member(root, messageKey), document.kind(message) == .object { return .fcm(.request) }
    var members: [Member] = []
    for child in document.children(root) {
      members.append(Member(key: document.key(child) ?? "", isObject: document.kind(child) == .object))
    }
    return classify(members)
  }

  /// The kind to read a document as: its verdict's, or a bare Message for one that is not an
  /// FCM document (it is then skipped, unless an input kind is forced).
  public static func kind(_ document: JSONDocument) -> InputKind {
    if case .fcm(let kind) = classify(document) { return kind }
    return .message
  }

  /// The kind of a document from its top-level members, in order.
  public static func classify(_ members: [Member]) -> Verdict {
    if members.isEmpty { return .other(reason: "an empty object") }
    if let message = members.last(where: { $0.key == "message" }) {
      let others = members.filter { $0.key != "message" && !requestKeys.contains($0.key) }
      if message.isObject != false || others.isEmpty { return .fcm(.request) }
    }
    if members.contains(where: { $0.key == "aps" }) { return .fcm(.apns) }
    var distinctive = 0, nearMisses = 0, messageLike = 0, unrelated = 0
    for member in members {
      if distinctiveFields.contains(member.key) || legacyFields.contains(member.key) || misplacedFields.contains(member.key) {
        distinctive += 1
        messageLike += 1
      } else if plainFields.contains(member.key) || requestKeys.contains(member.key) {
        messageLike += 1
      } else if isNearMiss(member.key) {
        nearMisses += 1
        messageLike += 1
      } else {
        unrelated += 1
      }
    }
    // A misspelled field alone is weaker evidence than a real one: it must outnumber the others.
    if unrelated == 0 || (distinctive > 0 && messageLike >= unrelated) || (nearMisses > 0 && messageLike > unrelated) {
      return .fcm(.message)
    }
    let shown = members.prefix(3).map { "\"\($0.key)\"" }.joined(separator: ", ") + (members.count > 3 ? ", ..." : "")
    return .other(reason: "its keys (\(shown)) are not those of an FCM message")
  }

  /// The kind of a document that does not parse, from the top-level keys a tolerant scan finds.
  /// Only keys that are clearly not a message's make it `other`: anything else that is broken
  /// (an empty file, a truncated object, text that is not JSON) is linted, and its syntax error
  /// reported, since a pipeline that lost its payload must not pass.
  public static func classify(unparsed bytes: [UInt8]) -> Verdict {
    guard let keys = TopLevelKeys.scan(bytes), !keys.isEmpty else { return .fcm(.message) }
    switch classify(keys.map { Member(key: $0, isObject: nil) }) {
    case .fcm(let kind): return .fcm(kind)
    case .other(let reason): return .other(reason: "it is not valid JSON, and \(reason)")
    }
  }

  private static func article(_ name: String) -> String {
    name.first.map { "aeiou".contains($0) } == true ? "an \(name)" : "a \(name)"
  }

  private static let messageKey = Array("message".utf8)

  /// Keys of a send request besides `message`.
  public static let requestKeys: Set<String> = ["validate_only", "validateOnly"]

  /// Message fields that only an FCM message would have at its top level.
  static let distinctiveFields: Set<String> = [
    "token", "topic", "condition", "fid", "notification", "android", "android_v2", "androidV2",
    "apns", "webpush", "fcm_options", "fcmOptions",
  ]

  /// Keys that belong elsewhere in a message but name nothing outside FCM and APNs: `aps` keys and
  /// APNs headers written at the top (the Firebase docs show `{ "mutable-content": 1}`), which
  /// the rules report where they are.
  public static let misplacedFields: Set<String> = [
    "mutable-content", "content-available", "thread-id", "interruption-level", "relevance-score",
    "target-content-id", "apns-priority", "apns-push-type", "apns-expiration", "apns-collapse-id", "apns-topic",
  ]

  /// Message fields with names too common to tell a message by (`package.json` has a `name`).
  static let plainFields: Set<String> = ["data", "name"]

  /// Fields of the legacy HTTP API, which senders migrating to v1 still write.
  public static let legacyFields: Set<String> = [
    "to", "registration_ids", "collapse_key", "priority", "content_available", "mutable_content",
    "time_to_live", "restricted_package_name", "dry_run", "direct_boot_ok",
  ]

  /// A misspelling of a distinctive field: the same letters in another case or with `_`/`-`
  /// dropped, or one edit away (for names of five letters or more, where one edit is a typo
  /// rather than another word).
  public static func isNearMiss(_ key: String) -> Bool {
    let folded = fold(key)
    guard !folded.isEmpty else { return false }
    for field in distinctiveFields where field.count >= 5 {
      let target = fold(field)
      if folded == target || folded == target + [UInt8(ascii: "s")] || editDistanceIsOne(folded, target) { return true }
    }
    return false
  }

  private static func fold(_ key: String) -> [UInt8] {
    key.utf8.compactMap { byte -> UInt8? in
      if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") { return nil }
      return byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
  }

  /// One substitution, insertion, deletion or swap of neighbours.
  private static func editDistanceIsOne(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    if a == b || abs(a.count - b.count) > 1 { return false }
    var i = 0
    while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
    var j = 0
    while j < a.count - i, j < b.count - i, a[a.count - 1 - j] == b[b.count - 1 - j] { j += 1 }
    let restA = a.count - i - j, restB = b.count - i - j
    if restA <= 1 && restB <= 1 { return true }
    // A swap of two neighbours: "andriod" for "android".
    return restA == 2 && restB == 2 && a[i] == b[i + 1] && a[i + 1] == b[i]
  }
}
