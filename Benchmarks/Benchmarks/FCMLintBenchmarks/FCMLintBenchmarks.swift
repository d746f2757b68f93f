// fcmlint benchmarks (ordo-one/benchmark). Four groups:
//
//   Parse/...        parser throughput in MB/s (10^6 bytes per second) on small (~0.6 KB), medium
//                    (~16 KB) and large (~1 MB) documents; each iteration parses at least 1 MB.
//   Lint/...         messages per second with the full built-in rule pack (38 rules) over 1000
//                    valid requests of 0.5-1.5 KB, parse included; the rules alone on the same
//                    requests pre-parsed; and 200 requests with mistakes, whose diagnostics (with
//                    positions, pointers and fixes) are built.
//   RulePack/...     time to load the built-in pack from its YAML files (and the schema alone).
//   Allocations/...  malloc calls per message: parse only, and parse + lint, one message per
//                    iteration.
//
// Every input is generated here from a fixed seed, so runs compare like with like. The messages are
// valid send requests (token, topic and condition targets; notifications with an image sent
// consistently with "mutable-content": 1 and an alert; Android, APNs and web push blocks; data
// maps); the setup checks that each lints clean, so the lint numbers measure the common path.
//
// The lint benchmarks load the pack from its source, the YAML files under ../rules, after the
// schema ../rules/schema/fcm-v1.json, as a user's rule folder is (set FCMLINT_RULES to use
// another rules folder); "read the compiled built-in pack" is what each start of the binary does.

import Benchmark
import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintJSON
import FCMLintWorkspace
import Foundation

// MARK: - Benchmarks

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput],
    warmupIterations: 3,
    maxDuration: .seconds(3),
    maxIterations: 1_000_000
  )

  // 1. Parse throughput, MB/s.
  // small: ~0.6 KB requests; medium: ~16 KB requests (large data maps); large: one ~1 MB array of
  // requests. Each iteration parses at least 1 MB (the documents repeated).
  for (name, documents) in [
    ("small", Fixtures.shared.smallDocuments),
    ("medium", Fixtures.shared.mediumDocuments),
    ("large", Fixtures.shared.largeDocuments),
  ] {
    let batch = Fixtures.batch(of: documents, atLeast: 1_000_000)
    let bytes = batch.reduce(0) { $0 + $1.count }
    Benchmark(
      "Parse/\(name) documents",
      configuration: .init(metrics: [.wallClock, .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)])
    ) { benchmark in
      let start = ContinuousClock.now
      for document in batch {
        blackHole(JSONParser.parse(document))
      }
      benchmark.measurement(.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false), megabytesPerSecond(bytes, since: start))
    }
  }

  // 2. Lint throughput, messages/s, full pack.
  let messages = Fixtures.shared.messages
  let messagesPerSecond = BenchmarkMetric.custom("messages/s", polarity: .prefersLarger, useScalingFactor: false)
  Benchmark(
    "Lint/valid requests, full pack (parse + rules)",
    configuration: .init(metrics: [.wallClock, messagesPerSecond])
  ) { benchmark in
    let linter = Fixtures.shared.linter
    let start = ContinuousClock.now
    for message in messages {
      blackHole(linter.lint(bytes: message, file: "bench.json"))
    }
    benchmark.measurement(messagesPerSecond, perSecond(messages.count, since: start))
  }
  let parsed = Fixtures.shared.parsedMessages
  Benchmark(
    "Lint/valid requests, full pack (rules only, pre-parsed)",
    configuration: .init(metrics: [.wallClock, messagesPerSecond])
  ) { benchmark in
    let linter = Fixtures.shared.linter
    let start = ContinuousClock.now
    for document in parsed {
      blackHole(linter.lint(document: document, file: "bench.json"))
    }
    benchmark.measurement(messagesPerSecond, perSecond(parsed.count, since: start))
  }
  let invalid = Fixtures.shared.invalidMessages
  Benchmark(
    "Lint/requests with mistakes, full pack (diagnostics built)",
    configuration: .init(metrics: [.wallClock, messagesPerSecond])
  ) { benchmark in
    let linter = Fixtures.shared.linter
    let start = ContinuousClock.now
    for message in invalid {
      blackHole(linter.lint(bytes: message, file: "bench.json"))
    }
    benchmark.measurement(messagesPerSecond, perSecond(invalid.count, since: start))
  }

  // 3. Rule-pack load time.
  Benchmark(
    "RulePack/load the built-in pack from YAML (schema + rules)",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(5))
  ) { _ in
    blackHole(try! Fixtures.loadRuleSet())
  }
  // What the binary does at each start: the build compiled the pack (CompiledPack), so only
  // reading that form back is left.
  Benchmark(
    "RulePack/read the compiled built-in pack (what each start does)",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(5))
  ) { _ in
    blackHole(try! BuiltinPack.load())
  }
  Benchmark(
    "RulePack/load the fcm-v1 schema alone",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal])
  ) { _ in
    blackHole(try! Fixtures.loadSchema())
  }

  // 4. Allocations per message (one message per iteration; percentiles over the messages).
  let cursor = Cursor(count: messages.count)
  Benchmark(
    "Allocations/parse one message",
    configuration: .init(metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock], maxIterations: 10_000)
  ) { _ in
    blackHole(JSONParser.parse(messages[cursor.next()]))
  }
  Benchmark(
    "Allocations/lint one message, full pack (parse + rules)",
    configuration: .init(metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock], maxIterations: 10_000)
  ) { _ in
    blackHole(Fixtures.shared.linter.lint(bytes: messages[cursor.next()], file: "bench.json"))
  }
  let showcase = Fixtures.shared.showcase
  Benchmark(
    "Allocations/lint the richest message (image on every platform), full pack",
    configuration: .init(metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock], maxIterations: 10_000)
  ) { _ in
    blackHole(Fixtures.shared.linter.lint(bytes: showcase, file: "bench.json"))
  }
}

private func megabytesPerSecond(_ bytes: Int, since start: ContinuousClock.Instant) -> Int {
  let elapsed = start.duration(to: .now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Int((Double(bytes) / 1e6 / max(seconds, 1e-9)).rounded())
}

private func perSecond(_ count: Int, since start: ContinuousClock.Instant) -> Int {
  let elapsed = start.duration(to: .now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Int((Double(count) / max(seconds, 1e-9)).rounded())
}

/// Round-robin index over the messages, so single-message benchmarks see the whole mix.
final class Cursor: @unchecked Sendable {
  private var i = 0
  private let count: Int
  init(count: Int) { self.count = count }
  func next() -> Int {
    defer { i = (i + 1) % count }
    return i
  }
}

// MARK: - Fixtures

struct Fixtures: Sendable {
  static let shared = Fixtures()

  let linter: Linter
  let ruleCount: Int
  /// Valid send requests, 0.5-1.5 KB each, as bytes.
  let messages: [[UInt8]]
  let parsedMessages: [JSONDocument]
  /// Send requests each with a few of the mistakes the pack reports.
  let invalidMessages: [[UInt8]]
  /// The largest valid message: an image on every platform.
  let showcase: [UInt8]
  let smallDocuments: [[UInt8]]
  let mediumDocuments: [[UInt8]]
  let largeDocuments: [[UInt8]]

  init() {
    let rules: RuleSet
    do {
      rules = try Self.loadRuleSet()
    } catch {
      fatalError("cannot load the rule pack from \(Self.rulesDirectory): \(error)")
    }
    ruleCount = rules.rules.count
    linter = Linter(rules: rules)

    var generator = MessageGenerator(seed: 20_251_121)
    messages = (0..<1000).map { _ in Array(generator.request().utf8) }
    showcase = Array(generator.request(kind: .alertWithImage, target: .token, richness: 1.0).utf8)
    invalidMessages = (0..<200).map { _ in Array(generator.invalidRequest().utf8) }

    // The lint numbers are meant for the common, clean path: check it is one.
    for message in messages + [showcase] {
      let diagnostics = linter.lint(bytes: message, file: "bench.json")
      guard diagnostics.isEmpty else {
        fatalError("generated message is not clean: \(diagnostics.map { "\($0.rule) \($0.pointer): \($0.message)" })\n\(String(decoding: message, as: UTF8.self))")
      }
    }
    for message in invalidMessages where linter.lint(bytes: message, file: "bench.json").isEmpty {
      fatalError("generated invalid message lints clean:\n\(String(decoding: message, as: UTF8.self))")
    }
    parsedMessages = messages.map { message in
      guard case .success(let document) = JSONParser.parse(message) else { fatalError("generated message does not parse") }
      return document
    }

    // Parse inputs. Small: typical requests. Medium: a request with a large data map (~16 KB).
    // Large: a ~1 MB array of requests, as an export of templates.
    smallDocuments = messages.filter { $0.count < 700 }
    mediumDocuments = (0..<16).map { _ in Array(generator.request(kind: .alert, target: .topic, richness: 1.0, dataEntries: 480).utf8) }
    var large = "[\n"
    var count = 0
    while large.utf8.count < 1_000_000 {
      if count > 0 { large += ",\n" }
      large += generator.request()
      count += 1
    }
    large += "\n]\n"
    largeDocuments = [Array(large.utf8)]
  }

  static var repositoryRoot: String {
    // .../Benchmarks/Benchmarks/FCMLintBenchmarks/FCMLintBenchmarks.swift → the repository.
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }

  static var rulesDirectory: String {
    ProcessInfo.processInfo.environment["FCMLINT_RULES"] ?? repositoryRoot + "/rules"
  }

  static func loadSchema() throws -> RuleResources {
    let path = rulesDirectory + "/schema/fcm-v1.json"
    let json = try String(contentsOfFile: path, encoding: .utf8)
    return try RuleSet.loadSchemas([(path: path, json: json)])
  }

  /// The rule files under `rulesDirectory`, read as a user's rule folder.
  static func loadRuleSet() throws -> RuleSet {
    var rules = RuleSet(resources: try loadSchema())
    try rules.addDirectory(rulesDirectory)
    return rules
  }

  /// Repeats `documents` until the batch holds at least `bytes` bytes.
  static func batch(of documents: [[UInt8]], atLeast bytes: Int) -> [[UInt8]] {
    var batch: [[UInt8]] = []
    var total = 0
    var i = 0
    while total < bytes {
      let document = documents[i % documents.count]
      batch.append(document)
      total += document.count
      i += 1
    }
    return batch
  }
}

// MARK: - A deterministic generator of send requests

/// SplitMix64: small, fast and the same on every platform.
struct SplitMix64 {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(_ upperBound: Int) -> Int { Int(next() % UInt64(upperBound)) }
  mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
  mutating func pick<T>(_ values: [T]) -> T { values[int(values.count)] }
}

/// A JSON value with ordered members, printed with two-space indentation.
indirect enum JSON {
  case string(String)
  case int(Int)
  case bool(Bool)
  case object([(String, JSON)])

  func render(indent: Int = 0) -> String {
    switch self {
    case .string(let s): return Self.quote(s)
    case .int(let n): return String(n)
    case .bool(let b): return b ? "true" : "false"
    case .object(let members):
      if members.isEmpty { return "{}" }
      let pad = String(repeating: " ", count: indent + 2)
      let inner = members.map { "\(pad)\(Self.quote($0.0)): \($0.1.render(indent: indent + 2))" }
      return "{\n" + inner.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "}"
    }
  }

  static func quote(_ s: String) -> String { JSONText.quote(s) }

}

struct MessageGenerator {
  enum Kind: CaseIterable { case alertWithImage, alert, dataOnly }
  enum Target: CaseIterable { case token, topic, condition }

  var random: SplitMix64
  init(seed: UInt64) { random = SplitMix64(state: seed) }

  static let topics = ["news", "sports-scores", "weather.berlin", "promo_eu", "breaking~alerts", "orders", "chat-room-42", "release-notes", "deals.fr", "match_updates"]
  static let titles = ["Your order has shipped", "Flash sale: 30% off", "New message from Alex", "Goal! 2-1 in the 78th minute", "Storm warning for tonight", "Your table is ready", "Weekly summary", "Price drop on your wishlist", "Nouveau message", "Neue Bestellung eingegangen", "Reminder: meeting at 15:00", "Your ride is arriving"]
  static let bodies = ["Tap to track your package; it should arrive tomorrow before noon.", "Only today: everything in the summer collection is 30% off.", "Hey, are we still on for dinner on Friday? Let me know!", "Müller scores from the edge of the box. Full match report inside.", "Heavy rain and gusts up to 90 km/h expected after 21:00.", "Show this notification at the entrance to be seated.", "You walked 42 km this week — 12% more than last week.", "The item you saved is now €24.99 (was €34.99).", "Le colis n° 48213 sera livré demain entre 9 h et 12 h."]
  static let hosts = ["cdn.example.com", "images.shop.example", "static.news.example.org", "media.example.net"]
  static let extensions = ["png", "jpg", "jpeg", "png", "jpg"]
  static let colors = ["#1A73E8", "#E53935", "#43A047", "#FB8C00", "#8E24AA", "#00897B"]
  static let channels = ["orders", "promotions", "chat", "news", "alerts"]
  static let dataKeys = ["order_id", "screen", "campaign_id", "deeplink", "sent_at", "locale", "ab_variant", "thread", "item_sku", "priority_hint"]
  static let words = ["alpha", "berlin", "checkout", "delta", "echo", "summer", "winter", "orders", "detail", "inbox", "v2", "promo", "2025-11-21T10:00:00Z", "en-US", "fr-FR"]

  mutating func token() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    var s = ""
    for _ in 0..<22 { s.append(random.pick(alphabet)) }
    s += ":APA91b"
    for _ in 0..<134 { s.append(random.pick(alphabet)) }
    return s
  }

  mutating func condition() -> String {
    let n = 2 + random.int(4)
    var chosen: [String] = []
    while chosen.count < n {
      let t = random.pick(Self.topics)
      if !chosen.contains(t) { chosen.append(t) }
    }
    let terms = chosen.map { "'\($0)' in topics" }
    switch n {
    case 2: return "\(terms[0]) && \(terms[1])"
    case 3: return "\(terms[0]) && (\(terms[1]) || \(terms[2]))"
    case 4: return "(\(terms[0]) || \(terms[1])) && (\(terms[2]) || \(terms[3]))"
    default: return "\(terms[0]) && (\(terms[1]) || \(terms[2]) || \(terms[3]) || \(terms[4]))"
    }
  }

  mutating func data(_ entries: Int) -> JSON {
    var members: [(String, JSON)] = []
    for i in 0..<entries {
      let key = i < Self.dataKeys.count ? Self.dataKeys[i] : "k\(i)"
      members.append((key, .string(random.pick(Self.words) + "-" + String(random.int(100_000)))))
    }
    return .object(members)
  }

  /// A valid send request. `richness` is the chance of each optional block.
  mutating func request(kind: Kind? = nil, target: Target? = nil, richness: Double = 0.6, dataEntries: Int? = nil) -> String {
    let kind = kind ?? random.pick([.alertWithImage, .alertWithImage, .alert, .alert, .dataOnly])
    let target = target ?? random.pick([.token, .token, .topic, .condition])
    var message: [(String, JSON)] = []
    switch target {
    case .token: message.append(("token", .string(token())))
    case .topic: message.append(("topic", .string(random.pick(Self.topics))))
    case .condition: message.append(("condition", .string(condition())))
    }
    let image = "https://\(random.pick(Self.hosts))/push/\(random.int(10_000))/banner.\(random.pick(Self.extensions))"
    let title = random.pick(Self.titles)
    let body = random.pick(Self.bodies)

    if kind != .dataOnly {
      var notification: [(String, JSON)] = [("title", .string(title)), ("body", .string(body))]
      if kind == .alertWithImage { notification.append(("image", .string(image))) }
      message.append(("notification", .object(notification)))
    }
    message.append(("data", data(dataEntries ?? (2 + random.int(5)))))

    // Android.
    var android: [(String, JSON)] = [("priority", .string(kind == .dataOnly ? "HIGH" : random.pick(["HIGH", "NORMAL"])))]
    if random.chance(richness) { android.append(("ttl", .string("\(random.pick([60, 3600, 86400, 2_419_200]))s"))) }
    if random.chance(richness) { android.append(("collapse_key", .string(random.pick(Self.channels)))) }
    if kind != .dataOnly {
      var notification: [(String, JSON)] = [("channel_id", .string(random.pick(Self.channels)))]
      if random.chance(richness) { notification.append(("color", .string(random.pick(Self.colors)))) }
      if random.chance(richness) { notification.append(("icon", .string("ic_notification"))) }
      if random.chance(richness) { notification.append(("click_action", .string("OPEN_DETAIL"))) }
      if kind == .alertWithImage && random.chance(richness) { notification.append(("image", .string(image))) }
      android.append(("notification", .object(notification)))
    }
    message.append(("android", .object(android)))

    // APNs.
    var apns: [(String, JSON)] = []
    switch kind {
    case .dataOnly:
      apns.append(("headers", .object([("apns-push-type", .string("background")), ("apns-priority", .string("5"))])))
      apns.append(("payload", .object([("aps", .object([("content-available", .int(1))]))])))
    case .alert, .alertWithImage:
      var headers: [(String, JSON)] = [("apns-priority", .string("10")), ("apns-push-type", .string("alert"))]
      if random.chance(richness) { headers.append(("apns-collapse-id", .string("thread-\(random.int(1000))"))) }
      apns.append(("headers", .object(headers)))
      var aps: [(String, JSON)] = [("sound", .string("default"))]
      if random.chance(richness) { aps.append(("badge", .int(random.int(20)))) }
      if random.chance(richness) { aps.append(("thread-id", .string(random.pick(Self.channels)))) }
      if kind == .alertWithImage { aps.append(("mutable-content", .int(1))) }
      apns.append(("payload", .object([("aps", .object(aps))])))
      if kind == .alertWithImage { apns.append(("fcm_options", .object([("image", .string(image))]))) }
    }
    message.append(("apns", .object(apns)))

    // Web push.
    if kind != .dataOnly && random.chance(richness) {
      var notification: [(String, JSON)] = [("icon", .string("https://\(random.pick(Self.hosts))/icons/app-192.png"))]
      if kind == .alertWithImage { notification.append(("image", .string(image))) }
      if random.chance(richness) { notification.append(("requireInteraction", .bool(true))) }
      message.append(("webpush", .object([
        ("headers", .object([("TTL", .string("86400")), ("Urgency", .string(random.pick(["high", "normal"])))])),
        ("notification", .object(notification)),
        ("fcm_options", .object([("link", .string("https://app.example.com/open/\(random.int(100_000))"))])),
      ])))
    }
    if random.chance(richness / 2) { message.append(("fcm_options", .object([("analytics_label", .string("campaign_\(random.int(100))"))]))) }
    return JSON.object([("message", .object(message))]).render() + "\n"
  }

  /// A send request with a few typical mistakes (each reported by the pack).
  mutating func invalidRequest() -> String {
    var text = request(kind: .alertWithImage, target: random.pick([.token, .topic]), richness: 1.0)
    let mistakes: [(String, String)] = [
      ("\"mutable-content\": 1", "\"mutable_content\": 1"),
      ("\"apns-priority\": \"10\"", "\"apns-priority\": 10"),
      ("\"TTL\": \"86400\"", "\"TTL\": \"1d\""),
      ("\"click_action\"", "\"clickaction\""),
      ("/banner.", "/banner-"),
      ("\"priority\": \"HIGH\"", "\"priority\": \"URGENT\""),
    ]
    var applied = 0
    for (from, to) in mistakes where random.chance(0.5) && text.contains(from) {
      text = text.replacingOccurrences(of: from, with: to)
      applied += 1
    }
    if applied == 0 { text = text.replacingOccurrences(of: "\"sound\": \"default\"", with: "\"sound\": 1") }
    return text
  }
}
