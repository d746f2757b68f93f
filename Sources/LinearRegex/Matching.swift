// Running a compiled pattern over a text: the NFA simulation, the one-pass matcher, the prefilter's byte search.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LinearRegex {
  // MARK: - Text

  /// Text a search reads a Unicode scalar at a time; positions are the text's own offsets.
  protocol Text {
    var count: Int { get }
    /// The scalar at `i` and the position after it.
    func scalar(at i: Int) -> (value: UInt32, next: Int)
    /// The scalar that ends at `i` (`i` > 0) and the position where it starts.
    func scalar(before i: Int) -> (value: UInt32, start: Int)
  }

  /// A string's UTF-8 bytes (valid UTF-8, as a Swift string's always are), decoded as they are
  /// read, so a search neither copies nor decodes the text up front.
  struct UTF8Text: Text {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }

    @inline(__always) func scalar(at i: Int) -> (value: UInt32, next: Int) {
      let b0 = UInt32(bytes[i])
      if b0 < 0x80 { return (b0, i + 1) }
      let b1 = UInt32(bytes[i + 1]) & 0x3F
      if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | b1, i + 2) }
      let b2 = UInt32(bytes[i + 2]) & 0x3F
      if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | b1 << 6 | b2, i + 3) }
      let b3 = UInt32(bytes[i + 3]) & 0x3F
      return ((b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, i + 4)
    }

    @inline(__always) func scalar(before i: Int) -> (value: UInt32, start: Int) {
      var start = i - 1
      while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
      return (scalar(at: start).value, start)
    }
  }

  /// Unicode scalar values, one position each (for `firstMatch`, which answers in scalars).
  struct ScalarText: Text {
    let scalars: UnsafeBufferPointer<UInt32>
    var count: Int { scalars.count }
    @inline(__always) func scalar(at i: Int) -> (value: UInt32, next: Int) { (scalars[i], i + 1) }
    @inline(__always) func scalar(before i: Int) -> (value: UInt32, start: Int) { (scalars[i - 1], i - 1) }
  }

  // MARK: - NFA

  struct Run<T: Text> {
    let programs: [[Inst]]
    let classes: [CharSet]
    let text: T
    /// Each lookahead's program reversed (`reversed[i]` for program i; empty for program 0).
    let reversed: [[Inst]]
    /// For each lookahead program asked about, whether it matches from each text position,
    /// worked out for all positions in one backward pass (see `table`): asking a lookahead at
    /// every position by running it forward from there was quadratic.
    var tables: [Int: [Bool]] = [:]
    /// States visited, lookahead tables included: what the tests hold to a linear bound (counted
    /// in debug builds only, the hot loop's one extra add in a release build showed in callgrind).
    var work = 0

    init(programs: [[Inst]], reversed: [[Inst]], classes: [CharSet], text: T) {
      self.programs = programs
      self.reversed = reversed
      self.classes = classes
      self.text = text
    }

    /// Whether lookahead program `p` matches a prefix of the text from each position: its
    /// reversed program run backward from the end, a new thread started at every position (any
    /// match end will do), and a position marked where a thread reaches the match. Linear: one
    /// pass, each position's states once.
    mutating func table(_ p: Int) -> [Bool] {
      if let known = tables[p] { return known }
      let program = reversed[p]
      var result = [Bool](repeating: false, count: text.count + 1)
      program.withUnsafeBufferPointer { prog in
        StateSets.with(capacity: prog.count) { current, next, stack in
          var pos = text.count
          result[pos] = add(prog, 0, pos, &current, &stack)
          while pos > 0 {
            let (c, start) = text.scalar(before: pos)
            next.clear()
            var matched = false
            for i in 0..<current.count {
              let pc = current.items[i]
              if case .char(let set) = prog[pc], classes[set].contains(c) {
                if add(prog, pc + 1, start, &next, &stack) { matched = true }
              }
            }
            if add(prog, 0, start, &next, &stack) { matched = true }
            pos = start
            result[pos] = matched
            swap(&current, &next)
          }
        }
      }
      tables[p] = result
      return result
    }

    /// Simulates `program`; with `anchoredAt` nil, a match may start anywhere. Returns whether
    /// a match was found (any match is enough to answer "does it match").
    mutating func search(program p: Int, anchoredAt start: Int?) -> Bool {
      let program = programs[p]
      let classes = classes
      return program.withUnsafeBufferPointer { prog in
        classes.withUnsafeBufferPointer { classes in
          StateSets.with(capacity: prog.count) { current, next, stack in
            let first = start ?? 0
            // A pattern that starts with `^` can only match from position 0: no restarts.
            var restart = start == nil
            if case .atStart = prog[0] { restart = false }
            if add(prog, 0, first, &current, &stack) { return true }
            var pos = first
            while pos < text.count {
              let (c, after) = text.scalar(at: pos)
              next.clear()
              for i in 0..<current.count {
                let pc = current.items[i]
                if case .char(let set) = prog[pc], classes[set].contains(c) {
                  if add(prog, pc + 1, after, &next, &stack) { return true }
                }
              }
              pos = after
              if restart, add(prog, 0, pos, &next, &stack) { return true }
              swap(&current, &next)
              if current.count == 0 && !restart { return false }
            }
            return false
          }
        }
      }
    }

    /// The longest match of `program` starting exactly at `start`, if any.
    mutating func longest(program p: Int, from start: Int) -> Int? {
      let program = programs[p]
      let classes = classes
      return program.withUnsafeBufferPointer { prog in
        classes.withUnsafeBufferPointer { classes in
          StateSets.with(capacity: prog.count) { current, next, stack in
            var best: Int? = add(prog, 0, start, &current, &stack) ? start : nil
            var pos = start
            while pos < text.count, current.count > 0 {
              let (c, after) = text.scalar(at: pos)
              next.clear()
              for i in 0..<current.count {
                let pc = current.items[i]
                if case .char(let set) = prog[pc], classes[set].contains(c) {
                  if add(prog, pc + 1, after, &next, &stack) { best = after }
                }
              }
              pos = after
              swap(&current, &next)
            }
            return best
          }
        }
      }
    }

    /// Adds `pc` and everything reachable from it without consuming a character; returns whether
    /// the match state was reached.
    mutating func add(_ prog: UnsafeBufferPointer<Inst>, _ pc: Int, _ pos: Int, _ set: inout StateSets.Set, _ stack: inout StateSets.Stack) -> Bool {
      stack.push(pc)
      var matched = false
      while let pc = stack.pop() {
        guard set.insert(pc) else { continue }
        #if DEBUG
        work += 1
        #endif
        switch prog[pc] {
        case .char, .run: break
        case .match: matched = true
        case .jump(let target): stack.push(target)
        case .split(let a, let b):
          stack.push(b)
          stack.push(a)
        case .atStart: if pos == 0 { stack.push(pc + 1) }
        case .atEnd: if pos == text.count { stack.push(pc + 1) }
        case .look(let sub, let negated):
          if table(sub)[pos] != negated { stack.push(pc + 1) }
        }
      }
      return matched
    }
  }

  /// The two state sets and the work stack of one NFA search, in one allocation whose only
  /// initialised part is a bitmap of a bit per instruction (not a `[Bool]` per set, as each
  /// search once allocated).
  enum StateSets {
    /// States of one step, each once, in insertion order.
    struct Set {
      let items: UnsafeMutablePointer<Int>
      let member: UnsafeMutablePointer<UInt64>
      var count = 0

      @inline(__always) mutating func insert(_ i: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(i & 63)
        if member[i >> 6] & bit != 0 { return false }
        member[i >> 6] |= bit
        items[count] = i
        count += 1
        return true
      }

      mutating func clear() {
        for k in 0..<count { member[items[k] >> 6] &= ~(1 << UInt64(items[k] & 63)) }
        count = 0
      }
    }

    /// Instructions still to follow in `add`: each is pushed when one that is newly in the set
    /// is followed, at most two per instruction, so it never holds more than twice the program.
    struct Stack {
      let items: UnsafeMutablePointer<Int>
      var count = 0

      @inline(__always) mutating func push(_ pc: Int) {
        items[count] = pc
        count += 1
      }

      @inline(__always) mutating func pop() -> Int? {
        guard count > 0 else { return nil }
        count -= 1
        return items[count]
      }
    }

    static func with<R>(capacity: Int, _ body: (inout Set, inout Set, inout Stack) -> R) -> R {
      let words = (capacity + 63) / 64
      let stackSize = 2 * capacity + 2
      let memory = UnsafeMutablePointer<Int>.allocate(capacity: 2 * capacity + stackSize + 2 * words)
      defer { memory.deallocate() }
      let bitmaps = UnsafeMutableRawPointer(memory + 2 * capacity + stackSize).bindMemory(to: UInt64.self, capacity: 2 * words)
      bitmaps.initialize(repeating: 0, count: 2 * words)
      var a = Set(items: memory, member: bitmaps)
      var b = Set(items: memory + capacity, member: bitmaps + words)
      var stack = Stack(items: memory + 2 * capacity)
      return body(&a, &b, &stack)
    }
  }

  // MARK: - One pass

  /// A pattern that at every character can go on in at most one way, matched by one thread:
  /// the class run it is in and how many characters the run has taken (RE2's "one-pass"
  /// matcher, here with counted runs, so `[a-z]{1,900}` is one state and not 1,800).
  ///
  /// Built from a compact program (runs not expanded). Every run of it is a `Consumer`; from the
  /// start, and from after each consumer, the ways on without consuming are listed as `Entry`s
  /// (the consumer or match they reach and the zero-width conditions on the way). The pattern
  /// qualifies when the consumers of each list have disjoint classes (and a run's class is
  /// disjoint from what follows it), so the next character picks the way; when the whole pattern
  /// is anchored by `^`; and when lookaheads hold no lookaheads. Immutable once built, so
  /// threads share it.
  struct OnePass: Sendable {
    struct Consumer {
      var low: UInt64
      var high: UInt64
      var set: Int
      var min: Int
      var max: Int
      var follow: Range<Int>
      /// Whether every match in `follow` needs the end of the text, so that while the run goes
      /// on (the class excludes what follows), nothing else needs looking at.
      var matchesOnlyAtEnd: Bool
    }

    struct Entry {
      /// A consumer, or `matched`.
      var target: Int
      var needsStart: Bool
      var needsEnd: Bool
      /// The lookaheads that must hold, in `looks`.
      var looks: Range<Int>
    }

    struct Look {
      var program: Int
      var negated: Bool
    }

    static let matched = -1
    /// Work allowed to build one (the lists can grow with the square of the pattern).
    static let budget = 20_000

    let classes: [CharSet]
    let consumers: [Consumer]
    let entries: [Entry]
    let looks: [Look]
    /// The entries of each program's start.
    let starts: [Range<Int>]

    init(classes: [CharSet], consumers: [Consumer], entries: [Entry], looks: [Look], starts: [Range<Int>]) {
      self.classes = classes
      self.consumers = consumers
      self.entries = entries
      self.looks = looks
      self.starts = starts
    }

    init?(programs: [[Inst]], classes: [CharSet]) {
      guard programs.count <= 64 else { return nil }  // lookahead results live on the stack
      var builder = Builder(programs: programs, classes: classes)
      guard builder.build() else { return nil }
      self.classes = classes
      consumers = builder.consumers
      entries = builder.entries
      looks = builder.looks
      starts = builder.starts
    }

    func matches<T: Text>(_ text: T) -> Bool {
      if starts.count == 1 {
        var none = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
        return matches(text, program: 0, at: 0, &none)
      }
      // The last result of each lookahead (position * 2 + answer): a lookahead is asked again
      // only at the position the thread is at, so that is all there is to remember.
      return withUnsafeTemporaryAllocation(of: Int.self, capacity: starts.count) { buffer in
        var memo = buffer
        memo.initialize(repeating: -1)
        return matches(text, program: 0, at: 0, &memo)
      }
    }

    /// Whether `program` matches a prefix of `text` from `start`.
    func matches<T: Text>(_ text: T, program: Int, at start: Int, _ memo: inout UnsafeMutableBufferPointer<Int>) -> Bool {
      consumers.withUnsafeBufferPointer { consumers in
        entries.withUnsafeBufferPointer { entries in
          let end = text.count
          var pos = start
          var list = starts[program]
          var current = -1  // the consumer the thread is in (none before the first character)
          var taken = 0
          while true {
            if current >= 0, consumers[current].matchesOnlyAtEnd {
              // Inside a run, away from the end, only the run itself can take a character.
              let consumer = consumers[current]
              while taken < consumer.max, pos < end {
                let (c, after) = text.scalar(at: pos)
                guard contains(consumer, c) else { break }
                taken += 1
                pos = after
              }
            }
            let atEnd = pos == end
            var c: UInt32 = 0
            var after = pos
            if !atEnd { (c, after) = text.scalar(at: pos) }
            var chosen = -1
            if current < 0 || taken >= consumers[current].min {
              for e in list {
                let entry = entries[e]
                if entry.needsStart && pos != 0 || entry.needsEnd && !atEnd { continue }
                if !entry.looks.isEmpty, !holds(entry.looks, text, pos, &memo) { continue }
                if entry.target == Self.matched { return true }
                if !atEnd, chosen < 0, contains(consumers[entry.target], c) { chosen = entry.target }
              }
            }
            if atEnd { return false }
            if current >= 0, taken < consumers[current].max, contains(consumers[current], c) {
              taken += 1
            } else if chosen >= 0 {
              current = chosen
              taken = 1
              list = consumers[chosen].follow
            } else {
              return false
            }
            pos = after
          }
        }
      }
    }

    @inline(__always) func contains(_ consumer: Consumer, _ c: UInt32) -> Bool {
      if c < 64 { return consumer.low >> c & 1 != 0 }
      if c < 128 { return consumer.high >> (c - 64) & 1 != 0 }
      return classes[consumer.set].containsNonASCII(c)
    }

    func holds<T: Text>(_ range: Range<Int>, _ text: T, _ pos: Int, _ memo: inout UnsafeMutableBufferPointer<Int>) -> Bool {
      for i in range {
        let look = looks[i]
        let found: Bool
        if memo[look.program] >= 0, memo[look.program] >> 1 == pos {
          found = memo[look.program] & 1 != 0
        } else {
          // Lookaheads hold no lookaheads (or the pattern would not be here): no memo needed.
          var none = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
          found = matches(text, program: look.program, at: pos, &none)
          memo[look.program] = pos << 1 | (found ? 1 : 0)
        }
        if found == look.negated { return false }
      }
      return true
    }
  }
}

// MARK: - Prefilter

extension LinearRegex.RequiredLiterals {
  func found(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count >= shortest else { return false }
    if let commonFirst, let base = bytes.baseAddress { return found(in: bytes, base: base, startingWith: commonFirst) }
    return needles.withUnsafeBufferPointer { needles in
      firstBytes.withUnsafeBufferPointer { firstBytes in
        for start in 0...(bytes.count - shortest) where firstBytes[Int(Self.lower(bytes[start]))] {
          next: for needle in needles where needle.count <= bytes.count - start {
            for k in 1..<needle.count where Self.lower(bytes[start + k]) != needle[k] { continue next }
            if Self.lower(bytes[start]) == needle[0] { return true }
          }
        }
        return false
      }
    }
  }

  /// `found(in:)` when every needle starts with `first`, a byte only itself folds to: the
  /// same candidates in the same order, each reached by `memchr`.
  private func found(in bytes: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, startingWith first: UInt8) -> Bool {
    let last = bytes.count - shortest  // the last start a needle fits at
    var start = 0
    return needles.withUnsafeBufferPointer { needles in
      while start <= last {
        guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return false }
        start = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
        next: for needle in needles where needle.count <= bytes.count - start {
          for k in 1..<needle.count where Self.lower(bytes[start + k]) != needle[k] { continue next }
          return true
        }
        start += 1
      }
      return false
    }
  }
}
