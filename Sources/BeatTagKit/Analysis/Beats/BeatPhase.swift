import Foundation

/// On the beat, or half a beat off? The tracker follows the strongest onsets, and in off-beat-heavy
/// music (a techno open hat, a reggae skank, polka's "pah", punk's snare on every "and") those are
/// the "and"s. What tells the two phases apart is accent structure: the beats of a bar differ from
/// each other (kick on 1 and 3, snare on 2 and 4, the downbeat strongest) while the "and"s are much
/// alike (hats, skanks). Per band (kick, snare, hats, all, body), the mean strength on the beats and
/// the half-beats, and how much the four beats of the bar vary and peak compared with the four
/// half-beats, go into `model` (PhaseModel+Generated.swift: a `BlendedModel` fitted like the tempo models by
/// `scripts/fit/refit.sh`).
/// One more cue is where the music starts: a piece, a loop or a render starts on a beat far more
/// often than between two (`startHalf`); an excerpt or an upbeat start weakens it, and the fit
/// learns by how much from a corpus that has both.
/// The last cues do not depend on the drums at all: chords, bass notes and the mix change on beats
/// far more often than between them, while off-beat hats and skanks repeat the same sound. How much
/// the band spectrum and the chromagram change across each tracked beat, against across each
/// half-beat (`changeFeatures`).
public enum BeatPhase {
    public static let featureNames = ["low", "snare", "high", "all", "body"].flatMap { ["\($0)Ratio", "\($0)Spread", "\($0)Peak"] }
        + ["startHalf", "timbreChange", "timbreChangeTop", "chordChange", "chordChangeTop"]

    /// The fitted model (PhaseModel+Generated.swift, written by `scripts/fit/refit.sh`), checked against
    /// `featureNames` by name on first use.
    static let model = FittedModel.load(fitted, reads: featureNames, as: "BeatPhase")

    /// Features of tracked beats (frames) in `featureNames` order.
    public static func features(beats: [FramePosition], curves: OnsetCurves) -> [Double] {
        accentFeatures(beats: beats, curves: curves) + [startHalf(beats: beats, curves: curves)]
            + changeFeatures(beats: beats, curves: curves, frames: curves.spectrum)
            + changeFeatures(beats: beats, curves: curves, frames: curves.chroma)
    }

    /// log(change across the beats / change across the half-beats), each side of a position half a
    /// beat long: over all of them, and over the top quarter of each (chords change rarely, on few
    /// beats, and the mean drowns them). Zeros when there is nothing to compare.
    static func changeFeatures(beats: [FramePosition], curves: OnsetCurves, frames: SpectralFrames?) -> [Double] {
        guard let frames, beats.count >= 2 else { return [0, 0] }
        var on: [Double] = [], off: [Double] = []
        for i in 0..<(beats.count - 1) {
            let beat = curves.time(of: beats[i]), next = curves.time(of: beats[i + 1])
            let half = Seconds((next - beat).value / 2)
            if let c = frames.change(at: beat, window: half) { on.append(c) }
            if let c = frames.change(at: beat + half, window: half) { off.append(c) }
        }
        return contrast(on, off)
    }

    /// log(a / b) of the means and of the top quarters' means (`changeFeatures`); zeros when either
    /// side is empty.
    static func contrast(_ a: [Double], _ b: [Double]) -> [Double] {
        guard !a.isEmpty, !b.isEmpty else { return [0, 0] }
        func ratio(_ x: Double, _ y: Double) -> Double { log((x + 1e-6) / (y + 1e-6)) }
        return [ratio(mean(a), mean(b)), ratio(a.topQuarterMean, b.topQuarterMean)]
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

    /// The beats put on the beat. The tracker can change phase where the music changes (a drumless
    /// intro on the beat, then off-beat hats and bass pulling it onto the "and"s): one of the two
    /// sides of such a half-beat jump is off. The run is first made consistent (every stretch after
    /// an odd number of jumps moved half a beat), then the whole of it is decided on all its evidence.
    public static func decided(beats: [FramePosition], curves: OnsetCurves) -> [FramePosition] {
        let consistent = aligned(beats)
        return shouldShift(beats: consistent, curves: curves) ? shifted(consistent) : consistent
    }

    /// The beats with every other stretch between half-beat jumps moved half a beat, so that all
    /// stretches share the first one's phase. The tracker's beats while it slides from one phase to
    /// the other are dropped and the gap filled at the period on either side.
    static func aligned(_ beats: [FramePosition]) -> [FramePosition] {
        let stretches = halfBeatJumps(beats)
        guard stretches.count > 1 else { return beats }
        var out: [FramePosition] = []
        for (k, range) in stretches.enumerated() {
            let stretch = Array(beats[range])
            var moved = k % 2 == 1 ? shifted(stretch) : stretch
            if let last = out.last {
                let period = (stretch[1] - stretch[0]).value
                while let first = moved.first, (first - last).value < 0.5 * period { moved.removeFirst() }
                guard let first = moved.first else { continue }
                let gap = (first - last).value, steps = max(1, Int((gap / period).rounded()))
                out += (1..<steps).map { FramePosition(last.value + gap * Double($0) / Double(steps)) }
            }
            out += moved
        }
        return out
    }

    /// Stretches of `beats` (index ranges) either side of the places where the tracker jumps half a
    /// beat: eight steady intervals, then within five beats a move of 0.35–0.65 beats, then eight
    /// more as steady at the same period. A tempo change (rubato, a new section) changes the period
    /// and is not a jump; the tracker sliding onto the "and"s keeps it. How steady depends on the
    /// song: where its tempo holds (the local period's quartiles within 3%), a phase move can only be
    /// the tracker, and runs within 8% of their median at periods within 2.5% qualify; elsewhere
    /// within 4% at periods within 1.5%, since looser limits cut rubato piano and guitar where
    /// nothing jumped, and a wrong cut moves a right grid half a beat. The beats of the slide itself
    /// belong to neither stretch.
    static func halfBeatJumps(_ beats: [FramePosition]) -> [Range<Int>] {
        let n = beats.count
        guard n >= 22 else { return [0..<n] }
        let intervals = (1..<n).map { (beats[$0] - beats[$0 - 1]).value }
        /// median[last - 8]: the median of the eight intervals ending at beat `last`.
        let median = (8..<n).map { last -> Double in
            let run = intervals[(last - 8)..<last].sorted()
            return (run[3] + run[4]) / 2
        }
        let local = median.sorted()
        let steadySong = local[local.count * 3 / 4] / local[local.count / 4] - 1 <= 0.03
        let (spread, sameRate) = steadySong ? (0.08, 0.025) : (0.04, 0.015)
        /// That median, when all eight intervals lie within `spread` of it.
        func steadyPeriod(endingAt last: Int) -> Double? {
            let m = median[last - 8]
            return intervals[(last - 8)..<last].allSatisfy { abs($0 / m - 1) < spread } ? m : nil
        }
        var stretches: [Range<Int>] = []
        var start = 0, i = 9
        while i + 12 < n {
            if let before = steadyPeriod(endingAt: i - 1), let after = steadyPeriod(endingAt: i + 12), abs(after / before - 1) < sameRate {
                let moved = (beats[i + 4] - beats[i - 1]).value / ((before + after) / 2)
                if abs(moved - moved.rounded()) >= 0.35 {
                    stretches.append(start..<i)
                    start = i + 4
                    i += 12
                    continue
                }
            }
            i += 1
        }
        return stretches + [start..<n]
    }

    /// Probability that the half-beats, not the tracked beats, are the beat.
    public static func probabilityShifted(beats: [FramePosition], curves: OnsetCurves) -> Double {
        model.probability(features(beats: beats, curves: curves))
    }

    /// The beats moved half a beat: the midpoints, plus the half-beat before the first beat (when not
    /// before frame 0: it is the first real beat when the tracker sat on the "and"s) and after the last.
    public static func shifted(_ beats: [FramePosition]) -> [FramePosition] {
        moved(beats, by: 0.5)
    }

    /// The beats moved `fraction` (0 ≤ fraction < 1) of the way to the next one, plus the moved beat
    /// before the first (when not before frame 0) and after the last, each by its neighbouring interval.
    public static func moved(_ beats: [FramePosition], by fraction: Double) -> [FramePosition] {
        guard beats.count >= 2, fraction > 0 else { return beats }
        let first = beats[0] - (beats[1] - beats[0]) * (1 - fraction)
        var out = first >= FramePosition(0) ? [first] : []
        out += zip(beats, beats.dropFirst()).map { $0 + ($1 - $0) * fraction }
        out.append(beats[beats.count - 1] + (beats[beats.count - 1] - beats[beats.count - 2]) * fraction)
        return out
    }

    private static func mean(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count) }
    /// Population standard deviation.
    private static func spread(_ x: [Double]) -> Double {
        let m = mean(x)
        return (x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(max(x.count, 1))).squareRoot()
    }
}
