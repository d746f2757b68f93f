/// One file pattern with gitignore's semantics (https://git-scm.com/docs/gitignore#_pattern_format),
/// for `.gitignore` lines and the config's `ignore:` alike:
/// - `*` matches anything but `/`, `?` one character but `/`, `[a-z]` / `[!abc]` a class;
/// - a leading `**/` matches in every folder, a trailing `/**` everything inside, `/**/` zero or
///   more folders; other `**` are `*`;
/// - a pattern with a `/` at its start or middle matches the path from its base folder (the
///   `.gitignore`'s or the config's); one without matches a name at any depth;
/// - a trailing `/` matches folders only; a leading `!` re-includes what an earlier pattern
///   excluded; `\` escapes the next character.
///
/// Matching runs the pattern as a set of positions over the path (no backtracking), so its time
/// is the path's length times the pattern's, whatever the stars.
public struct Glob: Sendable {
  public struct ParseError: Error { public var message: String }

  /// The pattern as written.
  public let pattern: String
  /// `!pattern`: a match re-includes.
  public let negated: Bool
  /// `pattern/`: matches folders only.
  public let directoryOnly: Bool
  /// Matches the whole path from the base, not just the last name.
  private let anchored: Bool
  private let tokens: [Token]

  private enum Token: Sendable, Equatable {
    case literal(Unicode.Scalar)
    /// `*`: any run of characters but `/`.
    case star
    /// `?`: one character but `/`.
    case one
    case set([ClosedRange<Unicode.Scalar>], negated: Bool)
    /// A leading `**/` or a middle `/**/` (after its `/`): zero or more whole folders, each with its `/`.
    case folders
    /// A trailing `/**` (after its `/`): one or more characters of anything.
    case rest
  }

  public init(_ pattern: String) throws(ParseError) {
    self.pattern = pattern
    var p = Array(pattern.unicodeScalars)[...]
    negated = p.first == "!"
    if negated { p = p.dropFirst() }
    if p.starts(with: ["." as Unicode.Scalar, "/"]) { p = p.dropFirst(2) }
    directoryOnly = p.count > 1 && p.last == "/" && !Self.isEscaped(p, at: p.endIndex - 1)
    if directoryOnly { p = p.dropLast() }
    anchored = p.dropLast().contains("/")
    if p.first == "/" { p = p.dropFirst() }
    guard !p.isEmpty else { throw ParseError(message: "an empty pattern") }
    var tokens: [Token] = []
    var i = p.startIndex
    while i < p.endIndex {
      let c = p[i]
      switch c {
      case "*":
        var j = i
        while j < p.endIndex, p[j] == "*" { j += 1 }
        let atSegmentStart = i == p.startIndex || p[i - 1] == "/"
        let atSegmentEnd = j == p.endIndex || p[j] == "/"
        if j - i == 2 && atSegmentStart && atSegmentEnd {
          if j == p.endIndex {
            // `/**` at the end: everything inside; `**` alone: everything.
            tokens.append(.rest)
            i = j
            continue
          }
          tokens.append(.folders)
          i = j + 1  // the `/` after `**` is part of the folders matched
          continue
        }
        tokens.append(.star)
        i = j
        continue
      case "?":
        tokens.append(.one)
      case "[":
        var j = i + 1
        var negatedSet = false
        if j < p.endIndex, p[j] == "!" || p[j] == "^" {
          negatedSet = true
          j += 1
        }
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while j < p.endIndex, p[j] != "]" || first {
          first = false
          var low = p[j]
          if low == "\\", j + 1 < p.endIndex {
            j += 1
            low = p[j]
          }
          if j + 2 < p.endIndex, p[j + 1] == "-", p[j + 2] != "]" {
            guard low <= p[j + 2] else { throw ParseError(message: "bad range \(low)-\(p[j + 2])") }
            ranges.append(low...p[j + 2])
            j += 3
          } else {
            ranges.append(low...low)
            j += 1
          }
        }
        guard j < p.endIndex else { throw ParseError(message: "unclosed '['") }
        tokens.append(.set(ranges, negated: negatedSet))
        i = j
      case "\\":
        i += 1
        guard i < p.endIndex else { throw ParseError(message: "a trailing '\\' escapes nothing") }
        tokens.append(.literal(p[i]))
      default:
        tokens.append(.literal(c))
      }
      i += 1
    }
    self.tokens = tokens
  }

  private static func isEscaped(_ p: ArraySlice<Unicode.Scalar>, at index: Int) -> Bool {
    var backslashes = 0
    var i = index - 1
    while i >= p.startIndex, p[i] == "\\" {
      backslashes += 1
      i -= 1
    }
    return backslashes % 2 == 1
  }

  /// Whether the pattern matches `path` (relative to its base folder, `/`-separated, no leading
  /// `/`), which names a folder when `isDirectory`. A negated pattern matches as if not negated.
  public func matches(_ path: String, isDirectory: Bool = false) -> Bool {
    if directoryOnly && !isDirectory { return false }
    var subject = Substring(path)
    if !anchored, let slash = path.lastIndex(of: "/") { subject = path[path.index(after: slash)...] }
    return run(Array(subject.unicodeScalars))
  }

  /// The pattern as a set of positions, stepped over the text one character at a time. A
  /// `folders` token has two positions: at a folder's start (where zero more folders may follow)
  /// and inside a folder's name (`inside`).
  private func run(_ text: [Unicode.Scalar]) -> Bool {
    var current = [Bool](repeating: false, count: tokens.count + 1)
    var next = current
    var inside = current, nextInside = current
    current[0] = true
    close(&current)
    for c in text {
      for i in next.indices {
        next[i] = false
        nextInside[i] = false
      }
      var any = false
      for i in tokens.indices where current[i] || inside[i] {
        switch tokens[i] {
        case .literal(let l):
          if l == c { next[i + 1] = true }
        case .star:
          if c != "/" { next[i] = true }
        case .one:
          if c != "/" { next[i + 1] = true }
        case .set(let ranges, let negated):
          if c != "/" && ranges.contains(where: { $0.contains(c) }) != negated { next[i + 1] = true }
        case .folders:
          if c == "/" { next[i] = true } else { nextInside[i] = true }
        case .rest:
          next[i] = true
          next[i + 1] = true
        }
        any = any || next[i] || next[i + 1] || nextInside[i]
      }
      guard any else { return false }
      close(&next)
      swap(&current, &next)
      swap(&inside, &nextInside)
    }
    return current[tokens.count]
  }

  /// Adds the positions reachable without reading a character (past a star or zero folders).
  private func close(_ states: inout [Bool]) {
    for i in tokens.indices where states[i] {
      switch tokens[i] {
      case .star, .folders: states[i + 1] = true
      default: break
      }
    }
  }
}
