extension LinearRegex {
  /// The NFA of a pattern without lookaheads, determinized for ASCII text: one table look-up per
  /// byte where the NFA follows every thread (an image URL's patterns run on every message).
  /// Built with the pattern, when it has at most `maxStates` states; a text with a byte above
  /// ASCII goes to the NFA.
  ///
  /// A state is the set of instructions the threads are at after some characters (the start
  /// state: before any, where `^` holds), written as what follows the characters they took and,
  /// for a search that may start anywhere, the program's start again. Closing it over the
  /// instructions that take no character tells whether the match is reached there, and where `$`
  /// holds too (at the end of the text).
  struct DFA: Sendable {
    static let maxStates = 256

    /// The class of each ASCII byte: bytes every character class of the program treats alike.
    let classOf: [UInt8]
    let classCount: Int
    /// `next[state * classCount + class]`: the state after a byte of that class, -1 for none.
    let next: [Int16]
    /// Whether the match is reached in the state, before the end of the text.
    let matches: [Bool]
    /// Whether it is reached in the state at the end of the text.
    let matchesAtEnd: [Bool]

    init(classOf: [UInt8], classCount: Int, next: [Int16], matches: [Bool], matchesAtEnd: [Bool]) {
      self.classOf = classOf
      self.classCount = classCount
      self.next = next
      self.matches = matches
      self.matchesAtEnd = matchesAtEnd
    }

    /// Nil when the program has a lookahead or more than `maxStates` states.
    init?(program: [Inst], classes: [CharSet]) {
      guard !program.isEmpty, !program.contains(where: { if case .look = $0 { return true } else { return false } }) else { return nil }
      // Bytes alike: the same answer from every class the program reads.
      let used = Array(Set(program.compactMap { inst -> Int? in if case .char(let set) = inst { return set } else { return nil } })).sorted()
      var signatures: [[Bool]: UInt8] = [:]
      var classOf = [UInt8](repeating: 0, count: 128)
      for byte in 0..<128 {
        let signature = used.map { classes[$0].contains(UInt32(byte)) }
        if let known = signatures[signature] {
          classOf[byte] = known
        } else {
          guard signatures.count < 255 else { return nil }
          classOf[byte] = UInt8(signatures.count)
          signatures[signature] = UInt8(signatures.count)
        }
      }
      let classCount = signatures.count
      // A byte standing for each class.
      var sample = [UInt32](repeating: 0, count: classCount)
      for byte in (0..<128).reversed() { sample[Int(classOf[byte])] = UInt32(byte) }
      let restart: Bool
      if case .atStart = program[0] { restart = false } else { restart = true }
      let hasEnd = program.contains { if case .atEnd = $0 { return true } else { return false } }

      // The closure of `seeds`: the instructions that take a character, and whether the match
      // is reached, with `^` holding or not and `$` holding or not.
      var seen = [Int](repeating: -1, count: program.count)  // the closure that last saw each
      var closures = 0
      func closure(_ seeds: [Int], atStart: Bool, atEnd: Bool) -> (takers: [Int], matched: Bool) {
        closures += 1
        var stack = seeds, takers: [Int] = [], matched = false
        while let pc = stack.popLast() {
          guard pc < program.count, seen[pc] != closures else { continue }
          seen[pc] = closures
          switch program[pc] {
          case .char: takers.append(pc)
          case .run: return ([], false)  // not in NFA programs
          case .match: matched = true
          case .jump(let target): stack.append(target)
          case .split(let a, let b):
            stack.append(b)
            stack.append(a)
          case .atStart: if atStart { stack.append(pc + 1) }
          case .atEnd: if atEnd { stack.append(pc + 1) }
          case .look: return ([], false)
          }
        }
        return (takers.sorted(), matched)
      }

      // States by their seeds (the start state apart: `^` holds there).
      var numbers: [[Int]: Int] = [:]
      var states: [(seeds: [Int], isStart: Bool)] = [([0], true)]
      var next: [Int16] = []
      var matches: [Bool] = [], matchesAtEnd: [Bool] = []
      var i = 0
      while i < states.count {
        let (seeds, isStart) = states[i]
        let (takers, matched) = closure(seeds, atStart: isStart, atEnd: false)
        matches.append(matched)
        // `$` only adds to what is reached when the program has one.
        matchesAtEnd.append(matched || hasEnd && closure(seeds, atStart: isStart, atEnd: true).matched)
        for k in 0..<classCount {
          // In order and each once: the start first, then each taker's next instruction.
          var key: [Int] = restart ? [0] : []
          for pc in takers {
            if case .char(let set) = program[pc], classes[set].contains(sample[k]) { key.append(pc + 1) }
          }
          if key.isEmpty {
            next.append(-1)
            continue
          }
          if let known = numbers[key] {
            next.append(Int16(known))
          } else {
            guard states.count < Self.maxStates else { return nil }
            numbers[key] = states.count
            next.append(Int16(states.count))
            states.append((key, false))
          }
        }
        i += 1
      }
      self.init(classOf: classOf, classCount: classCount, next: next, matches: matches, matchesAtEnd: matchesAtEnd)
    }

    /// Whether the pattern matches anywhere in `bytes`, or nil when they are not all ASCII.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
      if bytes.isEmpty { return matchesAtEnd[0] }
      return classOf.withUnsafeBufferPointer { classOf in
        next.withUnsafeBufferPointer { next in
          var state = 0
          if matches[0] { return true }
          for byte in bytes {
            guard byte < 0x80 else { return nil }
            let to = Int(next[state &* classCount &+ Int(classOf[Int(byte)])])
            if to < 0 { return false }
            state = to
            if matches[state] { return true }
          }
          return matchesAtEnd[state]
        }
      }
    }
  }
}
