import FCMLintJSON

/// How a document holds its samples.
public enum DocumentFormat: String, Sendable, CaseIterable {
  /// Fenced code blocks (and raw `<pre>` / `<code>` blocks).
  case markdown
  /// `<pre>` and `<code>` blocks, entities decoded.
  case html
  /// A page as text: HTTP requests to `messages:send`, JSON objects at the start of a line,
  /// Node.js message literals.
  case text

  /// Whether a folder walk with `--docs` reads a file of this name as a page: the formats'
  /// names, and `.txt` / `.text` pages.
  public static func isPageName(_ name: String) -> Bool {
    if of(fileName: name) != nil { return true }
    let lower = String(decoding: name.utf8.suffix(5).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    return lower.hasSuffix(".txt") || lower == ".text"
  }

  /// The format a file name says (`.md`, `.markdown`, `.mdx`, `.html`, `.htm`, in any case), or
  /// nil for a name that is not a documentation page's.
  public static func of(fileName name: String) -> DocumentFormat? {
    guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
    let suffix = String(decoding: name.utf8[name.utf8.index(after: dot)...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    switch suffix {
    case "md", "markdown", "mdx": return .markdown
    case "html", "htm": return .html
    default: return nil
    }
  }
}

/// How text a fix writes into a sample is written in the document: each step, innermost first,
/// turns the sample's text into what the document holds around it.
public enum SampleEncoding: Sendable, Equatable {
  /// Lines of the sample begin with these bytes in the document (a block quote's `> `), which
  /// the sample's text does not have.
  case linePrefix([UInt8])
  /// HTML text, in the spelling of the block it is in (`HTMLSpelling`).
  case html(HTMLSpelling)
  /// The contents of a JSON string (a page's text kept in a JSON blob): `"`, `\` and control
  /// characters escaped.
  case jsonString
  /// A single-quoted shell word: a `'` is written as `'\''` (the quote closed, an escaped
  /// quote, the quote opened again).
  case shellSingleQuoted
  /// A double-quoted shell word: `"`, `\`, `$` and `` ` `` are written with a backslash before
  /// them, as the page writes `\"`.
  case shellDoubleQuoted
  /// A string literal of Java, Kotlin, C#, Go or JavaScript (`"{\"message\": ...}"`): `"` and
  /// `\` written with a backslash before them, a line break, a tab and a carriage return as
  /// `\n`, `\t`, `\r` (`CodeStrings`).
  case codeString

  /// `text` written through `steps` (innermost first), and where each of its bytes starts in
  /// the result (one more offset: the result's length).
  static func encode(_ text: [UInt8], through steps: [SampleEncoding]) -> (bytes: [UInt8], offsets: [Int]) {
    var bytes = text
    var offsets = Array(0...text.count)
    for step in steps {
      var out: [UInt8] = []
      var starts: [Int] = []
      starts.reserveCapacity(bytes.count + 1)
      for byte in bytes {
        starts.append(out.count)
        out += step.encode([byte])
      }
      starts.append(out.count)
      offsets = offsets.map { starts[$0] }
      bytes = out
    }
    return (bytes, offsets)
  }

  /// `text` as the document writes it.
  func encode(_ text: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.count)
    switch self {
    case .linePrefix(let prefix):
      for byte in text {
        out.append(byte)
        if byte == 0x0A { out += prefix }
      }
    case .html(let spelling):
      for byte in text {
        if let entity = spelling.entities[byte] { out += entity } else { out.append(byte) }
      }
    case .jsonString:
      // A byte at a time (the offsets are bytes'): ASCII as a JSON string escapes it, the bytes
      // of other characters as they are.
      for byte in text {
        if byte < 0x80, let escaped = JSONText.escape(Unicode.Scalar(byte)) { out += Array(escaped.utf8) } else { out.append(byte) }
      }
    case .shellSingleQuoted:
      for byte in text {
        if byte == UInt8(ascii: "'") { out += Array("'\\''".utf8) } else { out.append(byte) }
      }
    case .shellDoubleQuoted:
      for byte in text {
        if "\"\\$`".utf8.contains(byte) { out.append(UInt8(ascii: "\\")) }
        out.append(byte)
      }
    case .codeString:
      for byte in text {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
        case 0x0A: out += Array("\\n".utf8)
        case 0x09: out += Array("\\t".utf8)
        case 0x0D: out += Array("\\r".utf8)
        default: out.append(byte)
        }
      }
    }
    return out
  }
}

/// How an HTML block writes the characters a fix puts into it, so that a fix is written as the
/// page writes the rest: `&`, `<` and `>` as entities always (the entity the block uses for each,
/// or `&amp;`, `&lt;`, `&gt;`), and any other ASCII character as the entity the block writes it
/// with (`&quot;`, `&#34;`, `&#39;`), when it does so more often than it writes the character
/// itself.
public struct HTMLSpelling: Sendable, Equatable {
  /// The entity each ASCII byte is written as; a byte not here is written as itself.
  public var entities: [UInt8: [UInt8]]

  /// `&`, `<` and `>` as `&amp;`, `&lt;`, `&gt;`, everything else as itself.
  public init() {
    entities = [UInt8(ascii: "&"): Array("&amp;".utf8), UInt8(ascii: "<"): Array("&lt;".utf8), UInt8(ascii: ">"): Array("&gt;".utf8)]
  }

  /// What a block was read from: how often each ASCII byte was written as itself, and each
  /// entity that stood for one.
  struct Counts {
    var raw = [Int](repeating: 0, count: 128)
    var spelt: [UInt8: [[UInt8]: Int]] = [:]

    mutating func written(_ byte: UInt8) { if byte < 0x80 { raw[Int(byte)] += 1 } }

    mutating func written(_ decoded: [UInt8], as entity: ArraySlice<UInt8>) {
      guard decoded.count == 1, decoded[0] < 0x80 else { return }
      spelt[decoded[0], default: [:]][Array(entity), default: 0] += 1
    }

    /// The spelling: for each byte, its most frequent entity (of equals, the first in byte order).
    var spelling: HTMLSpelling {
      var spelling = HTMLSpelling()
      for (byte, entities) in spelt {
        let total = entities.values.reduce(0, +)
        let markup = byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
        guard markup || total > raw[Int(byte)] else { continue }
        spelling.entities[byte] = entities.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key) }[0].key
      }
      return spelling
    }
  }
}

/// One sample found in a document: the text to lint, mapped to the document.
public struct DocumentSample: Sendable {
  public enum Language: Sendable, Equatable {
    /// JSON (or JSON with the mistakes documentation makes: comments, trailing commas).
    case json
    /// A Node.js message literal, already written out as the JSON the Admin SDK sends: its
    /// diagnostics point into the literal, and it has no fixes (the JSON is not the page's text).
    case nodeLiteral
  }

  public var text: MappedText
  public var language: Language
  /// Innermost first: how the document writes what a fix puts into the sample.
  public var encoding: [SampleEncoding]
  /// The text is a member (`"apns": {...}`) that the finder put between braces: offsets 0 and
  /// `text.bytes.count - 1` are those braces, not the page's.
  public var wrapped = false
  /// Where in `text` the first elision (`...`, `…`, `// ...`) starts: the sample's elisions are
  /// read as holes (`Elision.holes`), and it is reported once as elided and never fixed.
  public var elision: Int? = nil
  /// Document offset of the code block the sample is in (of the sample itself in plain text),
  /// which `fcmlint-disable-next-block` markers refer to.
  public var blockStart: Int
  /// In running text (an HTML `<code>` outside `<pre>`): a sample only when it is a whole
  /// request or Message, not a part of one.
  public var inline = false
  /// A Node.js MulticastMessage (given to `sendMulticast` or `sendEachForMulticast`): its
  /// `tokens` are the SDK's field, sent as one message per token; the rest is a Message.
  public var multicast = false
  /// A Node.js literal that is a REST request's body (`{message: {...}}`), sent as JavaScript
  /// writes it, not through the Admin SDK.
  public var restRequest = false
  /// A Node.js legacy call's payload (`sendToDevice(tokens, payload, options)`), written out as
  /// the legacy API's body the SDK posted.
  public var legacyCall = false
  /// Labelled by the comment just before it in its block as the legacy form a page migrates
  /// from (`// Before (Legacy)`): shown as what not to send any more.
  public var labelledLegacy = false
  /// A platform's payload kept in a string of an Amazon SNS message: read as what SNS sends.
  var sns: SNSMessage.Platform? = nil
  /// Skipped by a marker: listed, so that a fix keeps the order of samples, but not linted.
  public var disabled = false

  /// The start of the sample in the document.
  public var start: Int { text.origin(of: 0) }
}
