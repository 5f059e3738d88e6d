import Foundation

/// From a novelty curve to a tempo, in two decisions:
/// 1. the family (tempo up to a factor of 2): the periodicity salience (beat, two beats, bar) times
///    a broad prior, over the salience peaks and their ×2, ½, ×3/2, ⅔ relatives;
/// 2. the octave within the family: `OctaveDecision`, from where the kicks and snares fall.
/// Only the levels the octave walk visits are beat-tracked.
public struct TempoEstimator {
    /// Tempi a track may be given, BPM.
    public static let range = 50.0...230.0

    /// One tempo hypothesis and, once tracked, its beats (frames).
    public struct Level: Sendable {
        public var bpm: Double
        /// Periodicity support relative to the strongest tempo, 0…1.
        public var salience: Double
        public var beats: [Double] = []
        /// Mean novelty below 2 kHz on the beats (units of its standard deviation).
        public var onBeat = 0.0
        public var familyScore: Double { log(max(salience, 1e-3)) + log(TempoEstimator.prior(bpm)) }
    }

    /// Broad log-normal prior over tempo: wide enough that evidence, not the prior, decides between 87 and 175.
    public static func prior(_ bpm: Double) -> Double {
        let x = log2(bpm / 120)
        return exp(-0.5 * x * x)
    }

    /// `novelty`: all bands, for periodicity and beat placement. `body`: bands below 2 kHz, for
    /// pulse clarity. `drums`: kick and snare bands (below 1 kHz), for the octave.
    public static func estimate(novelty: [Float], body: [Float], drums: [Float], frameRate: Double) -> (TempoEstimate, [Double])? {
        guard novelty.count > Int(frameRate * 3) else { return nil }
        let maxLag = Int(60 * frameRate / TempoSalience.minBPM * 4) + 2
        let acf = Autocorrelation(novelty, maxLag: maxLag)
        guard acf.values[0] > 0 else { return nil }
        let salience = TempoSalience(acf: acf, frameRate: frameRate)
        let maxSalience = max(salience.values.max() ?? 1, 1e-9)
        var proposals: [Level] = []
        for peak in salience.peaks(limit: 4) {
            for ratio in [1.0, 2, 0.5, 1.5, 2.0 / 3] {
                let bpm = peak.bpm * ratio
                guard range.contains(bpm), !proposals.contains(where: { abs($0.bpm / bpm - 1) < 0.02 }) else { continue }
                proposals.append(Level(bpm: bpm, salience: salience.value(at: bpm) / maxSalience))
            }
        }
        guard let family = proposals.max(by: { $0.familyScore < $1.familyScore }) else { return nil }

        var tracked: [Level] = []
        func track(_ bpm: Double) -> Level? {
            guard range.contains(bpm) else { return nil }
            if let known = tracked.first(where: { abs($0.bpm / bpm - 1) < 0.03 }) { return known }
            var level = proposals.first(where: { abs($0.bpm / bpm - 1) < 0.03 })
                ?? Level(bpm: bpm, salience: salience.value(at: bpm) / maxSalience)
            level.beats = BeatTracker.track(novelty: novelty, period: 60 * frameRate / level.bpm)
            level.onBeat = mean(level.beats.map { Novelty.peak(body, around: $0, radius: 2) ?? 0 })
            tracked.append(level)
            return level
        }
        func pFaster(_ slow: Level, _ fast: Level) -> Double {
            OctaveDecision.probabilityFaster(slowBeats: slow.beats, fastBPM: fast.bpm, drums: drums)
        }

        // Walk down while the slower level is the likelier beat, else up while the faster one is.
        guard var best = track(family.bpm) else { return nil }
        var certainty = 1.0
        var runnerUp: (level: Level, probability: Double)?
        var movedDown = false
        while let slower = track(best.bpm / 2) {
            let p = pFaster(slower, best)
            if p >= 0.5 {
                certainty = min(certainty, 2 * p - 1)
                if p < 0.75 { runnerUp = (slower, 1 - p) }
                break
            }
            runnerUp = (best, p)
            certainty = min(certainty, 1 - 2 * p)
            best = slower
            movedDown = true
        }
        if !movedDown {
            while let faster = track(best.bpm * 2) {
                let p = pFaster(best, faster)
                if p < 0.5 {
                    certainty = min(certainty, 1 - 2 * p)
                    if p > 0.25, runnerUp == nil { runnerUp = (faster, p) }
                    break
                }
                runnerUp = (best, 1 - p)
                certainty = min(certainty, 2 * p - 1)
                best = faster
            }
        }
        let others = proposals.filter { abs($0.bpm / best.bpm - 1) > 0.03 }.sorted { $0.familyScore > $1.familyScore }
        let candidates = [TempoCandidate(bpm: best.bpm, score: best.familyScore)]
            + others.prefix(4).map { TempoCandidate(bpm: $0.bpm, score: $0.familyScore) }
        // Probability that the chosen octave is right, from the least certain step of the walk.
        let octaveRight = 0.5 + certainty / 2
        let estimate = TempoEstimate(
            bpm: best.bpm, confidence: confidence(onBeat: best.onBeat, octaveProbability: octaveRight), candidates: candidates,
            alternative: runnerUp.map { TempoCandidate(bpm: $0.level.bpm, score: $0.probability) },
            octaveProbability: runnerUp.map { 1 - $0.probability } ?? octaveRight)
        return (estimate, best.beats)
    }

    /// Pulse strength on the beats (0…1) times the probability that the octave is right (½ for a coin
    /// toss, 1 when certain): both must hold for the tempo to be right.
    static func confidence(onBeat: Double, octaveProbability: Double) -> Double {
        let clarity = 1 / (1 + exp(-1.5 * (onBeat - 2.5)))
        return min(1, max(0, clarity * octaveProbability))
    }

    static func mean(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count) }
}
