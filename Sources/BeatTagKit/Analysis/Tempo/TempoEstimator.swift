import Foundation

/// From onset curves to a tempo, in four decisions:
/// 1. the family (tempo up to a factor of 2): `FamilyDecision` over the salience peaks and their
///    ×2, ½, ×3/2, ⅔, ×4/3, ¾ relatives;
/// 2. the octave within the family: `OctaveDecision`, from the metrical evidence at two levels;
/// 3. one step by three (6/8 read at the eighth, a waltz at the bar): `TripleDecision`;
/// 4. one step by three halves where it is sure (a waltz read at its dotted quarter): `HemiolaDecision`.
/// Only the levels these decisions compare are beat-tracked.
public final class TempoEstimator {
    /// Tempi a level may be tracked and compared at, BPM.
    public static let range = TempoRanges.analysed
    /// The fastest tempo a track is given in doubt (`TempoRanges.reported`).
    static let ceiling = TempoRanges.reported.upperBound
    /// How sure the octave decisions must be of a level above the ceiling for it to be given: the
    /// probability at which a tempo is trusted without review. Punk and fast swing at 202–210 run
    /// at 190 SPM; of the 100–105 songs the octave model reads double, 4 of 7 on seeds 43–52 stay
    /// below the bar (docs/tempo.md, "A sure reading passes the ceiling").
    static let sureAboveCeiling = ConfidenceEvidence.trusted

    /// One tempo hypothesis and, once tracked, its beats (frames) and what the octave decision reads.
    typealias Level = OctaveDecision.LevelEvidence

    private let curves: OnsetCurves
    private let periodicity: Periodicity
    private let salience: TempoSalience
    private let maxSalience: Double
    /// The same for the note changes: nil when they hold no pulse.
    private let pitchSalience: TempoSalience?
    private let maxPitchSalience: Double
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
        periodicity = Periodicity(curves)
        salience = TempoSalience(acf: acf, frameRate: rate)
        maxSalience = max(salience.values.max() ?? 1, 1e-9)
        let pitchACF = Autocorrelation(curves.pitch, maxLag: maxLag)
        pitchSalience = pitchACF.values[0] > 0 ? TempoSalience(acf: pitchACF, frameRate: rate) : nil
        maxPitchSalience = max(pitchSalience?.values.max() ?? 1, 1e-9)
        // The onsets' strongest periods, and the note changes' two strongest: in legato strings or a
        // sustained piano the beat may be no peak of the onsets at all.
        for peak in salience.peaks(limit: 4) + (pitchSalience?.peaks(limit: 2) ?? []) {
            for ratio in [1.0, 2, 0.5, 1.5, 2.0 / 3, 4.0 / 3, 0.75] {
                let bpm = peak.bpm.value * ratio
                guard Self.range.contains(bpm), !proposals.contains(where: { abs($0.bpm / bpm - 1) < 0.02 }) else { continue }
                proposals.append(Level(bpm: bpm, beats: [], salience: salience.value(at: bpm) / maxSalience, onBeat: 0))
            }
        }
        guard !proposals.isEmpty else { return nil }
        for proposal in proposals where !families.contains(where: { FamilyDecision.sameFamily($0.bpm, proposal.bpm, tolerance: 0.02) }) {
            let bpm = FamilyDecision.folded(proposal.bpm)
            families.append((bpm, FamilyDecision.model.logit(familyFeatures(bpm))))
        }
    }

    /// One candidate per family, at its member in `FamilyDecision.octave`, with its score.
    private var families: [(bpm: Double, score: Double)] = []

    private func familyFeatures(_ bpm: Double) -> [Double] {
        FamilyDecision.features(bpm: bpm, frameRate: curves.frameRate, periodicity: periodicity,
                                relativeSalience: { self.salience.value(at: $0) / self.maxSalience },
                                pitchSalience: { (self.pitchSalience?.value(at: $0) ?? 0) / self.maxPitchSalience })
    }

    /// The level at `bpm`, beat-tracked once.
    private func track(_ bpm: Double) -> Level? {
        guard Self.range.contains(bpm) else { return nil }
        if let known = tracked.first(where: { abs($0.bpm / bpm - 1) < 0.03 }) { return known }
        var level = proposals.first(where: { abs($0.bpm / bpm - 1) < 0.03 })
            ?? Level(bpm: bpm, beats: [], salience: salience.value(at: bpm) / maxSalience, onBeat: 0)
        let period = self.period(level.bpm)
        // Beats are placed on the body (below 2 kHz): hats fill every subdivision and, in all bands,
        // pull the tracker onto the "and"s (with version 12's models: beat F corpus-dev 0.87 → 0.90,
        // seed-1 tune 0.83 → 0.84, seed-1 holdout 0.72 → 0.73).
        level.beats = BeatTracker.track(novelty: curves.body, period: FrameCount(period))
        level.onBeat = Self.mean(level.beats.map { Novelty.peak(curves.body, around: $0, radius: 2) ?? 0 })
        level.subdivision = OctaveDecision.Subdivision(
            beat: periodicity.coefficient(.all, lag: period), half: periodicity.coefficient(.all, lag: period / 2),
            quarter: periodicity.coefficient(.all, lag: period / 4), hatsHalf: periodicity.coefficient(.high, lag: period / 2),
            hatsQuarter: periodicity.coefficient(.high, lag: period / 4))
        tracked.append(level)
        return level
    }

    private func probabilityFaster(_ slow: Level, _ fast: Level) -> Double {
        OctaveDecision.probabilityFaster(slow: slow, fast: fast, curves: curves)
    }

    /// Tempo and the chosen level's beats (frames). `decidePhase: false` keeps the tracker's phase
    /// (bench uses it to collect `BeatPhase` and `SixteenthShift` training samples).
    public func estimate(decidePhase: Bool = true) -> (TempoEstimate, [FramePosition])? {
        guard let family = families.max(by: { $0.score < $1.score }), var best = track(family.bpm) else { return nil }
        // Walk down while the slower level is the likelier beat, else up while the faster one is.
        // Each step rejects one level with some certainty. Only the steps next to the final level
        // count (a move supersedes what was decided before it): the least certain of them decides how
        // sure the octave is, and the level it rejected, an octave away, is the runner-up.
        var certainty = 1.0
        // Probability that the chosen octave is right, from the least certain step of the walk; the
        // runner-up octave gets the rest, so the two always add up to one.
        var octaveRight: Double { 0.5 + certainty / 2 }
        var runnerUp: Level?
        func step(rejecting level: Level, certainty stepCertainty: Double, moving: Bool = false) {
            if moving { (certainty, runnerUp) = (1, nil) }
            if runnerUp == nil || stepCertainty < certainty { runnerUp = level }
            certainty = min(certainty, stepCertainty)
        }
        var movedDown = false
        while let slower = track(best.bpm / 2) {
            let p = probabilityFaster(slower, best)
            if p >= 0.5 {
                step(rejecting: slower, certainty: 2 * p - 1)
                break
            }
            step(rejecting: best, certainty: 1 - 2 * p, moving: true)
            best = slower
            movedDown = true
        }
        if !movedDown {
            while let faster = track(best.bpm * 2) {
                let p = probabilityFaster(best, faster)
                if p < 0.5 {
                    step(rejecting: faster, certainty: 1 - 2 * p)
                    break
                }
                step(rejecting: best, certainty: 2 * p - 1, moving: true)
                best = faster
            }
        }
        // The walk moves by factors of two; a 6/8 song read at the eighth is three times its beat, a
        // waltz read at the bar a third of it. One step by three, down or up (never both in range).
        // It chooses between two families: its log-odds are a family margin too.
        let walked = best
        var tripleMargin: Double?
        if let (slow, fast) = track(best.bpm / 3).map({ ($0, best) }) ?? track(best.bpm * 3).map({ (best, $0) }) {
            let p = TripleDecision.probabilityFaster(slow: slow, fast: fast, curves: curves)
            tripleMargin = abs(log(p / (1 - p)))
            let (chosen, rejected) = p >= 0.5 ? (fast, slow) : (slow, fast)
            step(rejecting: rejected, certainty: abs(2 * p - 1), moving: chosen.bpm != best.bpm)
            best = chosen
        }
        // Nor can either move by three halves (a waltz read at its dotted quarter, 12/8 at the
        // quarter-equivalent of its eighths). The reading the decisions so far agree on is rarely
        // 3:2 off, so this step moves only when its model is sure (`HemiolaDecision.moveAt`), and
        // says nothing where it stays. Never to the family the walk ended in: after a step by
        // three, a step by three halves back would make an octave move the walk rejected.
        var hemiolaMargin: Double?
        let moves = [(other: best.bpm / 1.5, otherIsFaster: false), (other: best.bpm * 1.5, otherIsFaster: true)]
            .filter { !FamilyDecision.sameFamily($0.other, walked.bpm) }
            .compactMap { candidate -> (to: Level, p: Double)? in
                guard let other = track(candidate.other) else { return nil }
                let (slow, fast) = candidate.otherIsFaster ? (best, other) : (other, best)
                guard fast.beats.count >= HemiolaDecision.minimumBeats else { return nil }
                let p = HemiolaDecision.probabilityFaster(slow: slow, fast: fast, curves: curves)
                return (other, candidate.otherIsFaster ? p : 1 - p)
            }
        // Its model was fitted on pairs that hold the annotated tempo; where the reading is an
        // octave off, neither pair it is asked about does. So the move must land on a level the
        // octave model accepts (without this, two right songs of the unfitted 1,536 moved 3:2 off).
        func octaveAgrees(_ x: Level) -> Bool {
            if let slower = track(x.bpm / 2), probabilityFaster(slower, x) < 0.5 { return false }
            if let faster = track(x.bpm * 2), probabilityFaster(x, faster) >= 0.5 { return false }
            return true
        }
        if let move = moves.max(by: { $0.p < $1.p }), move.p >= HemiolaDecision.moveAt, octaveAgrees(move.to) {
            hemiolaMargin = log(move.p / (1 - move.p))
            step(rejecting: best, certainty: 2 * move.p - 1, moving: true)
            best = move.to
        }
        // A reading above the ceiling that the octave decisions are not sure of gives way to the
        // level its last step rejected (the half, the third after a step by three, the level before
        // a step by three halves: a reading gets there only by a step, and every level a step can
        // reject from there is below the ceiling), with what probability was left: the octave's
        // certainty, and the margin of a step by three or three halves so undone, turn negative.
        if best.bpm > Self.ceiling, octaveRight < Self.sureAboveCeiling,
           let fallback = runnerUp, fallback.bpm <= Self.ceiling {
            certainty = -certainty
            if !FamilyDecision.sameFamily(fallback.bpm, best.bpm) {
                tripleMargin = tripleMargin.map { -$0 }
                hemiolaMargin = hemiolaMargin.map { -$0 }
            }
            (best, runnerUp) = (fallback, best)
        }
        // The chosen tempo, then the other families at their reference-octave member, by family score.
        // After a step by three or by three halves the chosen tempo is in another family than the
        // one the walk started from: its own family's score, and the rivals are the families other
        // than its own.
        let moved = !FamilyDecision.sameFamily(best.bpm, family.bpm)
        let chosenFamily = families.first { FamilyDecision.sameFamily($0.bpm, best.bpm) }
            ?? (bpm: FamilyDecision.folded(best.bpm), score: family.score)
        let others = families.filter { !FamilyDecision.sameFamily($0.bpm, chosenFamily.bpm) }.sorted { $0.score > $1.score }
        let candidates = [TempoCandidate(bpm: BPM(best.bpm), score: chosenFamily.score)]
            + others.prefix(4).map { TempoCandidate(bpm: BPM($0.bpm), score: $0.score) }
        // How sure the family is: the least certain of the decisions that chose it, the family
        // decision's margin over its best rival and the step by three's; after a move by three or
        // by three halves, that step alone (it overruled the decisions before it).
        let decided = min(6, others.first.map { family.score - $0.score } ?? 6)
        let familyMargin = min(6, hemiolaMargin ?? (moved ? tripleMargin ?? decided : min(decided, tripleMargin ?? 6)))
        let evidence = ConfidenceEvidence(octaveProbability: octaveRight, clarity: best.onBeat, familyMargin: familyMargin,
                                          bpm: best.bpm, onsetHeight: curves.onsetHeight)
        var estimate = TempoEstimate(
            bpm: BPM(best.bpm), confidence: evidence.confidence, candidates: candidates,
            alternative: runnerUp.map { TempoCandidate(bpm: BPM($0.bpm), score: 1 - octaveRight) },
            octaveProbability: octaveRight, evidence: evidence)
        let beats = grid(best)
        guard decidePhase else { return (estimate, beats) }
        let phased = onTheBeat(beats)
        estimate.phase = phased.decision
        return (estimate, phased.beats)
    }

    /// The final grid of a level: tracked again, on the curve that knows what a beat sounds like
    /// (`OnsetCurves.beat`). The levels the decisions compare keep the body curve's tracking, which
    /// their models were fitted on.
    private func grid(_ level: Level) -> [FramePosition] {
        BeatTracker.track(novelty: curves.beat, period: FrameCount(period(level.bpm)))
    }

    /// The beat period of a tempo, in frames.
    private func period(_ bpm: Double) -> Double { 60 * curves.frameRate / bpm }

    /// Beats at a given tempo level, the phase decided as in `estimate`: a later window of a long
    /// track keeps its predecessor's level where its own reading is a metrical relative of it.
    public func beats(atBPM bpm: Double) -> (beats: [FramePosition], decision: PhaseDecision)? {
        guard let level = track(bpm), !level.beats.isEmpty else { return nil }
        return onTheBeat(grid(level))
    }

    /// Tracked beats with their phase decided: half a beat (`BeatPhase`), then a sixteenth.
    private func onTheBeat(_ tracked: [FramePosition]) -> (beats: [FramePosition], decision: PhaseDecision) {
        var (beats, decision) = BeatPhase.decided(beats: tracked, curves: curves)
        (beats, decision.sixteenth) = SixteenthShift.decision(beats: beats, curves: curves)
        return (beats, decision)
    }

    /// Octave-pair features around a known tempo, for fitting `OctaveDecision`: the pair (truth/2,
    /// truth) where the faster level is the beat, and (truth, 2·truth) where the slower one is.
    public func trainingPairs(truthBPM: Double) -> [(features: [Double], fasterIsBeat: Bool)] {
        trainingPairs(truthBPM: truthBPM, factor: 2, features: OctaveDecision.features)
    }

    /// Triple-pair features around a known tempo, for fitting `TripleDecision`: the pair (truth/3,
    /// truth) where the faster level is the beat, and (truth, 3·truth) where the slower one is.
    public func trainingTriples(truthBPM: Double) -> [(features: [Double], fasterIsBeat: Bool)] {
        trainingPairs(truthBPM: truthBPM, factor: 3, features: TripleDecision.features)
    }

    /// Three-to-two pairs around a known tempo, for fitting `HemiolaDecision`: the pair (⅔·truth,
    /// truth) where the faster level is the beat, and (truth, 1.5·truth) where the slower one is.
    public func trainingHemiolas(truthBPM: Double) -> [(features: [Double], fasterIsBeat: Bool)] {
        trainingPairs(truthBPM: truthBPM, factor: 1.5, features: HemiolaDecision.features)
    }

    /// The pairs (truth/factor, truth), the faster the beat, and (truth, truth·factor), the slower,
    /// where both levels are in range.
    private func trainingPairs(truthBPM: Double, factor: Double,
                               features: (Level, Level, OnsetCurves) -> [Double]) -> [(features: [Double], fasterIsBeat: Bool)] {
        [(truthBPM / factor, truthBPM, true), (truthBPM, truthBPM * factor, false)].compactMap { slowBPM, fastBPM, fasterIsBeat in
            guard let slow = track(slowBPM), let fast = track(fastBPM) else { return nil }
            return (features(slow, fast, curves), fasterIsBeat)
        }
    }

    /// Family candidates with a label (in the annotated tempo's family), for fitting `FamilyDecision`.
    public func trainingFamilies(truthBPM: Double) -> [(features: [Double], inFamily: Bool)] {
        families.map { (familyFeatures($0.bpm), FamilyDecision.sameFamily($0.bpm, truthBPM)) }
    }

    static func mean(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count) }
}
