// Compiling the parsed tree into NFA programs, the one-pass matcher's lists and the prefilter, within the size guard.

extension LinearRegex {
  /// An instruction of a compiled program.
  enum Inst: Sendable {
    /// One character of the class `classes[n]`.
    case char(Int)
    /// Only in compact programs (see `OnePass`): `min...max` characters of one class.
    case run(Int, min: Int, max: Int)
    case split(Int, Int)
    case jump(Int)
    case atStart
    case atEnd
    /// A lookahead: the program must (or, negated, must not) match a prefix from here.
    case look(Int, negated: Bool)
    case match
  }

  // MARK: - Size guard

  /// Refuses patterns whose NFA, repetitions expanded, would pass `maxInstructions` — exactly
  /// those the expanding compiler used to refuse as it went (it checked the program's length
  /// before emitting each node) — now told without expanding anything.
  enum SizeGuard {
    /// Counts stop here: far above the limit, and far from overflowing.
    static let cap = 1 << 40

    static func check(_ tree: Node) throws(SyntaxError) {
      guard try measure(tree).lastEmit <= maxInstructions else { throw tooLarge }
    }

    static var tooLarge: SyntaxError {
      SyntaxError(
        offset: 0,
        message: "the pattern is too large once its repetitions are expanded (more than \(maxInstructions) steps; each adds to the time of every string it is matched against)")
    }

    /// The instructions `node` expands to, and the largest offset (from its start) at which the
    /// compiler begins a node inside it; lookaheads (compiled apart) are checked here.
    static func measure(_ node: Node) throws(SyntaxError) -> (size: Int, lastEmit: Int) {
      switch node {
      case .empty: return (0, 0)
      case .char, .atStart, .atEnd: return (1, 0)
      case .look(let inner, _, _):
        guard try measure(inner).lastEmit <= maxInstructions else { throw tooLarge }
        return (1, 0)
      case .concat(let items):
        var size = 0, last = 0
        for item in items {
          let m = try measure(item)
          last = max(last, add(size, m.lastEmit))
          size = add(size, m.size)
        }
        return (size, last)
      case .alternation(let branches):
        var size = 0, last = 0
        for (i, branch) in branches.enumerated() {
          let isLast = i == branches.count - 1
          if !isLast { size = add(size, 1) }  // split
          let m = try measure(branch)
          last = max(last, add(size, m.lastEmit))
          size = add(size, m.size)
          if !isLast { size = add(size, 1) }  // jump
        }
        return (size, last)
      case .repeated(_, _, max: 0):
        return (0, 0)  // no copy is compiled, so nothing inside is checked
      case .repeated(let inner, let min, let max):
        let m = try measure(inner)
        var size = 0, last = 0
        if min > 0 {
          last = add(times(min - 1, m.size), m.lastEmit)
          size = times(min, m.size)
        }
        if let max {
          if max > min {
            // Each optional copy: a split, then the body.
            let copy = add(m.size, 1)
            last = Swift.max(last, add(add(size, times(max - min - 1, copy)), add(1, m.lastEmit)))
            size = add(size, times(max - min, copy))
          }
        } else {
          last = Swift.max(last, add(size, add(1, m.lastEmit)))
          if m.size > 0 { size = add(size, add(m.size, 2)) }  // split, body, jump
        }
        return (size, last)
      }
    }

    static func add(_ a: Int, _ b: Int) -> Int { Swift.min(a + b, cap) }
    static func times(_ n: Int, _ a: Int) -> Int { Swift.min(n * a, cap) }
  }

  // MARK: - Programs

  struct Compiler {
    /// Whether a repeated single class becomes one `run` (for `OnePass`) rather than copies.
    let compactRuns: Bool
    /// [0] is the pattern, [id + 1] lookahead `id`.
    var programs: [[Inst]]

    init(lookCount: Int, compactRuns: Bool) {
      self.compactRuns = compactRuns
      programs = Array(repeating: [], count: lookCount + 1)
    }

    /// Compiles the pattern; `SizeGuard` has checked that its expansion stays in bounds.
    mutating func compile(_ tree: Node) {
      programs[0] = program(for: tree)
    }

    /// Each lookahead's body reversed and compiled, by program number ([0] is empty): a
    /// lookahead is matched for every position at once by running it backward (`Run.table`).
    /// Reversing keeps zero-width tests as they are: `^`, `$` and a nested lookahead ask about
    /// a position, whichever way the text is read.
    static func reversedLookaheads(_ tree: Node, lookCount: Int) -> [[Inst]] {
      var result = [[Inst]](repeating: [], count: lookCount + 1)
      guard lookCount > 0 else { return result }
      var compiler = Compiler(lookCount: lookCount, compactRuns: false)
      func visit(_ node: Node) {
        switch node {
        case .empty, .char, .atStart, .atEnd: break
        case .concat(let items), .alternation(let items): items.forEach(visit)
        case .repeated(let inner, _, _): visit(inner)
        case .look(let inner, _, let id):
          if result[id + 1].isEmpty { result[id + 1] = compiler.program(for: reverse(inner)) }
          visit(inner)
        }
      }
      visit(tree)
      return result
    }

    static func reverse(_ node: Node) -> Node {
      switch node {
      case .empty, .char, .atStart, .atEnd, .look: return node
      case .concat(let items): return .concat(items.reversed().map(reverse))
      case .alternation(let branches): return .alternation(branches.map(reverse))
      case .repeated(let inner, let min, let max): return .repeated(reverse(inner), min: min, max: max)
      }
    }

    mutating func program(for node: Node) -> [Inst] {
      var code: [Inst] = []
      code.reserveCapacity(16)
      emit(node, &code)
      code.append(.match)
      return code
    }

    mutating func emit(_ node: Node, _ code: inout [Inst]) {
      switch node {
      case .empty: break
      case .char(let set): code.append(compactRuns ? .run(set, min: 1, max: 1) : .char(set))
      case .atStart: code.append(.atStart)
      case .atEnd: code.append(.atEnd)
      case .concat(let items): for item in items { emit(item, &code) }
      case .alternation(let branches):
        // split L1, next; L1: a; jump end; next: split L2, ...
        var jumps: [Int] = []
        for (i, branch) in branches.enumerated() {
          if i < branches.count - 1 {
            let split = code.count
            code.append(.split(split + 1, 0))
            emit(branch, &code)
            jumps.append(code.count)
            code.append(.jump(0))
            code[split] = .split(split + 1, code.count)
          } else {
            emit(branch, &code)
          }
        }
        for j in jumps { code[j] = .jump(code.count) }
      case .repeated(.char(let set), let min, let max) where compactRuns:
        if max != 0 { code.append(.run(set, min: min, max: max ?? Int.max)) }
      case .repeated(let inner, let min, let max):
        for _ in 0..<min { emit(inner, &code) }
        if let max {
          // Each optional copy may be skipped to the end.
          var splits: [Int] = []
          for _ in min..<max {
            splits.append(code.count)
            code.append(.split(code.count + 1, 0))
            emit(inner, &code)
          }
          for s in splits { code[s] = .split(s + 1, code.count) }
        } else {
          // L: split body, end; body; jump L
          let loop = code.count
          code.append(.split(loop + 1, 0))
          let bodyStart = code.count
          emit(inner, &code)
          if code.count == bodyStart { code.removeLast(); break }  // an empty body repeats nothing
          code.append(.jump(loop))
          code[loop] = .split(loop + 1, code.count)
        }
      case .look(let inner, let negated, let id):
        // A lookahead repeated by a quantifier is compiled once, for all its copies.
        if programs[id + 1].isEmpty { programs[id + 1] = program(for: inner) }
        code.append(.look(id + 1, negated: negated))
      }
    }
  }

  // MARK: - Prefilter

  /// A set of ASCII strings, lower-cased, of which every match of a pattern contains at least
  /// one (as RE2 and Go's regexp derive from a pattern): `\.(?:gif|png)(?:[?#]|$)` requires
  /// ".gif" or ".png". Found by a case-insensitive byte search, so a case-sensitive literal also
  /// accepts other cases: the NFA decides those. Nil when a pattern requires nothing of at least
  /// two characters (`^[0-9]+$`).
  struct RequiredLiterals: Sendable {
    let needles: [[UInt8]]
    /// Whether a byte starts some needle.
    let firstBytes: [Bool]
    let shortest: Int
    /// The byte every needle starts with, when they share one that case folding leaves alone
    /// (the `.` of `\.png|\.jpg`): candidates are then found with `memchr`.
    let commonFirst: UInt8?

    static let maxStrings = 64
    static let maxLength = 32

    init?(_ node: Node, classes: [CharSet]) {
      guard let set = Analysis(classes: classes).facts(node).required, let shortest = set.shortest, shortest >= 2 else { return nil }
      self.init(needles: Set(set.indices.map { Array(set[$0]) }).sorted { $0.lexicographicallyPrecedes($1) }, shortest: shortest)
    }

    /// From the needles alone (as `LinearRegex.write(to:)` keeps them).
    init(needles: [[UInt8]]) {
      self.init(needles: needles, shortest: needles.map(\.count).min() ?? 0)
    }

    private init(needles: [[UInt8]], shortest: Int) {
      self.needles = needles
      var first = [Bool](repeating: false, count: 256)
      for needle in needles { first[Int(needle[0])] = true }
      firstBytes = first
      self.shortest = shortest
      // The first byte, when every needle starts with it.
      let only = needles.first.map { $0[0] }
      if let only, needles.allSatisfy({ $0[0] == only }), Self.lower(only) == only, !(only >= 0x61 && only <= 0x7A) {
        commonFirst = only
      } else {
        commonFirst = nil
      }
    }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// The one lower-cased ASCII byte a character set stands for (`g`, or `[gG]` under `(?i)`).
    static func byte(_ set: CharSet) -> UInt8? {
      guard !set.negated, set.nonASCII.isEmpty else { return nil }
      let count = set.low.nonzeroBitCount + set.high.nonzeroBitCount
      guard count == 1 || count == 2 else { return nil }
      // The lowest member, and with two, the other one.
      let first = set.low != 0 ? UInt8(set.low.trailingZeroBitCount) : UInt8(64 + set.high.trailingZeroBitCount)
      if count == 1 { return lower(first) }
      let last = set.high != 0 ? UInt8(127 - set.high.leadingZeroBitCount) : UInt8(63 - set.low.leadingZeroBitCount)
      return lower(first) == lower(last) ? lower(first) : nil
    }

    /// A few short byte strings (duplicates kept), stored flat: one buffer of bytes and one of
    /// ends, so that building a set costs two allocations rather than one per string.
    struct Strings {
      var bytes: [UInt8] = []
      var ends: [Int] = []

      /// The set holding only the empty string.
      static let empty = Strings(bytes: [], ends: [0])

      var count: Int { ends.count }
      var indices: Range<Int> { ends.indices }
      subscript(i: Int) -> ArraySlice<UInt8> { bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]] }
      func length(_ i: Int) -> Int { ends[i] - (i == 0 ? 0 : ends[i - 1]) }
      var containsEmpty: Bool { indices.contains { length($0) == 0 } }
      var shortest: Int? { indices.lazy.map(length).min() }

      mutating func append(_ other: Strings) {
        let base = bytes.count
        bytes += other.bytes
        ends.reserveCapacity(ends.count + other.ends.count)
        for end in other.ends { ends.append(base + end) }
      }

      /// Appends one string.
      mutating func append(_ string: [UInt8]) {
        bytes += string
        ends.append(bytes.count)
      }

      mutating func appendEmpty() { ends.append(bytes.count) }

      /// Appends `b` to every string, as `product` with the set {b} does (false where that
      /// returns nil), in place for a single string.
      mutating func appendToEach(_ b: UInt8) -> Bool {
        guard count <= maxStrings, indices.allSatisfy({ length($0) < maxLength }) else { return false }
        if count == 1 {
          bytes.append(b)
          ends[0] += 1
          return true
        }
        var out = Strings()
        out.bytes.reserveCapacity(bytes.count + count)
        out.ends.reserveCapacity(count)
        for i in indices {
          out.bytes += self[i]
          out.bytes.append(b)
          out.ends.append(out.bytes.count)
        }
        self = out
        return true
      }
    }

    /// What a node tells about the strings it matches, computed bottom-up in one pass:
    /// `exact`, every string it matches when they are few and short (nil otherwise), and
    /// `required`, strings of which every match contains one (nil when there is no such set).
    struct Facts {
      var exact: Strings?
      var required: Strings?
    }

    struct Analysis {
      let classes: [CharSet]

      func facts(_ node: Node) -> Facts {
        switch node {
        case .empty, .atStart, .atEnd, .look:
          return Facts(exact: .empty, required: nil)
        case .char(let set):
          guard let b = byte(classes[set]) else { return Facts(exact: nil, required: nil) }
          let one = Strings(bytes: [b], ends: [1])
          return Facts(exact: one, required: one)
        case .concat(let items):
          var exact: Strings? = .empty
          var best: Strings? = nil
          var bestShortest = 0
          func consider(_ candidate: Strings?) {
            guard let candidate, candidate.count > 0, let a = candidate.shortest, a > 0 else { return }
            guard let current = best else {
              best = candidate
              bestShortest = a
              return
            }
            if a > bestShortest || (a == bestShortest && candidate.count < current.count) {
              best = candidate
              bestShortest = a
            }
          }
          // A run of consecutive items with exact strings is a required literal of its own.
          var run: Strings = .empty
          // Whether `run` grew by single bytes since it was last considered: each byte only
          // lengthens its strings, so the last of such a stretch is the only one worth it.
          var unconsidered = false
          for item in items {
            if case .char(let set) = item, let b = byte(classes[set]) {
              if exact != nil, !exact!.appendToEach(b) { exact = nil }
              if !run.appendToEach(b) {
                if unconsidered { consider(run) }
                run = Strings(bytes: [b], ends: [1])
              }
              unconsidered = true
              continue
            }
            if unconsidered {
              consider(run)
              unconsidered = false
            }
            let f = facts(item)
            if let e = exact { exact = f.exact.flatMap { product(e, $0) } }
            if let e = f.exact {
              run = product(run, e) ?? e
              consider(run)
            } else {
              run = .empty
              consider(f.required)
            }
          }
          if unconsidered { consider(run) }
          if let exact, !exact.containsEmpty { consider(exact) }
          return Facts(exact: exact, required: best)
        case .alternation(let branches):
          var exact: Strings? = Strings()
          var required: Strings? = Strings()
          var literal: [UInt8] = []
          for branch in branches {
            // A branch that is a plain literal (`png` in `png|jpe?g`) is its own exact and
            // required string: added as it is, without sets built for it.
            if self.literal(branch, into: &literal) {
              if exact != nil, exact!.count < maxStrings { exact!.append(literal) } else { exact = nil }
              if required != nil, required!.count < maxStrings { required!.append(literal) } else { required = nil }
              continue
            }
            let f = facts(branch)
            if let e = f.exact, exact != nil, exact!.count + e.count <= maxStrings { exact!.append(e) } else { exact = nil }
            if let r = f.required, required != nil, required!.count + r.count <= maxStrings { required!.append(r) } else { required = nil }
          }
          if let exact, !exact.containsEmpty { return Facts(exact: exact, required: exact) }
          return Facts(exact: exact, required: required)
        case .repeated(let inner, let min, let max):
          let f = facts(inner)
          var exact: Strings? = nil
          if let e = f.exact {
            if min == 0, max == 1 {
              exact = e
              exact!.appendEmpty()
            } else if let max, max == min, min <= 4 {
              exact = .empty
              for _ in 0..<min { exact = exact.flatMap { product($0, e) } }
            }
          }
          if let exact, !exact.containsEmpty { return Facts(exact: exact, required: exact) }
          return Facts(exact: exact, required: min >= 1 ? f.required : nil)
        }
      }

      /// Whether `node` is one to `maxLength` characters each standing for one byte, which then
      /// replace `bytes`.
      func literal(_ node: Node, into bytes: inout [UInt8]) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        switch node {
        case .char(let set):
          guard let b = byte(classes[set]) else { return false }
          bytes.append(b)
          return true
        case .concat(let items):
          guard !items.isEmpty, items.count <= maxLength else { return false }
          for item in items {
            guard case .char(let set) = item, let b = byte(classes[set]) else { return false }
            bytes.append(b)
          }
          return true
        default:
          return false
        }
      }

      /// Every string of `a` followed by every string of `b`; nil when that makes too many or
      /// too long strings.
      func product(_ a: Strings, _ b: Strings) -> Strings? {
        guard a.count * b.count <= maxStrings else { return nil }
        var out = Strings()
        out.bytes.reserveCapacity(a.count * b.count * 4)
        out.ends.reserveCapacity(a.count * b.count)
        for x in a.indices {
          for y in b.indices {
            guard a.length(x) + b.length(y) <= maxLength else { return nil }
            out.bytes += a[x]
            out.bytes += b[y]
            out.ends.append(out.bytes.count)
          }
        }
        return out
      }
    }
  }
}

// MARK: - One-pass lists

extension LinearRegex.OnePass {
  /// Finds the consumers and lists, and whether they qualify.
  struct Builder {
    let programs: [[LinearRegex.Inst]]
    let classes: [LinearRegex.CharSet]
    var consumers: [Consumer] = []
    var entries: [Entry] = []
    var looks: [Look] = []
    var starts: [Range<Int>] = []
    /// Where each program's instructions start in the flat arrays below.
    var base: [Int] = []
    /// The consumer of each run instruction (-1 for other instructions).
    var consumerAt: [Int] = []
    /// The walk that last visited each instruction (a second visit in one walk means two
    /// ways lead to the same place: not one-pass).
    var visited: [Int] = []
    var walk = 0
    var work = 0
    /// Zero-width conditions met on the way, as a linked list shared by the paths of a walk:
    /// `.atStart`, `.atEnd` or `.look`, and the index of the previous one.
    var path: [(condition: LinearRegex.Inst, previous: Int)] = []
    var stack: [(pc: Int, path: Int)] = []

    init(programs: [[LinearRegex.Inst]], classes: [LinearRegex.CharSet]) {
      self.programs = programs
      self.classes = classes
    }

    mutating func build() -> Bool {
      for program in programs {
        base.append(consumerAt.count)
        for inst in program {
          guard case .run(let set, let min, let max) = inst else {
            consumerAt.append(-1)
            continue
          }
          consumerAt.append(consumers.count)
          let c = classes[set]
          consumers.append(Consumer(low: c.low, high: c.high, set: set, min: min, max: max, follow: 0..<0, matchesOnlyAtEnd: false))
        }
      }
      visited = [Int](repeating: -1, count: consumerAt.count)
      for p in programs.indices {
        // A lookahead under `{0}` is never compiled, nor ever asked.
        if programs[p].isEmpty {
          starts.append(0..<0)
          continue
        }
        guard let start = list(p, from: 0) else { return false }
        starts.append(start)
        // Restarting at every position would take more threads: only `^` patterns qualify.
        if p == 0, start.contains(where: { !entries[$0].needsStart }) { return false }
        // Lookaheads inside lookaheads would need a memo of every position.
        if p > 0, start.contains(where: { !entries[$0].looks.isEmpty }) { return false }
        for pc in programs[p].indices {
          let id = consumerAt[base[p] + pc]
          guard id >= 0 else { continue }
          guard let follow = list(p, from: pc + 1) else { return false }
          if p > 0, follow.contains(where: { !entries[$0].looks.isEmpty }) { return false }
          consumers[id].follow = follow
          consumers[id].matchesOnlyAtEnd = follow.allSatisfy { entries[$0].target != LinearRegex.OnePass.matched || entries[$0].needsEnd }
          // Going on in the run and leaving it must not both take a character.
          let consumer = consumers[id]
          if consumer.max > Swift.max(consumer.min, 1) {
            let set = classes[consumer.set]
            for e in follow where entries[e].target != LinearRegex.OnePass.matched {
              guard set.isDisjoint(with: classes[consumers[entries[e].target].set]) else { return false }
            }
          }
        }
      }
      return true
    }

    /// The entries reachable from `pc` without consuming, if they qualify.
    mutating func list(_ p: Int, from pc: Int) -> Range<Int>? {
      let program = programs[p]
      let offset = base[p]
      walk += 1
      let first = entries.count
      path.removeAll(keepingCapacity: true)
      stack.removeAll(keepingCapacity: true)
      stack.append((pc, -1))
      while let (pc, at) = stack.popLast() {
        work += 1
        guard work <= LinearRegex.OnePass.budget, visited[offset + pc] != walk else { return nil }
        visited[offset + pc] = walk
        switch program[pc] {
        case .char: return nil  // compact programs have runs only
        case .run(_, let min, _):
          guard add(consumerAt[offset + pc], at) else { return nil }
          if min == 0 { stack.append((pc + 1, at)) }
        case .match:
          guard add(LinearRegex.OnePass.matched, at) else { return nil }
        case .jump(let target): stack.append((target, at))
        case .split(let a, let b):
          stack.append((b, at))
          stack.append((a, at))
        case .atStart, .atEnd, .look:
          path.append((program[pc], at))
          stack.append((pc + 1, path.count - 1))
        }
      }
      // The consumers of one list must not share a character.
      var low: UInt64 = 0, high: UInt64 = 0
      var aboveASCII = false
      for e in first..<entries.count where entries[e].target != LinearRegex.OnePass.matched {
        let set = classes[consumers[entries[e].target].set]
        guard low & set.low == 0, high & set.high == 0, !(aboveASCII && set.hasNonASCII) else { return nil }
        low |= set.low
        high |= set.high
        aboveASCII = aboveASCII || set.hasNonASCII
      }
      return first..<entries.count
    }

    /// Records an entry for `target` with the conditions on the path to it.
    mutating func add(_ target: Int, _ at: Int) -> Bool {
      var entry = Entry(target: target, needsStart: false, needsEnd: false, looks: looks.count..<looks.count)
      var node = at
      while node >= 0 {
        work += 1
        if work > LinearRegex.OnePass.budget { return false }
        switch path[node].condition {
        case .atStart: entry.needsStart = true
        case .atEnd: entry.needsEnd = true
        case .look(let program, let negated): looks.append(Look(program: program, negated: negated))
        default: break
        }
        node = path[node].previous
      }
      entry.looks = entry.looks.lowerBound..<looks.count
      entries.append(entry)
      return true
    }
  }
}
