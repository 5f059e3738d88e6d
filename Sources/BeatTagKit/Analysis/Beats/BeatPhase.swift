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
        guard let start = curves.musicStart, let phase = startPhase(of: start, on: beats) else { return 0 }
        return -cos(2 * Double.pi * phase)
    }

    /// Phase (0..<1) of `frame` on the grid of the nine tracked beats nearest it: their median
    /// interval as the period, their circular mean phase as the grid. The beats nearest the start
    /// are the tracker's least certain (its path begins where the music does, before the period
    /// has settled), and read from the first beat and its interval alone, a start on the beat could
    /// read as half-way: on a blues of the real fit set the first beat came 150 ms late, the start
    /// read at 0.55 where the annotated grid puts it at 0.9, and the phase model moved a right grid
    /// (version 45). Nil with fewer than four beats, when the frame lies more than four beats
    /// outside the tracked run, or when the nine do not share a grid (their phases' resultant
    /// length below half).
    static func startPhase(of frame: FramePosition, on beats: [FramePosition]) -> Double? {
        guard beats.count >= 4 else { return nil }
        let nearest = nearestIndex(to: frame, in: beats)
        let first = max(0, min(nearest - 4, beats.count - 9))
        let run = beats[first...min(beats.count - 1, first + 8)]
        let intervals = zip(run, run.dropFirst()).map { ($1 - $0).value }.sorted()
        let period = intervals[intervals.count / 2]
        guard period > 0, abs((frame - beats[nearest]).value) / period <= 4 else { return nil }
        let mean = circularMean(of: run.map { 2 * Double.pi * (frame - $0).value / period })
        // Beats that do not share one grid (rubato, a tracker still settling) give no phase.
        guard mean.length >= 0.5 * Double(run.count) else { return nil }
        let phase = mean.direction / (2 * Double.pi)
        return phase - phase.rounded(.down)
    }

    /// The mean direction (radians, as `atan2` gives it) and the resultant length (0 to the count:
    /// how far they agree) of angles: phases read around the circle of one beat.
    static func circularMean(of angles: [Double]) -> (direction: Double, length: Double) {
        var x = 0.0, y = 0.0
        for angle in angles {
            x += cos(angle)
            y += sin(angle)
        }
        return (atan2(y, x), (x * x + y * y).squareRoot())
    }

    /// Index of the beat nearest `frame` (`beats` not empty).
    static func nearestIndex(to frame: FramePosition, in beats: [FramePosition]) -> Int {
        beats.indices.min { abs((beats[$0] - frame).value) < abs((beats[$1] - frame).value) }!
    }

    /// Phase (0..<1) of `frame` on the beat grid, measured from the nearest tracked beat with the
    /// interval there; nil when the frame lies more than four beats outside the tracked run.
    static func phase(of frame: FramePosition, on beats: [FramePosition]) -> Double? {
        guard beats.count >= 2 else { return nil }
        let i = nearestIndex(to: frame, in: beats)
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
        decision(beats: beats, curves: curves).halfBeat
    }

    /// `shouldShift`, with the probability it was decided on (nil where the evidence is too thin to ask).
    static func decision(beats: [FramePosition], curves: OnsetCurves) -> PhaseDecision {
        guard beats.count >= 8 else { return .kept }
        let onsets = beats.reduce(0.0) { $0 + (Novelty.peak(curves.all, around: $1, radius: 2) ?? 0) } / Double(beats.count)
        guard onsets > 0.1 else { return .kept }
        let p = probabilityShifted(beats: beats, curves: curves)
        return PhaseDecision(halfBeat: p >= 0.5, halfBeatProbability: p)
    }

    /// The beats put on the beat. The tracker can change phase where the music changes (a drumless
    /// intro on the beat, then off-beat hats and bass pulling it onto the "and"s): one of the two
    /// sides of such a half-beat jump is off. The run is first made consistent (every stretch after
    /// an odd number of jumps moved half a beat), then the whole of it is decided on all its evidence.
    public static func decided(beats: [FramePosition], curves: OnsetCurves) -> (beats: [FramePosition], decision: PhaseDecision) {
        decided(aligned: aligned(beats, curves: curves), curves: curves)
    }

    /// Beats already made one phase (`aligned(_:curves:)`), moved half a beat if the phase model
    /// says the "and"s are the beat.
    static func decided(aligned: [FramePosition], curves: OnsetCurves) -> (beats: [FramePosition], decision: PhaseDecision) {
        let decision = decision(beats: aligned, curves: curves)
        return (decision.halfBeat ? shifted(aligned) : aligned, decision)
    }

    /// The beats made one phase as the analysis makes them: jumps, and slow slides where the phase
    /// model reads the two sides apart (`phasesDiffer`).
    static func aligned(_ beats: [FramePosition], curves: OnsetCurves) -> [FramePosition] {
        aligned(beats, phasesDiffer: phasesDiffer(beats, curves: curves))
    }

    /// The beats with every other stretch between half-beat jumps moved half a beat, so that all
    /// stretches share the first one's phase. The tracker's beats while it slides from one phase to
    /// the other are dropped and the gap filled at the median period of the stretch after it (its
    /// first interval can still be the slide's). `phasesDiffer`: see `halfBeatJumps`.
    static func aligned(_ beats: [FramePosition], phasesDiffer: ((Range<Int>, Range<Int>) -> Bool)? = nil) -> [FramePosition] {
        let stretches = halfBeatJumps(beats, phasesDiffer: phasesDiffer)
        guard stretches.count > 1 else { return beats }
        var out: [FramePosition] = []
        for (k, range) in stretches.enumerated() {
            let stretch = Array(beats[range])
            // Moved, a stretch gets a beat before its first, placed by its first interval; after a
            // slide that can still be the slide's, and the gap is filled at the period anyway.
            var moved = k % 2 == 1 ? Array(shifted(stretch).dropFirst()) : stretch
            if let last = out.last {
                let intervals = zip(stretch, stretch.dropFirst()).prefix(8).map { ($1 - $0).value }.sorted()
                guard !intervals.isEmpty else { continue }
                let period = (intervals[(intervals.count - 1) / 2] + intervals[intervals.count / 2]) / 2
                while let first = moved.first, (first - last).value < 0.5 * period { moved.removeFirst() }
                guard let first = moved.first else { continue }
                let gap = (first - last).value, steps = max(1, Int((gap / period).rounded()))
                out += (1..<steps).map { FramePosition(last.value + gap * Double($0) / Double(steps)) }
            }
            out += moved
        }
        return out
    }

    /// Whether the phase model reads two runs of `beats` (index ranges) at different phases, one on
    /// the beat and the other on the "and"s, each at p below 0.3 or above 0.7. Read on a run alone,
    /// without the start cue, it says "shift" at 0.6–0.8 on runs that are on the beat too; a coin
    /// toss on either side cut right grids (a drifting afrobeat, metal, bossa) as often as it found
    /// a slide (the simulation for version 41 in docs/tempo.md).
    static func phasesDiffer(_ beats: [FramePosition], curves: OnsetCurves) -> (Range<Int>, Range<Int>) -> Bool {
        { before, after in
            let p = [before, after].map { probabilityShifted(beats: Array(beats[$0]), curves: curves) }
            return (p[0] < 0.3 && p[1] > 0.7) || (p[0] > 0.7 && p[1] < 0.3)
        }
    }

    /// Stretches of `beats` (index ranges) either side of the places where the tracker jumps half a
    /// beat: eight steady intervals, then within five beats a move of 0.35–0.65 beats, then eight
    /// more as steady at the same period. A tempo change (rubato, a new section) changes the period
    /// and is not a jump; the tracker sliding onto the "and"s keeps it. How steady depends on the
    /// song: where its tempo holds (the local period's quartiles within 3%), a phase move can only be
    /// the tracker, and runs within 8% of their median at periods within 2.5% qualify; elsewhere
    /// within 4% at periods within 1.5%, since looser limits cut rubato piano and guitar where
    /// nothing jumped, and a wrong cut moves a right grid half a beat. In a song whose tempo holds,
    /// the move may also take up to 17 beats (the tracker easing onto the "and"s over a
    /// few bars, as on corpus-real-dev's PpTrip played at 82–106), with the periods either side the
    /// closer the longer it takes, and only where `phasesDiffer` says the beats before and after
    /// (up to 32 of each) sit at different phases: over that many beats a live drift of 2% moves
    /// the phase as much, and timing alone cannot tell the two. Such a move must be spread over
    /// the window (no interval 15% off: a sharp jump is left to the five-beat window, as before),
    /// and its own beats are those off the grid of the run before or after it (`slideBounds`).
    /// Without `phasesDiffer` only jumps within five beats are looked for. The beats of the slide
    /// itself belong to neither stretch.
    static func halfBeatJumps(_ beats: [FramePosition],
                              phasesDiffer: ((Range<Int>, Range<Int>) -> Bool)? = nil) -> [Range<Int>] {
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
        // A slide over more beats (the tracker easing onto the "and"s over a few bars) only where the
        // tempo holds and the phase model reads the two sides at different phases, and with the
        // periods either side closer the longer it is: a period 1% off moves the phase a tenth of
        // a beat in ten.
        let slides = steadySong && phasesDiffer != nil ? [4, 8, 12, 16] : [4]
        var stretches: [Range<Int>] = []
        var start = 0, i = 9
        scan: while i + 12 < n {
            if let before = steadyPeriod(endingAt: i - 1) {
                for length in slides where i + length + 8 < n {
                    guard let after = steadyPeriod(endingAt: i + length + 8),
                          abs(after / before - 1) < min(sameRate, 0.2 / Double(length)) else { continue }
                    let moved = (beats[i + length] - beats[i - 1]).value / ((before + after) / 2)
                    guard abs(moved - moved.rounded()) >= 0.35 else { continue }
                    var (end, next) = (i, i + length)
                    if length > 4 {
                        guard let phasesDiffer, intervals[(i - 1)..<(i + length)].allSatisfy({ abs($0 / before - 1) < 0.15 }) else { continue }
                        (end, next) = slideBounds(beats, window: i..<(i + length), before: before, after: after)
                        guard phasesDiffer(max(start, end - 32)..<end, next..<min(n, next + 32)) else { continue }
                    }
                    stretches.append(start..<end)
                    start = next
                    i += length + 8
                    continue scan
                }
            }
            i += 1
        }
        return stretches + [start..<n]
    }

    /// Where a slow slide over `window` (beat `window.lowerBound - 1` on the grid before it, beat
    /// `window.upperBound + 8` on the grid after it) starts and ends: the first beat of the window
    /// 0.06 beats off the grid before (the end of the first stretch), and the first from which
    /// every beat to the window's end is within 0.06 of the grid after (the start of the next).
    /// Read on the grids, not interval by interval: a loosely played beat is off its neighbour by a
    /// few %, but not off the grid; at 80 BPM 0.06 beats is 45 ms, well inside a beat's ±70 ms.
    static func slideBounds(_ beats: [FramePosition], window: Range<Int>, before: Double, after: Double) -> (end: Int, next: Int) {
        func off(_ k: Int, from anchor: Int, period: Double) -> Bool {
            let x = (beats[k] - beats[anchor]).value / period
            return abs(x - x.rounded()) >= 0.06
        }
        let end = window.first { off($0, from: window.lowerBound - 1, period: before) } ?? window.upperBound
        let lastBefore = (end...(window.upperBound + 7)).last { off($0, from: window.upperBound + 8, period: after) }
        return (end, max(end, lastBefore.map { $0 + 1 } ?? end))
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
