// Placeholder until the Node.js reader lands (branch h/node): no literal is read.
public enum NodeMessageLiteral {
  public static func read(_ source: [UInt8], from start: Int) -> (json: MappedText, end: Int)? { nil }
}
