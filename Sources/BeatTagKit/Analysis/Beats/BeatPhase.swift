import Foundation

/// On the beat, or half a beat off? The tracker follows the strongest onsets, and in off-beat-heavy
/// music (a techno open hat, a reggae skank, polka's "pah", punk's snare on every "and") those are
/// the "and"s. What tells the two phases apart is accent structure: the beats of a bar differ from
/// each other (kick on 1 and 3, snare on 2 and 4, the downbeat strongest) while the "and"s are much
/// alike (hats, skanks). Per band (kick, snare, hats, all, body), the mean strength on the beats and
/// the half-beats, and how much the four beats of the bar vary and peak compared with the four
/// half-beats, go into a logistic model fitted like the tempo models (`scripts/fit/refit.sh`).
/// One more cue is where the music starts: a piece, a loop or a render starts on a beat far more
/// often than between two (`startHalf`); an excerpt or an upbeat start weakens it, and the fit
/// learns by how much from a corpus that has both.
public enum BeatPhase {
    public static let featureNames = ["low", "snare", "high", "all", "body"].flatMap { ["\($0)Ratio", "\($0)Spread", "\($0)Peak"] }
        + ["startHalf"]

    static let model = LogisticModel(
        weights: [-2.1223, 0.1133, 1.0926, 2.0094, -8.7355, 2.7724, 1.7048, 1.5088, -8.3977, -0.3750, 12.8722, 0.5599, -2.1799, -4.9995, -3.0421, 2.3471],
        bias: 0.1943)

    /// Features of tracked beats (frames) in `featureNames` order.
    public static func features(beats: [FramePosition], curves: OnsetCurves) -> [Double] {
        accentFeatures(beats: beats, curves: curves) + [startHalf(beats: beats, curves: curves)]
    }

    /// −cos(2π·φ), φ the phase on the tracked grid of where the music starts: −1 on a tracked
    /// beat, +1 half-way between two, 0 on a sixteenth or when the start is unknown.
    static func startHalf(beats: [FramePosition], curves: OnsetCurves) -> Double {
        guard let start = curves.musicStart, let phase = phase(of: start, on: beats) else { return 0 }
        return -cos(2 * Double.pi * phase)
    }

    /// Phase (0..<1) of `frame` on the beat grid, measured from the nearest tracked beat with the
    /// interval there; nil when the frame lies more than four beats outside the tracked run.
    static func phase(of frame: FramePosition, on beats: [FramePosition]) -> Double? {
        guard beats.count >= 2 else { return nil }
        let i = beats.indices.min { abs((beats[$0] - frame).value) < abs((beats[$1] - frame).value) }!
        let period = i + 1 < beats.count ? (beats[i + 1] - beats[i]).value : (beats[i] - beats[i - 1]).value
        let beatsAway = (frame - beats[i]).value / period
        guard period > 0, abs(beatsAway) <= 4 else { return nil }
        return beatsAway - beatsAway.rounded(.down)
    }

    static func accentFeatures(beats: [FramePosition], curves: OnsetCurves) -> [Double] {
        [curves.low, curves.snare, curves.high, curves.all, curves.body].flatMap { x -> [Double] in
            // Mean strength at the 8 half-beat positions of a four-beat bar: even = beats, odd = "and"s.
            var position = [Double](repeating: 0, count: 8), count = [Double](repeating: 0, count: 8)
            for i in 0..<max(0, beats.count - 1) {
                let k = (i % 4) * 2
                position[k] += Novelty.peak(x, around: beats[i], radius: 2) ?? 0
                position[k + 1] += Novelty.peak(x, around: .midpoint(beats[i], beats[i + 1]), radius: 2) ?? 0
                count[k] += 1
                count[k + 1] += 1
            }
            for k in 0..<8 { position[k] /= max(count[k], 1) }
            let on = stride(from: 0, to: 8, by: 2).map { position[$0] }, off = stride(from: 1, to: 8, by: 2).map { position[$0] }
            let scale = mean(on) + mean(off) + 0.05
            return [log((mean(on) + 0.05) / (mean(off) + 0.05)), (spread(on) - spread(off)) / scale,
                    ((on.max() ?? 0) - (off.max() ?? 0)) / scale]
        }
    }

    /// Shift only on evidence: enough beats for two bars, and onsets on the beats or half-beats (flat
    /// curves give all-zero features, where the bias alone would decide).
    public static func shouldShift(beats: [FramePosition], curves: OnsetCurves) -> Bool {
        guard beats.count >= 8 else { return false }
        let onsets = beats.reduce(0.0) { $0 + (Novelty.peak(curves.all, around: $1, radius: 2) ?? 0) } / Double(beats.count)
        return onsets > 0.1 && probabilityShifted(beats: beats, curves: curves) >= 0.5
    }

    /// Probability that the half-beats, not the tracked beats, are the beat.
    public static func probabilityShifted(beats: [FramePosition], curves: OnsetCurves) -> Double {
        model.probability(features(beats: beats, curves: curves))
    }

    /// The beats moved half a beat: the midpoints, plus the half-beat before the first beat (when not
    /// before frame 0: it is the first real beat when the tracker sat on the "and"s) and after the last.
    public static func shifted(_ beats: [FramePosition]) -> [FramePosition] {
        guard beats.count >= 2 else { return beats }
        let first = beats[0] - (beats[1] - beats[0]) / 2
        var out = first >= FramePosition(0) ? [first] : []
        out += zip(beats, beats.dropFirst()).map { FramePosition.midpoint($0, $1) }
        out.append(beats[beats.count - 1] + (beats[beats.count - 1] - beats[beats.count - 2]) / 2)
        return out
    }

    private static func mean(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count) }
    /// Population standard deviation.
    private static func spread(_ x: [Double]) -> Double {
        let m = mean(x)
        return (x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(max(x.count, 1))).squareRoot()
    }
}
