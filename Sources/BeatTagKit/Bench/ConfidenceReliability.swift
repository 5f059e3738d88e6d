/// Does the confidence tell the truth? The share of right tempi (Acc1) per confidence bin.
public struct ConfidenceReliability: Codable, Sendable {
    public struct Bin: Codable, Sendable {
        public var lower: Double
        public var upper: Double
        public var clips: Int
        /// Share with the tempo within 4%; nil for an empty bin.
        public var right: Double?
    }

    public static let edges = [0, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0]
    public static let trusted = ConfidenceEvidence.trusted

    public var bins: [Bin]
    /// Wrong tempi (failed analyses included) and how many of them are scored below `trusted`
    /// (flagged for review; a failed analysis counts as flagged).
    public var wrong: Int
    /// Clips that failed to analyse: in no bin.
    public var failed: Int
    public var wrongBelowTrusted: Int
    /// Share right among tracks scored at or above `trusted`; nil when there are none.
    public var rightAtOrAboveTrusted: Double?
    /// Clips `untagged` would list for their tempo (octave in doubt or confidence below `trusted`;
    /// failed ones count as listed), and the wrong tempi among them. Those it lists for their beats
    /// alone are `BeatReview`'s.
    public var untaggedListed: Int
    public var wrongUntaggedListed: Int

    public init(_ results: [TempoBenchmark.ClipResult]) {
        let scored = results.compactMap { r -> (Double, Bool)? in
            guard let e = r.estimate, let c = r.confidence else { return nil }
            return (c, TempoMetrics.acc1(e, r.reference))
        }
        bins = (0..<(Self.edges.count - 1)).map { i in
            let lo = Self.edges[i], hi = Self.edges[i + 1]
            let inBin = scored.filter { $0.0 >= lo && ($0.0 < hi || (hi == 1 && $0.0 <= 1)) }
            return Bin(lower: lo, upper: hi, clips: inBin.count,
                       right: inBin.isEmpty ? nil : Double(inBin.filter(\.1).count) / Double(inBin.count))
        }
        let wrongOnes = scored.filter { !$0.1 }
        failed = results.filter { $0.estimate == nil }.count
        wrong = wrongOnes.count + failed
        wrongBelowTrusted = wrongOnes.filter { $0.0 < Self.trusted }.count + failed
        let trustedOnes = scored.filter { $0.0 >= Self.trusted }
        rightAtOrAboveTrusted = trustedOnes.isEmpty ? nil : Double(trustedOnes.filter(\.1).count) / Double(trustedOnes.count)
        let listed = results.filter { r in
            r.estimate == nil || r.queueReason(beats: false) != nil
        }
        untaggedListed = listed.count
        wrongUntaggedListed = listed.filter { !$0.isRightTempo }.count
    }
}
