// The Admin SDK's encoding: per object of a message, the keys it renames and the values it converts.

import FCMLintEngine

extension NodeMessageLiteral {
  /// The objects of a message whose keys or values the SDK's encoder changes. Everything else
  /// (data, headers, webpush, the fcmOptions of the message and of android, apns.payload beside
  /// aps) is sent as given: `.free`.
  enum Shape: Sendable, CaseIterable {
    case free, message, notification, android, androidNotification, lightSettings
    case apns, apnsPayload, aps, apsAlert, criticalSound, apnsFcmOptions

    /// The SDK's interface for the object (messaging-api.ts), which names its renames in the
    /// aliases file.
    var sdkType: String? {
      switch self {
      case .free: return nil
      case .message: return "Message"
      case .notification: return "Notification"
      case .android: return "AndroidConfig"
      case .androidNotification: return "AndroidNotification"
      case .lightSettings: return "LightSettings"
      case .apns: return "ApnsConfig"
      case .apnsPayload: return "ApnsPayload"
      case .aps: return "Aps"
      case .apsAlert: return "ApsAlert"
      case .criticalSound: return "CriticalSound"
      case .apnsFcmOptions: return "ApnsFcmOptions"
      }
    }
  }

  /// A value conversion of the encoder. A value of another type than the one converted is sent
  /// as given (the SDK would throw; the rules report it on the wire form).
  enum Conversion: Sendable, Equatable {
    case none
    /// `topic`: a leading "/topics/" removed (validateMessage).
    case topicName
    /// A number of milliseconds as a duration string, "3.500000000s" or "5s"
    /// (transformMillisecondsToSecondsString).
    case durationMillis
    /// An array of numbers of milliseconds, each as a duration string (vibrateTimingsMillis).
    case durationsMillis
    /// android.notification.priority: 'PRIORITY_' + the value upper-cased.
    case notificationPriority
    /// visibility, proxy: upper-cased.
    case upperCase
    /// contentAvailable, mutableContent, critical: true is sent as 1, false is dropped.
    case oneForTrue
    /// lightSettings.color '#RRGGBB' or '#RRGGBBAA' as {red, green, blue, alpha} in 0...1.
    case lightColor
    /// eventTimestamp: a `Date` as its toISOString() ("2019-10-20T18:30:00.000Z").
    case isoDate
  }

  /// What the encoder does with one key of an object: the wire name it renames the key to, the
  /// conversion of its value, and the shape of its value when that is an object.
  struct Field: Sendable {
    var wire: String? = nil
    var conversion: Conversion = .none
    var shape: Shape = .free
  }

  /// The encoder as a table: per object of a message, the keys whose values it converts or
  /// descends into (messaging-internal.ts: validateMessage, validateNotification,
  /// validateAndroidConfig, validateAndroidNotification, validateLightSettings,
  /// validateApnsConfig, validateApnsPayload, validateAps, validateApsAlert, validateApsSound,
  /// validateApnsFcmOptions), by the SDK's name of the key. The keys it renames are data the
  /// rules hold (`Encoding`). Keys already in wire form are not listed: they pass unchanged and
  /// the SDK does not look into them, except the aps flags it converts under either name.
  static let fields: [Shape: [String: Field]] = [
    .message: [
      "topic": Field(conversion: .topicName), "notification": Field(shape: .notification), "android": Field(shape: .android),
      "apns": Field(shape: .apns),
    ],
    .android: ["ttl": Field(conversion: .durationMillis), "notification": Field(shape: .androidNotification)],
    .androidNotification: [
      "eventTimestamp": Field(conversion: .isoDate), "priority": Field(conversion: .notificationPriority),
      "vibrateTimingsMillis": Field(conversion: .durationsMillis), "lightSettings": Field(shape: .lightSettings),
      "visibility": Field(conversion: .upperCase), "proxy": Field(conversion: .upperCase),
    ],
    .lightSettings: [
      "color": Field(conversion: .lightColor), "lightOnDurationMillis": Field(conversion: .durationMillis),
      "lightOffDurationMillis": Field(conversion: .durationMillis),
    ],
    .apns: ["payload": Field(shape: .apnsPayload), "fcmOptions": Field(shape: .apnsFcmOptions)],
    .apnsPayload: ["aps": Field(shape: .aps)],
    .aps: [
      "alert": Field(shape: .apsAlert), "sound": Field(shape: .criticalSound),
      "contentAvailable": Field(conversion: .oneForTrue), "content-available": Field(conversion: .oneForTrue),
      "mutableContent": Field(conversion: .oneForTrue), "mutable-content": Field(conversion: .oneForTrue),
    ],
    .criticalSound: ["critical": Field(conversion: .oneForTrue)],
  ]

  /// The SDK's encoding as a reader applies it: `fields`, with the wire names the SDK writes for
  /// its own names (`imageUrl` is sent as `image`) from the rules' aliases file, the definition
  /// `renamesDefinition`: a mapping from each object's SDK interface (`Shape.sdkType`) to its
  /// renames. Without it, keys are sent as written.
  ///
  /// The definition is kept as written and looked up only for the keys of a Node.js literal's
  /// objects: a page without one (most pages) pays nothing for it.
  public struct Encoding: Sendable {
    /// The definition's SDK interfaces and their renames, as written.
    let renames: [(key: DataValue, value: DataValue)]

    /// The name of the definition that holds the renames.
    public static let renamesDefinition = "NodeSdkRenames"

    /// The encoding with the renames of `aliases`.
    public init(_ aliases: Aliases) {
      guard case .mapping(let types)? = aliases.definition(named: Self.renamesDefinition)?.node else {
        renames = []
        return
      }
      renames = types
    }

    /// What the encoder does with `key` in an object of `shape`, or nil when it sends it as given.
    func field(_ key: String, in shape: Shape) -> Field? {
      let field = NodeMessageLiteral.fields[shape]?[key]
      guard let wire = wireName(key, in: shape) else { return field }
      return Field(wire: wire, conversion: field?.conversion ?? .none, shape: field?.shape ?? .free)
    }

    /// The wire name the SDK writes for `key` in an object of `shape`, if it renames it.
    func wireName(_ key: String, in shape: Shape) -> String? {
      guard let type = shape.sdkType else { return nil }
      for (name, pairs) in renames {
        guard case .scalar(let name, _, _) = name.node, name == type, case .mapping(let members) = pairs.node else { continue }
        for (sdkName, wire) in members {
          if case .scalar(let sdkName, _, _) = sdkName.node, sdkName == key, case .scalar(let wire, .string, _) = wire.node { return wire }
        }
      }
      return nil
    }
  }
}

extension WireWriter {
  /// Writes node `id` converted, or returns false when its value is not of the type converted.
  mutating func convert(_ id: Int, _ conversion: NodeMessageLiteral.Conversion) -> Bool {
    let node = tree.nodes[id]
    let open = node.range.lowerBound
    switch conversion {
    case .none, .durationsMillis:
      return false
    case .topicName:
      let prefix = Array("/topics/".utf8)
      guard node.kind == .string, node.text.bytes.starts(with: prefix) else { return false }
      writeString(node.text, open: open, close: node.range.upperBound - 1, from: prefix.count)
    case .durationMillis:
      guard node.kind == .number, let millis = node.number, millis >= 0, millis.isFinite else { return false }
      out.append(Array("\"\(Self.duration(millis: millis))\"".utf8), standingFor: node.range)
    case .notificationPriority:
      guard node.kind == .string else { return false }
      writeString(node.text, open: open, close: node.range.upperBound - 1, prefix: Array("PRIORITY_".utf8), upperCased: true)
    case .upperCase:
      guard node.kind == .string else { return false }
      writeString(node.text, open: open, close: node.range.upperBound - 1, upperCased: true)
    case .oneForTrue:
      guard node.kind == .boolTrue else { return false }
      out.append([UInt8(ascii: "1")], standingFor: node.range)
    case .lightColor:
      guard node.kind == .string, let color = Self.rgba(node.text.bytes) else { return false }
      let names = ["red", "green", "blue", "alpha"]
      let json = "{" + zip(names, color).map { "\"\($0)\":\(Self.jsNumber($1))" }.joined(separator: ",") + "}"
      out.append(Array(json.utf8), standingFor: node.range)
    case .isoDate:
      guard node.kind == .placeholder, let date = dateString(node.range) else { return false }
      out.append(Array("\"\(date)\"".utf8), standingFor: node.range)
    }
    return true
  }

  // MARK: Conversions

  /// transformMillisecondsToSecondsString: "5s", or "0.005000000s" with nine digits of nanos.
  static func duration(millis: Double) -> String {
    let seconds = (millis / 1000).rounded(.down)
    let nanos = ((millis - seconds * 1000) * 1_000_000).rounded(.down)
    guard nanos > 0 else { return jsNumber(seconds) + "s" }
    let digits = jsNumber(nanos)
    return jsNumber(seconds) + "." + String(repeating: "0", count: max(0, 9 - digits.count)) + digits + "s"
  }

  /// A number as JavaScript writes it where that matters here: integers without ".0".
  static func jsNumber(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 9.0e18 { return String(Int64(value)) }
    return value.description
  }

  /// validateLightSettings: '#RRGGBB' (alpha FF) or '#RRGGBBAA' as four fractions of 255.
  static func rgba(_ text: [UInt8]) -> [Double]? {
    guard text.count == 7 || text.count == 9, text.first == UInt8(ascii: "#") else { return nil }
    var values: [Double] = []
    var k = 1
    while k < text.count {
      guard let high = hexDigit(text[k]), let low = hexDigit(text[k + 1]) else { return nil }
      values.append(Double(high * 16 + low) / 255.0)
      k += 2
    }
    if values.count == 3 { values.append(1) }
    return values
  }

  private static func hexDigit(_ c: UInt8) -> Int? {
    switch c {
    case 0x30...0x39: return Int(c - 0x30)
    case 0x41...0x46: return Int(c - 0x41 + 10)
    case 0x61...0x66: return Int(c - 0x61 + 10)
    default: return nil
    }
  }

  /// `new Date(<ISO string or milliseconds>)` as Date.prototype.toISOString writes it, or nil
  /// for any other expression or a date that needs the local time zone.
  private func dateString(_ range: Range<Int>) -> String? {
    let parser = LiteralParser(source: source)
    var i = range.lowerBound
    func expect(_ word: String) -> Bool {
      guard let next = parser.skipTrivia(i) else { return false }
      let bytes = Array(word.utf8)
      guard next + bytes.count <= range.upperBound, Array(source[next..<(next + bytes.count)]) == bytes else { return false }
      i = next + bytes.count
      return true
    }
    guard expect("new"), parser.skipTrivia(i) != i, expect("Date"), expect("("), let argument = parser.skipTrivia(i), argument < range.upperBound
    else { return nil }
    var millis: Double
    var end: Int
    let c = source[argument]
    if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
      guard let (text, after) = parser.decodeQuoted(at: argument), let parsed = Self.parseISODate(text.bytes) else { return nil }
      millis = parsed
      end = after
    } else if let (value, after, _) = parser.numberLiteral(at: argument) {
      millis = value
      end = after
    } else {
      return nil
    }
    i = end
    guard expect(")"), i == range.upperBound else { return nil }
    return Self.isoString(millis: millis)
  }

  /// The milliseconds since 1970 of an ISO 8601 date as `Date` parses it: `YYYY-MM-DD` (UTC), or
  /// with `THH:mm[:ss[.sss]]` and `Z` or `±HH:mm` (without an offset it is local time: nil).
  static func parseISODate(_ text: [UInt8]) -> Double? {
    var k = 0
    func number(_ digits: Int) -> Int? {
      guard k + digits <= text.count else { return nil }
      var value = 0
      for _ in 0..<digits {
        guard text[k] >= 0x30, text[k] <= 0x39 else { return nil }
        value = value * 10 + Int(text[k] - 0x30)
        k += 1
      }
      return value
    }
    func skip(_ c: Character) -> Bool {
      guard k < text.count, text[k] == UInt8(ascii: c.unicodeScalars.first!) else { return false }
      k += 1
      return true
    }
    guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), (1...12).contains(month),
      (1...31).contains(day)
    else { return nil }
    var millis = Double(daysFromCivil(year, month, day)) * 86_400_000
    if k == text.count { return millis }
    guard skip("T") || skip(" "), let hour = number(2), skip(":"), let minute = number(2), hour <= 24, minute <= 59 else { return nil }
    var second = 0, fraction = 0.0
    if skip(":") {
      guard let s = number(2), s <= 59 else { return nil }
      second = s
      if skip(".") {
        var scale = 100.0
        let start = k
        while k < text.count, text[k] >= 0x30, text[k] <= 0x39 {
          fraction += Double(text[k] - 0x30) * scale
          scale /= 10
          k += 1
        }
        guard k > start else { return nil }
        fraction = fraction.rounded(.down)
      }
    }
    millis += Double(hour * 3_600_000 + minute * 60_000 + second * 1000) + fraction
    if skip("Z") {
      return k == text.count ? millis : nil
    }
    guard k < text.count, text[k] == UInt8(ascii: "+") || text[k] == UInt8(ascii: "-") else { return nil }
    let sign = text[k] == UInt8(ascii: "+") ? 1.0 : -1.0
    k += 1
    guard let offsetHours = number(2), skip(":"), let offsetMinutes = number(2), k == text.count else { return nil }
    return millis - sign * Double(offsetHours * 3_600_000 + offsetMinutes * 60_000)
  }

  /// toISOString: "YYYY-MM-DDTHH:mm:ss.sssZ", for years 0 to 9999.
  static func isoString(millis: Double) -> String? {
    guard millis.isFinite, millis == millis.rounded() else { return nil }
    let total = Int64(millis)
    let days = Int((Double(total) / 86_400_000).rounded(.down))
    let inDay = Int(total - Int64(days) * 86_400_000)
    let (year, month, day) = civilFromDays(days)
    guard (0...9999).contains(year) else { return nil }
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):"
      + "\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))Z"
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day since 1970-01-01 (civil_from_days).
  static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
