@testable import FCMLintEngine
import XCTest

/// Plain YAML scalars get the types rule and config files have always given them (YAML 1.1's
/// implicit types). The table was recorded from the YAML library fcmlint used before it read
/// libyaml directly (Yams 6.2.2's default resolver), so these prove the move changed no file's
/// meaning. Compared with that resolver on every string of up to five characters over the
/// characters its patterns name, and on random longer ones, `YAMLScalar` differed only on text
/// ending in a line break (the resolver's `$` matches before one), which libyaml never leaves at
/// the end of a plain scalar.
final class YAMLScalarTests: XCTestCase {
  static let plain: [(String, DataNode.ScalarKind)] = [
    ("true", .bool),
    ("True", .bool),
    ("TRUE", .bool),
    ("tRue", .string),
    ("yes", .bool),
    ("Yes", .bool),
    ("YES", .bool),
    ("no", .bool),
    ("No", .bool),
    ("NO", .bool),
    ("on", .bool),
    ("On", .bool),
    ("ON", .bool),
    ("off", .bool),
    ("Off", .bool),
    ("OFF", .bool),
    ("y", .string),
    ("n", .string),
    ("false", .bool),
    ("False", .bool),
    ("FALSE", .bool),
    ("~", .null),
    ("null", .null),
    ("Null", .null),
    ("NULL", .null),
    ("nUll", .string),
    ("", .null),
    ("0", .int),
    ("00", .int),
    ("07", .int),
    ("08", .float),
    ("0o17", .int),
    ("0o8", .string),
    ("0b101", .int),
    ("0b2", .string),
    ("0x1f", .int),
    ("0x1F_ff", .int),
    ("0xg", .string),
    ("1_000", .int),
    ("-1", .int),
    ("+1", .int),
    ("-0", .int),
    ("+0x10", .int),
    ("1:30", .int),
    ("190:20:30", .int),
    ("1:60", .string),
    ("-1:30", .int),
    ("1.5", .float),
    ("1.", .float),
    ("1e3", .float),
    ("1E3", .float),
    ("1e+3", .float),
    ("1.5e-3", .float),
    (".5", .float),
    (".5e+3", .float),
    (".5e3", .string),
    ("-.5", .string),
    (".inf", .float),
    (".Inf", .float),
    (".INF", .float),
    ("-.inf", .float),
    ("+.inf", .float),
    (".nan", .float),
    (".NaN", .float),
    (".NAN", .float),
    ("-.nan", .string),
    ("1:30.5", .float),
    ("1_0.5_", .float),
    ("0.1.2", .string),
    ("<<", .string),
    ("=", .string),
    ("2001-12-14", .string),
    ("2001-12-14t21:59:43.10-05:00", .string),
    ("2001-12-14 21:59:43.10 -5", .string),
    ("abc", .string),
    ("1 2", .string),
    ("1a", .string),
    ("0x", .string),
    ("0b", .string),
    ("0o", .string),
    ("+", .string),
    ("_1", .string),
    ("1__", .int),
    ("inf", .string),
    ("nan", .string),
    ("1e", .string),
    ("1.5e", .string),
    ("e3", .string),
    ("3", .int),
    // The matchers' corners: sexagesimal digits, a prefix with only `_`, signs where one form
    // allows none, exponents.
    ("1:5", .int),
    ("1:05", .int),
    ("1:65", .string),
    ("0:30", .string),
    ("0:30.5", .float),
    ("+1:30.5", .float),
    ("0x_", .int),
    ("0b_", .int),
    ("0o_", .int),
    ("0_", .int),
    ("-0x1f", .int),
    ("+.5", .string),
    ("+.Inf", .float),
    ("-.NaN", .string),
    ("1.5.", .string),
    ("1e3.0", .string),
    (".5E-3", .float),
    ("._", .float),
    ("1_e3", .float),
    ("0.", .float),
    ("-0.0e+10", .float),
    ("08_9", .float),
    ("0o08", .string),
  ]

  /// Written as the value of `k:`, with what the scalar's text is and its type.
  static let written: [(String, String, DataNode.ScalarKind)] = [
    ("!!int '12'", "12", .int),
    ("!!str 12", "12", .string),
    ("!!bool 'yes'", "yes", .bool),
    ("!!float 1", "1", .float),
    ("!!null ''", "", .null),
    ("! 12", "12", .string),
    ("!foo 12", "12", .string),
    ("'12'", "12", .string),
    ("\"true\"", "true", .string),
  ]

  func scalar(_ yaml: String) throws -> (String, DataNode.ScalarKind)? {
    let value = try DataValue(yaml: "k: \(yaml)\n", file: "t.yml")
    guard case .mapping(let members) = value.node, case .scalar(let text, let kind, _) = members[0].value.node else { return nil }
    return (text, kind)
  }

  func testPlainScalarsKeepTheirTypes() throws {
    for (text, kind) in Self.plain {
      let parsed = try scalar(text)
      XCTAssertEqual(parsed?.0, text)
      XCTAssertEqual(parsed?.1, kind, "'\(text)'")
    }
  }

  func testTaggedAndQuotedScalars() throws {
    for (yaml, text, kind) in Self.written {
      let parsed = try scalar(yaml)
      XCTAssertEqual(parsed?.0, text, yaml)
      XCTAssertEqual(parsed?.1, kind, yaml)
    }
  }
}
