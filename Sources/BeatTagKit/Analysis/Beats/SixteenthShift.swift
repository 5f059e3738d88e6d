import Foundation

/// A sixteenth early or late? After the half-beat decision (`BeatPhase`) the tracker can still sit a
/// sixteenth off the beat: on a samba's tamborim on the last sixteenth, on a pickup that carries
/// more accent than the beat, on a swung hip-hop's "a". For each candidate move (one later, one
/// earlier: a quarter of a beat when straight, less or more where swing moves the sixteenths,
/// `candidateMoves`), the evidence is much as for the phase, read at the moved beats against the
/// tracked ones: onset strength in the kick, body, all and hat bands, and how much the band
/// spectrum and the chromagram change there (chords change on the beat, not a sixteenth before
/// it). A logistic model fitted like the others (`scripts/fit/refit.sh`) gives the probability
/// that the move is better; the more probable move is made at p ≥ 0.5.
public enum SixteenthShift {
    public static let featureNames = ["low", "body", "all", "high"].map { "\($0)Ratio" }
        + ["timbreChange", "timbreChangeTop", "chordChange", "chordChangeTop", "later"]

    /// Fitted by `scripts/fit/refit.sh` (SixteenthModel+Generated.swift), checked against `featureNames`.
    static let model = FittedModel.load(fitted, reads: featureNames, as: "SixteenthShift")

    /// Features of moving `beats` by `fraction` of a beat (one of `candidateMoves`), in `featureNames` order.
    public static func features(beats: [FramePosition], curves: OnsetCurves, fraction: Double) -> [Double] {
        let moved = self.moved(beats, by: fraction)
        let pairs = Array(zip(moved, beats.dropLast()))
        func peaks(_ x: [Float], _ at: [FramePosition]) -> Double {
            at.reduce(0.0) { $0 + (Novelty.peak(x, around: $1, radius: 2) ?? 0) } / Double(max(at.count, 1))
        }
        let onsets = [curves.low, curves.body, curves.all, curves.high].map { x in
            log((peaks(x, pairs.map(\.0)) + 0.05) / (peaks(x, pairs.map(\.1)) + 0.05))
        }
        func change(_ frames: SpectralFrames?) -> [Double] {
            guard let frames, beats.count >= 3 else { return [0, 0] }
            var at: [Double] = [], base: [Double] = []
            for i in 0..<(beats.count - 1) {
                let half = Seconds((curves.time(of: beats[i + 1]) - curves.time(of: beats[i])).value / 2)
                if let a = frames.change(at: curves.time(of: moved[i]), window: half),
                   let b = frames.change(at: curves.time(of: beats[i]), window: half) {
                    at.append(a)
                    base.append(b)
                }
            }
            return BeatPhase.contrast(at, base)
        }
        return onsets + change(curves.spectrum) + change(curves.chroma) + [fraction > 0 ? 1 : -1]
    }

    /// The moves to weigh, one later and one earlier: where the onsets lie a sixteenth or so from
    /// the tracked beats. Straight, that is a quarter of the beat; swing puts the "e" and the "a"
    /// later (at a swing of 0.6 the "a" sits 0.2 beats before the beat), and a quarter-beat move
    /// from a tracker sitting on a swung "a" would miss the beat by more than the peak search
    /// reaches. Each move is the fraction in 0.15–0.35 whose moved beats hold the most onset
    /// strength (the middle one where several land on the same frames), when that is a peak inside
    /// the range; else a quarter.
    public static func candidateMoves(beats: [FramePosition], curves: OnsetCurves) -> [Double] {
        let steps = (15...35).map { Double($0) / 100 }
        return [1.0, -1.0].map { direction in
            let strength = steps.map { f in
                moved(beats, by: direction * f).reduce(0.0) { $0 + (Novelty.peak(curves.all, around: $1, radius: 0) ?? 0) }
            }
            let top = strength.max() ?? 0
            let tied = strength.indices.filter { strength[$0] == top }
            let best = tied[tied.count / 2]
            guard top > 0, best > 0, best < steps.count - 1 else { return direction * 0.25 }
            return direction * steps[best]
        }
    }

    /// Each beat but the last moved `fraction` of the interval to the next one.
    static func moved(_ beats: [FramePosition], by fraction: Double) -> [FramePosition] {
        zip(beats, beats.dropFirst()).map { FramePosition($0.value + fraction * ($1 - $0).value) }
    }

    /// The beats, moved a sixteenth (`candidateMoves`) when the evidence says so; the last beat keeps
    /// the interval before it.
    public static func decided(beats: [FramePosition], curves: OnsetCurves) -> [FramePosition] {
        decision(beats: beats, curves: curves).beats
    }

    /// `decided`, with the fraction of a beat the beats moved (0 where they stayed).
    static func decision(beats: [FramePosition], curves: OnsetCurves) -> (beats: [FramePosition], fraction: Double) {
        guard beats.count >= 8 else { return (beats, 0) }
        let best = candidateMoves(beats: beats, curves: curves)
            .map { ($0, model.probability(features(beats: beats, curves: curves, fraction: $0))) }
            .max { $0.1 < $1.1 }!
        guard best.1 >= 0.5 else { return (beats, 0) }
        let last = beats[beats.count - 1].value + best.0 * (beats[beats.count - 1] - beats[beats.count - 2]).value
        return ((moved(beats, by: best.0) + [FramePosition(last)]).filter { $0 >= FramePosition(0) }, best.0)
    }
}
