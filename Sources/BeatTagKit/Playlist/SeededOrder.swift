/// A seeded reordering of ranked choices that keeps the best likely first: each next item drawn
/// without replacement with weight 1 / (1 + rank / 4), as `playlist` draws. The same seed gives the
/// same order; another seed another run among the good choices.
public enum SeededOrder {
    public static func draw<T>(_ ranked: [T], seed: UInt64) -> [T] {
        var rng = SplitMix64(seed: seed)
        var remaining = ranked
        var ordered: [T] = []
        ordered.reserveCapacity(ranked.count)
        while !remaining.isEmpty {
            let pick = rng.pick(weights: remaining.indices.map { 1 / (1 + Double($0) / 4) })
            ordered.append(remaining.remove(at: pick))
        }
        return ordered
    }

    /// A new seed for a run that was given none (printed, so that the run can be made again).
    public static func newSeed() -> UInt64 { UInt64.random(in: 1...999_999) }
}
