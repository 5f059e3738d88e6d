import Foundation

/// A sixteenth early or late? After the half-beat decision (`BeatPhase`) the tracker can still sit a
/// quarter of a beat off the beat: on a samba's tamborim on the last sixteenth, on a pickup that
/// carries more accent than the beat. For each candidate move (a quarter of a beat later or
/// earlier), the evidence is much as for the phase, read at the moved beats against the tracked
/// ones: onset strength in the kick, body, all and hat bands, and how much the band spectrum and the
/// chromagram change there
/// (chords change on the beat, not a sixteenth before it). A logistic model fitted like the others
/// (`scripts/fit/refit.sh`) gives the probability that the move is better; the more probable move is
/// made at p ≥ 0.5.
public enum SixteenthShift {
    public static let featureNames = ["low", "body", "all", "high"].map { "\($0)Ratio" }
        + ["timbreChange", "timbreChangeTop", "chordChange", "chordChangeTop", "later"]

    static let model = LogisticModel(
        weights: [0.4157, 0.1505, 0.2557, 0.4812, 0.8860, 3.8703, 1.2957, 8.9829, 0.3680],
        bias: -0.4846)

    /// Features of moving `beats` by `fraction` of a beat (±0.25), in `featureNames` order.
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

    /// Each beat but the last moved `fraction` of the interval to the next one.
    static func moved(_ beats: [FramePosition], by fraction: Double) -> [FramePosition] {
        zip(beats, beats.dropFirst()).map { FramePosition($0.value + fraction * ($1 - $0).value) }
    }

    /// The beats, moved a quarter of a beat when the evidence says so; the last beat keeps the
    /// interval before it.
    public static func decided(beats: [FramePosition], curves: OnsetCurves) -> [FramePosition] {
        guard beats.count >= 8 else { return beats }
        let best = [0.25, -0.25].map { ($0, model.probability(features(beats: beats, curves: curves, fraction: $0))) }
            .max { $0.1 < $1.1 }!
        guard best.1 >= 0.5 else { return beats }
        let last = beats[beats.count - 1].value + best.0 * (beats[beats.count - 1] - beats[beats.count - 2]).value
        return (moved(beats, by: best.0) + [FramePosition(last)]).filter { $0 >= FramePosition(0) }
    }
}
