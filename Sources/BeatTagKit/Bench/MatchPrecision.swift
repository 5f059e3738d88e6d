/// What share of the tracks `match --spm S` would offer really run at S (true tempo within the
/// ±10% window), with every clip weighted so that the corpus has the tempo shape of a real library.
/// Every matched track counts, whatever its confidence.
public struct MatchPrecision: Codable, Sendable {
    /// Share of a typical library per tempo range (most music is 80–140 BPM): (upper bound, share).
    public static let libraryShape: [(upTo: Double, share: Double)] = [(100, 0.25), (140, 0.55), (170, 0.15), (.infinity, 0.05)]
    public static let cadences = [160.0, 175, 190]

    public struct Row: Codable, Sendable {
        public var spm: Double
        /// Clips matched (unweighted) and the weighted precision; nil when nothing matched.
        public var matched: Int
        public var precision: Double?
    }

    public var rows: [Row]

    static func bucket(_ bpm: Double) -> Int { libraryShape.firstIndex { bpm < $0.upTo } ?? libraryShape.count - 1 }

    public init(_ results: [TempoBenchmark.ClipResult], window: Double = CadenceRules(spm: 175).maxShiftPercent / 100) {
        let counts = results.reduce(into: [Int](repeating: 0, count: Self.libraryShape.count)) { $0[Self.bucket($1.reference)] += 1 }
        let total = Double(results.count)
        func weight(_ r: TempoBenchmark.ClipResult) -> Double {
            let b = Self.bucket(r.reference)
            return Self.libraryShape[b].share / (Double(counts[b]) / total)
        }
        rows = Self.cadences.map { spm in
            let matched = results.filter { r in r.estimate.map { abs(spm / $0 - 1) <= window } ?? false }
            let all = matched.map(weight).reduce(0, +)
            let right = matched.filter { abs(spm / $0.reference - 1) <= window }.map(weight).reduce(0, +)
            return Row(spm: spm, matched: matched.count, precision: matched.isEmpty ? nil : right / all)
        }
    }
}
