import Foundation

/// The random numbers of a test: SplitMix64 from a seed that is printed, so a failure seen
/// once (in CI, say) can be replayed. The seed is `FOLIO_TEST_SEED` when set, else drawn anew.
///
/// ```swift
/// var generator = SeededGenerator(#function)   // prints "testX: random seed 123… (FOLIO_TEST_SEED=123… replays it)"
/// let piece = Int.random(in: 1...70_000, using: &generator)
/// ```
public struct SeededGenerator: RandomNumberGenerator {
    public let seed: UInt64
    private var state: UInt64

    public init(_ test: String, seed given: UInt64? = nil) {
        var system = SystemRandomNumberGenerator()
        seed = given ?? ProcessInfo.processInfo.environment["FOLIO_TEST_SEED"].flatMap { UInt64($0) } ?? system.next()
        state = seed
        print("\(test): random seed \(seed) (FOLIO_TEST_SEED=\(seed) replays it)")
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
