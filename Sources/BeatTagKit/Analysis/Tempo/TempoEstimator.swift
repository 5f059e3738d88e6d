import Foundation

/// From onset curves to a tempo, in two decisions:
/// 1. the family (tempo up to a factor of 2): `FamilyDecision` over the salience peaks and their
///    ×2, ½, ×3/2, ⅔, ×4/3, ¾ relatives;
/// 2. the octave within the family: `OctaveDecision`, from the metrical evidence at two levels.
/// Only the levels the octave walk visits are beat-tracked.
public final class TempoEstimator {
    /// Tempi a track may be given, BPM.
    public static let range = 50.0...230.0

    /// One tempo hypothesis and, once tracked, its beats (frames).
    struct Level {
        var bpm: Double
        /// Periodicity support relative to the strongest tempo, 0…1.
        var salience: Double
        var beats: [Double] = []
        /// Mean novelty below 2 kHz on the beats (units of its standard deviation).
        var onBeat = 0.0
        var familyScore: Double { log(max(salience, 1e-3)) + log(TempoPrior.family.weight(bpm)) }
        var subdivision = OctaveDecision.Subdivision()
        var evidence: OctaveDecision.LevelEvidence {
            OctaveDecision.LevelEvidence(bpm: bpm, beats: beats, salience: salience, onBeat: onBeat, subdivision: subdivision)
        }
    }

    private let curves: OnsetCurves
    private let salience: TempoSalience
    private let maxSalience: Double
    private var proposals: [Level] = []
    private var tracked: [Level] = []

    /// nil when the curves are too short or flat to hold a pulse.
    public init?(curves: OnsetCurves) {
        let rate = curves.frameRate
        guard curves.all.count > Int(rate * 3) else { return nil }
        let maxLag = Int(60 * rate / TempoSalience.minBPM * 4) + 2
        let acf = Autocorrelation(curves.all, maxLag: maxLag)
        guard acf.values[0] > 0 else { return nil }
        self.curves = curves
        salience = TempoSalience(acf: acf, frameRate: rate)
        maxSalience = max(salience.values.max() ?? 1, 1e-9)
        for peak in salience.peaks(limit: 4) {
            for ratio in [1.0, 2, 0.5, 1.5, 2.0 / 3, 4.0 / 3, 0.75] {
                let bpm = peak.bpm * ratio
                guard Self.range.contains(bpm), !proposals.contains(where: { abs($0.bpm / bpm - 1) < 0.02 }) else { continue }
                proposals.append(Level(bpm: bpm, salience: salience.value(at: bpm) / maxSalience))
            }
        }
        guard !proposals.isEmpty else { return nil }
        for proposal in proposals where !families.contains(where: { FamilyDecision.sameFamily($0.bpm, proposal.bpm, tolerance: 0.02) }) {
            let bpm = FamilyDecision.folded(proposal.bpm)
            families.append((bpm, FamilyDecision.logit(familyFeatures(bpm))))
        }
    }

    /// One candidate per family, at its member in `FamilyDecision.octave`, with its score.
    private var families: [(bpm: Double, score: Double)] = []

    private func familyFeatures(_ bpm: Double) -> [Double] {
        FamilyDecision.features(bpm: bpm, curves: curves) { self.salience.value(at: $0) / self.maxSalience }
    }

    /// The level at `bpm`, beat-tracked once.
    private func track(_ bpm: Double) -> Level? {
        guard Self.range.contains(bpm) else { return nil }
        if let known = tracked.first(where: { abs($0.bpm / bpm - 1) < 0.03 }) { return known }
        var level = proposals.first(where: { abs($0.bpm / bpm - 1) < 0.03 })
            ?? Level(bpm: bpm, salience: salience.value(at: bpm) / maxSalience)
        level.beats = BeatTracker.track(novelty: curves.all, period: 60 * curves.frameRate / level.bpm)
        level.onBeat = Self.mean(level.beats.map { Novelty.peak(curves.body, around: $0, radius: 2) ?? 0 })
        let period = 60 * curves.frameRate / level.bpm
        level.subdivision = OctaveDecision.Subdivision(
            beat: Self.correlation(curves.all, lag: period), half: Self.correlation(curves.all, lag: period / 2),
            quarter: Self.correlation(curves.all, lag: period / 4), hatsHalf: Self.correlation(curves.high, lag: period / 2),
            hatsQuarter: Self.correlation(curves.high, lag: period / 4))
        tracked.append(level)
        return level
    }

    private func probabilityFaster(_ slow: Level, _ fast: Level) -> Double {
        OctaveDecision.probabilityFaster(slow: slow.evidence, fast: fast.evidence, curves: curves)
    }

    /// Tempo and the chosen level's beats (frames).
    public func estimate() -> (TempoEstimate, [Double])? {
        guard let family = families.max(by: { $0.score < $1.score }), var best = track(family.bpm) else { return nil }
        // Walk down while the slower level is the likelier beat, else up while the faster one is.
        var certainty = 1.0
        var runnerUp: (level: Level, probability: Double)?
        var movedDown = false
        while let slower = track(best.bpm / 2) {
            let p = probabilityFaster(slower, best)
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
                let p = probabilityFaster(best, faster)
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
        let rival = families.filter { !FamilyDecision.sameFamily($0.bpm, family.bpm) }.map(\.score).max()
        let evidence = ConfidenceEvidence(octaveProbability: octaveRight, clarity: best.onBeat,
                                          familyMargin: min(6, rival.map { family.score - $0 } ?? 6), bpm: best.bpm)
        let estimate = TempoEstimate(
            bpm: best.bpm, confidence: evidence.confidence, candidates: candidates,
            alternative: runnerUp.map { TempoCandidate(bpm: $0.level.bpm, score: $0.probability) },
            octaveProbability: runnerUp.map { 1 - $0.probability } ?? octaveRight, evidence: evidence)
        return (estimate, best.beats)
    }

    /// Octave-pair features around a known tempo, for fitting `OctaveDecision`: the pair (truth/2,
    /// truth) where the faster level is the beat, and (truth, 2·truth) where the slower one is.
    public func trainingPairs(truthBPM: Double) -> [(features: [Double], fasterIsBeat: Bool)] {
        var pairs: [(features: [Double], fasterIsBeat: Bool)] = []
        if let slow = track(truthBPM / 2), let fast = track(truthBPM) {
            pairs.append((OctaveDecision.features(slow: slow.evidence, fast: fast.evidence, curves: curves), true))
        }
        if let slow = track(truthBPM), let fast = track(truthBPM * 2) {
            pairs.append((OctaveDecision.features(slow: slow.evidence, fast: fast.evidence, curves: curves), false))
        }
        return pairs
    }

    /// Autocorrelation coefficient (mean removed, 1 at lag 0) at a fractional lag, best within ±1 frame:
    /// the subdivisions of a humanised or swung groove sit a frame off the exact fraction.
    static func correlation(_ x: [Float], lag: Double) -> Double {
        let n = x.count
        guard n > 8 else { return 0 }
        let mean = x.reduce(0, +) / Float(n)
        var variance: Float = 0
        for v in x { variance += (v - mean) * (v - mean) }
        guard variance > 0 else { return 0 }
        var best = -1.0
        let centre = Int(lag.rounded())
        for l in max(1, centre - 1)...max(1, centre + 1) where l < n {
            var acc: Float = 0
            x.withUnsafeBufferPointer { p in
                for i in 0..<(n - l) { acc += (p[i] - mean) * (p[i + l] - mean) }
            }
            best = max(best, Double(acc / variance) * Double(n) / Double(n - l))
        }
        return best
    }

    /// Family candidates with a label (in the annotated tempo's family), for fitting `FamilyDecision`.
    public func trainingFamilies(truthBPM: Double) -> [(features: [Double], inFamily: Bool)] {
        families.map { (familyFeatures($0.bpm), FamilyDecision.sameFamily($0.bpm, truthBPM)) }
    }

    static func mean(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count) }
}
