// Reading a Node.js Admin SDK message literal in a page as the JSON the SDK sends: the entry point.

/// A message of the Node.js Admin SDK written in a documentation sample as a JavaScript or
/// TypeScript object literal (`const message = { notification: { imageUrl: '...' }, ... }`),
/// read as the JSON the SDK sends for it, so that the rules check what FCM receives and their
/// diagnostics land on the sample's own bytes.
///
/// Two steps: `LiteralParser` reads the JavaScript syntax into a tree (no recursion, nesting
/// capped), then `WireWriter` writes the tree as JSON through the SDK's encoding, which is data
/// (`Encoding`): per object of the message, the keys the encoder renames (the rules' aliases file,
/// `NodeSdkRenames`) and the values it converts (`NodeMessageLiteral.fields`). The encoding is the
/// one of `validateMessage` and the functions it calls in firebase-admin-node's
/// src/messaging/messaging-internal.ts (types in messaging-api.ts, durations from
/// `transformMillisecondsToSecondsString` in src/utils/index.ts), at commit 5a203f67 (release
/// 14.3.0).
///
/// What JavaScript cannot tell before it runs becomes a template placeholder: an identifier
/// (`topic: topicName`), a call, `new Date()`, a shorthand property (`{ token }`) is written as
/// `{{topicName}}`, which the linter reads as a value not known yet. Arithmetic of number
/// literals (`3600 * 1000`) is evaluated.
public enum NodeMessageLiteral {
  /// Reads the JavaScript/TypeScript object literal that starts at `start` (a `{`) in `source`,
  /// as the Node.js Admin SDK would send it: the JSON text of its wire form, each byte mapped to
  /// the source, and the offset just past the literal's closing `}`. nil when the text there is
  /// not an object literal (unbalanced, not JS-like).
  ///
  /// Every output byte maps to the source byte it came from: an added quote or a renamed key to
  /// the key's first byte, a converted value (a ttl written as a duration) to the value's first
  /// byte, an escape re-encoded to the escape's start. A space after each key and value maps to
  /// the source offset just past it, so the end of a range maps to the end of the source token.
  public static func read(_ source: [UInt8], from start: Int, encoding: Encoding) -> (json: MappedText, end: Int)? {
    read(source, from: start, as: .message, encoding: encoding)
  }

  /// `read` with the literal taken as the object `shape` of a message; `.free` reads it as plain
  /// JavaScript, without the SDK's encoding. The literal must end before `limit` (a page passes
  /// at most `longestLiteral` bytes on).
  static func read(_ source: [UInt8], from start: Int, as shape: Shape, encoding: Encoding, limit: Int? = nil) -> (json: MappedText, end: Int)? {
    var parser = LiteralParser(source: source, end: limit)
    guard let (root, end) = parser.parse(from: start) else { return nil }
    var writer = WireWriter(source: source, tree: parser.tree, encoding: encoding)
    writer.write(root, shape: shape)
    return (writer.out, end)
  }

  /// The longest literal a page's sample may be (a message is at most 4 KB; its literal, with
  /// comments and indentation, a few times that). A page tries a literal at every `{` after `=`
  /// or `(`, and one that does not close was read to the page's end from each: quadratic in the
  /// page.
  static let longestLiteral = 16 << 10

  /// Object literals nested deeper than this are not read (the parser keeps its own stack, so
  /// this bounds memory and work, not recursion).
  public static let maxDepth = 512
}
