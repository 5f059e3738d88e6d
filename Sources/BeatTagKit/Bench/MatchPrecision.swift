/// What share of the tracks `match --spm S` would offer really run at S (true tempo within the
/// ±10% window: the precision), and what share of the tracks that run at S it offers (the recall: a
/// fast song read at half tempo is a song the runner never hears), with every clip weighted so that
/// the corpus has the tempo shape of a real library (`TempoPrior.library`).
/// Every matched track counts, whatever its confidence.
public struct MatchPrecision: Codable, Sendable {
    public static let cadences = [160.0, 175, 190]

    public struct Row: Codable, Sendable {
        public var spm: Double
        /// Clips matched (unweighted) and the weighted precision; nil when nothing matched.
        public var matched: Int
        public var precision: Double?
        /// Clips whose true tempo lies in the window (unweighted) and the weighted share of them
        /// matched; nil when none does.
        public var runnable: Int
        public var recall: Double?
    }

    public var rows: [Row]

    public init(_ results: [TempoBenchmark.ClipResult], prior: TempoPrior = .library,
                window: Double = CadenceRules.defaultMaxShiftPercent / 100) {
        let counts = results.reduce(into: [Int](repeating: 0, count: prior.buckets.count)) { $0[prior.bucket(of: $1.reference)] += 1 }
        let total = Double(results.count)
        func weight(_ r: TempoBenchmark.ClipResult) -> Double {
            prior.share(of: r.reference) / (Double(counts[prior.bucket(of: r.reference)]) / total)
        }
        rows = Self.cadences.map { spm in
            func offered(_ r: TempoBenchmark.ClipResult) -> Bool { r.estimate.map { abs(spm / $0 - 1) <= window } ?? false }
            func runs(_ r: TempoBenchmark.ClipResult) -> Bool { abs(spm / r.reference - 1) <= window }
            let matched = results.filter(offered), runnable = results.filter(runs)
            let right = matched.filter(runs).map(weight).reduce(0, +)
            return Row(spm: spm, matched: matched.count, precision: matched.isEmpty ? nil : right / matched.map(weight).reduce(0, +),
                       runnable: runnable.count, recall: runnable.isEmpty ? nil : right / runnable.map(weight).reduce(0, +))
        }
    }
}
