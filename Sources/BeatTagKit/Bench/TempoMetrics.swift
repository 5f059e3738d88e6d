import Foundation

/// Standard tempo and beat-tracking scores (as in MIREX / mir_eval).
public enum TempoMetrics {
    public static func within(_ estimate: Double, _ reference: Double, _ tolerance: Double) -> Bool {
        abs(estimate / reference - 1) <= tolerance
    }

    /// Acc1: within 4%.
    public static func acc1(_ e: Double, _ r: Double) -> Bool { within(e, r, 0.04) }
    public static func strict(_ e: Double, _ r: Double) -> Bool { within(e, r, 0.02) }
    /// Acc2: within 4% of the reference or of ×2, ×3, ½, ⅓ of it.
    public static func acc2(_ e: Double, _ r: Double) -> Bool {
        [1.0, 2, 3, 0.5, 1.0 / 3].contains { within(e, r * $0, 0.04) }
    }
    public static func octaveError(_ e: Double, _ r: Double) -> Bool { within(e, r * 2, 0.04) || within(e, r / 2, 0.04) }
    public static func threeTwoError(_ e: Double, _ r: Double) -> Bool { within(e, r * 1.5, 0.04) || within(e, r * 2 / 3, 0.04) }

    /// Beat F-measure with a ±70 ms window; beats before `skip` seconds are ignored on both sides.
    /// Nothing to match on either side scores 0, as in mir_eval (`scored` leaves such clips out).
    public static func fMeasure(estimated: [Double], reference: [Double], window: Double = 0.07, skip: Double = 5) -> Double {
        let est = estimated.filter { $0 >= skip }, ref = reference.filter { $0 >= skip }
        if est.isEmpty || ref.isEmpty { return 0 }
        // Greedy one-to-one matching in time order is exact here: windows are narrower than half a beat.
        var hits = 0
        var j = 0
        for r in ref {
            while j < est.count && est[j] < r - window { j += 1 }
            if j < est.count && abs(est[j] - r) <= window { hits += 1; j += 1 }
        }
        let precision = Double(hits) / Double(est.count), recall = Double(hits) / Double(ref.count)
        return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
    }

    /// Whether a clip's annotation gives beat F anything to score: a beat after the skipped start
    /// (a clip under 5 s has none, and would score whatever the tracker did).
    public static func scores(reference: [Double], skip: Double = 5) -> Bool { reference.contains { $0 >= skip } }

    /// The estimated beats after one beat is placed by hand (`BeatAnchor`), as a person who hears
    /// the click off the beat does on the review page (O) or with `tag --beat-at`. The person
    /// listens from the estimated beat a third of the way in (where the page plays from) and judges
    /// over two bars: the hand beat goes where the 8 annotated beats nearest that point sit on the
    /// estimated grid (their circular mean phase), not on any single one of them, since played
    /// beats wander a tenth of a beat and more around a grid. Where they do not share one phase
    /// (half of them between the clicks: the grid at half the tempo), no beat is placed: the
    /// person fixes the tempo (D, H), not the phase. The tempo stays as estimated.
    public static func withOneHandBeat(estimated: [Double], reference: [Double], duration: Double?) -> [Double] {
        guard estimated.count >= 2, !reference.isEmpty else { return estimated }
        let i = estimated.count / 3, heard = estimated[i]
        let listened = reference.sorted { abs($0 - heard) < abs($1 - heard) }.prefix(8)
        let mean = BeatPhase.circularMean(of: listened.compactMap { BeatAnchor.phase(of: $0, on: estimated) }.map { 2 * .pi * $0 })
        guard mean.length >= 0.5 * Double(listened.count) else { return estimated }
        let placed = heard + mean.direction / (2 * .pi) * BeatAnchor.interval(estimated, at: i, toward: 1)
        return BeatAnchor.moved(estimated, toBeatAt: placed, duration: duration)
    }

    /// Median of (estimated - reference) over reference beats that have an estimate within a quarter period.
    public static func medianPhaseOffset(estimated: [Double], reference: [Double]) -> Double? {
        guard reference.count >= 2, !estimated.isEmpty else { return nil }
        let period = (reference.last! - reference.first!) / Double(reference.count - 1)
        var offsets: [Double] = []
        var j = 0
        for r in reference {
            while j + 1 < estimated.count && abs(estimated[j + 1] - r) < abs(estimated[j] - r) { j += 1 }
            let d = estimated[j] - r
            if abs(d) <= period / 4 { offsets.append(d) }
        }
        guard !offsets.isEmpty else { return nil }
        offsets.sort()
        return offsets[offsets.count / 2]
    }
}
