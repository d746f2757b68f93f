/// A seeded xorshift generator: generated test inputs are the same on every run.
public struct XorShift64 {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
