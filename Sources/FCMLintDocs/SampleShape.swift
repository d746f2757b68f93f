import FCMLintEngine
import FCMLintJSON

/// Whether a page's JSON is an FCM message by its shape. A file is classified leniently (a
/// misspelt key alone makes a Message, so that a broken payload is reported); a page holds the
/// JSON of other APIs too (push gateways, client plugins), where one key that resembles a Message
/// field is no evidence.
enum SampleShape {
  /// The words near a sample that say it is sent to FCM: the v1 endpoint, the Admin SDK's calls.
  static let evidence = [
    "messages:send", "fcm.googleapis.com", "sendEachForMulticast(", "sendMulticast(", "sendEach(", "sendAll(", ".send(",
    "getMessaging(", "messaging()",
  ]

  /// What the page says of a sample: whether the text just before it says it is sent to FCM
  /// (`sayNearby`), and whether the page names FCM's endpoint anywhere (`sendsToFCM`).
  struct Evidence {
    var nearby: Bool
    var pageSendsToFCM: Bool
    /// Sent to Huawei Push Kit (`huaweiNearby`): its message looks like FCM's and is not one.
    var huawei = false
    /// Sent to Expo's push service (`expoNearby`): its `to` and `data` look like the legacy API's.
    var expo = false
  }

  /// Expo's push endpoint (`https://exp.host/--/api/v2/push/send`).
  static let expoEndpoint = "exp.host/"

  /// Whether the text just before the sample's block names Expo's push endpoint after any FCM
  /// endpoint.
  static func expoNearby(_ words: PageWords, pageCount: Int, sample: DocumentSample) -> Bool {
    let range = window(sample, pageCount: pageCount)
    guard !range.isEmpty, let expoAt = words.last(expoEndpoint, in: range) else { return false }
    let fcmAt = [words.last("fcm.googleapis.com", in: range), words.last("messages:send", in: range)].compactMap { $0 }.max()
    return fcmAt.map { expoAt > $0 } ?? true
  }

  /// Whether a sample is a message of Expo's push service: its `to` is an Expo push token
  /// (`ExponentPushToken[...]`), which FCM never takes.
  static func isExpoMessage(_ document: JSONDocument) -> Bool {
    let root = JSONDocument.root
    guard document.kind(root) == .object, let to = document.children(root).first(where: { document.key($0) == "to" }),
      document.kind(to) == .string, let value = document.string(to)
    else { return false }
    return value.hasPrefix("ExponentPushToken[") || value.hasPrefix("ExpoPushToken[")
  }

  /// Huawei Push Kit's endpoint: a page that sends there and never to FCM sends Push Kit's
  /// messages, whose `{"message": {...}}` (with `android.notification.click_action.type`...)
  /// looks like FCM's.
  static let huaweiEndpoint = "push-api.cloud.huawei.com"

  /// The words near a sample that say it is sent to Huawei Push Kit.
  static let huaweiWords = [huaweiEndpoint, "huawei", "push kit", "hms "]

  /// Whether the page names Huawei Push Kit's endpoint and not FCM's host (Push Kit's path ends
  /// in `messages:send` too). Searched once per page.
  static func sendsOnlyToHuawei(_ page: [UInt8]) -> Bool {
    let view = TextView(page)
    return view.find(huaweiEndpoint, in: 0..<page.count) != nil && view.find("fcm.googleapis.com", in: 0..<page.count) == nil
  }

  /// Whether the sample is sent to Huawei Push Kit: the text just before its block (or its block
  /// up to it) names Push Kit's endpoint, or names Push Kit and not FCM's endpoint; or the page
  /// sends to Push Kit's endpoint and never to FCM's.
  static func huaweiNearby(_ words: PageWords, pageCount: Int, sample: DocumentSample, pageSendsOnlyToHuawei: Bool) -> Bool {
    if pageSendsOnlyToHuawei { return true }
    let range = window(sample, pageCount: pageCount)
    guard !range.isEmpty else { return false }
    // The endpoint named last is the one the sample is sent to (Push Kit's path ends in
    // `messages:send` too; FCM's has `/projects/`).
    let huaweiAt = words.last(huaweiEndpoint, in: range), fcmAt = words.last("fcm.googleapis.com", in: range)
    if let huaweiAt { return fcmAt.map { huaweiAt > $0 } ?? true }
    guard fcmAt == nil, !words.contains("/projects/", in: range) else { return false }
    return huaweiWords.contains { words.contains($0, in: range) }
  }

  /// Whether the page names FCM's v1 endpoint: a page that sends requests to FCM itself, not
  /// through a service that adds the target. Searched once per page.
  static func sendsToFCM(_ page: [UInt8]) -> Bool {
    let view = TextView(page)
    return ["messages:send", "fcm.googleapis.com"].contains { view.find($0, in: 0..<view.count) != nil }
  }

  /// How far before a sample's block its evidence is looked for: the sentence or request line
  /// that introduces it, not the rest of the page.
  static let evidenceReach = 400

  /// Where the words that tell where a sample is sent occur in a page, found once per page: a
  /// sample's evidence is then a binary search, not a search of the text before it (which, for
  /// the many samples of one long block, made the page's check quadratic).
  struct PageWords {
    /// Per word, the start offsets of its occurrences, ascending.
    private var found: [String: [Int]] = [:]

    init(_ page: [UInt8]) {
      let view = TextView(page)
      for word in SampleShape.evidence + ["/projects/", SampleShape.expoEndpoint] { found[word] = Self.offsets(of: word, in: view, ignoringCase: false) }
      for word in SampleShape.huaweiWords { found[word] = Self.offsets(of: word, in: view, ignoringCase: true) }
    }

    private static func offsets(of word: String, in view: TextView, ignoringCase: Bool) -> [Int] {
      var offsets: [Int] = []
      var from = 0
      while let at = view.find(word, in: from..<view.count, ignoringCase: ignoringCase) {
        offsets.append(at)
        from = at + 1
      }
      return offsets
    }

    /// The last occurrence of `word` wholly inside `range`, or nil.
    func last(_ word: String, in range: Range<Int>) -> Int? {
      guard let offsets = found[word] else { return nil }
      let latest = range.upperBound - word.utf8.count
      // The first offset past `latest`, then the one before it.
      var lo = 0, hi = offsets.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if offsets[mid] <= latest { lo = mid + 1 } else { hi = mid }
      }
      guard lo > 0, offsets[lo - 1] >= range.lowerBound else { return nil }
      return offsets[lo - 1]
    }

    func contains(_ word: String, in range: Range<Int>) -> Bool { last(word, in: range) != nil }
  }

  /// The text a sample's evidence is looked for in: just before its block, and the block itself up
  /// to the sample.
  static func window(_ sample: DocumentSample, pageCount: Int) -> Range<Int> {
    let end = min(sample.start, pageCount)
    let from = max(0, min(sample.blockStart, end) - evidenceReach)
    return from..<max(from, end)
  }

  /// Whether the text just before the sample's block, or the block itself up to the sample, says
  /// it is sent to FCM.
  static func sayNearby(_ words: PageWords, pageCount: Int, sample: DocumentSample) -> Bool {
    let range = window(sample, pageCount: pageCount)
    return evidence.contains { words.contains($0, in: range) }
  }

  /// The top-level keys of `document`, and the keys of the object each holds.
  static func keys(_ document: JSONDocument) -> (keys: [String], holds: (String) -> [String]?)? {
    let root = JSONDocument.root
    guard document.kind(root) == .object else { return nil }
    let members = Array(document.children(root))
    return (members.compactMap(document.key), { name in
      guard let member = members.last(where: { document.key($0) == name }), document.kind(member) == .object else { return nil }
      return document.children(member).compactMap(document.key)
    })
  }

  /// The keys of the object a request's `message` member holds, or nil when it holds no object.
  static func messageKeys(_ document: JSONDocument) -> [String]? {
    let root = JSONDocument.root
    guard document.kind(root) == .object,
      let message = document.children(root).reversed().first(where: { document.key($0) == "message" }), document.kind(message) == .object
    else { return nil }
    return document.children(message).compactMap(document.key)
  }

  /// Whether `key` is a Message field as a message's top level is read: a v1 field, a legacy
  /// field, an `aps` key or APNs header out of place, or a request's own key.
  static func isMessageKey(_ key: String, vocabulary: DocumentLinter.Vocabulary) -> Bool {
    vocabulary.messageFields.contains(key) || DocumentClassifier.legacyFields.contains(key)
      || DocumentClassifier.misplacedFields.contains(key) || DocumentClassifier.requestKeys.contains(key)
  }

  /// Nil when what a send request's `message` holds is an FCM Message; the reason it is not
  /// otherwise. Push servers and chat APIs have bodies with a `message` object of their own
  /// (`{"message": {"alert": ..., "user-data": ...}}`), so the object must be a Message: no more
  /// keys that are no Message field than keys that are (a request with one stray key is still a
  /// request, whose stray key is reported), and not only keys that resemble a Message's.
  /// `foreignByValue`: keys whose value no FCM Message holds there (`foreignByValue(_:in:)`).
  static func reasonNotRequest(messageKeys keys: [String], vocabulary: DocumentLinter.Vocabulary, foreignByValue: Set<String> = []) -> String? {
    var fields = 0, misspelt = 0
    var foreign: [String] = []
    for key in keys {
      if foreignByValue.contains(key) {
        foreign.append(key)
      } else if isMessageKey(key, vocabulary: vocabulary) {
        fields += 1
      } else if DocumentClassifier.isNearMiss(key) {
        misspelt += 1
      } else if !vocabulary.partFields.contains(key) && !vocabulary.apsKeys.contains(key) {
        foreign.append(key)
      }
    }
    if !foreign.isEmpty && foreign.count >= fields {
      return "its \"message\" (\(quoted(keys))) is not an FCM Message: \(quoted(foreign)) \(foreign.count == 1 ? "is no Message field" : "are no Message fields")"
    }
    if fields == 0 && misspelt == 0 && !keys.isEmpty {
      return "its \"message\" holds only keys that resemble a Message's (\(quoted(keys))), and nothing near it says it is sent to FCM"
    }
    return nil
  }

  /// The keys of `object` whose value no FCM message holds there: a `to` that is not a string
  /// (the legacy API's `to` was a token or a topic; `"to": {"user_id": ...}` is a notification
  /// service's recipient, as Courier's `{"message": {"to": {...}, "content": {...}}}` has).
  static func foreignByValue(_ document: JSONDocument, in object: NodeID) -> Set<String> {
    guard let to = document.children(object).first(where: { document.key($0) == "to" }) else { return [] }
    let kind = document.kind(to)
    return kind == .string || kind == .placeholder ? [] : ["to"]
  }

  /// The keys of a request's `message` object whose value no FCM Message holds there.
  static func messageForeignByValue(_ document: JSONDocument) -> Set<String> {
    let root = JSONDocument.root
    guard document.kind(root) == .object,
      let message = document.children(root).reversed().first(where: { document.key($0) == "message" }), document.kind(message) == .object
    else { return [] }
    return foreignByValue(document, in: message)
  }

  /// What the values of a bare Message sample's top-level keys say of it. `neutral`: an
  /// output-only Message field holding a string (`"name": "my_data"`, by which a plugin's test
  /// messages are told apart), which tells nothing either way; beside a `data` alone only when
  /// that `data` is a flat map, as FCM's is (an event's `{"name": ..., "data": {"order": {...}}}`
  /// is no message). `foreign`: a legacy field holding what the legacy API never took (its `to`
  /// is a token or a topic, a string: `"to": {"subscriberId": ...}` is another API's).
  static func valueEvidence(_ document: JSONDocument, vocabulary: DocumentLinter.Vocabulary) -> (neutral: Set<String>, foreign: Set<String>) {
    let root = JSONDocument.root
    guard document.kind(root) == .object else { return ([], []) }
    let members = Array(document.children(root))
    var neutral: Set<String> = []
    let foreign = foreignByValue(document, in: root)
    for member in members {
      guard let key = document.key(member), vocabulary.outputOnlyMessageFields.contains(key), document.kind(member) == .string else { continue }
      neutral.insert(key)
    }
    let rest = members.filter { document.key($0).map { !neutral.contains($0) } ?? true }
    if !neutral.isEmpty, rest.count == 1, let data = rest.first, document.key(data) == "data" {
      let flat = document.kind(data) == .object && document.children(data).allSatisfy { document.kind($0) != .object && document.kind($0) != .array }
      if !flat { neutral = [] }
    }
    return (neutral, foreign)
  }

  /// Up to three keys in quotes, "..." after them when there are more.
  static func quoted(_ keys: [String]) -> String {
    keys.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ") + (keys.count > 3 ? ", ..." : "")
  }

  /// Nil when the top-level members of a bare Message sample make it one; the reason it is not
  /// otherwise. A message needs more than one key that is a Message field (a legacy field or an
  /// `aps` key out of place counts, a misspelling or a field of a Message's part counts beside a
  /// real one), and no key that is clearly foreign; one key alone makes one when what it holds
  /// is that field's.
  /// `foreignByValue`: keys whose value no FCM message holds there (`valueEvidence`).
  static func reasonNotMessage(
    keys members: [String], holds: (String) -> [String]?, vocabulary: DocumentLinter.Vocabulary, foreignByValue: Set<String> = []
  ) -> String? {
    var fields: [String] = [], near: [String] = [], foreign: [String] = []
    for key in members {
      if foreignByValue.contains(key) {
        foreign.append(key)
      } else if isMessageKey(key, vocabulary: vocabulary) {
        fields.append(key)
      } else if DocumentClassifier.isNearMiss(key) || vocabulary.partFields.contains(key) || vocabulary.apsKeys.contains(key) {
        near.append(key)
      } else {
        foreign.append(key)
      }
    }
    let keys = fields + near + foreign
    let shown = keys.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ") + (keys.count > 3 ? ", ..." : "")
    if !foreign.isEmpty {
      return "its keys (\(shown)) are not those of an FCM message: \(foreign.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")) \(foreign.count == 1 ? "is" : "are") no Message field"
    }
    if fields.count >= 2 || (fields.count == 1 && !near.isEmpty) { return nil }
    guard fields.count == 1 else {
      return "its keys (\(shown)) only resemble an FCM message's, and nothing near it says it is sent to FCM"
    }
    // One field alone: what it holds must be that field's (a Matrix push gateway's
    // `notification` holds `event_id` and `room_id`).
    guard let inner = vocabulary.fieldsOf[fields[0]], let held = holds(fields[0]) else { return nil }
    // A `notification` alone may hold what the legacy API's did (`sound`, `icon`, `click_action`:
    // FCM's own, misplaced), not `data` or `actions`: a web push or service worker payload's
    // (`{"notification": {"title": ..., "data": {"onActionClick": ...}}}`, Angular's).
    let allowed = fields[0] == "notification" ? vocabulary.legacyNotificationKeys : vocabulary.partFields
    let strangers = held.filter { !inner.contains($0) && !allowed.contains($0) }
    guard strangers.isEmpty else {
      return "its one key \"\(fields[0])\" holds \(strangers.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")), which no FCM \(fields[0]) has"
    }
    return nil
  }

  /// The JSON text with its comments (`//` to the end of the line, `/* */`) outside strings
  /// replaced by spaces, line breaks kept: offsets stay the page's, so positions and fixes land
  /// where they were, and a fix cannot delete a comment it does not see. Nil when there is none.
  static func blankingComments(_ bytes: [UInt8]) -> [UInt8]? {
    var out = bytes
    var changed = false
    var i = 0
    let n = bytes.count
    while i < n {
      switch bytes[i] {
      case UInt8(ascii: "\""):
        i = Elision.endOfString(bytes, from: i)
      case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "/"):
        while i < n, bytes[i] != 0x0A, bytes[i] != 0x0D {
          out[i] = 0x20
          i += 1
        }
        changed = true
        continue
      case UInt8(ascii: "/") where i + 1 < n && bytes[i + 1] == UInt8(ascii: "*"):
        var end = i + 2
        while end + 1 < n, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
        // An unclosed comment is left for the parser to report.
        guard end + 1 < n else { return changed ? out : nil }
        for j in i...(end + 1) where bytes[j] != 0x0A && bytes[j] != 0x0D { out[j] = 0x20 }
        changed = true
        i = end + 2
        continue
      default:
        break
      }
      i += 1
    }
    return changed ? out : nil
  }
}
