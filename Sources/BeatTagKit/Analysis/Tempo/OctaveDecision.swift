import Foundation

/// Decides between a tempo and its double from where the drums fall.
///
/// Popular music puts a kick or a snare on every beat and fills the half-beats only now and then
/// (syncopated kicks, ghost notes) or with hats. So at a level that is too slow (rock at 154 read
/// as 77) every half-beat of the bar carries a kick or snare onset (the snare on 2 and 4 of the
/// real tempo), while at the right level at least one half-beat in the bar is nearly empty. The
/// feature is the emptiest half-beat of a four-beat bar against the slow beats, in the kick and
/// snare bands (below 1 kHz, under most hat energy). Log-tempo adds how music is written: the
/// faster reading grows less likely the faster it is.
///
/// The two weights were fitted (L2-regularised logistic regression on standardised features,
/// folded back here) on the octave pairs of ../shared/corpus-dev: leave-one-clip-out 33/37 pairs;
/// then 8/9 pairs on ../shared/corpus-real-dev, 10/10 on Fixtures/library and 52/60 on a synthetic
/// 60–200 BPM sweep, none seen in fitting. The kick-only cues used before (kicks half-way between
/// slow beats, kicks on alternate fast beats) scored 27/37 and added nothing next to this one.
/// See docs/tempo.md.
public enum OctaveDecision {
    struct Features {
        /// log2(fast BPM / 120).
        var tempo: Double
        /// Kick/snare onset strength on the emptiest half-beat of the slow level's four-beat bar,
        /// over the mean on its beats, in 0…1.5.
        var slowMidpointsFilled: Double
    }

    static let weights = (tempo: -1.89, slowMidpointsFilled: 5.88)
    static let bias = -1.19
    private static let floor = 0.01

    /// How far from a beat or half-beat an onset still counts for it, in beats of the slower level.
    /// Wider than a quarter beat on purpose: a kick anticipating or delaying the half-beat by an
    /// eighth of the faster level (the "and" of 3 in a two-step) fills that beat of the faster
    /// level. At exactly a quarter the answer flipped with the tempo.
    static let window = 0.3

    /// `drums`: kick and snare band novelty; beats in its frames.
    static func features(slowBeats: [Double], fastBPM: Double, drums: [Float]) -> Features {
        // On-beat strength over the whole track; half-beat strength per position in the four-beat bar.
        var onBeats = 0.0, halfBeats = [Double](repeating: 0, count: 4), counts = [Double](repeating: 0, count: 4)
        let intervals = max(0, slowBeats.count - 1)
        for i in 0..<intervals {
            let length = slowBeats[i + 1] - slowBeats[i]
            let radius = Int((length * window).rounded())
            onBeats += Novelty.peak(drums, around: slowBeats[i], radius: radius) ?? 0
            halfBeats[i % 4] += Novelty.peak(drums, around: slowBeats[i] + length / 2, radius: radius) ?? 0
            counts[i % 4] += 1
        }
        let onMean = onBeats / Double(max(intervals, 1))
        let emptiest = (0..<4).map { halfBeats[$0] / max(counts[$0], 1) }.min() ?? 0
        return Features(tempo: log2(fastBPM / 120), slowMidpointsFilled: min(1.5, emptiest / (onMean + floor)))
    }

    /// Probability that the faster of the two levels (twice the slower) is the beat.
    public static func probabilityFaster(slowBeats: [Double], fastBPM: Double, drums: [Float]) -> Double {
        let f = features(slowBeats: slowBeats, fastBPM: fastBPM, drums: drums)
        let logit = weights.tempo * f.tempo + weights.slowMidpointsFilled * f.slowMidpointsFilled + bias
        return 1 / (1 + exp(-logit))
    }
}
