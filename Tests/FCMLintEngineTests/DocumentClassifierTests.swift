import FCMLintBuiltinRules
import FCMLintEngine
import FCMLintJSON
import FCMLintRuleTestSupport
import XCTest

/// What a file is: the JSON files of an ordinary app repository are skipped, messages and
/// fragments of them (broken ones included) are linted.
final class DocumentClassifierTests: XCTestCase {
  func verdict(_ text: String) -> DocumentClassifier.Verdict {
    let bytes = Array(text.utf8)
    switch JSONParser.parse(bytes) {
    case .success(let document): return DocumentClassifier.classify(document)
    case .failure: return DocumentClassifier.classify(unparsed: bytes)
    }
  }

  func isFCM(_ text: String) -> InputKind? {
    if case .fcm(let kind) = verdict(text) { return kind }
    return nil
  }

  func testOrdinaryRepositoryFilesAreNotFCMDocuments() {
    let others = [
      // package.json, with `name` (a Message field too).
      #"{"name": "app", "version": "1.0.0", "private": true, "scripts": {"build": "tsc"}, "dependencies": {"firebase-admin": "^12"}}"#,
      #"{"name": "app", "lockfileVersion": 3, "requires": true, "packages": {}}"#,
      // tsconfig.json and VS Code settings: JSON with comments and trailing commas.
      "// TypeScript\n{\n  \"compilerOptions\": {\"strict\": true, /* c */ \"target\": \"es2022\",},\n  \"include\": [\"src\"],\n}\n",
      "{\n  // editor\n  \"editor.formatOnSave\": true,\n  \"files.exclude\": {\"**/.git\": true},\n}\n",
      #"{"hosting": {"public": "dist", "rewrites": []}, "functions": {"source": "functions"}}"#,
      #"{"projects": {"default": "my-app"}}"#,
      #"{"name": "vendor/pkg", "require": {"php": ">=8.1"}, "autoload": {"psr-4": {}}}"#,
      #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"token": {"type": "string"}}}"#,
      #"{"project_info": {"project_id": "x"}, "client": [], "configuration_version": "1"}"#,
      #"{"images": [{"idiom": "universal"}], "info": {"author": "xcode", "version": 1}}"#,
      // Capacitor's config has an `android` next to many keys of its own.
      #"{"appId": "com.x", "appName": "X", "webDir": "dist", "android": {"path": "android"}, "ios": {}, "plugins": {}}"#,
      #"{"token": "eyJhbGciOi", "expires_in": 3600, "scope": "read"}"#,
      #"{"conditions": [], "rules": []}"#,
      #"{"data": [1, 2, 3], "meta": {"page": 1}}"#,
      "[1, 2, 3]",
      #""a string""#,
      "{}",
    ]
    for text in others {
      if case .fcm(let kind) = verdict(text) { XCTFail("read as \(kind): \(text)") }
    }
  }

  func testMessagesAndFragmentsAreLinted() {
    let expected: [(String, InputKind)] = [
      (#"{"message": {"topic": "news"}}"#, .request),
      (#"{"validate_only": true, "message": {"token": "t"}}"#, .request),
      // A `message` that is not an object is a broken request, still linted.
      (#"{"message": "hello"}"#, .request),
      (#"{"message": [], "validate_only": false}"#, .request),
      (#"{"aps": {"alert": "Hi"}, "custom": 1}"#, .apns),
      (#"{"token": "t", "notification": {"title": "Hi"}}"#, .message),
      (#"{"notification": {"title": "Hi"}, "android": {"priority": "high"}}"#, .message),
      // Fragments: the sender adds the target.
      (#"{"data": {"k": "v"}}"#, .message),
      (#"{"notification": {"title": "Hi"}}"#, .message),
      (#"{"apns": {"payload": {"aps": {}}}}"#, .message),
      // Message fields next to unrelated keys.
      (#"{"token": "t", "notification": {"title": "Hi"}, "comment": "x"}"#, .message),
      // The legacy HTTP API.
      (#"{"to": "/topics/news", "notification": {"title": "Hi"}, "priority": "high"}"#, .message),
      // Misspelled fields, and keys out of place (the Firebase docs' `{ "mutable-content": 1}`).
      (#"{"tokne": "t", "notifcation": {"title": "Hi"}}"#, .message),
      (#"{"Notification": {"title": "Hi"}}"#, .message),
      (#"{ "mutable-content": 1}"#, .message),
      (#"{"fcmOptions": {"analyticsLabel": "x"}, "webpush": {}}"#, .message),
      // Broken JSON: linted when its keys are a message's, and when nothing can be told.
      ("{\"message\": {\"topic\": \"news\",},}", .request),
      ("{\"token\": \"t\", \"notification\": {\"title\": \"Hi\",}}", .message),
      ("", .message),
      ("{\n", .message),
      ("\u{0}\u{0}", .message),
    ]
    for (text, kind) in expected {
      XCTAssertEqual(isFCM(text), kind, text)
    }
  }

  func testTheLinterSkipsWhatIsNotAnFCMDocumentUnlessAKindIsGiven() {
    let package = Array(#"{"name": "app", "version": "1.0.0", "scripts": {}}"#.utf8)
    let linter = Linter(rules: builtinRules())
    let outcome = linter.check(bytes: package, file: "package.json")
    XCTAssertEqual(outcome.diagnostics.count, 0)
    XCTAssertEqual(outcome.skipped, #"its keys ("name", "version", "scripts") are not those of an FCM message"#)

    var options = Linter.Options()
    options.input = .message
    let forced = Linter(rules: builtinRules(), options: options).check(bytes: package, file: "package.json")
    XCTAssertNil(forced.skipped)
    XCTAssertEqual(Set(forced.diagnostics.map(\.rule)), ["unknown-field", "target-exactly-one"])
  }

  func testTheKeyScanReadsJSONWithCommentsAndTemplates() {
    XCTAssertEqual(TopLevelKeys.scan(Array("\u{FEFF}// x\n/* y */ {\"a\": {\"b\": [1, {\"c\": 2}]}, 'd': 1, \"e\" /* z */ : {{x}}, \"f\"}".utf8)), ["a", "d", "e"])
    XCTAssertNil(TopLevelKeys.scan(Array("[{\"a\": 1}]".utf8)))
    XCTAssertEqual(TopLevelKeys.scan(Array("{\"a\": \"unterminated\n, \"b\": 1}".utf8)), ["a", "b"])
  }
}
