import FCMLintEngine
@testable import FCMLintWorkspace
import XCTest

/// `limits:` and duplicate keys in `.fcmlint.yml` (the rest of ConfigTests is in
/// RuleLoaderTests.swift; the CLI side of limits is in HostileInputTests).
extension ConfigTests {
  func configError(_ text: String) -> ConfigurationError? {
    do {
      _ = try Config.load(text: text, file: "c.yml")
      return nil
    } catch {
      return error
    }
  }

  func assertConfigError(
    _ text: String, at position: String, _ message: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let error = configError(text) else { return XCTFail("loaded without error:\n\(text)", file: file, line: line) }
    XCTAssertEqual(error.description, "c.yml:\(position): \(message)", file: file, line: line)
  }

  func testLimitsOverTheDefaults() throws {
    XCTAssertEqual(try Config.load(text: "rules: {}\n", file: "c.yml").limits, Limits())
    XCTAssertEqual(try Config.load(text: "limits:\n", file: "c.yml").limits, Limits())
    let config = try Config.load(text: "limits:\n  max-depth: 64\n  max-file-size: 1048576\n  max-string-length: 64K\n", file: "c.yml")
    XCTAssertEqual([config.limits.maxDepth, config.limits.maxFileSize, config.limits.maxStringLength], [64, 1 << 20, 64 << 10])
    // Unset limits keep their defaults; sizes read as the command line reads them.
    let partial = try Config.load(text: "limits: {max-file-size: \"2MiB\"}\n", file: "c.yml").limits
    XCTAssertEqual([partial.maxDepth, partial.maxFileSize, partial.maxStringLength], [512, 2 << 20, 1 << 20])
    XCTAssertEqual(try Config.load(text: "limits: {max-file-size: 1G}\n", file: "c.yml").limits.maxFileSize, Limits.largestFileSize)
  }

  func testBadLimitsAreReportedWhereTheyAreWritten() {
    let size = "takes a size in bytes, like 1048576, 512K, 64M or 1G"
    assertConfigError("limits:\n  max-depth: 0\n", at: "2:14", "max-depth must be 1 or more")
    assertConfigError("limits:\n  max-depth: -3\n", at: "2:14", "max-depth must be 1 or more")
    assertConfigError("limits:\n  max-depth: deep\n", at: "2:14", "max-depth must be a whole number")
    assertConfigError("limits:\n  max-depth: 1.5\n", at: "2:14", "max-depth must be a whole number")
    assertConfigError("limits:\n  max-depth: 1K\n", at: "2:14", "max-depth must be a whole number")
    assertConfigError("limits:\n  max-file-size: 0\n", at: "2:18", "max-file-size \(size); not '0'")
    assertConfigError("limits:\n  max-file-size: -1M\n", at: "2:18", "max-file-size \(size); not '-1M'")
    assertConfigError("limits:\n  max-file-size: 2G\n", at: "2:18", "max-file-size can be at most 1G (1073741824 bytes)")
    assertConfigError("limits:\n  max-file-size: true\n", at: "2:18", "max-file-size \(size); not 'true'")
    assertConfigError("limits:\n  max-string-length: lots\n", at: "2:22", "max-string-length \(size); not 'lots'")
    assertConfigError("limits:\n  max-string-length: [1M]\n", at: "2:22", "max-string-length \(size); not a list")
    assertConfigError("limits:\n  max-string-length: {a: 1}\n", at: "2:22", "max-string-length \(size); not a mapping")
    assertConfigError(
      "limits:\n  max-depht: 5\n", at: "2:3",
      "unknown key 'max-depht' in 'limits'; did you mean 'max-depth'? (allowed: max-depth, max-file-size, max-string-length)")
    assertConfigError("limits: 5\n", at: "1:9", "'limits' must be a mapping")
    assertConfigError("limits: [max-depth]\n", at: "1:9", "'limits' must be a mapping")
    assertConfigError(
      "limit:\n  max-depth: 5\n", at: "1:1",
      "unknown key 'limit' in the config; did you mean 'limits'? (allowed: root, extends, rules, rule-directories, ignore, respect-gitignore, fragment, docs, check-urls, limits, placeholders, extend-placeholders, overrides, suppress)")
  }

  /// Limits come from the config and the command line through one function: the same values are
  /// refused with the same words, only the setting's name differs.
  func testTheConfigAndTheOptionsShareOneReader() throws {
    for (setting, text) in [(Limits.Setting.maxFileSize, "lots"), (.maxFileSize, "2G"), (.maxStringLength, "0"), (.maxDepth, "0")] {
      var limits = Limits()
      var messages: [String] = []
      for name in [setting.rawValue, "--" + setting.rawValue] {
        do {
          try limits.set(setting, to: text, name: name)
        } catch {
          messages.append(error.message)
        }
      }
      XCTAssertEqual(messages.count, 2, "\(setting) \(text)")
      XCTAssertEqual(messages.first.map { "--" + $0 }, messages.last)
    }
    for (text, size) in [("1048576", 1 << 20), ("512K", 512 << 10), ("64m", 64 << 20), ("1GiB", 1 << 30), (" 2KB ", 2 << 10)] {
      XCTAssertEqual(Limits.parseSize(text), size, text)
    }
    for text in ["", "K", "1.5M", "-1", "0x10", "1_000", "99999999999999999999", "9223372036854775807G"] {
      XCTAssertNil(Limits.parseSize(text), text)
    }
  }

  func testDuplicateKeysAreReportedAtTheRepetition() {
    assertConfigError(
      "rules:\n  image-extension: off\n  image-consistency: off\n  image-extension: warning\n", at: "4:3",
      "duplicate key 'image-extension' (first at line 2)")
    assertConfigError("ignore: [a]\nrules: {}\nignore: [b]\n", at: "3:1", "duplicate key 'ignore' (first at line 1)")
    assertConfigError("limits: {max-depth: 8, max-depth: 9}\n", at: "1:24", "duplicate key 'max-depth' (first at line 1)")
    // Keys are compared as fcmlint reads them, by their text: quoting makes no difference.
    assertConfigError("rules:\n  'image-extension': off\n  image-extension: off\n", at: "3:3", "duplicate key 'image-extension' (first at line 2)")
    // The same key in different mappings is no duplicate.
    XCTAssertNil(configError("rules: {a: off}\nlimits: {max-depth: 8}\n"))
  }
}

/// `placeholders:` replaces the template placeholder syntaxes, `extend-placeholders:` adds to them.
extension ConfigTests {
  func testPlaceholders() throws {
    XCTAssertEqual(try Config.load(text: "rules: {}\n", file: "c.yml").placeholders.patterns, PlaceholderSyntax.defaultPatterns)
    XCTAssertEqual(try Config.load(text: "placeholders: []\n", file: "c.yml").placeholders.patterns, [])
    XCTAssertEqual(try Config.load(text: "placeholders: ['%[a-z]+%']\n", file: "c.yml").placeholders.patterns, ["%[a-z]+%"])
    XCTAssertEqual(
      try Config.load(text: "extend-placeholders: ['%[a-z]+%']\n", file: "c.yml").placeholders.patterns,
      PlaceholderSyntax.defaultPatterns + ["%[a-z]+%"])
    assertConfigError("placeholders:\n  - '(ab'\n", at: "2:5", "placeholder pattern '(ab' is not a supported regular expression: unclosed group (at character 1)")
    let linter = Linter(rules: RuleSet(), options: {
      var options = Linter.Options()
      options.placeholders = try! Config.load(text: "placeholders: ['%[a-z]+%']\n", file: "c.yml").placeholders
      return options
    }())
    guard case .success(let document) = linter.parse(Array(#"{"a": "%ttl%", "b": %n%, "c": "{{x}}"}"#.utf8)) else { return XCTFail("no parse") }
    XCTAssertEqual(document.templates?.unknown.count, 2)
  }
}
