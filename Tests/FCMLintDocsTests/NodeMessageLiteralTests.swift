import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import XCTest

@testable import FCMLintDocs

/// A parsed JSON value, to compare wire forms whatever their layout; a template placeholder keeps
/// its text.
private indirect enum Value: Equatable, CustomStringConvertible {
  case object([String: Value]), array([Value]), string(String), number(Double), bool(Bool), null, placeholder(String)

  var description: String {
    switch self {
    case .object(let members): return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .string(let s): return "\"\(s)\""
    case .number(let n): return "\(n)"
    case .bool(let b): return "\(b)"
    case .null: return "null"
    case .placeholder(let text): return text
    }
  }
}

/// The reader with the built-in pack's encoding, as a page is read with the built-in rules.
extension NodeMessageLiteral {
  fileprivate static let builtin = Encoding((try? BuiltinPack.load())?.aliases ?? Aliases())

  fileprivate static func read(_ source: [UInt8], from start: Int) -> (json: MappedText, end: Int)? {
    read(source, from: start, encoding: builtin)
  }

  fileprivate static func read(_ source: [UInt8], from start: Int, as shape: Shape) -> (json: MappedText, end: Int)? {
    read(source, from: start, as: shape, encoding: builtin)
  }
}

final class NodeMessageLiteralTests: XCTestCase {
  lazy var linter = Linter(rules: builtinRules())

  // MARK: Helpers

  private func value(_ document: JSONDocument, _ id: NodeID) -> Value {
    switch document.kind(id) {
    case .object:
      var members: [String: Value] = [:]
      for child in document.children(id) { members[document.key(child) ?? ""] = value(document, child) }
      return .object(members)
    case .array: return .array(document.children(id).map { value(document, $0) })
    case .string: return .string(document.string(id) ?? "")
    case .number: return .number(document.number(id) ?? .nan)
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .null: return .null
    case .placeholder: return .placeholder(document.rawText(id))
    }
  }

  /// The value of JSON text (placeholders allowed), or nil when it does not parse.
  private func parse(_ bytes: [UInt8]) -> Value? {
    guard case .success(let document) = linter.parse(bytes) else { return nil }
    return value(document, JSONDocument.root)
  }

  private func parse(_ text: String) -> Value? { parse(Array(text.utf8)) }

  /// The wire form of the literal at the first `{` of `js`.
  private func wire(_ js: String, as shape: NodeMessageLiteral.Shape = .message) -> (json: MappedText, end: Int)? {
    let source = Array(js.utf8)
    guard let start = source.firstIndex(of: UInt8(ascii: "{")) else { return nil }
    return NodeMessageLiteral.read(source, from: start, as: shape)
  }

  /// Checks that `js` reads as the JSON `expected` and that its output parses.
  private func assertWire(_ js: String, _ expected: String, as shape: NodeMessageLiteral.Shape = .message, file: StaticString = #filePath, line: UInt = #line) {
    guard let (json, _) = wire(js, as: shape) else { return XCTFail("not read: \(js)", file: file, line: line) }
    guard let got = parse(json.bytes) else {
      return XCTFail("output does not parse: \(String(decoding: json.bytes, as: UTF8.self))", file: file, line: line)
    }
    guard let want = parse(expected) else { return XCTFail("expected does not parse: \(expected)", file: file, line: line) }
    XCTAssertEqual(got, want, "from \(js)\noutput \(String(decoding: json.bytes, as: UTF8.self))", file: file, line: line)
  }

  private func offset(of needle: String, in haystack: [UInt8], after: Int = 0) -> Int? {
    let n = Array(needle.utf8)
    guard haystack.count >= n.count else { return nil }
    var i = after
    while i + n.count <= haystack.count {
      if haystack[i] == n[0], Array(haystack[i..<(i + n.count)]) == n { return i }
      i += 1
    }
    return nil
  }

  /// The diagnostics of a wire form, each with the source text its range maps to.
  private func lint(_ source: [UInt8], _ json: MappedText) -> [(rule: String, pointer: String, start: Int, text: String)] {
    linter.lint(bytes: json.bytes, file: "sample").map { d in
      let start = json.origin(of: d.startOffset), end = json.origin(of: d.endOffset)
      return (d.rule, d.pointer, start, String(decoding: source[start..<max(start, end)], as: UTF8.self))
    }
  }

  // MARK: The seed pages' Node.js sample

  /// Seed page 000's Node.js sample, as the page shows it.
  static let seedNodeSample = """
    const topicName = 'industry-tech';

    const message = {
      notification: {
        title: 'Sparky says hello!'
      },
      android: {
        notification: {
          imageUrl: 'https://foo.bar.pizza-monster.png'
        }
      },
      apns: {
        payload: {
          aps: {
            'mutable-content': 1
          }
        },
        fcm_options: {
          image: 'https://foo.bar.pizza-monster.png'
        }
      },
      webpush: {
        headers: {
          image: 'https://foo.bar.pizza-monster.png'
        }
      },
      topic: topicName,
    };

    getMessaging().send(message)
      .then((response) => {
        // Response is a message ID string.
        console.log('Successfully sent message:', response);
      })
      .catch((error) => {
        console.log('Error sending message:', error);
      });
    """

  /// Seed page 003's copy of it, all white space squashed out by the page's text extraction.
  static let squashedNodeSample = """
    consttopicName='industry-tech';constmessage={notification:{title:'Sparky says hello!'},android:{notification:{imageUrl:'https://foo.bar.pizza-monster.png'}},apns:{payload:{aps:{'mutable-content':1}},fcm_options:{image:'https://foo.bar.pizza-monster.png'}},webpush:{headers:{image:'https://foo.bar.pizza-monster.png'}},topic:topicName,};getMessaging().send(message).then((response)=>{// Response is a message ID string.console.log('Successfully sent message:',response);}).catch((error)=>{console.log('Error sending message:',error);});
    """

  /// Seed page 000's REST form of the same message.
  static let seedRESTBody = """
    {
      "message":{
         "topic":"industry-tech",
         "notification":{
           "title":"Sparky says hello!",
         },
         "android":{
           "notification":{
             "image":"https://foo.bar/pizza-monster.png"
           }
         },
         "apns":{
           "payload":{
             "aps":{
               "mutable-content":1
             }
           },
           "fcm_options": {
               "image":"https://foo.bar/pizza-monster.png"
           }
         },
         "webpush":{
           "headers":{
             "image":"https://foo.bar/pizza-monster.png"
           }
         }
       }
     }
    """

  static let seedWireForm = """
    {"notification": {"title": "Sparky says hello!"},
     "android": {"notification": {"image": "https://foo.bar.pizza-monster.png"}},
     "apns": {"payload": {"aps": {"mutable-content": 1}}, "fcm_options": {"image": "https://foo.bar.pizza-monster.png"}},
     "webpush": {"headers": {"image": "https://foo.bar.pizza-monster.png"}},
     "topic": {{topicName}}}
    """

  func testSeedSamplesReadAsTheirWireForm() throws {
    for sample in [Self.seedNodeSample, Self.squashedNodeSample] {
      let source = Array(sample.utf8)
      let marker = sample.contains("const message") ? "const message = " : "constmessage="
      let start = try XCTUnwrap(offset(of: marker, in: source)) + marker.utf8.count
      let (json, end) = try XCTUnwrap(NodeMessageLiteral.read(source, from: start))
      XCTAssertEqual(parse(json.bytes), parse(Self.seedWireForm))
      // The literal ends at its `}`, before the statement's `;`.
      XCTAssertEqual(source[end - 1], UInt8(ascii: "}"))
      XCTAssertEqual(source[end], UInt8(ascii: ";"))
      XCTAssertEqual(json.origins.count, json.bytes.count + 1)
      XCTAssertEqual(json.origin(of: 0), start)
      XCTAssertEqual(json.origin(of: json.bytes.count), end)
    }
  }

  func testSeedSampleGetsTheRESTFormsFindingsAtItsOwnOffsets() throws {
    let rest = linter.lint(bytes: Array(Self.seedRESTBody.utf8), file: "rest.json")
    let restRules = Set(rest.map(\.rule))
    // The REST form: its trailing comma, and the image in webpush.headers.
    XCTAssertEqual(restRules, ["json-syntax", "webpush-image-header"])
    for sample in [Self.seedNodeSample, Self.squashedNodeSample] {
      let source = Array(sample.utf8)
      let start = try XCTUnwrap(source.firstIndex(of: UInt8(ascii: "{")).flatMap { _ in offset(of: "essage", in: source) }) + 1
      let brace = try XCTUnwrap(source[start...].firstIndex(of: UInt8(ascii: "{")))
      let (json, _) = try XCTUnwrap(NodeMessageLiteral.read(source, from: brace))
      let found = lint(source, json)
      let rules = Set(found.map(\.rule))
      // JavaScript allows the trailing comma; every other finding of the REST form is there.
      XCTAssertTrue(restRules.subtracting(["json-syntax"]).isSubset(of: rules), "\(found)")

      // The image in webpush.headers, on the `image` key of the sample's webpush.headers.
      let webpush = try XCTUnwrap(offset(of: "webpush", in: source, after: brace))
      let headerKey = try XCTUnwrap(offset(of: "image", in: source, after: webpush))
      let header = try XCTUnwrap(found.first { $0.rule == "webpush-image-header" })
      XCTAssertEqual(header.start, headerKey)
      XCTAssertEqual(header.text, "image")

      // The host name ending in ".png", on the android imageUrl value and the APNs image value.
      let androidValue = try XCTUnwrap(offset(of: "'https://foo.bar.pizza-monster.png'", in: source, after: brace))
      let apnsValue = try XCTUnwrap(offset(of: "'https://foo.bar.pizza-monster.png'", in: source, after: androidValue + 1))
      let hostName = found.filter { $0.rule == "image-extension-android" || $0.rule == "image-extension" }
      XCTAssertEqual(hostName.map(\.start).sorted(), [androidValue, apnsValue], "\(found)")
      for finding in hostName { XCTAssertEqual(finding.text, "'https://foo.bar.pizza-monster.png'") }
      XCTAssertEqual(hostName.first { $0.start == androidValue }?.pointer, "/android/notification/image")
    }
  }

  // MARK: The SDK's encoding, one case each

  func testMessageAndNotification() {
    assertWire("{ notification: { title: 't', body: 'b', imageUrl: 'https://e.com/a.png' } }",
               #"{"notification": {"title": "t", "body": "b", "image": "https://e.com/a.png"}}"#)
    // validateMessage removes the "/topics/" prefix.
    assertWire("{ topic: '/topics/news' }", #"{"topic": "news"}"#)
    assertWire("{ topic: 'news', condition: \"'a' in topics\", token: 't', fid: 'f' }",
               #"{"topic": "news", "condition": "'a' in topics", "token": "t", "fid": "f"}"#)
    // The message's fcmOptions and data are sent as given (FCM reads either spelling).
    assertWire("{ fcmOptions: { analyticsLabel: 'l' }, data: { imageUrl: 'x', 'a-b': 'c' } }",
               #"{"fcmOptions": {"analyticsLabel": "l"}, "data": {"imageUrl": "x", "a-b": "c"}}"#)
  }

  func testAndroidConfig() {
    assertWire("""
      { android: { collapseKey: 'k', restrictedPackageName: 'p', directBootOk: true, bandwidthConstrainedOk: true,
        restrictedSatelliteOk: false, priority: 'high', data: { imageUrl: 'x' }, fcmOptions: { analyticsLabel: 'l' } } }
      """,
      #"""
      {"android": {"collapse_key": "k", "restricted_package_name": "p", "direct_boot_ok": true, "bandwidth_constrained_ok": true,
       "restricted_satellite_ok": false, "priority": "high", "data": {"imageUrl": "x"}, "fcmOptions": {"analyticsLabel": "l"}}}
      """#)
  }

  func testAndroidTTLAsTheSDKFormatsIt() {
    assertWire("{ android: { ttl: 3500 } }", #"{"android": {"ttl": "3.500000000s"}}"#)
    assertWire("{ android: { ttl: 5000 } }", #"{"android": {"ttl": "5s"}}"#)
    assertWire("{ android: { ttl: 5 } }", #"{"android": {"ttl": "0.005000000s"}}"#)
    assertWire("{ android: { ttl: 3600 * 1000 } }", #"{"android": {"ttl": "3600s"}}"#)
    assertWire("{ android: { ttl: 86_400_000 } }", #"{"android": {"ttl": "86400s"}}"#)
    assertWire("{ android: { ttl: 0 } }", #"{"android": {"ttl": "0s"}}"#)
    // Not a number of milliseconds: sent as given, for the rules to report.
    assertWire("{ android: { ttl: '1h' } }", #"{"android": {"ttl": "1h"}}"#)
    assertWire("{ android: { ttl: -1 } }", #"{"android": {"ttl": -1}}"#)
    assertWire("{ android: { ttl: ONE_HOUR } }", #"{"android": {"ttl": {{ONE_HOUR}}}}"#)
  }

  func testAndroidNotification() {
    assertWire("""
      { android: { notification: { title: 't', body: 'b', icon: 'i', color: '#112233', sound: 's', tag: 'g', ticker: 'k', sticky: true,
        imageUrl: 'https://e.com/a.png', clickAction: 'c', bodyLocKey: 'bk', bodyLocArgs: ['1'], titleLocKey: 'tk',
        titleLocArgs: ['2'], channelId: 'ch', localOnly: true, defaultVibrateTimings: false, defaultSound: true,
        defaultLightSettings: false, notificationCount: 3 } } }
      """,
      #"""
      {"android": {"notification": {"title": "t", "body": "b", "icon": "i", "color": "#112233", "sound": "s", "tag": "g",
       "ticker": "k", "sticky": true, "image": "https://e.com/a.png", "click_action": "c", "body_loc_key": "bk",
       "body_loc_args": ["1"], "title_loc_key": "tk", "title_loc_args": ["2"], "channel_id": "ch", "local_only": true,
       "default_vibrate_timings": false, "default_sound": true, "default_light_settings": false, "notification_count": 3}}}
      """#)
  }

  func testAndroidNotificationValueConversions() {
    assertWire("{ android: { notification: { priority: 'high', visibility: 'private', proxy: 'if_priority_lowered' } } }",
               #"{"android": {"notification": {"notification_priority": "PRIORITY_HIGH", "visibility": "PRIVATE", "proxy": "IF_PRIORITY_LOWERED"}}}"#)
    assertWire("{ android: { notification: { vibrateTimingsMillis: [100, 50, 250, 1500] } } }",
               #"{"android": {"notification": {"vibrate_timings": ["0.100000000s", "0.050000000s", "0.250000000s", "1.500000000s"]}}}"#)
    // A value the SDK cannot convert is sent as given.
    assertWire("{ android: { notification: { priority: 2, vibrateTimingsMillis: ['1s'] } } }",
               #"{"android": {"notification": {"notification_priority": 2, "vibrate_timings": ["1s"]}}}"#)
  }

  func testEventTimestamp() {
    assertWire("{ android: { notification: { eventTimestamp: new Date('2019-10-20T12:00:00-06:30') } } }",
               #"{"android": {"notification": {"event_time": "2019-10-20T18:30:00.000Z"}}}"#)
    assertWire("{ android: { notification: { eventTimestamp: new Date(0) } } }",
               #"{"android": {"notification": {"event_time": "1970-01-01T00:00:00.000Z"}}}"#)
    assertWire("{ android: { notification: { eventTimestamp: new Date(\"2024-02-29\") } } }",
               #"{"android": {"notification": {"event_time": "2024-02-29T00:00:00.000Z"}}}"#)
    assertWire("{ android: { notification: { eventTimestamp: new Date('2024-02-29T23:59:59.1234Z') } } }",
               #"{"android": {"notification": {"event_time": "2024-02-29T23:59:59.123Z"}}}"#)
    // The time now, or a local time: not known.
    assertWire("{ android: { notification: { eventTimestamp: new Date() } } }",
               #"{"android": {"notification": {"event_time": {{new Date()}}}}}"#)
    assertWire("{ android: { notification: { eventTimestamp: new Date('2019-10-20T12:00:00') } } }",
               #"{"android": {"notification": {"event_time": {{new Date('2019-10-20T12:00:00')}}}}}"#)
  }

  func testLightSettings() {
    assertWire("""
      { android: { notification: { lightSettings: { color: '#AABBCCDD', lightOnDurationMillis: 200, lightOffDurationMillis: 300 } } } }
      """,
      #"""
      {"android": {"notification": {"light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333,
       "blue": 0.8, "alpha": 0.8666666666666667}, "light_on_duration": "0.200000000s", "light_off_duration": "0.300000000s"}}}}
      """#)
    assertWire("{ android: { notification: { lightSettings: { color: '#ff0000' } } } }",
               #"{"android": {"notification": {"light_settings": {"color": {"red": 1, "green": 0, "blue": 0, "alpha": 1}}}}}"#)
    assertWire("{ android: { notification: { lightSettings: { color: 'red' } } } }",
               #"{"android": {"notification": {"light_settings": {"color": "red"}}}}"#)
  }

  func testApnsConfig() {
    assertWire("""
      { apns: { liveActivityToken: 'lat', headers: { 'apns-priority': '10', apnsPushType: 'x' },
        payload: { aps: { alert: 'a', badge: 42, sound: 'default', category: 'c', threadId: 't', 'interruption-level': 'active' },
                   customKey: { imageUrl: 'x', mutableContent: true } },
        fcmOptions: { imageUrl: 'https://e.com/a.png', analyticsLabel: 'l' } } }
      """,
      #"""
      {"apns": {"live_activity_token": "lat", "headers": {"apns-priority": "10", "apnsPushType": "x"},
       "payload": {"aps": {"alert": "a", "badge": 42, "sound": "default", "category": "c", "thread-id": "t", "interruption-level": "active"},
                   "customKey": {"imageUrl": "x", "mutableContent": true}},
       "fcmOptions": {"image": "https://e.com/a.png", "analyticsLabel": "l"}}}
      """#)
  }

  func testApsAlertKeys() {
    assertWire("""
      { apns: { payload: { aps: { alert: { title: 't', subtitle: 's', body: 'b', locKey: 'lk', locArgs: ['1'], titleLocKey: 'tk',
        titleLocArgs: ['2'], subtitleLocKey: 'sk', subtitleLocArgs: ['3'], actionLocKey: 'ak', launchImage: 'li' } } } } }
      """,
      #"""
      {"apns": {"payload": {"aps": {"alert": {"title": "t", "subtitle": "s", "body": "b", "loc-key": "lk", "loc-args": ["1"],
       "title-loc-key": "tk", "title-loc-args": ["2"], "subtitle-loc-key": "sk", "subtitle-loc-args": ["3"],
       "action-loc-key": "ak", "launch-image": "li"}}}}}
      """#)
  }

  func testApsFlagsAndSound() {
    assertWire("{ apns: { payload: { aps: { contentAvailable: true, mutableContent: true } } } }",
               #"{"apns": {"payload": {"aps": {"content-available": 1, "mutable-content": 1}}}}"#)
    // The SDK drops a false flag, and converts true under the wire name as well.
    assertWire("{ apns: { payload: { aps: { contentAvailable: false, 'mutable-content': true, badge: 0 } } } }",
               #"{"apns": {"payload": {"aps": {"mutable-content": 1, "badge": 0}}}}"#)
    assertWire("{ apns: { payload: { aps: { 'content-available': false, 'mutable-content': 1 } } } }",
               #"{"apns": {"payload": {"aps": {"mutable-content": 1}}}}"#)
    // Of the wrong type: sent as given, for the rules to report.
    assertWire("{ apns: { payload: { aps: { mutableContent: 'yes' } } } }", #"{"apns": {"payload": {"aps": {"mutable-content": "yes"}}}}"#)
    assertWire("{ apns: { payload: { aps: { sound: { critical: true, name: 'n', volume: 0.5 } } } } }",
               #"{"apns": {"payload": {"aps": {"sound": {"critical": 1, "name": "n", "volume": 0.5}}}}}"#)
    assertWire("{ apns: { payload: { aps: { sound: { critical: false, name: 'n' } } } } }",
               #"{"apns": {"payload": {"aps": {"sound": {"name": "n"}}}}}"#)
  }

  func testWebpushConfigIsSentAsGiven() {
    assertWire("""
      { webpush: { headers: { TTL: '60', Urgency: 'high' }, data: { k: 'v' },
        notification: { title: 't', requireInteraction: true, actions: [{ action: 'a', title: 'b' }], imageUrl: 'x' },
        fcmOptions: { link: 'https://e.com' } } }
      """,
      #"""
      {"webpush": {"headers": {"TTL": "60", "Urgency": "high"}, "data": {"k": "v"},
       "notification": {"title": "t", "requireInteraction": true, "actions": [{"action": "a", "title": "b"}], "imageUrl": "x"},
       "fcmOptions": {"link": "https://e.com"}}}
      """#)
  }

  func testWireFormKeysPassUnchanged() {
    assertWire("""
      { android: { notification: { notification_priority: 'PRIORITY_LOW', image: 'i', light_settings: { color: '#ffffff', light_on_duration: '1s' },
        vibrate_timings: ['1s'] }, collapse_key: 'k', ttl: '3s' },
        apns: { fcm_options: { image: 'i', imageUrl: 'u' }, payload: { aps: { 'thread-id': 't', 'loc-key': 'x' } } } }
      """,
      #"""
      {"android": {"notification": {"notification_priority": "PRIORITY_LOW", "image": "i", "light_settings": {"color": "#ffffff",
       "light_on_duration": "1s"}, "vibrate_timings": ["1s"]}, "collapse_key": "k", "ttl": "3s"},
       "apns": {"fcm_options": {"image": "i", "imageUrl": "u"}, "payload": {"aps": {"thread-id": "t", "loc-key": "x"}}}}
      """#)
  }

  func testEncoderIsATableOfKnownShapes() {
    // Every shape the table descends into has its own entry, of conversions or of renames.
    let renamed = Set(NodeMessageLiteral.builtin.renames.compactMap { type -> String? in
      if case .scalar(let name, _, _) = type.key.node { return name }
      return nil
    })
    for table in NodeMessageLiteral.fields.values {
      for field in table.values where field.shape != .free {
        XCTAssertTrue(NodeMessageLiteral.fields[field.shape] != nil || renamed.contains(field.shape.sdkType ?? ""), "\(field.shape)")
      }
    }
  }

  func testRenamesAreTheRulesData() throws {
    // The aliases file's definition names each object by the SDK's interface, and every entry is
    // a name and the wire name it is sent as.
    let definition = try XCTUnwrap(builtinRules().aliases.definition(named: NodeMessageLiteral.Encoding.renamesDefinition))
    guard case .mapping(let types) = definition.node else { return XCTFail("not a mapping") }
    for (type, renames) in types {
      guard case .scalar(let name, .string, _) = type.node else { return XCTFail("not a name: \(type)") }
      XCTAssertTrue(NodeMessageLiteral.Shape.allCases.contains { $0.sdkType == name }, "unknown SDK interface \(name)")
      guard case .mapping(let pairs) = renames.node else { return XCTFail("\(name): not a mapping") }
      for (key, wire) in pairs {
        guard case .scalar(_, .string, _) = key.node, case .scalar(_, .string, _) = wire.node else { return XCTFail("\(name): not a name and a wire name") }
      }
    }
    // The reader renames what the aliases say, and nothing without them; conversions stay.
    let js = Array("{ topic: '/topics/t', notification: { imageUrl: 'x' } }".utf8)
    let aliases = try Aliases().adding(DataValue(yaml: "definitions:\n  NodeSdkRenames:\n    Notification: {imageUrl: picture}\n", file: "aliases.yml"))
    let renamed = try XCTUnwrap(NodeMessageLiteral.read(js, from: 0, encoding: NodeMessageLiteral.Encoding(aliases)))
    XCTAssertEqual(parse(renamed.json.bytes), parse(#"{"topic": "t", "notification": {"picture": "x"}}"#))
    let plain = try XCTUnwrap(NodeMessageLiteral.read(js, from: 0, encoding: NodeMessageLiteral.Encoding(Aliases())))
    XCTAssertEqual(parse(plain.json.bytes), parse(#"{"topic": "t", "notification": {"imageUrl": "x"}}"#))
  }

  // MARK: JavaScript syntax

  func testQuotesEscapesAndTemplates() {
    assertWire(#"{ 'a': 'it\'s', "b": "say \"hi\"", c: 'tab\there\nline', d: '\u00e9\u{1F600}\x41\uD83D\uDE00', e: 'a\\b', f: '\0' }"#,
               #"{"a": "it's", "b": "say \"hi\"", "c": "tab\there\nline", "d": "é😀A😀", "e": "a\\b", "f": "\u0000"}"#, as: .free)
    assertWire("{ a: `plain`, b: `two\nlines`, c: `Hello ${user.name}!`, d: `${ {x: 1}.x }` }",
               #"{"a": "plain", "b": "two\nlines", "c": "Hello {{user.name}}!", "d": "{{x: 1.x}}"}"#, as: .free)
    assertWire("{ a: 'line \\\n continued' }", #"{"a": "line  continued"}"#, as: .free)
  }

  func testNumbersKeywordsAndStructure() {
    assertWire("{ a: 1e3, b: 1_000, c: 0x1F, d: .5, e: 5., f: -3, g: 0.25, h: +2, i: 0b101, j: 0o17, k: - 4 }",
               #"{"a": 1000, "b": 1000, "c": 31, "d": 0.5, "e": 5, "f": -3, "g": 0.25, "h": 2, "i": 5, "j": 15, "k": -4}"#, as: .free)
    assertWire("{ a: true, b: false, c: null, d: undefined, e: NaN, f: [1, , 3, undefined,], g: { h: [[]], }, }",
               #"{"a": true, "b": false, "c": null, "e": null, "f": [1, null, 3, null], "g": {"h": [[]]}}"#, as: .free)
    assertWire("{ 1: 'one', $x: 1, _y: 2, ünï: 3 }", #"{"1": "one", "$x": 1, "_y": 2, "ünï": 3}"#, as: .free)
  }

  func testCommentsAndTypeScript() {
    assertWire("""
      {
        // a comment
        a: 1, /* another, with a } brace */ b: 'x' /* trailing */,
        c: 'high' as const,
        d: 2 satisfies number,
      } as Message
      """, #"{"a": 1, "b": "x", "c": "high", "d": 2}"#, as: .free)
  }

  func testExpressionsBecomePlaceholders() {
    assertWire("""
      { token, topic: topicName, a: 3600 * 1000, b: (1 + 2) * 3, c: getToken({ user: 1 }), d: new Date(), e: 'a' + b,
        f: x ? { y: 1 } : [2], g: () => { return 1 }, h: registrationTokens[0], i: 1746475860808 + 60, j: 7 % 4 - 10 / 4 }
      """,
      #"""
      {"token": {{token}}, "topic": {{topicName}}, "a": 3600000, "b": 9, "c": {{getToken( user: 1 )}}, "d": {{new Date()}},
       "e": {{'a' + b}}, "f": {{x ? y: 1 : [2]}}, "g": {{() => return 1}}, "h": {{registrationTokens[0]}}, "i": 1746475860868,
       "j": 0.5}
      """#, as: .free)
    // An empty value.
    assertWire("{ a: , b: 1 }", #"{"a": {{value}}, "b": 1}"#, as: .free)
    // A long expression is cut to stay one placeholder.
    guard let (json, _) = wire("{ a: f(" + String(repeating: "x + ", count: 200) + "1) }") else { return XCTFail("not read") }
    XCTAssertLessThan(json.bytes.count, 300)
    XCTAssertNotNil(parse(json.bytes))
  }

  func testMembersThatAreNotDataAreSkipped() {
    assertWire("""
      { ...defaults, [key]: 1, a: 1, send() { return 1 }, get b() { return 2 }, async c() {}, *d() {}, ..., e: 2, … }
      """, #"{"a": 1, "e": 2}"#, as: .free)
    assertWire("{ a: [...rest, 1] }", #"{"a": [1]}"#, as: .free)
  }

  func testStringsJoinedWithPlus() throws {
    let js = "{ body: 'A long body, ' +\n  \"written \" + `on two lines` }"
    assertWire(js, #"{"body": "A long body, written on two lines"}"#, as: .free)
    let source = Array(js.utf8)
    let (json, _) = try XCTUnwrap(NodeMessageLiteral.read(source, from: 0))
    let written = try XCTUnwrap(offset(of: "written", in: source))
    let outWritten = try XCTUnwrap(offset(of: "written", in: json.bytes))
    XCTAssertEqual(json.origin(of: outWritten), written)
    XCTAssertEqual(json.origin(of: try XCTUnwrap(offset(of: "\"A", in: json.bytes))), try XCTUnwrap(offset(of: "'A", in: source)))
    // Anything but strings joined stays an expression.
    assertWire("{ a: 'x' + y, b: 'x' + 1, c: 'x'.trim() + 'y' }", #"{"a": {{'x' + y}}, "b": {{'x' + 1}}, "c": {{'x'.trim() + 'y'}}}"#, as: .free)
  }

  // MARK: Offsets

  func testOffsetsOfARenamedKeyAndItsValue() throws {
    let js = "{ notification: { imageUrl: 'https://e.com/a.png' } }"
    let source = Array(js.utf8)
    let (json, end) = try XCTUnwrap(NodeMessageLiteral.read(source, from: 0))
    XCTAssertEqual(end, source.count)
    let keyStart = try XCTUnwrap(offset(of: "imageUrl", in: source))
    let outKey = try XCTUnwrap(offset(of: "\"image\"", in: json.bytes))
    // Every byte of the renamed key, quotes included, maps to the key's first byte; its end to the key's end.
    for k in outKey..<(outKey + 7) { XCTAssertEqual(json.origin(of: k), keyStart) }
    XCTAssertEqual(json.origin(of: outKey + 7), keyStart + "imageUrl".utf8.count)
    // The value: quote to quote, byte for byte.
    let valueStart = try XCTUnwrap(offset(of: "'https", in: source))
    let outValue = try XCTUnwrap(offset(of: "\"https", in: json.bytes))
    let length = "'https://e.com/a.png'".utf8.count
    for k in 0..<length { XCTAssertEqual(json.origin(of: outValue + k), valueStart + k) }
    XCTAssertEqual(json.origin(of: outValue + length), valueStart + length)
  }

  func testOffsetsOfAnUnquotedKeyAndEscapes() throws {
    let js = #"{ title: 'a\"b\n\u00e9' }"#
    let source = Array(js.utf8)
    let (json, _) = try XCTUnwrap(NodeMessageLiteral.read(source, from: 0, as: .free))
    XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self), #"{"title" :"a\"b\né" }"#)
    // Added quotes map to the key's first byte.
    XCTAssertEqual(json.origin(of: 1), 2)
    XCTAssertEqual(json.origin(of: 7), 2)
    XCTAssertEqual(json.origin(of: 8), 7)  // the space after the key: the key's end
    let escape = try XCTUnwrap(offset(of: #"\""#, in: source))
    let outEscape = try XCTUnwrap(offset(of: #"\""#, in: json.bytes))
    XCTAssertEqual(json.origin(of: outEscape), escape)
    XCTAssertEqual(json.origin(of: outEscape + 1), escape)
    let newline = try XCTUnwrap(offset(of: #"\n"#, in: source))
    let outNewline = try XCTUnwrap(offset(of: #"\n"#, in: json.bytes))
    XCTAssertEqual(json.origin(of: outNewline), newline)
    XCTAssertEqual(json.origin(of: outNewline + 1), newline)
    let unicode = try XCTUnwrap(offset(of: #"\u00e9"#, in: source))
    let outUnicode = try XCTUnwrap(offset(of: "é", in: json.bytes))
    XCTAssertEqual(json.origin(of: outUnicode), unicode)
    XCTAssertEqual(json.origin(of: outUnicode + 1), unicode)
  }

  func testConvertedValuesMapToTheValue() throws {
    let js = "{ android: { ttl: 3600 * 1000, notification: { priority: 'high' } } }"
    let source = Array(js.utf8)
    let (json, _) = try XCTUnwrap(NodeMessageLiteral.read(source, from: 0))
    let ttl = try XCTUnwrap(offset(of: "3600", in: source))
    let outTTL = try XCTUnwrap(offset(of: "\"3600s\"", in: json.bytes))
    for k in 0..<7 { XCTAssertEqual(json.origin(of: outTTL + k), ttl) }
    XCTAssertEqual(json.origin(of: outTTL + 7), ttl + "3600 * 1000".utf8.count)
    let priority = try XCTUnwrap(offset(of: "'high'", in: source))
    let outPriority = try XCTUnwrap(offset(of: "\"PRIORITY_HIGH\"", in: json.bytes))
    XCTAssertEqual(json.origin(of: outPriority), priority)
    XCTAssertEqual(json.origin(of: outPriority + 5), priority)  // the added "PRIORITY_"
    XCTAssertEqual(json.origin(of: outPriority + 10), priority + 1)  // "H" of 'high'
    XCTAssertEqual(json.origin(of: outPriority + 15), priority + 6)
  }

  func testDiagnosticsLandOnTheSourceKeyAndValue() throws {
    // A value converted or renamed into a wrong wire form, and a renamed key that collides.
    let js = """
      { token: 'x', notification: { image: 'https://e.com/a.png', imageUrl: 'http://e.com/b.png' },
        android: { ttl: '1h' }, apns: { payload: { aps: { mutableContent: 'yes' } } } }
      """
    let source = Array(js.utf8)
    let (json, _) = try XCTUnwrap(NodeMessageLiteral.read(source, from: 0))
    let found = lint(source, json)
    func text(_ rule: String) -> String? { found.first { $0.rule == rule }?.text }
    XCTAssertEqual(text("json-duplicate-key"), "imageUrl")
    XCTAssertEqual(text("image-url-https"), "'http://e.com/b.png'")
    XCTAssertEqual(text("android-ttl"), "'1h'")
    XCTAssertEqual(text("apns-flag-value"), "'yes'")
  }

  // MARK: Not a literal, and hostile input

  func testTextThatIsNotAnObjectLiteral() {
    for text in [
      "", "x", "{", "{ a: 1", "{ a b }", "{like this}", "{ a: 'unterminated }", "{ /* unterminated }", "{ a: (] }",
      "{ a: 1; b: 2 }", "{ a: 1 b: 2 }", "{ a: [1, 2 }", "{ 'a' }", "{ a: 'line\nbreak' }", "{ a: `x ${ y ` }", "{ ,a: 1 }",
      "{ a: 1,, }", "{ a: '\\u{110000}' }", "{ a: '\\x4' }",
    ] {
      XCTAssertNil(NodeMessageLiteral.read(Array(text.utf8), from: 0), text)
    }
    XCTAssertNil(NodeMessageLiteral.read(Array("{}".utf8), from: 5))
    XCTAssertNil(NodeMessageLiteral.read(Array("{}".utf8), from: -1))
    XCTAssertNil(NodeMessageLiteral.read(Array("a {}".utf8), from: 0))
    XCTAssertEqual(NodeMessageLiteral.read(Array("a {} b".utf8), from: 2)?.end, 4)
  }

  func testNestingIsCapped() throws {
    let deep = 100_000
    let tooDeep = String(repeating: "{a:", count: deep) + String(repeating: "}", count: deep)
    XCTAssertNil(NodeMessageLiteral.read(Array(tooDeep.utf8), from: 0))
    let arrays = "{a:" + String(repeating: "[", count: deep) + String(repeating: "]", count: deep) + "}"
    XCTAssertNil(NodeMessageLiteral.read(Array(arrays.utf8), from: 0))
    let depth = NodeMessageLiteral.maxDepth
    let deepest = String(repeating: "{a:", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
    let (json, _) = try XCTUnwrap(NodeMessageLiteral.read(Array(deepest.utf8), from: 0, as: .free))
    XCTAssertNotNil(parse(json.bytes))
    let oneMore = "{a:" + deepest + "}"
    XCTAssertNil(NodeMessageLiteral.read(Array(oneMore.utf8), from: 0))
    // Brackets of an expression are counted, not recursed into.
    let parens = "{a: " + String(repeating: "(", count: deep) + "1" + String(repeating: ")", count: deep) + "}"
    XCTAssertEqual(try XCTUnwrap(NodeMessageLiteral.read(Array(parens.utf8), from: 0)).end, parens.utf8.count)
  }

  func testLargeInput() throws {
    var js = "{ data: {"
    for k in 0..<50_000 { js += " k\(k): 'value \(k)'," }
    js += " } }"
    let (json, end) = try XCTUnwrap(NodeMessageLiteral.read(Array(js.utf8), from: 0))
    XCTAssertEqual(end, js.utf8.count)
    guard case .object(let message) = try XCTUnwrap(parse(json.bytes)), case .object(let data) = try XCTUnwrap(message["data"]) else {
      return XCTFail("not an object")
    }
    XCTAssertEqual(data.count, 50_000)
  }

  func testGarbageNeverCrashesAndAnyOutputIsMappedJSON() {
    var random = XorShift64(seed: 19)
    let alphabet = Array("{}[]()'\"`$:,;./*\\ \n\tab01-+_eE?…".utf8) + [0xC3, 0xA9, 0xE2, 0x80]
    var read = 0
    for _ in 0..<3000 {
      var bytes: [UInt8] = [UInt8(ascii: "{")]
      for _ in 0..<random.below(60) { bytes.append(alphabet[random.below(alphabet.count)]) }
      if random.chance(50) { bytes.append(UInt8(ascii: "}")) }
      guard let (json, end) = NodeMessageLiteral.read(bytes, from: 0) else { continue }
      read += 1
      XCTAssertEqual(bytes[end - 1], UInt8(ascii: "}"))
      XCTAssertEqual(json.origins.count, json.bytes.count + 1)
      XCTAssertTrue(json.origins.allSatisfy { $0 >= 0 && $0 <= bytes.count })
      XCTAssertNotNil(parse(json.bytes), String(decoding: bytes, as: UTF8.self) + " -> " + String(decoding: json.bytes, as: UTF8.self))
    }
    XCTAssertGreaterThan(read, 0)
  }

  // MARK: The Node SDK's own valid test messages

  /// Each `req` of the SDK's validMessages (Tests/Fixtures/sdk/node/messaging-spec-valid-messages.js)
  /// reads as the wire form the SDK's test expects (valid/<label>.json, its expectedReq), and
  /// each `expectedReq`, read as plain JavaScript, is that wire form too.
  func testNodeSDKValidMessages() throws {
    let spec = Array(try Repository.read("Tests/Fixtures/sdk/node/messaging-spec-valid-messages.js").utf8)
    var compared = 0
    var at = 0
    while let label = offset(of: "label: '", in: spec, after: at) {
      let nameStart = label + "label: '".utf8.count
      let nameEnd = try XCTUnwrap(spec[nameStart...].firstIndex(of: UInt8(ascii: "'")))
      let name = String(decoding: spec[nameStart..<nameEnd], as: UTF8.self)
      let slug = name.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: "-")
      let expectedFile = try Repository.read("Tests/Fixtures/sdk/node/valid/\(slug).json")
      guard case .object(let request) = try XCTUnwrap(parse(expectedFile)), case .object(var expected) = try XCTUnwrap(request["message"])
      else { return XCTFail(slug) }
      expected["token"] = nil  // added by the test
      let next = offset(of: "label: '", in: spec, after: nameEnd) ?? spec.count
      let req = try XCTUnwrap(offset(of: "req: {", in: spec, after: nameEnd)) + "req: ".utf8.count
      let (json, _) = try XCTUnwrap(NodeMessageLiteral.read(spec, from: req), name)
      XCTAssertEqual(parse(json.bytes), .object(expected), "\(name): \(String(decoding: json.bytes, as: UTF8.self))")
      if let expectedReq = offset(of: "expectedReq: {", in: spec, after: req), expectedReq < next {
        let start = expectedReq + "expectedReq: ".utf8.count
        let (plain, _) = try XCTUnwrap(NodeMessageLiteral.read(spec, from: start, as: .free), name)
        XCTAssertEqual(parse(plain.bytes), .object(expected), name)
      }
      compared += 1
      at = nameEnd
    }
    XCTAssertEqual(compared, 24)
  }
}

extension NodeMessageLiteralTests {
  /// An expression that would read as a template's control tag stays a value.
  func testPlaceholdersAreValuesNotControlTags() {
    assertWire("{ a: template.body, b: /x/.source, c: !flag, d: (range), e: $if, f: include(x), g: `${ each }` }",
               #"{"a": {{js: template.body}}, "b": {{js: /x/.source}}, "c": {{js: !flag}}, "d": {{js: (range)}}, "e": {{js: $if}}, "f": {{js: include(x)}}, "g": "{{js: each}}"}"#,
               as: .free)
    assertWire("{ a: templates, b: ifNeeded }", #"{"a": {{templates}}, "b": {{ifNeeded}}}"#, as: .free)
  }
}

extension NodeMessageLiteralTests {
  /// The seed sample with bytes deleted, repeated or replaced: read or refused, never a crash,
  /// and what is read is JSON with every byte mapped into the source.
  func testMutatedSamplesNeverCrash() {
    var random = XorShift64(seed: 7)
    let sample = Array(Self.seedNodeSample.utf8)
    let start = sample.firstIndex(of: UInt8(ascii: "{"))!
    let alphabet = Array("{}[]()'\"`$:,;./*\\ \n?…".utf8)
    var read = 0
    for _ in 0..<2000 {
      var bytes = sample
      for _ in 0..<(1 + random.below(4)) {
        let at = start + 1 + random.below(bytes.count - start - 1)
        switch random.below(3) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(bytes[at], at: at)
        default: bytes[at] = alphabet[random.below(alphabet.count)]
        }
      }
      guard let (json, end) = NodeMessageLiteral.read(bytes, from: start) else { continue }
      read += 1
      XCTAssertEqual(bytes[end - 1], UInt8(ascii: "}"))
      XCTAssertTrue(json.origins.allSatisfy { $0 >= start && $0 <= end })
      XCTAssertNotNil(parse(json.bytes), String(decoding: bytes[start..<end], as: UTF8.self) + " -> " + String(decoding: json.bytes, as: UTF8.self))
    }
    XCTAssertGreaterThan(read, 100)
  }
}
