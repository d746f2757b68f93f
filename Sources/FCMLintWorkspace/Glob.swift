/// A gitignore-like file pattern: `*` matches within one path segment, `**` across segments, `?`
/// one character, `[abc]` / `[a-z]` / `[!abc]` a class. A pattern without `/` matches a file name
/// in any folder; one with `/` matches the path from the config file's folder.
public struct Glob: Sendable {
  public struct ParseError: Error { public var message: String }

  public let pattern: String
  private let tokens: [Token]
  private let anyFolder: Bool

  private enum Token: Sendable, Equatable {
    case literal(Character)
    case any  // *
    case anyPath  // **
    case one  // ?
    case set([ClosedRange<Character>], negated: Bool)
  }

  public init(_ pattern: String) throws(ParseError) {
    var p = pattern
    if p.hasPrefix("./") { p.removeFirst(2) }
    anyFolder = !p.contains("/")
    if p.hasPrefix("/") { p.removeFirst() }
    if p.hasSuffix("/") { p += "**" }
    var tokens: [Token] = []
    let chars = Array(p)
    var i = 0
    while i < chars.count {
      let c = chars[i]
      switch c {
      case "*":
        if i + 1 < chars.count, chars[i + 1] == "*" {
          tokens.append(.anyPath)
          i += 2
          if i < chars.count, chars[i] == "/" { i += 1 }  // `**/` also matches no folder at all
          continue
        }
        tokens.append(.any)
      case "?":
        tokens.append(.one)
      case "[":
        var j = i + 1
        var negated = false
        if j < chars.count, chars[j] == "!" || chars[j] == "^" {
          negated = true
          j += 1
        }
        var ranges: [ClosedRange<Character>] = []
        while j < chars.count, chars[j] != "]" {
          if j + 2 < chars.count, chars[j + 1] == "-", chars[j + 2] != "]" {
            guard chars[j] <= chars[j + 2] else { throw ParseError(message: "bad range \(chars[j])-\(chars[j + 2])") }
            ranges.append(chars[j]...chars[j + 2])
            j += 3
          } else {
            ranges.append(chars[j]...chars[j])
            j += 1
          }
        }
        guard j < chars.count else { throw ParseError(message: "unclosed '['") }
        tokens.append(.set(ranges, negated: negated))
        i = j
      case "\\":
        i += 1
        guard i < chars.count else { throw ParseError(message: "a trailing '\\' escapes nothing") }
        tokens.append(.literal(chars[i]))
      default:
        tokens.append(.literal(c))
      }
      i += 1
    }
    self.pattern = pattern
    self.tokens = tokens
  }

  public func matches(_ path: String) -> Bool {
    let subject = anyFolder ? String(path.split(separator: "/").last ?? "") : path
    return Self.match(tokens[...], Array(subject)[...])
  }

  /// Iterative wildcard matching with backtracking to the last star only: linear-ish, never exponential.
  private static func match(_ tokens: ArraySlice<Token>, _ text: ArraySlice<Character>) -> Bool {
    var t = tokens.startIndex, s = text.startIndex
    var starT = -1, starS = -1, starCrossesSlash = false
    while s < text.endIndex {
      if t < tokens.endIndex {
        switch tokens[t] {
        case .any, .anyPath:
          starT = t
          starS = s
          starCrossesSlash = tokens[t] == .anyPath
          t += 1
          continue
        case .literal(let c) where c == text[s]:
          t += 1
          s += 1
          continue
        case .one where text[s] != "/":
          t += 1
          s += 1
          continue
        case .set(let ranges, let negated) where text[s] != "/" && ranges.contains { $0.contains(text[s]) } != negated:
          t += 1
          s += 1
          continue
        default:
          break
        }
      }
      // Mismatch: let the last star swallow one more character, if it may.
      guard starT >= 0, starCrossesSlash || text[starS] != "/" else { return false }
      starS += 1
      s = starS
      t = starT + 1
    }
    while t < tokens.endIndex, tokens[t] == .any || tokens[t] == .anyPath { t += 1 }
    return t == tokens.endIndex
  }
}
