import Foundation
import XCTest

@testable import FCMLintJSON
import FCMLintTestSupport

/// Conformance tests for the strict RFC 8259 parser (`JSONParser`), the tree it builds
/// (`JSONDocument`) and the offset-to-position mapping (`SourceLocator`).
///
/// Layout: accepted documents (y-cases), rejected documents with exact offsets and message
/// phrases (n-cases), the upstream JSONTestSuite fixtures, nesting limits, positions, the tree
/// API, and a seeded differential test against `ReferenceValidator` (defined at the end).
final class JSONParserTests: XCTestCase {

  // MARK: - Accepted documents

  func testAcceptsValidDocuments() {
    let hundredDigits = "1" + String(repeating: "0", count: 99)
    let cases: [Accept] = [
      // Top-level scalars and empty containers.
      Accept("top-level number", "1", .number),
      Accept("top-level string", #""s""#, .string),
      Accept("top-level true", "true", .true),
      Accept("top-level false", "false", .false),
      Accept("top-level null", "null", .null),
      Accept("scalar with surrounding spaces", " 0 ", .number),
      Accept("scalar with trailing newline", "1\n", .number),
      Accept("empty object", "{}", .object),
      Accept("empty array", "[]", .array),
      Accept("empty object with whitespace", "{ \n }", .object),
      Accept("empty array with whitespace", "[\t\r\n ]", .array),
      // Nesting and mixtures.
      Accept("array in array", "[[]]", .array),
      Accept("object in array", "[{}]", .array),
      Accept("nested objects", #"{"a":{"b":{"c":{}}}}"#, .object),
      Accept("array of every kind", #"[null,true,false,"x",1,-2.5e3,{},[]]"#, .array),
      Accept("object of every kind", #"{"n":null,"t":true,"f":false,"s":"x","i":1,"o":{},"a":[]}"#, .object),
      Accept("empty key", #"{"":0}"#, .object),
      Accept("literals next to brackets", "[true,false,null]", .array),
      // Escapes.
      Accept("all short escapes", #"["\"\\\/\b\f\n\r\t"]"#, .array),
      Accept("escaped NUL", #""\u0000""#, .string),
      Accept("escaped solidus", #""\/""#, .string),
      Accept("raw solidus", #""a/b//c""#, .string),
      Accept("upper- and mixed-case hex", #""\u00E9\u00e9\uAbCd""#, .string),
      Accept("surrogate pair", #""\uD83D\uDE00""#, .string),
      Accept("surrogate pair in lower case", #""\ud83d\ude00""#, .string),
      Accept("lone high surrogate", #""\ud800""#, .string),
      Accept("lone low surrogate", #""\udc00""#, .string),
      Accept("high surrogate then a non-surrogate escape", #""\ud800\u0041""#, .string),
      Accept("two high surrogates", #""\ud800\ud800""#, .string),
      Accept("reversed surrogate pair", #""\udc00\ud800""#, .string),
      Accept("escaped key", #"{"\u0061\n":1}"#, .object),
      Accept("single quote inside a string", #""it's""#, .string),
      Accept("DEL inside a string", "\"\u{7F}\"", .string),
      // Numbers.
      Accept("minus zero", "-0", .number),
      Accept("zero point zero", "0.0", .number),
      Accept("minus zero point zero", "-0.0", .number),
      Accept("exponent", "1e5", .number),
      Accept("capital exponent with plus", "1E+5", .number),
      Accept("negative exponent", "1e-5", .number),
      Accept("tiny negative", "-1.5e-300", .number),
      Accept("zero exponent", "0e0", .number),
      Accept("capital exponent minus zero", "0E-0", .number),
      Accept("fraction and exponent", "123.456e+78", .number),
      Accept("leading zeros in the exponent", "1e007", .number),
      Accept("huge exponent", "1e400", .number),
      Accept("huge negative", "-1e400", .number),
      Accept("100-digit integer", hundredDigits, .number),
      Accept("200-digit fraction", "0." + String(repeating: "3", count: 200), .number),
      Accept("numbers in an array", "[0,-0,1,-1,0.5,10,1e1,-0.0e-0]", .array),
      // Whitespace.
      Accept("all four whitespace kinds", " \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n", .array),
      Accept("whitespace around the colon", "{\n\"a\"\t:\r1\r\n}", .object),
      // UTF-8 text.
      Accept("2-byte UTF-8", "\"é\"", .string),
      Accept("3-byte UTF-8", "\"€\"", .string),
      Accept("4-byte UTF-8", "\"😀\"", .string),
      Accept(
        "UTF-8 boundary scalars", "\"\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFD}\u{FFFF}\u{10000}\u{10FFFF}\"", .string),
      Accept("UTF-8 key and value", "{\"ключ\":\"值\"}", .object),
      Accept("byte-order mark inside a string", "\"\u{FEFF}\"", .string),
      Accept("typographic quotes inside a string", "\"“quoted”\"", .string),
      Accept("NBSP inside a string", "\"a\u{A0}b\"", .string),
      // A UTF-8 byte-order mark at the start is skipped.
      Accept("BOM then object", "\u{FEFF}{}", .object),
      Accept("BOM then whitespace and a number", "\u{FEFF} 1 ", .number),
      // Duplicate keys are accepted (and reported through duplicateKeys).
      Accept("duplicate keys", #"{"a":1,"a":2}"#, .object),
    ]
    XCTAssertGreaterThanOrEqual(cases.count, 60)
    for c in cases {
      XCTAssertTrue(ReferenceValidator.isValid(c.bytes), "reference validator disagrees on y-case: \(c.name)")
      switch JSONParser.parse(c.bytes) {
      case .success(let doc):
        XCTAssertEqual(doc.kind(JSONDocument.root), c.kind, c.name)
        XCTAssertEqual(doc.nodes[0].parent, -1, c.name)
      case .failure(let error):
        XCTFail("\(c.name): rejected at \(error.offset): \(error.message)")
      }
    }
  }

  func testBOMIsSkippedButKeptInByteRanges() throws {
    let doc = try parse("\u{FEFF}[1]")
    XCTAssertEqual(doc[JSONDocument.root].start, 3)
    XCTAssertEqual(doc[JSONDocument.root].end, 6)
    XCTAssertEqual(doc.rawText(doc.element(JSONDocument.root, 0)!), "1")
  }

  func testDuplicateKeysListTheLaterMember() throws {
    let doc = try parse(#"{"a":1,"b":2,"a":3,"a":4,"c":{"b":5,"b":6}}"#)
    let root = JSONDocument.root
    XCTAssertEqual(doc.duplicateKeys.map { doc.pointer($0) }, ["/a", "/a", "/c/b"])
    XCTAssertEqual(doc.duplicateKeys.map { doc.rawText($0) }, ["3", "4", "6"])
    XCTAssertEqual(doc.duplicateKeys, doc.duplicateKeys.sorted(), "source order")
    XCTAssertEqual(doc.rawText(doc.member(root, "a")!), "4", "the last member wins")
    // An escaped key equal to a plain one is a duplicate (comparison is after decoding).
    let escaped = try parse(#"{"a":1,"\u0061":2}"#)
    XCTAssertEqual(escaped.duplicateKeys.map { escaped.rawText($0) }, ["2"])
    // No duplicates: different bytes, including canonically equivalent spellings.
    XCTAssertEqual(try parse(#"{"a":1,"A":2,"a ":3}"#).duplicateKeys, [])
    XCTAssertEqual(try parse("{\"\u{E9}\":1,\"e\u{301}\":2}").duplicateKeys, [])
  }

  func testDuplicateKeysInLargeObjects() throws {
    // More than 16 members takes a different code path; it must agree with the small one.
    var members = (0..<20).map { "\"k\($0)\":\($0)" }
    members.append(#""k3":"again""#)
    members.append(#""\u006b7":"escaped again""#)
    let doc = try parse("{" + members.joined(separator: ",") + "}")
    XCTAssertEqual(doc.duplicateKeys.map { doc.pointer($0) }, ["/k3", "/k7"])
    XCTAssertEqual(doc.string(doc.member(JSONDocument.root, "k7")!), "escaped again")

    // Precomposed "é" and "e" + combining acute are different keys (different bytes), as FCM
    // compares them, however many members the object has.
    var large = (0..<20).map { "\"k\($0)\":\($0)" }
    large.append("\"\u{E9}\":1")
    large.append("\"e\u{301}\":2")
    let canonical = try parse("{" + large.joined(separator: ",") + "}")
    XCTAssertEqual(canonical.duplicateKeys, [], "canonically equivalent but different keys are not duplicates")
  }

  // MARK: - Rejected documents

  func testRejectsInvalidDocuments() {
    let cases: [Reject] = [
      // Trailing and stray commas: the error is at the comma.
      Reject("trailing comma in array", "[1,]", 2, "trailing comma before ']'"),
      Reject("trailing comma in object", #"{"a":1,}"#, 6, "trailing comma before '}'"),
      Reject("trailing comma with whitespace in array", "[1 ,\n ]", 3, "trailing comma before ']'"),
      Reject("trailing comma in nested object", #"{"a":{"b":1,},"c":2}"#, 11, "trailing comma before '}'"),
      Reject("empty array element", "[1,,2]", 3, "expected an array element, found ','"),
      Reject("leading comma in array", "[,1]", 1, "expected an array element, found ','"),
      Reject("only a comma in array", "[,]", 1, "expected an array element, found ','"),
      Reject("leading comma in object", "{,}", 1, "expected an object key, found ','"),
      Reject("double comma in object", #"{"a":1,,"b":2}"#, 7, "expected an object key, found ','"),
      Reject("missing value after colon", #"{"a":,"b":1}"#, 5, "expected a value, found ','"),
      // Comments.
      Reject("line comment before the document", "// note\n{}", 0, "comments are not allowed in JSON"),
      Reject("block comment before the document", "/* note */ {}", 0, "comments are not allowed in JSON"),
      Reject("line comment before a key", "{\n  // note\n  \"a\": 1\n}", 4, "comments are not allowed in JSON"),
      Reject("block comment before an element", "[1, /* two */ 2]", 4, "comments are not allowed in JSON"),
      Reject("block comment as a value", #"{"a": /* x */ 1}"#, 6, "comments are not allowed in JSON"),
      Reject("line comment after a member", "{\"a\": 1 // note\n}", 8, "comments are not allowed in JSON"),
      Reject("block comment after an element", "[1/* x */]", 2, "comments are not allowed in JSON"),
      Reject("comment after the document", "{} // end", 3, "comments are not allowed in JSON"),
      Reject("slash after a value that starts no comment", "[1/2]", 2, "expected ',' or ']' after an array element, found '/'"),
      // Single quotes.
      Reject("single-quoted key", "{'a': 1}", 1, "object keys must be in double quotes, not single quotes"),
      Reject("single-quoted key after a comma", #"{"a":1,'b':2}"#, 7, "object keys must be in double quotes"),
      Reject("single-quoted value", #"{"a": 'b'}"#, 6, "strings must be in double quotes, not single quotes"),
      Reject("single-quoted element", "['a']", 1, "strings must be in double quotes, not single quotes"),
      Reject("single-quoted document", "'a'", 0, "strings must be in double quotes, not single quotes"),
      // Numbers.
      Reject("leading zero", "01", 0, "numbers cannot have leading zeros"),
      Reject("leading zeros in an array", "[007]", 1, "numbers cannot have leading zeros"),
      Reject("negative leading zero", "-01", 1, "numbers cannot have leading zeros"),
      Reject("leading zero as a member value", #"{"a":00}"#, 5, "numbers cannot have leading zeros"),
      Reject("plus sign", "+1", 0, "numbers cannot start with '+'"),
      Reject("plus sign in an array", "[+1]", 1, "numbers cannot start with '+'"),
      Reject("leading decimal point", ".5", 0, "numbers must start with a digit"),
      Reject("leading decimal point in an array", "[.5]", 1, "numbers must start with a digit"),
      Reject("trailing decimal point", "1.", 2, "expected a digit after the decimal point"),
      Reject("decimal point then exponent", "[1.e5]", 3, "expected a digit after the decimal point"),
      Reject("empty exponent", "1e", 2, "expected a digit in the exponent"),
      Reject("exponent sign only", "1e+", 3, "expected a digit in the exponent"),
      Reject("exponent sign then a letter", "[1E-x]", 4, "expected a digit in the exponent"),
      Reject("double exponent", "[1ee2]", 3, "expected a digit in the exponent"),
      Reject("minus only", "-", 1, "expected a digit after '-'"),
      Reject("minus only in an array", "[-]", 2, "expected a digit after '-'"),
      Reject("minus then a space", "- 1", 1, "expected a digit after '-'"),
      Reject("double minus", "[--1]", 2, "expected a digit after '-'"),
      Reject("two decimal points", "[1.2.3]", 4, "expected ',' or ']' after an array element, found '.'"),
      Reject("hexadecimal", "0x1F", 0, "hexadecimal numbers are not valid JSON"),
      Reject("hexadecimal with capital X", "[0X1F]", 1, "hexadecimal numbers are not valid JSON"),
      Reject("negative hexadecimal", "-0x1", 0, "hexadecimal numbers are not valid JSON"),
      Reject("NaN", "NaN", 0, "NaN is not valid JSON"),
      Reject("NaN in an array", "[1, NaN]", 4, "NaN is not valid JSON"),
      Reject("Infinity", "Infinity", 0, "Infinity is not valid JSON"),
      Reject("-Infinity", "-Infinity", 0, "-Infinity is not valid JSON"),
      Reject("-Infinity as a member value", #"{"a":-Infinity}"#, 5, "-Infinity is not valid JSON"),
      // Literals.
      Reject("True", "True", 0, "'True' is not a JSON literal"),
      Reject("FALSE", "[FALSE]", 1, "'FALSE' is not a JSON literal"),
      Reject("None", "None", 0, "'None' is not a JSON literal"),
      Reject("Null", #"{"a":Null}"#, 5, "'Null' is not a JSON literal"),
      Reject("nil", "nil", 0, "'nil' is not a JSON literal"),
      Reject("undefined", "undefined", 0, "'undefined' is not a JSON literal"),
      Reject("truncated true", "tru", 0, "expected a value, found 'tru'"),
      Reject("truncated null", "[nul]", 1, "expected a value, found 'nul'"),
      Reject("literal with trailing letters", "truex", 0, "expected a value, found 'truex'"),
      Reject("bare word", "[hello]", 1, "strings must be in double quotes"),
      // Structure.
      Reject("unquoted key", "{a:1}", 1, "object keys must be strings in double quotes, found 'a'"),
      Reject("number as key", "{1:1}", 1, "object keys must be strings in double quotes"),
      Reject("missing colon", #"{"a" 1}"#, 5, "expected ':' after the object key, found '1'"),
      Reject("key without a value", #"{"a"}"#, 4, "expected ':' after the object key, found '}'"),
      Reject("equals sign instead of a colon", #"{"a"=1}"#, 4, "expected ':' after the object key, found '='"),
      Reject("missing comma between members", #"{"a":1 "b":2}"#, 7, "missing ',' after an object member"),
      Reject("missing comma between numbers", "[1 2]", 3, "missing ',' after an array element, before '2'"),
      Reject("missing comma between strings", #"["a" "b"]"#, 5, "missing ',' after an array element"),
      Reject("missing comma between arrays", "[[] []]", 4, "missing ',' after an array element"),
      Reject("colon in an array", "[1:2]", 2, "expected ',' or ']' after an array element, found ':'"),
      Reject("extra closing bracket", "[1]]", 3, "found ']' after the end of the document"),
      Reject("extra closing brace", "{}}", 2, "found '}' after the end of the document"),
      Reject("mismatched closer in an array", "[1}", 2, "expected ',' or ']' after an array element, found '}'"),
      Reject("mismatched closer in an object", #"{"a":1]"#, 6, "expected ',' or '}' after an object member, found ']'"),
      Reject("closing bracket as the document", "]", 0, "expected a value, found ']'"),
      Reject("two top-level values", "1 2", 2, "found '2' after the end of the document"),
      Reject("two top-level objects", "{} {}", 3, "after the end of the document (a file holds one JSON value)"),
      Reject("empty document", "", 0, "the document is empty"),
      Reject("whitespace-only document", " \t\r\n ", 5, "the document is empty"),
      Reject("BOM-only document", "\u{FEFF}", 3, "the document is empty"),
      Reject("two BOMs", "\u{FEFF}\u{FEFF}{}", 3, "byte-order mark"),
      Reject("BOM inside the document", "[\u{FEFF}1]", 1, "byte-order mark"),
      // Strings.
      Reject("unterminated string", #""abc"#, 4, "unexpected end of input inside a string (missing closing '\"')"),
      Reject("unterminated string in an array", #"["abc]"#, 6, "unexpected end of input inside a string"),
      Reject("unterminated key", #"{"abc"#, 5, "unexpected end of input inside a string"),
      Reject("lone quote", "\"", 1, "unexpected end of input inside a string"),
      Reject("raw LF in a string", "\"a\nb\"", 2, "line break inside a string"),
      Reject("raw CR in a string", "[\"a\rb\"]", 3, "line break inside a string"),
      Reject("raw tab in a string", "\"a\tb\"", 2, "unescaped tab inside a string (write \\t)"),
      Reject("raw NUL in a string", bytes: [0x5B, 0x22, 0x61, 0x00, 0x22, 0x5D], 3, "unescaped control character 0x00 inside a string"),
      Reject("raw 0x1F in a string", "[\"\u{1F}\"]", 2, "unescaped control character 0x1F inside a string (write \\u001F)"),
      Reject("invalid escape \\x", #""\x41""#, 1, #"invalid escape '\x'"#),
      Reject("invalid escape \\'", #""\'""#, 1, #"invalid escape '\''"#),
      Reject("invalid escape \\U", #""\U0041""#, 1, #"invalid escape '\U'"#),
      Reject("invalid escape \\a in an array", #"["\a"]"#, 2, #"invalid escape '\a'"#),
      Reject("escaped line break", "\"\\\n\"", 1, "invalid escape"),
      Reject("short \\u escape", #""\u12""#, 5, #"a \u escape needs four hexadecimal digits, found '"'"#),
      Reject("non-hex \\u escape", #""\u12G4""#, 5, #"a \u escape needs four hexadecimal digits, found 'G'"#),
      Reject("\\u then end of input", #""\u"#, 3, #"unexpected end of input inside a \u escape"#),
      Reject("\\u with two digits then end of input", #""\u00"#, 5, #"unexpected end of input inside a \u escape"#),
      Reject("backslash then end of input", #""\"#, 2, "unexpected end of input inside a string escape"),
      Reject("bad digits in a low surrogate", #""\ud800\uZZZZ""#, 9, "four hexadecimal digits"),
      // Invalid UTF-8 inside strings: the error is at the first byte of the bad sequence.
      Reject("lone continuation byte", bytes: [0x5B, 0x22, 0x80, 0x22, 0x5D], 2, "invalid UTF-8 byte 0x80 inside a string"),
      Reject("overlong 2-byte NUL", bytes: [0x22, 0xC0, 0x80, 0x22], 1, "invalid UTF-8 byte 0xC0"),
      Reject("overlong 2-byte (0xC1)", bytes: [0x22, 0xC1, 0xBF, 0x22], 1, "invalid UTF-8 byte 0xC1"),
      Reject("overlong 3-byte", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 byte 0xE0"),
      Reject("overlong 4-byte", bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 byte 0xF0"),
      Reject("encoded high surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8 byte 0xED"),
      Reject("encoded low surrogate", bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], 1, "invalid UTF-8 byte 0xED"),
      Reject("above U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8 byte 0xF4"),
      Reject("0xF5 lead byte", bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, "invalid UTF-8 byte 0xF5"),
      Reject("0xFF byte", bytes: [0x22, 0xFF, 0x22], 1, "invalid UTF-8 byte 0xFF"),
      Reject("truncated 3-byte sequence at the end of input", bytes: [0x22, 0xE2, 0x82], 1, "invalid UTF-8 byte 0xE2"),
      Reject("truncated 3-byte sequence before the quote", bytes: [0x22, 0xE2, 0x82, 0x22], 1, "invalid UTF-8 byte 0xE2"),
      Reject("truncated 2-byte sequence", bytes: [0x22, 0x61, 0xC3, 0x22], 2, "invalid UTF-8 byte 0xC3"),
      Reject("truncated 4-byte sequence", bytes: [0x22, 0xF0, 0x9F, 0x98, 0x22], 1, "invalid UTF-8 byte 0xF0"),
      Reject("lead byte followed by ASCII", bytes: [0x22, 0xC3, 0x41, 0x22], 1, "invalid UTF-8 byte 0xC3"),
      Reject("invalid UTF-8 in a key", bytes: [0x7B, 0x22, 0x80, 0x22, 0x3A, 0x31, 0x7D], 2, "invalid UTF-8 byte 0x80 inside a string"),
      // Invalid UTF-8 outside strings.
      Reject("continuation byte as a value", bytes: [0x5B, 0x80, 0x5D], 1, "byte 0x80 (invalid UTF-8"),
      Reject("0xFF after the document", bytes: [0x5B, 0x5D, 0xFF], 2, "byte 0xFF (invalid UTF-8"),
      Reject("invalid byte between elements", bytes: [0x5B, 0x31, 0xC0, 0x5D], 2, "byte 0xC0 (invalid UTF-8"),
      Reject("invalid byte as a key", bytes: [0x7B, 0xF5, 0x7D], 1, "byte 0xF5 (invalid UTF-8"),
      // UTF-16, with and without a byte-order mark.
      Reject("UTF-16LE with BOM", bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00], 0, "UTF-16"),
      Reject("UTF-16BE with BOM", bytes: [0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D], 0, "UTF-16"),
      Reject("UTF-16LE without BOM", bytes: [0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00], 0, "UTF-16"),
      Reject("UTF-16BE without BOM", bytes: [0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D], 0, "UTF-16"),
      Reject("UTF-16LE object with BOM", bytes: [0xFF, 0xFE] + utf16LE("{\"a\": \"é\"}\n"), 0, "UTF-16"),
      Reject("UTF-16BE object without BOM", bytes: utf16BE("{\"a\": \"é\"}\n"), 0, "UTF-16"),
      Reject("UTF-16LE single digit", bytes: [0x31, 0x00], 0, "UTF-16"),
      Reject("UTF-16BE single digit", bytes: [0x00, 0x31], 0, "UTF-16"),
      // Characters that look like JSON but are not.
      Reject("typographic quotes around a value", "[“a”]", 1, "'“' (U+201C, a typographic quote"),
      Reject("typographic quotes around a key", "{“a”: 1}", 1, "'“' (U+201C, a typographic quote"),
      Reject("typographic single quote", "[‘a’]", 1, "(U+2018, a typographic quote"),
      Reject("NBSP as whitespace", "[\u{A0}1]", 1, "a non-JSON space (U+00A0)"),
      Reject("NBSP after a member", "{\"a\":1\u{A0}}", 6, "a non-JSON space (U+00A0)"),
      Reject("ideographic space", "[1,\u{3000}2]", 3, "a non-JSON space (U+3000)"),
      Reject("form feed as whitespace", "[\u{0C}1]", 1, "control character 0x0C"),
      Reject("vertical tab as whitespace", "[1\u{0B}]", 2, "control character 0x0B"),
      Reject("NUL after the document", bytes: [0x5B, 0x5D, 0x00], 2, "a NUL byte"),
      Reject("emoji as a value", "[😀]", 1, "'😀' (U+1F600)"),
      // End of input inside a container: the offset is the length, the message says where it opened.
      Reject("unclosed object", "{", 1, "unexpected end of input: expected '}' to close the object opened at line 1, column 1"),
      Reject("unclosed array", "[", 1, "expected a value, or ']' to close the array opened at line 1, column 1"),
      Reject("unclosed array after an element", "[1", 2, "expected ']' to close the array opened at line 1, column 1"),
      Reject("unclosed object after a member", #"{"a":1"#, 6, "expected '}' to close the object opened at line 1, column 1"),
      Reject("unclosed inner array", #"{"a":[1,2"#, 9, "']' to close the array opened at line 1, column 6"),
      Reject("unclosed inner object", #"["a", {"#, 7, "'}' to close the object opened at line 1, column 7"),
      Reject("unclosed object on several lines", "{\n  \"a\": {\n    \"b\": 1\n", 22, "'}' to close the object opened at line 2, column 8"),
      Reject("end of input after a comma in an array", "[1,", 3, "expected a value in the array opened at line 1, column 1"),
      Reject("end of input after a colon", #"{"a":"#, 5, "expected a value in the object opened at line 1, column 1"),
      Reject("end of input after a comma in an object", #"{"a":1,"#, 7, "expected an object key in the object opened at line 1, column 1"),
      Reject("end of input after a key", #"{"a""#, 4, "unexpected end of input: expected ':' after the object key"),
      Reject("end of input inside a literal", "[tr", 1, "expected a value, found 'tr'"),
    ]
    XCTAssertGreaterThanOrEqual(cases.count, 80)
    for c in cases {
      XCTAssertFalse(ReferenceValidator.isValid(c.bytes), "reference validator disagrees on n-case: \(c.name)")
      assertRejected(c.bytes, at: c.offset, containing: c.phrase, c.name)
    }
  }

  /// The five upstream JSONTestSuite files (see Fixtures/json-conformance/SOURCE.md), plus any
  /// y_/n_/i_ files added there later.
  func testJSONTestSuiteFixtures() throws {
    let folder = URL(fileURLWithPath: Repository.path("Tests/Fixtures/json-conformance"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
    // Exact expectations for the files that are there today.
    let known: [String: (offset: Int, phrase: String)] = [
      "n_number_-00.0.json": (2, "numbers cannot have leading zeros"),
      "n_number_-00e0.json": (2, "numbers cannot have leading zeros"),
      "n_number_00.0.json": (1, "numbers cannot have leading zeros"),
      "n_number_00e0.json": (1, "numbers cannot have leading zeros"),
      "n_string_octal_escape.json": (2, #"invalid escape '\0'"#),
    ]
    XCTAssertEqual(Set(known.keys).subtracting(names), [], "fixture files are missing")
    XCTAssertGreaterThanOrEqual(names.filter { $0.hasPrefix("n_") }.count, 5)
    for name in names {
      let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
      let result = JSONParser.parse(bytes)
      if name.hasPrefix("n_") {
        XCTAssertFalse(ReferenceValidator.isValid(bytes), "reference validator accepts \(name)")
        if let expected = known[name] {
          assertRejected(bytes, at: expected.offset, containing: expected.phrase, name)
        } else if case .success = result {
          XCTFail("\(name) must be rejected")
        }
      } else if name.hasPrefix("y_") {
        if case .failure(let error) = result { XCTFail("\(name) must be accepted: \(error)") }
      }
      // i_ files: either answer is fine; parsing them must simply not crash.
    }
  }

  // MARK: - Nesting limits

  func testNestingLimitIs512ByDefault() {
    let ok = [UInt8](repeating: 0x5B, count: 512) + [UInt8](repeating: 0x5D, count: 512)
    guard case .success(let doc) = JSONParser.parse(ok) else { return XCTFail("512 nested arrays must be accepted") }
    XCTAssertEqual(doc.nodes.count, 512)
    XCTAssertEqual(doc.pointer(NodeID(511)), String(repeating: "/0", count: 511))

    let tooDeep = [UInt8](repeating: 0x5B, count: 513) + [UInt8](repeating: 0x5D, count: 513)
    assertRejected(tooDeep, at: 512, containing: "nesting is deeper than 512 levels", "513 nested arrays")

    // 512 nested objects are accepted too; 513 are not.
    func objects(_ depth: Int) -> [UInt8] {
      Array(String(repeating: #"{"a":"#, count: depth - 1).utf8) + Array("{}".utf8) + [UInt8](repeating: 0x7D, count: depth - 1)
    }
    if case .failure(let error) = JSONParser.parse(objects(512)) { XCTFail("512 nested objects: \(error)") }
    assertRejected(objects(513), at: 512 * 5, containing: "nesting is deeper than 512 levels", "513 nested objects")
  }

  func testNestingLimitOption() {
    let shallow = JSONParser.Options(maxDepth: 2)
    if case .failure(let error) = JSONParser.parse(Array("[[1],{}]".utf8), options: shallow) { XCTFail("\(error)") }
    assertRejected(Array("[[[1]]]".utf8), at: 2, containing: "nesting is deeper than 2 levels", "depth 3 with limit 2", options: shallow)
    assertRejected(Array(#"{"a":{"b":{}}}"#.utf8), at: 10, containing: "nesting is deeper than 2 levels", "objects", options: shallow)
    let none = JSONParser.Options(maxDepth: 0)
    if case .failure(let error) = JSONParser.parse(Array("1".utf8), options: none) { XCTFail("\(error)") }
    assertRejected(Array("[]".utf8), at: 0, containing: "nesting is deeper than 0 levels", "limit 0", options: none)
    XCTAssertEqual(JSONParser.Options().maxDepth, 512)
  }

  func testHostileNestingFailsQuickly() {
    let started = Date()
    let brackets = [UInt8](repeating: 0x5B, count: 1_000_000)
    assertRejected(brackets, at: 512, containing: "nesting is deeper than 512 levels", "1,000,000 '['")
    var members: [UInt8] = []
    members.reserveCapacity(500_000)
    for _ in 0..<100_000 { members.append(contentsOf: [0x7B, 0x22, 0x61, 0x22, 0x3A]) }  // {"a":
    assertRejected(members, at: 512 * 5, containing: "nesting is deeper than 512 levels", "100,000 '{\"a\":'")
    let closers = [UInt8](repeating: 0x5D, count: 1_000_000)
    assertRejected(closers, at: 0, containing: "expected a value, found ']'", "1,000,000 ']'")
    XCTAssertLessThan(Date().timeIntervalSince(started), 5, "hostile nesting must fail fast")
  }

  func testLargeFlatDocuments() throws {
    var text = "["
    for i in 0..<20_000 { text += i == 0 ? "\(i)" : ",\(i)" }
    text += "]"
    let doc = try parse(text)
    XCTAssertEqual(doc[JSONDocument.root].childCount, 20_000)
    XCTAssertEqual(doc.rawText(doc.element(JSONDocument.root, 19_999)!), "19999")

    let long = "\"" + String(repeating: "abcé€😀", count: 20_000) + "\""
    let stringDoc = try parse(long)
    XCTAssertEqual(stringDoc.string(JSONDocument.root)?.unicodeScalars.count, 6 * 20_000)
  }

  // MARK: - Positions

  func testPositionsLineEndings() {
    func pos(_ bytes: [UInt8], _ offset: Int) -> String { SourceLocator(bytes: bytes).position(of: offset).description }
    let lf = Array("ab\ncd\n".utf8)
    XCTAssertEqual(pos(lf, 0), "1:1")
    XCTAssertEqual(pos(lf, 1), "1:2")
    XCTAssertEqual(pos(lf, 2), "1:3", "the LF itself ends line 1")
    XCTAssertEqual(pos(lf, 3), "2:1")
    XCTAssertEqual(pos(lf, 4), "2:2")
    XCTAssertEqual(pos(lf, 6), "3:1", "end of input after a final newline")

    let crlf = Array("ab\r\ncd\r\n".utf8)
    XCTAssertEqual(pos(crlf, 2), "1:3")
    XCTAssertEqual(pos(crlf, 4), "2:1", "CRLF is one line break")
    XCTAssertEqual(pos(crlf, 5), "2:2")
    XCTAssertEqual(pos(crlf, 8), "3:1")

    let cr = Array("ab\rcd\r".utf8)
    XCTAssertEqual(pos(cr, 3), "2:1", "a lone CR is a line break")
    XCTAssertEqual(pos(cr, 4), "2:2")
    XCTAssertEqual(pos(cr, 6), "3:1")

    let mixed = Array("a\r\r\n\nb".utf8)  // CR, CRLF, LF
    XCTAssertEqual(pos(mixed, 2), "2:1")
    XCTAssertEqual(pos(mixed, 4), "3:1")
    XCTAssertEqual(pos(mixed, 5), "4:1")

    let noNewline = Array("abc".utf8)
    XCTAssertEqual(pos(noNewline, 3), "1:4", "end of input")
    XCTAssertEqual(pos([], 0), "1:1", "empty input")
    XCTAssertEqual(pos(noNewline, 99), "1:4", "offsets past the end are clamped")
    XCTAssertEqual(pos(noNewline, -1), "1:1", "negative offsets are clamped")
  }

  func testPositionsColumnsCountUTF16Units() {
    func pos(_ text: String, _ offset: Int) -> String { SourceLocator(bytes: Array(text.utf8)).position(of: offset).description }
    func posB(_ bytes: [UInt8], _ offset: Int) -> String { SourceLocator(bytes: bytes).position(of: offset).description }
    // BOM: not a column.
    let bom = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
    XCTAssertEqual(posB(bom, 0), "1:1")
    XCTAssertEqual(posB(bom, 3), "1:1")
    XCTAssertEqual(posB(bom, 4), "1:2")
    XCTAssertEqual(posB(bom, 5), "1:3")
    // A U+FEFF later in the file is an ordinary character.
    XCTAssertEqual(pos("\n\u{FEFF}x", 4), "2:2")
    // 2- and 3-byte characters are one unit; a 4-byte one is a surrogate pair, two units.
    XCTAssertEqual(pos("\"é\":1", 3), "1:3")      // é is 2 bytes: offsets 1,2
    XCTAssertEqual(pos("\"€x", 4), "1:3")         // € is 3 bytes: offsets 1...3
    XCTAssertEqual(pos("\"😀x", 5), "1:4")        // 😀 is 4 bytes: offsets 1...4
    XCTAssertEqual(pos("é€😀|", 9), "1:5")        // 1 + 1 + 2 units before '|'
    XCTAssertEqual(pos("é€😀", 9), "1:5", "end of input after multi-byte text")
    // Tabs are one unit.
    XCTAssertEqual(pos("\t\tx", 2), "1:3")
    // Multi-byte text on an earlier line does not shift later lines.
    XCTAssertEqual(pos("😀😀\n  x", 11), "2:3")
    // Cross-check against Swift's own UTF-16 view.
    let text = "{\n\t\"ключ\": \"値😀\", \"e\u{301}\": 1\r\n}"
    let bytes = Array(text.utf8)
    // (Offsets inside a UTF-8 sequence and the LF of a CRLF are not character positions.)
    for offset in 0...bytes.count where offset == bytes.count || (bytes[offset] & 0xC0 != 0x80 && !(bytes[offset] == 0x0A && bytes[offset - 1] == 0x0D)) {
      XCTAssertEqual(SourceLocator(bytes: bytes).position(of: offset), ReferencePosition.of(offset, in: bytes), "offset \(offset)")
    }
  }

  func testSyntaxErrorPositions() {
    func position(_ text: String) -> String? {
      let bytes = Array(text.utf8)
      guard case .failure(let error) = JSONParser.parse(bytes) else { return nil }
      return SourceLocator(bytes: bytes).position(of: error.offset).description
    }
    XCTAssertEqual(position("{\n  \"a\": 1,\n}\n"), "2:9", "trailing comma, LF")
    XCTAssertEqual(position("{\r\n  \"a\": 1,\r\n}\r\n"), "2:9", "trailing comma, CRLF")
    XCTAssertEqual(position("{\r  \"a\": 1,\r}\r"), "2:9", "trailing comma, CR")
    XCTAssertEqual(position("\u{FEFF}{\n  \"é😀\": 01\n}"), "2:10", "leading zero after multi-byte key")
    XCTAssertEqual(position("{\n  \"a\": 1\n"), "3:1", "end of input")
    XCTAssertEqual(position("{\"a\":\t\"x\ny\"}"), "1:9", "raw newline in a string")
  }

  // MARK: - Tree API

  func testPointersAndLookups() throws {
    let text = #"{"a/b": 1, "m~n": [true, {"x": null}], "": "empty", "dup": 1, "dup": "second", "k\u0041": "v", "~1/": 2}"#
    let doc = try parse(text)
    let root = JSONDocument.root
    XCTAssertEqual(doc.pointer(root), "")
    XCTAssertNil(doc.pathComponent(root))
    XCTAssertNil(doc.key(root))
    XCTAssertEqual(doc[root].keyStart, -1)

    let ab = try XCTUnwrap(doc.member(root, "a/b"))
    XCTAssertEqual(doc.pointer(ab), "/a~1b")
    XCTAssertEqual(doc.pathComponent(ab), .key("a/b"))
    let mn = try XCTUnwrap(doc.member(root, "m~n"))
    XCTAssertEqual(doc.pointer(mn), "/m~0n")
    let first = try XCTUnwrap(doc.element(mn, 0))
    XCTAssertEqual(doc.pointer(first), "/m~0n/0")
    XCTAssertEqual(doc.pathComponent(first), .index(0))
    XCTAssertNil(doc.key(first))
    let inner = try XCTUnwrap(doc.element(mn, 1))
    XCTAssertEqual(doc.pointer(inner), "/m~0n/1")
    let x = try XCTUnwrap(doc.member(inner, "x"))
    XCTAssertEqual(doc.pointer(x), "/m~0n/1/x")
    XCTAssertEqual(doc.kind(x), .null)
    XCTAssertNil(doc.element(mn, 2))
    XCTAssertNil(doc.element(mn, -1))
    XCTAssertNil(doc.element(root, 0), "element(_:_:) is for arrays")
    XCTAssertNil(doc.member(mn, "0"), "member(_:_:) is for objects")

    let empty = try XCTUnwrap(doc.member(root, ""))
    XCTAssertEqual(doc.pointer(empty), "/")
    XCTAssertEqual(doc.string(empty), "empty")

    let dup = try XCTUnwrap(doc.member(root, "dup"))
    XCTAssertEqual(doc.string(dup), "second", "the last of duplicate keys wins")
    XCTAssertEqual(doc.pointer(dup), "/dup")
    XCTAssertEqual(doc.duplicateKeys, [dup])

    let escapedKey = try XCTUnwrap(doc.member(root, "kA"), "keys are compared after decoding")
    XCTAssertEqual(doc.key(escapedKey), "kA")
    XCTAssertTrue(doc[escapedKey].keyHasEscapes)
    XCTAssertFalse(doc[escapedKey].keyIsASCII, "an escaped key is read as text")
    XCTAssertTrue(doc[dup].keyIsASCII)
    XCTAssertNil(doc.member(root, #"k\u0041"#))
    XCTAssertTrue(doc.keyEquals(escapedKey, Array("kA".utf8)))
    XCTAssertFalse(doc.keyEquals(escapedKey, Array("k".utf8)))
    XCTAssertFalse(doc.keyEquals(first, Array("".utf8)), "array elements have no key")

    let tilde = try XCTUnwrap(doc.member(root, "~1/"))
    XCTAssertEqual(doc.pointer(tilde), "/~01~1")
    XCTAssertNil(doc.member(root, "missing"))

    XCTAssertEqual(doc.children(root).map { doc.key($0)! }, ["a/b", "m~n", "", "dup", "dup", "kA", "~1/"])
    XCTAssertEqual(doc[root].childCount, 7)
    XCTAssertEqual(doc.children(mn).map { doc.kind($0) }, [.true, .object])
    XCTAssertEqual(doc[mn].childCount, 2)
    XCTAssertEqual(Array(doc.children(x)), [])
    XCTAssertEqual(doc.children(root).map { doc[$0].parent }, Array(repeating: root, count: 7))

    XCTAssertEqual(JSONPointer.escape("a/b~c"), "a~1b~0c")
    XCTAssertEqual(JSONPointer.escape("~/~"), "~0~1~0")
    XCTAssertEqual(JSONPointer.escape("plain"), "plain")
    XCTAssertEqual(JSONPointer.format([.key("a/b"), .index(0), .key(""), .key("é")]), "/a~1b/0//é")
    XCTAssertEqual(JSONPointer.format([]), "")
  }

  func testStringDecoding() throws {
    let cases: [(json: String, decoded: String, escaped: Bool)] = [
      (#""plain""#, "plain", false),
      (#""""#, "", false),
      (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t", true),
      (#""\u0000""#, "\u{0}", true),
      (#""a\u0000b""#, "a\u{0}b", true),
      (#""\u00e9\u00E9""#, "éé", true),
      (#""\u20ac\uFFFF""#, "€\u{FFFF}", true),
      (#""\uD83D\uDE00""#, "😀", true),
      (#""\udbff\udfff""#, "\u{10FFFF}", true),
      (#""\ud800""#, "\u{FFFD}", true),
      (#""\udc00""#, "\u{FFFD}", true),
      (#""\ud800x""#, "\u{FFFD}x", true),
      (#""\ud800\u0041""#, "\u{FFFD}A", true),
      (#""\ud800\ud800""#, "\u{FFFD}\u{FFFD}", true),
      (#""\udc00\ud800""#, "\u{FFFD}\u{FFFD}", true),
      (#""\ud800\ud83d\ude00""#, "\u{FFFD}😀", true),
      (#""\ud800\n""#, "\u{FFFD}\n", true),
      ("\"é€😀\"", "é€😀", false),
      ("\"e\u{301}\"", "e\u{301}", false),
      (#""\\u0041""#, "\\u0041", true),
      (#""é\u00e9""#, "éé", true),
    ]
    for c in cases {
      let doc = try parse(c.json)
      let value = try XCTUnwrap(doc.string(JSONDocument.root), c.json)
      XCTAssertEqual(Array(value.utf8), Array(c.decoded.utf8), c.json)
      XCTAssertEqual(doc[JSONDocument.root].valueHasEscapes, c.escaped, c.json)
      XCTAssertEqual(doc.rawText(JSONDocument.root), c.json, "rawText keeps the quotes and escapes")
    }
    // Keys decode the same way.
    let doc = try parse(#"{"\ud83d\ude00\t":1}"#)
    XCTAssertEqual(doc.key(doc.firstChild(of: JSONDocument.root)), "😀\t")
  }

  func testNumbers() throws {
    let hundredDigits = "1" + String(repeating: "0", count: 99)
    let cases: [(String, Double)] = [
      ("0", 0), ("-0", -0.0), ("0.0", 0), ("1", 1), ("-1", -1), ("1.5", 1.5), ("1e5", 1e5), ("1E+5", 1e5),
      ("1e-5", 1e-5), ("-1.5e-300", -1.5e-300), ("123.456e+78", 123.456e78), ("1e007", 1e7),
      ("1e400", .infinity), ("-1e400", -.infinity), ("1e-400", 0), (hundredDigits, 1e99),
      ("9007199254740993", 9007199254740992),
    ]
    for (text, value) in cases {
      let doc = try parse("[\(text)]")
      let id = try XCTUnwrap(doc.element(JSONDocument.root, 0))
      XCTAssertEqual(doc.kind(id), .number, text)
      XCTAssertEqual(doc.rawText(id), text, "rawText keeps the number as written")
      XCTAssertEqual(doc.number(id), value, text)
      XCTAssertEqual(doc[id].end - doc[id].start, Int32(text.utf8.count), text)
    }
    let minusZero = try parse("-0")
    XCTAssertEqual(minusZero.number(JSONDocument.root)?.sign, .minus)
    let mixed = try parse(#"["1", 1, true, null]"#)
    let ids = Array(mixed.children(JSONDocument.root))
    XCTAssertNil(mixed.number(ids[0]), "a string is not a number")
    XCTAssertNil(mixed.string(ids[1]), "a number is not a string")
    XCTAssertNil(mixed.number(ids[2]))
    XCTAssertNil(mixed.string(ids[3]))
    XCTAssertEqual(ids.map { mixed.rawText($0) }, [#""1""#, "1", "true", "null"])
    XCTAssertEqual(ids.map { mixed.kind($0).name }, ["string", "number", "boolean", "null"])
    XCTAssertEqual(mixed.rawText(JSONDocument.root), #"["1", 1, true, null]"#)
  }

  func testByteRanges() throws {
    //           0         1         2         3
    //           0123456789012345678901234567890
    let text = #"{ "k" : [1, "two"] , "n":null }"#
    let doc = try parse(text)
    let root = JSONDocument.root
    XCTAssertEqual(doc.nodes.count, 5)
    XCTAssertEqual(range(doc, root), [0, 31, -1, -1])
    let k = try XCTUnwrap(doc.member(root, "k"))
    XCTAssertEqual(range(doc, k), [8, 18, 2, 5], "array value 8..<18, key with quotes 2..<5")
    let one = try XCTUnwrap(doc.element(k, 0))
    XCTAssertEqual(range(doc, one), [9, 10, -1, -1])
    let two = try XCTUnwrap(doc.element(k, 1))
    XCTAssertEqual(range(doc, two), [12, 17, -1, -1], "a string's range includes its quotes")
    let n = try XCTUnwrap(doc.member(root, "n"))
    XCTAssertEqual(range(doc, n), [25, 29, 21, 24])
    XCTAssertEqual([doc[one].parent, doc[two].parent, doc[k].parent, doc[n].parent], [k, k, root, root])
    XCTAssertEqual([doc[root].firstChild, doc[k].nextSibling, doc[n].nextSibling], [k, n, -1])
    XCTAssertEqual([doc[k].firstChild, doc[one].nextSibling, doc[two].nextSibling], [one, two, -1])
    XCTAssertEqual([doc[root].childCount, doc[k].childCount, doc[n].childCount], [2, 2, 0])
    XCTAssertEqual(doc.nodes.map(\.kind), [.object, .array, .number, .string, .null], "nodes are in pre-order")

    // Empty containers, nested empties, and scalars with whitespace around them.
    let empties = try parse(" [ {} , [ ] ] ")
    XCTAssertEqual(range(empties, root), [1, 13, -1, -1])
    XCTAssertEqual(range(empties, empties.element(root, 0)!), [3, 5, -1, -1])
    XCTAssertEqual(range(empties, empties.element(root, 1)!), [8, 11, -1, -1])
    XCTAssertEqual(empties[empties.element(root, 0)!].firstChild, -1)
    let scalar = try parse("\n true \n")
    XCTAssertEqual(range(scalar, root), [2, 6, -1, -1])

    // Ranges of an escaped key and of a value after a multi-byte key are byte offsets.
    let unicode = try parse(#"{"é\n":"😀"}"#)
    let member = unicode.firstChild(of: root)
    XCTAssertEqual(range(unicode, member), [8, 14, 1, 7])
    XCTAssertTrue(unicode[member].keyHasEscapes)
    XCTAssertFalse(unicode[member].valueHasEscapes)
  }

  func testErrorValue() {
    let error = JSONSyntaxError(offset: 3, message: "m")
    XCTAssertEqual(error, JSONSyntaxError(offset: 3, message: "m"))
    XCTAssertNotEqual(error, JSONSyntaxError(offset: 4, message: "m"))
  }

  // MARK: - Randomized differential test

  /// Generates small documents from the JSON grammar (with a model of what they hold and where
  /// each value lies), checks that the parser accepts them and builds exactly that tree, then
  /// mutates one byte (replace, delete or insert) and checks that the parser and
  /// `ReferenceValidator` agree on validity. Deterministic: a fixed xorshift seed.
  func testRandomizedDifferential() {
    var rng = XorShift64(seed: 0x5EED_F00D_CAFE_1234)
    let interesting = Array(#"{}[],:"\ 0123456789eE.+-tfnrulasxu/*'"#.utf8) + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
    var generatedCount = 0, mutatedValid = 0, mutatedInvalid = 0, failures = 0
    for _ in 0..<2_000 {
      var generator = DocumentGenerator(rng: rng)
      let generated = generator.document()
      rng = generator.rng
      generatedCount += 1
      let bytes = generated.bytes
      XCTAssertTrue(ReferenceValidator.isValid(bytes), "reference rejects a generated document: \(show(bytes))")
      switch JSONParser.parse(bytes) {
      case .failure(let error):
        failures += 1
        XCTFail("generated document rejected at \(error.offset) (\(error.message)): \(show(bytes))")
      case .success(let doc):
        if !verifyTree(doc, generated) {
          failures += 1
          XCTFail("tree differs from the model for \(show(bytes))")
        }
      }
      if failures > 5 { return }

      for round in 0..<6 {
        let kind = round % 3  // replace, delete, insert
        var mutated = bytes
        let index = rng.below(bytes.count + (kind == 2 ? 1 : 0))
        let byte = rng.chance(60) ? interesting[rng.below(interesting.count)] : UInt8(truncatingIfNeeded: rng.next())
        switch kind {
        case 0: mutated[index] = byte
        case 1: mutated.remove(at: index)
        default: mutated.insert(byte, at: index)
        }
        let expected = ReferenceValidator.isValid(mutated)
        switch JSONParser.parse(mutated) {
        case .success(let doc):
          if !expected {
            failures += 1
            XCTFail("parser accepts what the reference rejects: \(show(mutated))")
          }
          mutatedValid += 1
          walkEverything(doc)
        case .failure(let error):
          if expected {
            failures += 1
            XCTFail("parser rejects what the reference accepts, at \(error.offset) (\(error.message)): \(show(mutated))")
          }
          XCTAssertTrue((0...mutated.count).contains(error.offset), "offset \(error.offset) out of range")
          XCTAssertFalse(error.message.isEmpty)
          mutatedInvalid += 1
        }
        if failures > 5 { return }
      }
    }
    XCTAssertEqual(generatedCount, 2_000)
    print("differential: \(generatedCount) generated, \(mutatedValid) mutations valid, \(mutatedInvalid) invalid")
    // The mutations must exercise both outcomes for the comparison to mean something.
    XCTAssertGreaterThan(mutatedValid, 1_000, "too few mutations stayed valid")
    XCTAssertGreaterThan(mutatedInvalid, 4_000, "too few mutations were invalid")
  }

  // MARK: - Helpers

  private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONDocument {
    switch JSONParser.parse(Array(text.utf8)) {
    case .success(let doc): return doc
    case .failure(let error):
      XCTFail("rejected at \(error.offset): \(error.message)", file: file, line: line)
      throw error
    }
  }

  private func assertRejected(
    _ bytes: [UInt8], at offset: Int, containing phrase: String, _ name: String,
    options: JSONParser.Options = JSONParser.Options(), file: StaticString = #filePath, line: UInt = #line
  ) {
    switch JSONParser.parse(bytes, options: options) {
    case .success:
      XCTFail("\(name): accepted, must be rejected", file: file, line: line)
    case .failure(let error):
      XCTAssertEqual(error.offset, offset, "\(name): offset (message: \(error.message))", file: file, line: line)
      XCTAssertTrue(
        error.message.contains(phrase), "\(name): message \"\(error.message)\" lacks \"\(phrase)\"", file: file, line: line)
    }
  }

  private func range(_ doc: JSONDocument, _ id: NodeID) -> [Int32] {
    let node = doc[id]
    return [node.start, node.end, node.keyStart, node.keyEnd]
  }

  /// Compares the parsed tree with the generator's model: node ids in pre-order, kinds, byte
  /// ranges, decoded keys and strings, numbers as written, pointers, duplicate keys, positions.
  private func verifyTree(_ doc: JSONDocument, _ generated: Generated) -> Bool {
    guard doc.nodes.count == generated.spans.count else { return false }
    var ok = true
    var expectedDuplicates: [NodeID] = []
    let locator = SourceLocator(bytes: generated.bytes)
    var next = 0
    func visit(_ id: NodeID, _ model: Model, _ pointer: String) {
      guard Int(id) == next else {
        ok = false
        return
      }
      let span = generated.spans[next]
      next += 1
      let node = doc[id]
      if [Int(node.start), Int(node.end), Int(node.keyStart), Int(node.keyEnd)] != [span.start, span.end, span.keyStart, span.keyEnd] {
        ok = false
      }
      if doc.pointer(id) != pointer { ok = false }
      if locator.position(of: span.start) != ReferencePosition.of(span.start, in: generated.bytes) { ok = false }
      switch model {
      case .object(let members):
        guard node.kind == .object, Int(node.childCount) == members.count else {
          ok = false
          return
        }
        var seen: [[UInt8]] = []
        for (child, member) in zip(doc.children(id), members) {
          guard let key = doc.key(child), Array(key.utf8) == member.key else {
            ok = false
            return
          }
          if seen.contains(member.key) { expectedDuplicates.append(child) }
          seen.append(member.key)
          if doc.member(id, member.key) == nil { ok = false }
          visit(child, member.value, pointer + "/" + ReferencePointer.escape(key))
        }
      case .array(let elements):
        guard node.kind == .array, Int(node.childCount) == elements.count else {
          ok = false
          return
        }
        for (index, (child, element)) in zip(doc.children(id), elements).enumerated() {
          visit(child, element, pointer + "/\(index)")
        }
      case .string(let decoded):
        if node.kind != .string || doc.string(id).map({ Array($0.utf8) }) != decoded { ok = false }
      case .number(let text):
        if node.kind != .number || doc.rawText(id) != text || doc.number(id) != Double(text) { ok = false }
      case .bool(let value):
        if node.kind != (value ? .true : .false) { ok = false }
      case .null:
        if node.kind != .null { ok = false }
      }
    }
    visit(JSONDocument.root, generated.model, "")
    if next != doc.nodes.count || doc.duplicateKeys != expectedDuplicates { ok = false }
    return ok
  }

  /// Calls every accessor on every node, to show that no valid document makes them trap.
  private func walkEverything(_ doc: JSONDocument) {
    for index in doc.nodes.indices {
      let id = NodeID(index)
      _ = doc.pointer(id)
      _ = doc.string(id)
      _ = doc.number(id)
      _ = doc.rawText(id)
      _ = doc.key(id)
      _ = Array(doc.children(id))
    }
    _ = doc.duplicateKeys
  }

  private func show(_ bytes: [UInt8]) -> String {
    bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "<\(String($0, radix: 16))>" }.joined()
  }
}

// MARK: - Test data types

private struct Accept {
  let name: String
  let bytes: [UInt8]
  let kind: JSONKind
  init(_ name: String, _ text: String, _ kind: JSONKind) {
    self.name = name
    self.bytes = Array(text.utf8)
    self.kind = kind
  }
}

private struct Reject {
  let name: String
  let bytes: [UInt8]
  let offset: Int
  let phrase: String
  init(_ name: String, _ text: String, _ offset: Int, _ phrase: String) {
    self.init(name, bytes: Array(text.utf8), offset, phrase)
  }
  init(_ name: String, bytes: [UInt8], _ offset: Int, _ phrase: String) {
    self.name = name
    self.bytes = bytes
    self.offset = offset
    self.phrase = phrase
  }
}

private func utf16LE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
private func utf16BE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

extension JSONDocument {
  fileprivate func firstChild(of id: NodeID) -> NodeID { self[id].firstChild }
}

// MARK: - Reference validator

/// An independent, deliberately plain strict RFC 8259 validator: recursive descent straight
/// from the grammar, UTF-8 checked by decoding each scalar. Same documented choices as the
/// parser: a leading UTF-8 BOM is skipped, lone surrogate escapes are accepted, nesting deeper
/// than 512 is rejected.
private struct ReferenceValidator {
  static func isValid(_ bytes: [UInt8]) -> Bool {
    var v = ReferenceValidator(b: bytes)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { v.i = 3 }
    v.ws()
    guard v.value(depth: 0) else { return false }
    v.ws()
    return v.i == bytes.count
  }

  let b: [UInt8]
  var i = 0

  var peek: UInt8? { i < b.count ? b[i] : nil }

  mutating func ws() {
    while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
  }

  mutating func eat(_ c: Character) -> Bool {
    guard peek == c.asciiValue else { return false }
    i += 1
    return true
  }

  mutating func value(depth: Int) -> Bool {
    guard let c = peek else { return false }
    switch c {
    case UInt8(ascii: "{"):
      guard depth < 512 else { return false }
      i += 1
      ws()
      if eat("}") { return true }
      while true {
        ws()
        guard string() else { return false }
        ws()
        guard eat(":") else { return false }
        ws()
        guard value(depth: depth + 1) else { return false }
        ws()
        if eat(",") { continue }
        return eat("}")
      }
    case UInt8(ascii: "["):
      guard depth < 512 else { return false }
      i += 1
      ws()
      if eat("]") { return true }
      while true {
        ws()
        guard value(depth: depth + 1) else { return false }
        ws()
        if eat(",") { continue }
        return eat("]")
      }
    case UInt8(ascii: "\""): return string()
    case UInt8(ascii: "t"): return word("true")
    case UInt8(ascii: "f"): return word("false")
    case UInt8(ascii: "n"): return word("null")
    default: return number()
    }
  }

  mutating func word(_ w: String) -> Bool {
    for c in w.utf8 {
      guard peek == c else { return false }
      i += 1
    }
    return true
  }

  mutating func digits() -> Int {
    var count = 0
    while let c = peek, c >= 0x30, c <= 0x39 {
      i += 1
      count += 1
    }
    return count
  }

  // number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT )
  mutating func number() -> Bool {
    _ = eat("-")
    if eat("0") {
      // nothing more in the integer part
    } else if let c = peek, c >= 0x31, c <= 0x39 {
      _ = digits()
    } else {
      return false
    }
    if eat(".") { guard digits() > 0 else { return false } }
    if eat("e") || eat("E") {
      if !eat("+") { _ = eat("-") }
      guard digits() > 0 else { return false }
    }
    return true
  }

  mutating func string() -> Bool {
    guard eat("\"") else { return false }
    while let c = peek {
      if c == UInt8(ascii: "\"") {
        i += 1
        return true
      }
      if c == UInt8(ascii: "\\") {
        i += 1
        guard let e = peek else { return false }
        i += 1
        if Array(#""\/bfnrt"#.utf8).contains(e) { continue }
        guard e == UInt8(ascii: "u") else { return false }
        for _ in 0..<4 {
          guard let h = peek, Character(UnicodeScalar(h)).isHexDigit, h < 0x80 else { return false }
          i += 1
        }
        continue
      }
      if c < 0x20 { return false }
      if c < 0x80 {
        i += 1
        continue
      }
      guard scalar() else { return false }
    }
    return false
  }

  /// Decodes one multi-byte UTF-8 scalar and checks it is the shortest form of a scalar value.
  mutating func scalar() -> Bool {
    let c = b[i]
    let length: Int, minimum: UInt32
    var value: UInt32
    if c & 0xE0 == 0xC0 {
      (length, minimum, value) = (2, 0x80, UInt32(c & 0x1F))
    } else if c & 0xF0 == 0xE0 {
      (length, minimum, value) = (3, 0x800, UInt32(c & 0x0F))
    } else if c & 0xF8 == 0xF0 {
      (length, minimum, value) = (4, 0x10000, UInt32(c & 0x07))
    } else {
      return false
    }
    for k in 1..<length {
      guard i + k < b.count, b[i + k] & 0xC0 == 0x80 else { return false }
      value = value << 6 | UInt32(b[i + k] & 0x3F)
    }
    guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return false }
    i += length
    return true
  }
}

/// Line and column computed the slow, obvious way: decode the text before the offset and count.
private enum ReferencePosition {
  static func of(_ offset: Int, in bytes: [UInt8]) -> SourcePosition {
    var prefix = String(decoding: bytes[0..<offset], as: UTF8.self).unicodeScalars[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]), prefix.first == "\u{FEFF}" { prefix = prefix.dropFirst() }
    var line = 1, column = 1
    var previousCR = false
    for s in prefix {
      if s == "\n" && previousCR {
        previousCR = false
        continue
      }
      previousCR = s == "\r"
      if s == "\n" || s == "\r" {
        line += 1
        column = 1
      } else {
        column += UTF16.width(s)
      }
    }
    return SourcePosition(line: line, column: column)
  }
}

private enum ReferencePointer {
  static func escape(_ key: String) -> String {
    key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}

// MARK: - Random documents

private indirect enum Model {
  case object([(key: [UInt8], value: Model)])
  case array([Model])
  case string([UInt8])  // decoded, as UTF-8
  case number(String)
  case bool(Bool)
  case null
}

private struct Span {
  var start: Int, end: Int, keyStart: Int, keyEnd: Int
}

private struct Generated {
  var bytes: [UInt8]
  var model: Model
  var spans: [Span]  // one per value, in pre-order (the parser's node order)
}

/// Writes a random document from the JSON grammar and records, for each value, its model and
/// byte range.
private struct DocumentGenerator {
  var rng: XorShift64
  var out: [UInt8] = []
  var spans: [Span] = []

  init(rng: XorShift64) { self.rng = rng }

  mutating func document() -> Generated {
    if rng.chance(5) { out += [0xEF, 0xBB, 0xBF] }
    whitespace()
    let model = value(depth: 0, keyStart: -1, keyEnd: -1)
    whitespace()
    return Generated(bytes: out, model: model, spans: spans)
  }

  mutating func whitespace() {
    guard rng.chance(30) else { return }
    for _ in 0...rng.below(3) { out.append([0x20, 0x09, 0x0A, 0x0D][rng.below(4)]) }
  }

  mutating func value(depth: Int, keyStart: Int, keyEnd: Int) -> Model {
    let slot = spans.count
    spans.append(Span(start: out.count, end: -1, keyStart: keyStart, keyEnd: keyEnd))
    let model: Model
    switch depth >= 4 ? 2 + rng.below(6) : rng.below(8) {
    case 0:
      out.append(UInt8(ascii: "{"))
      whitespace()
      var members: [(key: [UInt8], value: Model)] = []
      for index in 0..<rng.below(5) {
        if index > 0 {
          out.append(UInt8(ascii: ","))
          whitespace()
        }
        let keyStart = out.count
        let key = self.key()
        let keyEnd = out.count
        whitespace()
        out.append(UInt8(ascii: ":"))
        whitespace()
        members.append((key, value(depth: depth + 1, keyStart: keyStart, keyEnd: keyEnd)))
        whitespace()
      }
      out.append(UInt8(ascii: "}"))
      model = .object(members)
    case 1:
      out.append(UInt8(ascii: "["))
      whitespace()
      var elements: [Model] = []
      for index in 0..<rng.below(5) {
        if index > 0 {
          out.append(UInt8(ascii: ","))
          whitespace()
        }
        elements.append(value(depth: depth + 1, keyStart: -1, keyEnd: -1))
        whitespace()
      }
      out.append(UInt8(ascii: "]"))
      model = .array(elements)
    case 2, 3:
      model = .string(string())
    case 4, 5:
      model = .number(number())
    case 6:
      let value = rng.chance(50)
      out += Array((value ? "true" : "false").utf8)
      model = .bool(value)
    default:
      out += Array("null".utf8)
      model = .null
    }
    spans[slot].end = out.count
    return model
  }

  /// Keys come mostly from a small set (so duplicates happen, some spelled with escapes).
  mutating func key() -> [UInt8] {
    let fixed: [(literal: String, decoded: String)] = [
      (#""a""#, "a"), (#""\u0061""#, "a"), (#""b""#, "b"), (#""a/b""#, "a/b"), (#""a\/b""#, "a/b"),
      (#""m~n""#, "m~n"), (#""""#, ""), ("\"é\"", "é"), (#""\u00e9""#, "é"), ("\"e\u{301}\"", "e\u{301}"),
    ]
    if rng.chance(70) {
      let pick = fixed[rng.below(fixed.count)]
      out += Array(pick.literal.utf8)
      return Array(pick.decoded.utf8)
    }
    return string()
  }

  mutating func string() -> [UInt8] {
    out.append(UInt8(ascii: "\""))
    var decoded: [UInt8] = []
    for _ in 0..<rng.below(6) {
      switch rng.below(10) {
      case 0, 1, 2:
        var c = UInt8(0x20 + rng.below(0x5F))  // printable ASCII
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { c = UInt8(ascii: "x") }
        out.append(c)
        decoded.append(c)
      case 3:
        let escapes: [(String, UInt8)] = [
          (#"\""#, 0x22), (#"\\"#, 0x5C), (#"\/"#, 0x2F), (#"\b"#, 0x08), (#"\f"#, 0x0C), (#"\n"#, 0x0A),
          (#"\r"#, 0x0D), (#"\t"#, 0x09),
        ]
        let (literal, byte) = escapes[rng.below(escapes.count)]
        out += Array(literal.utf8)
        decoded.append(byte)
      case 4, 5:
        // \uXXXX for a BMP scalar that is not a surrogate.
        var value = UInt32(rng.below(0x10000))
        if (0xD800...0xDFFF).contains(value) { value = UInt32(rng.below(0x80)) }
        out += Array(hex4(value).utf8)
        decoded += Array(String(UnicodeScalar(value)!).utf8)
      case 6:
        // A surrogate pair for a supplementary scalar.
        let value = UInt32(0x10000 + rng.below(0x100000))
        let high = 0xD800 + ((value - 0x10000) >> 10), low = 0xDC00 + ((value - 0x10000) & 0x3FF)
        out += Array((hex4(high) + hex4(low)).utf8)
        decoded += Array(String(UnicodeScalar(value)!).utf8)
      case 7:
        out.append(0x7F)
        decoded.append(0x7F)
      default:
        let raw = ["é", "€", "😀", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10FFFF}", "\u{A0}", "“", "\u{FEFF}"]
        let bytes = Array(raw[rng.below(raw.count)].utf8)
        out += bytes
        decoded += bytes
      }
    }
    out.append(UInt8(ascii: "\""))
    return decoded
  }

  func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    let padded = String(repeating: "0", count: 4 - digits.count) + digits
    return "\\u" + (value & 1 == 0 ? padded.uppercased() : padded)
  }

  mutating func number() -> String {
    var text = rng.chance(30) ? "-" : ""
    if rng.chance(30) {
      text += "0"
    } else {
      text += String(1 + rng.below(9))
      for _ in 0..<rng.below(4) { text += String(rng.below(10)) }
    }
    if rng.chance(30) {
      text += "."
      for _ in 0...rng.below(3) { text += String(rng.below(10)) }
    }
    if rng.chance(20) {
      text += rng.chance(50) ? "e" : "E"
      text += ["", "+", "-"][rng.below(3)]
      for _ in 0...rng.below(3) { text += String(rng.below(10)) }
    }
    out += Array(text.utf8)
    return text
  }
}

// MARK: - Word-at-a-time scanning and duplicate keys from the member table

/// The string scanner reads eight bytes at a time and whitespace after a line break is skipped
/// eight spaces at a time; the member table lists the duplicate keys. These check that every
/// stopping byte is found wherever it sits in a word, that the length limit holds at every word
/// boundary, and that the duplicate keys are those a pairwise comparison finds.
final class JSONParserWordScanTests: XCTestCase {
  private func failure(_ bytes: [UInt8], options: JSONParser.Options = .init()) -> JSONSyntaxError? {
    guard case .failure(let error) = JSONParser.parse(bytes, options: options) else { return nil }
    return error
  }

  func testStringStopBytesAtEveryPositionOfAWord() {
    // (byte inserted, expected message phrase or nil when the string stays valid)
    let cases: [([UInt8], String?)] = [
      ([0x01], "unescaped control character 0x01"), ([0x1F], "unescaped control character 0x1F"),
      ([0x00], "unescaped control character 0x00"), ([0x09], "unescaped tab"), ([0x0A], "line break inside a string"),
      ([0x0D], "line break inside a string"), ([0xFF], "invalid UTF-8 byte 0xFF"), ([0x80], "invalid UTF-8 byte 0x80"),
      ([0xC3], "invalid UTF-8 byte 0xC3"), (Array("\\x".utf8), "invalid escape '\\x'"),
      (Array("\\u12G4".utf8), "a \\u escape needs four hexadecimal digits, found 'G'"),
      (Array("\\n".utf8), nil), (Array("\\\"".utf8), nil), (Array("\\\\".utf8), nil), (Array("\\u00e9".utf8), nil),
      (Array("é".utf8), nil), (Array("😀".utf8), nil), ([0x7F], nil), ([0x20], nil), ([0x21], nil), ([0x23], nil),
      ([0x5B], nil), ([0x5D], nil), ([0x1F + 1], nil),
    ]
    for length in 0..<26 {
      for at in 0...length {
        for (inserted, phrase) in cases {
          var content = Array(repeating: UInt8(ascii: "a"), count: length)
          content.insert(contentsOf: inserted, at: at)
          for prefix in [[], Array(#"{"k":"#.utf8), Array(#"["#.utf8)] as [[UInt8]] {
            let suffix: [UInt8] = prefix.isEmpty ? [] : prefix.first == UInt8(ascii: "{") ? [UInt8(ascii: "}")] : [UInt8(ascii: "]")]
            let bytes = prefix + [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")] + suffix
            // A NUL second byte makes a document look UTF-16, which is reported first.
            if bytes[1] == 0 { continue }
            let error = failure(bytes)
            let label = "\(inserted) at \(at) of \(length) after \(prefix.count)"
            guard let phrase else {
              XCTAssertNil(error, label)
              continue
            }
            guard let error else {
              XCTFail("accepted: \(label)")
              continue
            }
            let escapeByte = inserted.count == 6 ? 4 : 0  // the bad hex digit of a \u escape
            XCTAssertEqual(error.offset, prefix.count + 1 + at + escapeByte, label)
            XCTAssertTrue(error.message.contains(phrase), "\(error.message): \(label)")
          }
        }
      }
    }
    // A key is scanned the same way.
    XCTAssertEqual(failure(Array("{\"abcdefghij\u{01}\":1}".utf8))?.offset, 12)
  }

  func testUnterminatedStringsOfEveryLength() {
    for length in 0..<26 {
      let bytes = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "b"), count: length)
      let error = failure(bytes)
      XCTAssertEqual(error?.offset, bytes.count, "length \(length)")
      XCTAssertEqual(error?.message, "unexpected end of input inside a string (missing closing '\"')")
      // Ending in a backslash or inside a \u escape.
      XCTAssertEqual(failure(bytes + Array("\\".utf8))?.message, "unexpected end of input inside a string escape")
      XCTAssertEqual(failure(bytes + Array("\\u12".utf8))?.message, "unexpected end of input inside a \\u escape")
    }
  }

  func testStringLengthLimitAtEveryWordBoundary() {
    for limit in 0..<20 {
      let options = JSONParser.Options(maxStringLength: limit)
      for length in 0..<26 {
        let content = Array(repeating: UInt8(ascii: "c"), count: length)
        for suffix in [[UInt8(ascii: "\"")], Array("\"]".utf8), []] as [[UInt8]] {
          let bytes = Array("[\"".utf8) + content + suffix + (suffix.count == 1 ? [UInt8(ascii: "]")] : [])
          let error = failure(bytes, options: options)
          let label = "limit \(limit), length \(length), suffix \(suffix)"
          if length > limit {
            XCTAssertEqual(error?.offset, 1, label)
            XCTAssertEqual(error?.message, "a string longer than the limit of \(limit) bytes (--max-string-length)", label)
          } else if suffix.isEmpty {
            XCTAssertEqual(error?.message, "unexpected end of input inside a string (missing closing '\"')", label)
          } else {
            XCTAssertNil(error, label)
          }
        }
        // An offending byte within the limit is reported; one beyond it is not reached.
        if length > 0 {
          for at in 0..<length {
            var bad = content
            bad[at] = 0x01
            let error = failure(Array("\"".utf8) + bad + Array("\"".utf8), options: options)
            if at < limit {
              XCTAssertEqual(error?.offset, 1 + at, "control character at \(at), limit \(limit)")
            } else if length > limit {
              XCTAssertEqual(error?.offset, 0, "control character at \(at) beyond limit \(limit)")
            }
          }
        }
      }
    }
  }

  func testIndentationOfEveryWidth() throws {
    for width in 0..<30 {
      for filler in [" ", "\t", "\r", "  \t", " \r\n  "] {
        let indent = String(repeating: " ", count: width)
        let text = "{\n" + indent + "\"a\":\n" + indent + filler + "[1,\n" + indent + "2]\n" + indent + "}\n" + indent
        let document = try JSONParser.parse(Array(text.utf8)).get()
        let a = try XCTUnwrap(document.member(JSONDocument.root, "a"))
        XCTAssertEqual(document.rawText(a), "[1,\n" + indent + "2]")
        // Whatever follows the indentation is where an error is reported.
        let bad = Array(("{\n" + indent + filler + "x").utf8)
        XCTAssertEqual(failure(bad)?.offset, bad.count - 1, "width \(width)")
        let control = Array(("[\n" + indent + "\u{0B}1]").utf8)
        XCTAssertEqual(failure(control)?.offset, 2 + width, "width \(width)")
        let end = Array(("[1\n" + indent).utf8)
        XCTAssertEqual(failure(end)?.offset, end.count, "width \(width)")
      }
    }
  }

  /// The duplicate keys of a document found by comparing every pair of members of each object
  /// (decoded key bytes, not String equality).
  private func pairwiseDuplicates(_ document: JSONDocument) -> [NodeID] {
    var duplicates: [NodeID] = []
    for id in 0..<NodeID(document.nodeCount) where document.kind(id) == .object {
      let members = Array(document.children(id))
      for (i, member) in members.enumerated() {
        let key = Array(document.key(member)!.utf8)
        if members[..<i].contains(where: { Array(document.key($0)!.utf8) == key }) { duplicates.append(member) }
      }
    }
    return duplicates.sorted()
  }

  func testDuplicateKeysAgreeWithAPairwiseComparison() throws {
    var rng = XorShift64(seed: 0xD0B1_E5EE_D123_4567)
    // Key contents as written in the document: escaped and plain spellings of the same keys.
    let keys = ["a", "b", "\\u0061", "\\u0062", "ab", "a\\u0062", "é", "e\\u0301", "\\u00e9", "", "\\\"", "\\u0022", "k0", "k1"]
    func object(_ depth: Int) -> String {
      let count = rng.below(depth == 0 ? 30 : 8)
      var members: [String] = []
      for _ in 0..<count {
        let key = rng.chance(50) ? keys[rng.below(keys.count)] : "k\(rng.below(20))"
        let value = depth < 2 && rng.chance(25) ? object(depth + 1) : String(rng.below(100))
        members.append("\"\(key)\":\(value)")
      }
      return "{" + members.joined(separator: ",") + "}"
    }
    for _ in 0..<300 {
      let text = object(0)
      guard case .success(let document) = JSONParser.parse(Array(text.utf8)) else { continue }
      XCTAssertGreaterThanOrEqual(document.storage.maxDisplacement, 0)
      XCTAssertEqual(document.duplicateKeys, pairwiseDuplicates(document), text)
    }
  }

  func testDuplicateKeysWhenTheMemberTableIsAbandoned() throws {
    // Keys that all start probing at one slot: the table is abandoned and the duplicate keys come
    // from the separate search, with the same answer.
    let keys = collidingRootKeys(40)
    let members = keys.map { "\"\($0)\": 1" } + ["\"\(keys[3])\": 2", "\"\\u006b\(keys[7].dropFirst())\": 3", "\"x\": {\"y\": 1, \"y\": 2}"]
    let colliding = try JSONParser.parse(Array(("{" + members.joined(separator: ",") + "}").utf8)).get()
    XCTAssertLessThan(colliding.storage.maxDisplacement, 0, "the table was abandoned")
    XCTAssertEqual(colliding.duplicateKeys.count, 3)
    XCTAssertEqual(colliding.duplicateKeys, pairwiseDuplicates(colliding))

    // More members than the table takes.
    var many = (0..<65_600).map { "\"m\($0)\":0" }
    many.append("\"m5\":1")
    many.append("\"\\u006d9\":2")
    let large = try JSONParser.parse(Array(("{" + many.joined(separator: ",") + "}").utf8)).get()
    XCTAssertLessThan(large.storage.maxDisplacement, 0, "no table for so many members")
    XCTAssertEqual(large.duplicateKeys.map { large.rawText($0) }, ["1", "2"])
    XCTAssertEqual(large.rawText(try XCTUnwrap(large.member(JSONDocument.root, "m9"))), "2")
  }

  /// `mayHaveMember` is false only where `member` finds nothing: for every key of a document
  /// and names it lacks, in objects and other values, with escaped keys, and with the member
  /// table given up (then it answers true: it cannot tell).
  func testMayHaveMemberIsFalseOnlyWhereNoMemberIs() throws {
    func hash(_ name: String) -> UInt32 { Array(name.utf8).withUnsafeBufferPointer(JSONDocument.memberHash) }
    let text = #"{"a": 1, "image": "x", "n\u0061me": {"b": [1, {"c": 2}]}, "e": "", "a": 3}"#
    let document = try JSONParser.parse(Array(text.utf8)).get()
    XCTAssertGreaterThanOrEqual(document.storage.maxDisplacement, 0)
    let names = ["a", "image", "name", "b", "c", "e", "imag", "images", "Image", "", "x", "n\\u0061me"]
    for node in 0..<NodeID(document.nodeCount) {
      for name in names {
        let may = document.mayHaveMember(node, hash: hash(name))
        if document.member(node, name) != nil { XCTAssertTrue(may, "\(name) in node \(node)") }
        if document.kind(node) != .object { XCTAssertFalse(may, "\(name) in node \(node), not an object") }
      }
    }
    XCTAssertFalse(document.mayHaveMember(JSONDocument.root, hash: hash("images")))
    XCTAssertTrue(document.mayHaveMember(JSONDocument.root, hash: hash("name")), "an escaped key, by its decoded name")

    let keys = collidingRootKeys(40)
    let colliding = try JSONParser.parse(Array(("{" + keys.map { "\"\($0)\": 1" }.joined(separator: ",") + "}").utf8)).get()
    XCTAssertLessThan(colliding.storage.maxDisplacement, 0, "the table was abandoned")
    XCTAssertTrue(colliding.mayHaveMember(JSONDocument.root, hash: hash("absent")), "without a table, any member may be there")
  }

  /// `keyHash` is the `memberHash` of each member's decoded key, and nil for other nodes and for a
  /// document read without a member table.
  func testKeyHashIsTheMemberHashOfTheDecodedKey() throws {
    func hash(_ name: String) -> UInt32 { Array(name.utf8).withUnsafeBufferPointer(JSONDocument.memberHash) }
    let text = #"{"a": 1, "n\u0061me": {"b": [1, {"é": 2}]}, "a": 3}"#
    let document = try JSONParser.parse(Array(text.utf8)).get()
    for node in 0..<NodeID(document.nodeCount) {
      if let key = document.key(node) {
        XCTAssertEqual(document.keyHash(node), hash(key), key)
      } else {
        XCTAssertNil(document.keyHash(node), "node \(node) is not a member")
      }
    }
    let keys = collidingRootKeys(40)
    let colliding = try JSONParser.parse(Array(("{" + keys.map { "\"\($0)\": 1" }.joined(separator: ",") + "}").utf8)).get()
    XCTAssertNil(colliding.keyHash(1), "no table, no hashes")
    // A large document keeps the hashes of its first nodes only: its member lookups still work.
    let many = try JSONParser.parse(Array(("[" + Array(repeating: "1", count: 70_000).joined(separator: ",") + #", {"k": 2}]"#).utf8)).get()
    let member = NodeID(many.nodeCount - 1)
    XCTAssertEqual(many.key(member), "k")
    XCTAssertNil(many.keyHash(member))
    XCTAssertEqual(many.member(NodeID(many.nodeCount - 2), "k"), member)
  }

  /// The parser writes nodes into a buffer that starts at a sixteenth of the byte count and
  /// doubles when full; the document takes the buffer over. A document of one-byte values has
  /// about one node per two bytes, so its buffer grows several times: every node must survive
  /// the moves, linked as before, and a syntax error after the growth must not leak or crash.
  func testNodeBufferGrowth() throws {
    func parse(_ text: String) throws -> JSONDocument { try JSONParser.parse(Array(text.utf8)).get() }
    let count = 5_000
    let text = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
    let doc = try parse(text)
    XCTAssertEqual(doc.nodeCount, count + 1)
    XCTAssertEqual(doc.nodes.count, count + 1)
    XCTAssertEqual(doc[JSONDocument.root].childCount, Int32(count))
    XCTAssertEqual(Array(doc.children(JSONDocument.root)), (1...count).map { NodeID($0) })
    for id in 1...count {
      XCTAssertEqual(doc[NodeID(id)].parent, JSONDocument.root)
      XCTAssertEqual(Int(doc[NodeID(id)].start), 2 * id - 1)
    }
    XCTAssertEqual(doc.element(JSONDocument.root, count - 1), NodeID(count))

    // Nested objects: members with keys, through the same growth.
    let members = (0..<2_000).map { #""k\#($0)":{"a":[]}"# }.joined(separator: ",")
    let nested = try parse("{" + members + "}")
    XCTAssertEqual(nested.nodeCount, 1 + 2_000 * 2, "each member: its object and the array in it")
    let last = try XCTUnwrap(nested.member(JSONDocument.root, "k1999"))
    XCTAssertEqual(nested.rawText(try XCTUnwrap(nested.member(last, "a"))), "[]")
    XCTAssertEqual(nested.key(last), "k1999")

    // Errors after the buffer has grown: offsets as before, nothing left behind.
    guard case .failure(let error) = JSONParser.parse(Array((text.dropLast() + ",]").utf8)) else {
      return XCTFail("a trailing comma is an error")
    }
    XCTAssertEqual(error.offset, text.utf8.count - 1)
    guard case .failure(let end) = JSONParser.parse(Array(text.dropLast().utf8)) else {
      return XCTFail("an unclosed array is an error")
    }
    XCTAssertEqual(end.offset, text.utf8.count - 1)
    XCTAssertTrue(end.message.contains("opened at line 1, column 1"), end.message)
  }

  /// `keyIsASCII`: a key's bytes as written are its characters (no escape, no byte of 0x80 and
  /// above), which key-name checks read without making a String. It costs a node no room.
  func testKeyIsASCIIWhenItsBytesAreItsCharacters() throws {
    let doc = try JSONParser.parse(Array(#"{"plain": 1, "caf\#u{E9}": 2, "k\u0041": 3, "\#u{212A}": 4, "del\#u{7F}": 5, "v": "caf\#u{E9}"}"#.utf8)).get()
    XCTAssertEqual(doc.children(JSONDocument.root).map { doc[$0].keyIsASCII }, [true, false, false, false, true, true])
    XCTAssertFalse(doc[JSONDocument.root].keyIsASCII, "the root has no key")
    XCTAssertEqual(MemoryLayout<JSONNode>.size, 36)
  }
}
