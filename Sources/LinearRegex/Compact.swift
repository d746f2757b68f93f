/// The compact form the built-in rule pack is compiled to at build time (see the engine's
/// `CompiledPack`), so that a start reads compiled regular expressions, paths and rules instead
/// of compiling them. Here because it is the lowest module that has something to write: the
/// compiled form of a regular expression.
///
/// Every byte is below 0x80 apart from names' UTF-8, so the whole form is valid UTF-8 and the
/// build embeds it as a string literal: static data, read in place. Strings are written apart,
/// each once, as a table the build embeds as string literals (static too: reading one makes no
/// copy); the form holds their numbers.
package struct CompactWriter {
  package private(set) var bytes: [UInt8] = []
  /// The strings, shared by the writers of one form's parts.
  package let strings: Strings

  package final class Strings {
    package private(set) var list: [String] = []
    private var numbers: [String: Int] = [:]

    package init() {}

    func number(_ value: String) -> Int {
      if let number = numbers[value] { return number }
      numbers[value] = list.count
      list.append(value)
      return list.count - 1
    }
  }

  package init(strings: Strings = Strings()) { self.strings = strings }

  /// Six bits a byte, low first; 0x40 says another byte follows.
  package mutating func uint(_ value: UInt64) {
    var v = value
    while v >= 0x40 {
      bytes.append(UInt8(truncatingIfNeeded: v & 0x3F) | 0x40)
      v >>= 6
    }
    bytes.append(UInt8(truncatingIfNeeded: v))
  }

  package mutating func int(_ value: Int) {
    // Zigzag, so small negative numbers stay short.
    let v = Int64(value)
    uint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
  }

  package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

  package mutating func double(_ value: Double) { uint(value.bitPattern) }

  package mutating func string(_ value: String) { count(strings.number(value)) }

  /// Bytes another writer of the same form (sharing these strings) wrote.
  package mutating func append(_ other: [UInt8]) { bytes += other }

  /// Bytes that are valid UTF-8 (a name's), written as they are.
  package mutating func utf8<C: Collection<UInt8>>(_ value: C) {
    uint(UInt64(value.count))
    bytes += value
  }

  package mutating func count(_ value: Int) { uint(UInt64(value)) }
}

/// Reads what `CompactWriter` wrote. The form comes from the build, never from a user, so a
/// malformed one is a bug of the build: it stops the program.
package struct CompactReader {
  package let base: UnsafePointer<UInt8>
  package let end: Int
  package var offset: Int
  package let strings: [String]

  package init(_ base: UnsafePointer<UInt8>, count: Int, offset: Int = 0, strings: [String]) {
    self.base = base
    self.end = count
    self.offset = offset
    self.strings = strings
  }

  @inlinable
  package mutating func byte() -> UInt8 {
    precondition(offset < end, "the compiled rule pack is cut short")
    let b = base[offset]
    offset += 1
    return b
  }

  // Always inlined: a start reads thousands of numbers, nearly all one byte long, and the call
  // cost more than the read.
  @inlinable @inline(__always)
  package mutating func uint() -> UInt64 {
    // Most numbers (counts, indices, tags) fit one byte; string numbers past 63 take two.
    if offset < end, base[offset] < 0x40 {
      offset += 1
      return UInt64(base[offset - 1])
    }
    if offset + 1 < end, base[offset + 1] < 0x40 {
      offset += 2
      return UInt64(base[offset - 2] & 0x3F) | UInt64(base[offset - 1]) << 6
    }
    return longUInt()
  }

  @usableFromInline
  mutating func longUInt() -> UInt64 {
    var value: UInt64 = 0, shift: UInt64 = 0
    while true {
      let b = byte()
      value |= UInt64(b & 0x3F) << shift
      if b & 0x40 == 0 { return value }
      shift += 6
    }
  }

  package mutating func int() -> Int {
    let v = uint()
    return Int(Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
  }

  @inlinable
  package mutating func count() -> Int { Int(uint()) }

  @inlinable
  package mutating func bool() -> Bool { byte() != 0 }

  package mutating func double() -> Double { Double(bitPattern: uint()) }

  @inlinable
  package mutating func string() -> String { strings[count()] }

  package mutating func utf8() -> [UInt8] {
    let n = count()
    precondition(offset + n <= end, "the compiled rule pack is cut short")
    defer { offset += n }
    return Array(UnsafeBufferPointer(start: base + offset, count: n))
  }

  /// Skips a string or byte run, returning where its bytes are.
  package mutating func utf8Span() -> UnsafeBufferPointer<UInt8> {
    let n = count()
    precondition(offset + n <= end, "the compiled rule pack is cut short")
    defer { offset += n }
    return UnsafeBufferPointer(start: base + offset, count: n)
  }
}

extension LinearRegex {
  /// Writes the compiled pattern: what matching reads (classes, the one-pass matcher or the NFA
  /// programs, the prefilter), not the parsed tree, which is parsed again from the source only
  /// if a replacement ever needs the NFA of a one-pass pattern.
  package func write(to out: inout CompactWriter) {
    out.string(source)
    // The rest after its length, so a start can step over it (`init(reading:)`).
    var body = CompactWriter(strings: out.strings)
    writeCompiled(to: &body)
    out.count(body.bytes.count)
    out.append(body.bytes)
  }

  private func writeCompiled(to out: inout CompactWriter) {
    let c = compiled
    out.count(c.lookCount)
    out.count(c.classes.count)
    for set in c.classes { set.write(to: &out) }
    if let onePass = c.onePass {
      out.bool(true)
      out.count(onePass.consumers.count)
      for consumer in onePass.consumers {
        out.uint(consumer.low)
        out.uint(consumer.high)
        out.count(consumer.set)
        out.count(consumer.min)
        out.count(consumer.max)
        out.count(consumer.follow.lowerBound)
        out.count(consumer.follow.upperBound)
        out.bool(consumer.matchesOnlyAtEnd)
      }
      out.count(onePass.entries.count)
      for entry in onePass.entries {
        out.int(entry.target)
        out.bool(entry.needsStart)
        out.bool(entry.needsEnd)
        out.count(entry.looks.lowerBound)
        out.count(entry.looks.upperBound)
      }
      out.count(onePass.looks.count)
      for look in onePass.looks {
        out.count(look.program)
        out.bool(look.negated)
      }
      out.count(onePass.starts.count)
      for start in onePass.starts {
        out.count(start.lowerBound)
        out.count(start.upperBound)
      }
    } else {
      out.bool(false)
      Self.write(c.nfa!, to: &out)
    }
    Self.write(c.reversedNFA, to: &out)
    if let prefilter = c.prefilter {
      out.bool(true)
      out.count(prefilter.needles.count)
      for needle in prefilter.needles { out.utf8(needle) }
    } else {
      out.bool(false)
    }
    if let dfa = c.dfa {
      out.bool(true)
      // Tables of small numbers as runs of bytes (below 0x80, so still valid UTF-8): read back
      // a byte an entry rather than a number at a time.
      let small = dfa.classCount < 0x80 && dfa.matches.count < 0x7F
      out.bool(small)
      out.count(dfa.classCount)
      out.count(dfa.matches.count)
      for state in dfa.matches.indices {
        out.bool(dfa.matches[state])
        out.bool(dfa.matchesAtEnd[state])
      }
      if small {
        out.utf8(dfa.classOf)
        out.utf8(dfa.next.map { UInt8(Int($0) + 1) })
      } else {
        for byte in dfa.classOf { out.count(Int(byte)) }
        for to in dfa.next { out.count(Int(to) + 1) }
      }
    } else {
      out.bool(false)
    }
  }

  /// Reads what `write(to:)` wrote: the source now, the compiled forms when the pattern is first
  /// matched. The form must stay where it is for the life of the program (static data).
  package init(reading input: inout CompactReader) {
    source = input.string()
    let length = input.count()
    precondition(input.offset + length <= input.end, "the compiled rule pack is cut short")
    storage = Storage(readingLater: input)
    input.offset += length
  }

  /// Reads what `writeCompiled(to:)` wrote.
  static func readCompiled(_ input: inout CompactReader) -> Compiled {
    let lookCount = input.count()
    var classes: [CharSet] = []
    let classCount = input.count()
    classes.reserveCapacity(classCount)
    for _ in 0..<classCount { classes.append(CharSet(reading: &input)) }
    var onePass: OnePass? = nil
    var nfa: [[Inst]]? = nil
    if input.bool() {
      var consumers: [OnePass.Consumer] = []
      let consumerCount = input.count()
      consumers.reserveCapacity(consumerCount)
      for _ in 0..<consumerCount {
        let low = input.uint(), high = input.uint()
        let set = input.count(), min = input.count(), max = input.count()
        let follow = input.count()..<input.count()
        consumers.append(OnePass.Consumer(low: low, high: high, set: set, min: min, max: max, follow: follow, matchesOnlyAtEnd: input.bool()))
      }
      var entries: [OnePass.Entry] = []
      let entryCount = input.count()
      entries.reserveCapacity(entryCount)
      for _ in 0..<entryCount {
        let target = input.int()
        let needsStart = input.bool(), needsEnd = input.bool()
        entries.append(OnePass.Entry(target: target, needsStart: needsStart, needsEnd: needsEnd, looks: input.count()..<input.count()))
      }
      var looks: [OnePass.Look] = []
      let lookEntries = input.count()
      looks.reserveCapacity(lookEntries)
      for _ in 0..<lookEntries { looks.append(OnePass.Look(program: input.count(), negated: input.bool())) }
      var starts: [Range<Int>] = []
      let startCount = input.count()
      starts.reserveCapacity(startCount)
      for _ in 0..<startCount { starts.append(input.count()..<input.count()) }
      onePass = OnePass(classes: classes, consumers: consumers, entries: entries, looks: looks, starts: starts)
    } else {
      nfa = readPrograms(&input)
    }
    let reversed = readPrograms(&input)
    var prefilter: RequiredLiterals? = nil
    if input.bool() {
      var needles: [[UInt8]] = []
      let needleCount = input.count()
      needles.reserveCapacity(needleCount)
      for _ in 0..<needleCount { needles.append(input.utf8()) }
      prefilter = RequiredLiterals(needles: needles)
    }
    var dfa: DFA? = nil
    if input.bool() {
      let small = input.bool()
      let classCount = input.count()
      let stateCount = input.count()
      var matches: [Bool] = [], matchesAtEnd: [Bool] = []
      matches.reserveCapacity(stateCount)
      matchesAtEnd.reserveCapacity(stateCount)
      for _ in 0..<stateCount {
        matches.append(input.bool())
        matchesAtEnd.append(input.bool())
      }
      let classOf: [UInt8], next: [Int16]
      if small {
        classOf = Array(input.utf8Span())
        next = input.utf8Span().map { Int16($0) - 1 }
      } else {
        classOf = (0..<128).map { _ in UInt8(input.count()) }
        next = (0..<(stateCount * classCount)).map { _ in Int16(input.count() - 1) }
      }
      dfa = DFA(classOf: classOf, classCount: classCount, next: next, matches: matches, matchesAtEnd: matchesAtEnd)
    }
    return Compiled(
      prefilter: prefilter, classes: classes, tree: nil, lookCount: lookCount, onePass: onePass, nfa: nfa, reversedNFA: reversed, dfa: dfa)
  }

  private static func write(_ programs: [[Inst]], to out: inout CompactWriter) {
    out.count(programs.count)
    for program in programs {
      out.count(program.count)
      for inst in program {
        switch inst {
        case .char(let set):
          out.count(0)
          out.count(set)
        case .run(let set, let min, let max):
          out.count(1)
          out.count(set)
          out.count(min)
          out.count(max)
        case .split(let a, let b):
          out.count(2)
          out.count(a)
          out.count(b)
        case .jump(let target):
          out.count(3)
          out.count(target)
        case .atStart: out.count(4)
        case .atEnd: out.count(5)
        case .look(let program, let negated):
          out.count(6)
          out.count(program)
          out.bool(negated)
        case .match: out.count(7)
        }
      }
    }
  }

  private static func readPrograms(_ input: inout CompactReader) -> [[Inst]] {
    var programs: [[Inst]] = []
    let programCount = input.count()
    programs.reserveCapacity(programCount)
    for _ in 0..<programCount {
      var program: [Inst] = []
      let count = input.count()
      program.reserveCapacity(count)
      for _ in 0..<count {
        switch input.count() {
        case 0: program.append(.char(input.count()))
        case 1:
          let set = input.count(), min = input.count()
          program.append(.run(set, min: min, max: input.count()))
        case 2:
          let a = input.count()
          program.append(.split(a, input.count()))
        case 3: program.append(.jump(input.count()))
        case 4: program.append(.atStart)
        case 5: program.append(.atEnd)
        case 6:
          let sub = input.count()
          program.append(.look(sub, negated: input.bool()))
        case 7: program.append(.match)
        default: preconditionFailure("the compiled rule pack holds an unknown instruction")
        }
      }
      programs.append(program)
    }
    return programs
  }
}

extension LinearRegex.CharSet {
  func write(to out: inout CompactWriter) {
    out.uint(low)
    out.uint(high)
    out.bool(negated)
    out.count(nonASCII.count)
    for range in nonASCII {
      out.uint(UInt64(range.lowerBound))
      out.uint(UInt64(range.upperBound))
    }
  }

  init(reading input: inout CompactReader) {
    low = input.uint()
    high = input.uint()
    negated = input.bool()
    let count = input.count()
    nonASCII.reserveCapacity(count)
    for _ in 0..<count {
      let lower = UInt32(input.uint())
      nonASCII.append(lower...UInt32(input.uint()))
    }
  }
}
