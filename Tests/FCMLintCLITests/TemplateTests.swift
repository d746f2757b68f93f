import FCMLintCLI
import FCMLintEngine
import FCMLintJSON
import FCMLintRuleTestSupport
import FCMLintTestSupport
import FCMLintWorkspace
import Foundation
import XCTest

/// Templates (docs/templates.md): a value that is a placeholder is of the right type and not
/// known yet; what the literal parts decide is still checked.
final class TemplateTests: XCTestCase {
  lazy var linter = Linter(rules: builtinRules())

  func lint(_ text: String, _ linter: Linter? = nil) -> [Diagnostic] {
    (linter ?? self.linter).lint(bytes: Array(text.utf8), file: "t.json")
  }

  func problems(_ text: String) -> [String] {
    lint(text).filter { $0.severity != .info }.map { "\($0.rule) \($0.pointer)" }
  }

  /// Each default syntax, as a function from a name to the placeholder.
  static let syntaxes: [(String, @Sendable (String) -> String)] = [
    ("mustache", { "{{\($0)}}" }),
    ("mustache spaced path", { "{{ payload.\($0) }}" }),
    ("handlebars raw", { "{{{\($0)}}}" }),
    ("go", { "{{.\($0.prefix(1).uppercased() + $0.dropFirst())}}" }),
    ("jinja", { "{{ \($0) }}" }),
    ("shell upper", { "${\($0.uppercased())}" }),
    ("shell", { "${\($0)}" }),
    ("make", { "$(\($0))" }),
  ]

  /// A template where every value is a placeholder `p` (numbers unquoted, as templates write them).
  static func template(_ p: (String) -> String, target: String = "token") -> String {
    """
    {
      "message": {
        "\(target)": "\(p(target))",
        "notification": {"title": "\(p("title"))", "body": "\(p("body"))", "image": "\(p("imageUrl"))"},
        "data": {"orderId": "\(p("orderId"))", "count": \(p("count")), "meta": \(p("meta"))},
        "android": {
          "priority": "\(p("priority"))", "ttl": "\(p("ttl"))", "collapse_key": "\(p("collapse"))",
          "notification": {"color": "\(p("color"))", "image": "\(p("imageUrl"))", "channel_id": "\(p("channel"))",
            "visibility": "\(p("visibility"))", "notification_count": \(p("n")), "click_action": "\(p("click"))"}
        },
        "apns": {
          "headers": {"apns-priority": "\(p("prio"))", "apns-push-type": "\(p("pushType"))", "apns-expiration": "\(p("exp"))",
            "apns-collapse-id": "\(p("collapse"))"},
          "payload": {"aps": {"alert": {"title": "\(p("title"))", "body": "\(p("body"))"}, "badge": \(p("badge")),
            "sound": "\(p("sound"))", "mutable-content": 1, "interruption-level": "\(p("level"))", "relevance-score": \(p("score"))},
            "deeplink": "\(p("link"))"},
          "fcm_options": {"image": "\(p("appleImage"))"}
        },
        "webpush": {
          "headers": {"TTL": "\(p("ttl"))", "Urgency": "\(p("urgency"))", "Topic": "\(p("topic"))"},
          "notification": {"icon": "\(p("icon"))", "badge": "\(p("badge"))", "image": "\(p("imageUrl"))"},
          "fcm_options": {"link": "\(p("link"))"}
        }
      }
    }
    """
  }

  func testEveryValueAPlaceholderGetsNoProblem() {
    for (name, p) in Self.syntaxes {
      XCTAssertEqual(problems(Self.template(p)), [], name)
      XCTAssertEqual(problems(Self.template(p, target: "topic")), [], "\(name), topic")
      XCTAssertEqual(problems(Self.template(p, target: "condition")), [], "\(name), condition")
    }
  }

  /// One real mistake in a literal part is still reported, at its pointer.
  func testMistakesInLiteralPartsAreStillReported() {
    for (name, p) in Self.syntaxes {
      let clean = Self.template(p)
      // Each mistake, and everything it must report (a missing "mutable-content" too, for the first).
      let mistakes: [(String, String, [String])] = [
        ("\"mutable-content\": 1", "\"mutable_content\": 1", [
          "apns-image-mutable-content /message/apns/payload/aps", "apns-aps-key /message/apns/payload/aps/mutable_content",
        ]),
        ("\"Urgency\":", "\"image\": \"\(p("img"))\", \"Urgency\":", ["webpush-image-header /message/webpush/headers/image"]),
        (", \"mutable-content\": 1", "", ["apns-image-mutable-content /message/apns/payload/aps"]),
        ("\"body\": \"\(p("body"))\", \"image\"", "\"body\": \"\(p("body"))\", \"imageUrl\"", ["unknown-field /message/notification/imageUrl"]),
        ("\"notification\": {\"title\"", "\"topic\": \"\(p("topic"))\", \"notification\": {\"title\"", ["target-exactly-one /message/topic"]),
      ]
      for (from, to, expected) in mistakes {
        XCTAssertEqual(clean.components(separatedBy: from).count, 2, "\(name): \(from)")
        XCTAssertEqual(problems(clean.replacingOccurrences(of: from, with: to)), expected, name)
      }
    }
  }

  /// A string with literal parts keeps what they decide.
  func testPartlyPlaceholderStrings() {
    func image(_ url: String) -> String { #"{"message": {"token": "t", "notification": {"title": "Hi", "image": "\#(url)"}, "apns": {"payload": {"aps": {"mutable-content": 1}}}}}"# }
    XCTAssertEqual(problems(image("http://{{host}}/a.png")), ["image-url-https /message/notification/image"])
    XCTAssertEqual(problems(image("https://cdn.example.com/{{id}}.png")), [])
    XCTAssertEqual(problems(image("https://cdn.example.com/{{id}}")), [])
    XCTAssertEqual(problems(image("https://cdn.example.com/{{id}}.txt")), ["image-extension /message/notification/image"])
    XCTAssertEqual(problems(image("ftp://{{host}}/a.png")), ["image-url /message/notification/image"])
    func condition(_ text: String) -> String { #"{"message": {"condition": "\#(text)"}}"# }
    XCTAssertEqual(problems(condition("'{{t}}' in topics && 'x' in topics")), [])
    XCTAssertEqual(problems(condition("'{{t}}' in topics &&")), ["condition-syntax /message/condition"])
    XCTAssertEqual(problems(condition("{{audience}} && 'news' in topics")), [])
    XCTAssertEqual(problems(condition("{{audience}} && news in topics")), ["condition-syntax /message/condition"])
    XCTAssertEqual(problems(#"{"message": {"topic": "/topics/{{t}}"}}"#), ["topic-name /message/topic"])
    XCTAssertEqual(problems(#"{"message": {"topic": "news-{{lang}}"}}"#), [])
    XCTAssertEqual(problems(##"{"message": {"token": "t", "android": {"ttl": "{{days}}s", "notification": {"color": "#{{hex}}"}}}}"##), [])
    XCTAssertEqual(problems(#"{"message": {"token": "t", "android": {"notification": {"color": "{{c}}ff"}}}}"#), ["android-color /message/android/notification/color"])
    // Enums: valid when the template may render to a value.
    func priority(_ text: String) -> String { #"{"message": {"token": "t", "android": {"notification": {"notification_priority": "\#(text)"}}}}"# }
    XCTAssertEqual(problems(priority("PRIORITY_{{level}}")), [])
    XCTAssertEqual(problems(priority("URGENT_{{level}}")), ["enum-value /message/android/notification/notification_priority"])
    XCTAssertEqual(problems(#"{"message": {"token": "t", "apns": {"payload": {"aps": {"interruption-level": "time-{{x}}"}}}}}"#), [])
    XCTAssertEqual(problems(#"{"message": {"token": "t", "android": {"notification": {"event_time": "{{date}}T10:00:00Z", "notification_count": "1{{n}}"}}}}"#), [])
    // The message quotes the template, not a sample rendering.
    let https = lint(image("http://{{host}}/a.png")).first { $0.rule == "image-url-https" }
    XCTAssertTrue(https?.message.contains("http://{{host}}/a.png") == true, https?.message ?? "")
  }

  /// The same image: equal placeholder text is one image; different placeholders, or a
  /// placeholder and a literal URL, may be one image and are not reported.
  func testImageConsistency() {
    func images(_ a: String, _ b: String) -> [String] {
      problems(#"{"message": {"token": "t", "notification": {"image": "\#(a)"}, "android": {"notification": {"image": "\#(b)"}}}}"#)
    }
    XCTAssertEqual(images("{{img}}", "{{img}}"), [])
    XCTAssertEqual(images("{{img}}", "{{other}}"), [])
    XCTAssertEqual(images("{{img}}", "https://example.com/a.png"), [])
    XCTAssertEqual(images("https://cdn.example.com/{{id}}.png", "https://cdn.example.com/{{id}}.png"), [])
    XCTAssertEqual(images("https://cdn.example.com/{{id}}.png", "https://cdn.example.com/{{id}}.jpg"), ["image-consistency /message/android/notification/image"])
    XCTAssertEqual(images("https://a.example.com/x.png", "https://b.example.com/x.png"), ["image-consistency /message/android/notification/image"])
    // Different placeholders may take different values; a literal fits a template or it does not.
    XCTAssertEqual(images("https://{{a}}.example.com/x.png", "https://cdn.example.com/{{b}}"), [])
    XCTAssertEqual(images("https://cdn.example.com/{{id}}.png", "https://cdn.example.com/7.png"), [])
    XCTAssertEqual(images("https://cdn.example.com/{{a}}/{{b}}.png", "https://cdn.example.com/7/8.png"), [])
    XCTAssertEqual(images("https://cdn.example.com/{{id}}.png", "https://other.example.com/7.png"), ["image-consistency /message/android/notification/image"])
    XCTAssertEqual(images("https://cdn.example.com/{{a}}.png", "https://cdn.example.com/{{b}}.jpg"), ["image-consistency /message/android/notification/image"])
    XCTAssertEqual(images("https://cdn.example.com/{{id}}.png", "https://cdn.example.com/{{id}}"), ["image-consistency /message/android/notification/image"])
    XCTAssertEqual(images("http://{{host}}/a.png", "https://{{host}}/a.png"), ["image-url-https /message/notification/image", "image-consistency /message/android/notification/image"])
  }

  /// An unquoted placeholder is a value, and every position after it stays exact.
  func testUnquotedPlaceholderKeepsLaterPositions() throws {
    let text = """
    {"message": {"token": "{{token}}",
      "apns": {"payload": {"aps": {"badge": {{badge}}, "sound": {{{sound}}}, "mutable_content": 1}}},
      "data": {{{json data}}}}}
    """
    let found = lint(text)
    XCTAssertEqual(found.map(\.rule), ["apns-aps-key"])
    let diagnostic = try XCTUnwrap(found.first)
    XCTAssertEqual("\(diagnostic.start)", "2:74")
    XCTAssertEqual(diagnostic.pointer, "/message/apns/payload/aps/mutable_content")
  }

  /// Control blocks around whole members are skipped like white space, their branches never
  /// rendered together; anywhere else they are one clear diagnostic.
  func testControlBlocks() {
    let handlebars = """
      {"message": {
        {{#if topic}}"topic": "{{topic}}",{{else}}"token": "{{token}}",{{/if}}
        "data": { {{#each data}}"{{@key}}": "{{this}}",{{/each}} },
        "apns": {"payload": {"aps": {"mutable_content": 1}}}
      }}
      """
    XCTAssertEqual(problems(handlebars), ["apns-aps-key /message/apns/payload/aps/mutable_content"])
    let jinja = """
      {"message": {"token": "{{ token }}",
        {% if image %}"notification": {"image": "{{ image }}"},{% endif %}
        "android": {"priority": {{ priority }}}}}
      """
    XCTAssertEqual(problems(jinja), [])
    let go = """
      {"message": {"token": "{{.Token}}",
        {{- if .Image }}
        "android": {"notification": {"image": "{{ .Image }}"}},
        {{- end }}
        "apns": {"headers": {"apns-priority": {{.Prio}}}}}}
      """
    XCTAssertEqual(problems(go), [])
    let inValue = #"{"message": {"token": "t", "android": {"priority": {{#if hi}}"high"{{else}}"normal"{{/if}}}}}"#
    let found = lint(inValue)
    XCTAssertEqual(found.map(\.rule), ["json-syntax"])
    XCTAssertTrue(found.first?.message.contains("lint the rendered output with --vars") == true, found.first?.message ?? "")
  }

  /// A member missing under a placeholder, or beside an include (`{{> partial}}`), may be there
  /// once the template is rendered: nothing that needs it is reported; what is there still is.
  func testMissingMembersUnderPlaceholdersAndIncludes() {
    let payload = #"{"message": {"token": "t", "notification": {"title": "Hi", "image": "{{image}}"}, "apns": {"payload": {{{json payload}}}}}}"#
    XCTAssertEqual(problems(payload), [])
    let include = #"{"message": { {{> target}} "notification": {"title": "Hi"}, "apns": {"payload": {"aps": { {{> aps}} "mutable_content": 1}}}}}"#
    XCTAssertEqual(problems(include), ["apns-aps-key /message/apns/payload/aps/mutable_content"])
    // An include does not hide a second target written out.
    XCTAssertEqual(problems(#"{"message": { {{> common}} "token": "t", "topic": "x"}}"#), ["target-exactly-one /message/topic"])
    // Without an include, a missing target is still reported, blocks or not.
    XCTAssertEqual(problems(#"{"message": { {{#if x}}"notification": {"title": "{{t}}"},{{/if}} "data": {}}}"#), ["target-exactly-one /message"])
  }

  /// `placeholders: []` (an empty list) reads every file as plain JSON.
  func testNoPlaceholdersReadsPlainJSON() throws {
    var options = Linter.Options()
    options.placeholders = try PlaceholderSyntax(patterns: [])
    let plain = Linter(rules: builtinRules(), options: options)
    XCTAssertEqual(lint(#"{"message": {"token": "t", "android": {"ttl": "{{ttl}}"}}}"#, plain).map(\.rule), ["android-ttl"])
    XCTAssertEqual(lint(#"{"message": {"token": "t", "data": {"n": {{n}}}}}"#, plain).map(\.rule), ["json-syntax"])
  }

  /// A custom list: only its syntax is a placeholder.
  func testCustomPlaceholders() throws {
    var options = Linter.Options()
    options.placeholders = try PlaceholderSyntax(patterns: [#"%[a-z_]+%"#])
    let custom = Linter(rules: builtinRules(), options: options)
    XCTAssertEqual(lint(#"{"message": {"token": "t", "android": {"ttl": "%ttl%"}}}"#, custom).map(\.rule), [])
    XCTAssertEqual(lint(#"{"message": {"token": "t", "android": {"ttl": "{{ttl}}"}}}"#, custom).map(\.rule), ["android-ttl"])
  }

  // MARK: - --vars

  func variables(_ yaml: String) throws -> TemplateVariables { TemplateVariables(try DataValue.parse(yaml: yaml, file: "vars.yml")) }

  /// The rendering is linted with every check; each diagnostic points into the template, one
  /// inside a rendered value at its placeholder.
  func testVarsRenderAndPointIntoTheTemplate() throws {
    let template = """
      {
        "message": {
          "token": "{{token}}",
          {{#if image}}
          "notification": {"title": "{{title}}", "image": "{{image}}"},
          {{else}}
          "notification": {"title": "{{title}}"},
          {{/if}}
          "android": {"ttl": "{{ttl}}", "priority": "{{ priority }}"},
          "apns": {"payload": {"aps": {"badge": {{badge}}, "mutable-content": 1}}},
          "data": {{{json data}}},
          "webpush": {"notification": {"icon": "{{missing}}"}}
        }
      }
      """
    let vars = try variables("token: abc\ntitle: Hi\nimage: http://cdn.example.com/a.png\nbadge: 3\nttl: 3600\npriority: urgent\ndata: {a: 1}\n")
    let found = linter.lint(bytes: Array(template.utf8), file: "t.json", variables: vars)
    XCTAssertEqual(found.map { "\($0.rule) \($0.start) \($0.pointer)" }, [
      "image-url-https 5:53 /message/notification/image",
      "android-ttl 9:24 /message/android/ttl",
      "enum-value 9:47 /message/android/priority",
      "data-string-values 11:13 /message/data/a",
    ])
    XCTAssertTrue(found.allSatisfy { $0.fix == nil })
    // Without an image, the other branch renders: nothing to report but the ttl and priority.
    let noImage = try variables("token: abc\nimage: ''\nttl: 60s\npriority: HIGH\ndata: {a: '1'}\n")
    XCTAssertEqual(linter.lint(bytes: Array(template.utf8), file: "t.json", variables: noImage).map(\.rule), [])
    // Without values the same template is lenient.
    XCTAssertEqual(lint(template).map(\.rule), [])
  }

  /// Go's `.Name`, dotted paths, `${NAME}` and Jinja's `{% if %}` render too.
  func testVarsPathsAndSyntaxes() throws {
    let template = """
      {"message": {"topic": "{{.Topic}}", {% if color %}"android": {"notification": {"color": "{{ style.color }}"}},{% endif %}
        "apns": {"headers": {"apns-priority": "${PRIO}"}}}}
      """
    let vars = try variables("Topic: /topics/news\ncolor: true\nstyle: {color: red}\nPRIO: '11'\n")
    let found = linter.lint(bytes: Array(template.utf8), file: "t.json", variables: vars)
    XCTAssertEqual(found.map { "\($0.rule) \($0.start)" }, ["topic-name 1:23", "android-color 1:89", "apns-header-value 2:41"])
  }

}

/// `--vars FILE` through the real command line.
extension CLITests {
  func testVarsOnTheCommandLine() throws {
    let directory = try temporaryDirectory()
    try write(#"{"message": {"token": "{{token}}", "android": {"ttl": "{{ttl}}"}}}"#, to: directory.appendingPathComponent("t.json"))
    try write("token: abc\nttl: 3600\n", to: directory.appendingPathComponent("vars.yml"))
    try write(#"{"token": "abc", "ttl": "3600s"}"#, to: directory.appendingPathComponent("vars.json"))
    XCTAssertEqual(try fcmlint(["t.json"], in: directory).status, 0)
    let bad = try fcmlint(["--vars", "vars.yml", "t.json"], in: directory)
    XCTAssertEqual(bad.status, 1)
    XCTAssertTrue(bad.stdout.hasPrefix("t.json:1:55: error: the Android ttl"), bad.stdout)
    XCTAssertEqual(try fcmlint(["--vars", "vars.json", "t.json"], in: directory).status, 0)
    let missing = try fcmlint(["--vars", "nope.yml", "t.json"], in: directory)
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("nope.yml"), missing.stderr)
    XCTAssertEqual(try fcmlint(["--vars", "vars.yml", "--fix", "t.json"], in: directory).status, 2)
  }
}

/// Hostile templates: looking for placeholders stays linear in the file.
extension TemplateTests {
  func testStringsOfOpenersAreLintedQuickly() {
    // Strings up to the longest searched (longer ones are not searched at all).
    let openers = String(repeating: "{{", count: 1000) + String(repeating: "${", count: 500) + String(repeating: "{%", count: 500)
    let text = #"{"message": {"token": "t", "data": {"#
      + (0..<120).map { #""k\#($0)": "\#(openers)""# }.joined(separator: ", ") + "}}}"
    let start = Date()
    _ = lint(text)
    XCTAssertLessThan(Date().timeIntervalSince(start), 20)
  }
}

/// Every clean payload of the corpus, made a template: each scalar value, or a random part of
/// them, replaced by a placeholder (quoted or not, whole or among literal text), in each syntax.
/// Nothing may be reported but what the payload itself gets.
extension TemplateTests {
  func testCleanPayloadsStayCleanAsTemplates() throws {
    let (files, _) = FileSystem.files(under: Repository.path("corpus/valid")) { $0.hasSuffix(".json") }
    XCTAssertFalse(files.isEmpty)
    var random = XorShift64(seed: 1414)
    for file in files {
      guard case .success(let bytes) = FileSystem.read(file), case .success(let document) = linter.parse(bytes) else { continue }
      let expected = Set(linter.lint(bytes: bytes, file: file).map { "\($0.rule) \($0.pointer)" })
      for (name, p) in Self.syntaxes {
        for round in 0..<4 {
          // Scalars from the end, so earlier offsets stay valid.
          var text = bytes
          for id in (0..<NodeID(document.nodeCount)).reversed() {
            let node = document[id]
            guard node.kind != .object, node.kind != .array else { continue }
            if round > 0, random.chance(50) { continue }
            let placeholder = p("v\(id)")
            let replacement: String
            switch (node.kind, round % 2 == 0 || random.chance(50)) {
            case (.string, _) where round == 3:
              // Among literal text: the value's own text after the placeholder.
              let value = document.string(id) ?? ""
              replacement = "\"" + placeholder + String(JSONText.quote(value).dropFirst().dropLast()) + "\""
            case (.string, _): replacement = "\"" + placeholder + "\""
            case (_, true): replacement = placeholder
            case (_, false): replacement = "\"" + placeholder + "\""
            }
            text.replaceSubrange(Int(node.start)..<Int(node.end), with: Array(replacement.utf8))
          }
          let found = Set(lint(String(decoding: text, as: UTF8.self)).filter { $0.severity != .info }.map { "\($0.rule) \($0.pointer)" })
          XCTAssertTrue(found.isSubset(of: expected), "\(file), \(name), round \(round): \(found.subtracting(expected))\n\(String(decoding: text, as: UTF8.self))")
        }
      }
    }
  }
}

/// Broken templates: mutated corpus templates are linted (as they are, and rendered with
/// values) without a crash, and every diagnostic lies inside the file.
extension TemplateTests {
  func testMutatedTemplatesNeverCrash() throws {
    let (files, _) = FileSystem.files(under: Repository.path("corpus/templates")) { $0.hasSuffix(".json") }
    XCTAssertFalse(files.isEmpty)
    let pieces = ["{{", "}}", "{{{", "}}}", "{%", "%}", "${", "$(", ")", "}", "\"", ",", ":", "\\", "{{#if x}}", "{{/if}}", "{{else}}", "x", " "]
    let vars = try variables("title: T\nx: true\ndata: {a: '1'}\ntopic: news\n")
    var random = XorShift64(seed: 1400)
    for file in files {
      guard case .success(let original) = FileSystem.read(file) else { continue }
      for _ in 0..<150 {
        var bytes = original
        for _ in 0..<(1 + random.below(4)) {
          let at = random.below(bytes.count + 1)
          if random.chance(30), at < bytes.count {
            bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(6)))
          } else {
            bytes.insert(contentsOf: Array(pieces[random.below(pieces.count)].utf8), at: at)
          }
        }
        for diagnostic in linter.lint(bytes: bytes, file: "t.json") + linter.lint(bytes: bytes, file: "t.json", variables: vars) {
          XCTAssertTrue(diagnostic.startOffset >= 0 && diagnostic.startOffset <= diagnostic.endOffset && diagnostic.endOffset <= bytes.count, "\(diagnostic)")
        }
      }
    }
  }
}
