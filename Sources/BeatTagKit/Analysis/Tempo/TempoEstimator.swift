import Foundation

/// From a novelty curve to a tempo: periodicity proposes candidates, then each metrical level
/// (the candidate, double, half, 3:2, 2:3) is beat-tracked and scored on how strong its pulses are.
public struct TempoEstimator {
    /// Tempi a track may be given, BPM.
    public static let range = 50.0...230.0

    public struct LevelScore: Sendable {
        public var bpm: Double
        /// Periodicity support, relative to the strongest tempo.
        public var salience: Double
        public var prior: Double
        /// Mean kick/snare novelty on the tracked beats.
        public var onBeat: Double
        public var beats: [Double]
        public var total = 0.0
    }

    /// Broad log-normal prior over tempo: wide enough that evidence, not the prior, decides between 87 and 175.
    public static func prior(_ bpm: Double) -> Double {
        let x = log2(bpm / 120)
        return exp(-0.5 * x * x)
    }

    /// A faster level is taken over a slower one while its pulses keep this share of the slower level's strength.
    static let fasterLevelStrength = 0.7

    /// `novelty`: all bands, for periodicity and beat placement. `body`: kick and snare bands only,
    /// for telling metrical levels apart (hats mark subdivisions, not beats).
    public static func estimate(novelty: [Float], body: [Float], frameRate: Double) -> (TempoEstimate, [Double])? {
        guard novelty.count > Int(frameRate * 3) else { return nil }
        let maxLag = Int(60 * frameRate / TempoSalience.minBPM * 4) + 2
        let acf = Autocorrelation(novelty, maxLag: maxLag)
        guard acf.values[0] > 0 else { return nil }
        let salience = TempoSalience(acf: acf, frameRate: frameRate)
        var proposals: [Double] = []
        for peak in salience.peaks(limit: 4) {
            for ratio in [1.0, 2, 0.5, 1.5, 2.0 / 3] {
                let bpm = peak.bpm * ratio
                guard range.contains(bpm), !proposals.contains(where: { abs($0 / bpm - 1) < 0.02 }) else { continue }
                proposals.append(bpm)
            }
        }
        guard !proposals.isEmpty else { return nil }
        let maxSalience = salience.values.max() ?? 1
        var levels = proposals.map { bpm -> LevelScore in
            let beats = BeatTracker.track(novelty: novelty, period: 60 * frameRate / bpm)
            return LevelScore(bpm: bpm, salience: salience.value(at: bpm) / max(maxSalience, 1e-9), prior: prior(bpm),
                              onBeat: mean(beats.map { peak(body, around: $0, radius: 2) }), beats: beats)
        }
        rank(&levels)
        let best = levels[0]
        let alternative = levels.dropFirst().first { abs($0.bpm / best.bpm - 1) > 0.04 }
        let margin = alternative.map { best.total - $0.total } ?? 3
        let candidates = levels.prefix(5).map { TempoCandidate(bpm: $0.bpm, score: $0.total) }
        let estimate = TempoEstimate(
            bpm: best.bpm, confidence: confidence(best: best, margin: margin), candidates: candidates,
            alternative: alternative.flatMap { margin < 1.0 ? TempoCandidate(bpm: $0.bpm, score: $0.total) : nil })
        return (estimate, best.beats)
    }

    /// Scores levels against each other (pulse strength relative to the strongest level, prior,
    /// periodicity), then applies the tactus rule.
    static func rank(_ levels: inout [LevelScore]) {
        let strongest = max(levels.map(\.onBeat).max() ?? 1, 1e-3)
        for i in levels.indices {
            let l = levels[i]
            levels[i].total = 3 * log(max(l.onBeat, 1e-3) / strongest) + log(l.prior) + 0.5 * log(max(l.salience, 1e-3))
        }
        levels.sort { $0.total > $1.total }
        // The tactus is the fastest level whose every pulse is strong: step up an octave while the
        // double-time level's pulses keep most of the strength of the current one's.
        var chosen = 0
        while let faster = levels.firstIndex(where: { abs($0.bpm / (2 * levels[chosen].bpm) - 1) < 0.03 }),
              levels[faster].onBeat >= fasterLevelStrength * levels[chosen].onBeat {
            chosen = faster
        }
        if chosen != 0 {
            levels[chosen].total = levels[0].total + 0.01
            levels.sort { $0.total > $1.total }
        }
    }

    static func confidence(best: LevelScore, margin: Double) -> Double {
        // Pulse strength on the beats (novelty is in units of its standard deviation) and how clearly the level won.
        let clarity = 1 / (1 + exp(-1.5 * (best.onBeat - 2.5)))
        let decisiveness = 1 / (1 + exp(-3 * (margin - 0.3)))
        return min(1, max(0, clarity * (0.4 + 0.6 * decisiveness)))
    }

    static func peak(_ x: [Float], around position: Double, radius: Int) -> Double {
        guard !x.isEmpty else { return 0 }
        let c = Int(position.rounded())
        let lo = max(0, c - radius), hi = min(x.count - 1, c + radius)
        guard lo <= hi else { return 0 }
        var best: Float = 0
        for i in lo...hi { best = max(best, x[i]) }
        return Double(best)
    }

    static func mean(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count) }
}
