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
/// folded back here) on the octave pairs of ../shared/corpus-dev: leave-one-clip-out 31/37 pairs;
/// then 8/9 pairs on ../shared/corpus-real-dev and 10/10 on Fixtures/library, neither seen in
/// fitting. The kick-only cues used before (kicks half-way between slow beats, kicks on alternate
/// fast beats) scored 27/37 and added nothing next to this one. See docs/tempo.md.
public enum OctaveDecision {
    struct Features {
        /// log2(fast BPM / 120).
        var tempo: Double
        /// Kick/snare onset strength on the emptiest half-beat of the slow level's four-beat bar,
        /// over the mean on its beats, in 0…1.5.
        var slowMidpointsFilled: Double
    }

    static let weights = (tempo: -2.05, slowMidpointsFilled: 6.13)
    static let bias = -1.05
    private static let floor = 0.01

    /// `drums`: kick and snare band novelty; beats in its frames.
    static func features(slowBeats: [Double], fastBPM: Double, drums: [Float]) -> Features {
        // Two bins a beat over four beats: even bins are slow beats, odd bins the half-beats.
        let bar = MetricalProfile(novelty: drums, beats: slowBeats, binsPerBeat: 2, span: 4).values
        let onBeats = (bar[0] + bar[2] + bar[4] + bar[6]) / 4
        let emptiest = min(bar[1], bar[3], bar[5], bar[7])
        return Features(tempo: log2(fastBPM / 120), slowMidpointsFilled: min(1.5, emptiest / (onBeats + floor)))
    }

    /// Probability that the faster of the two levels (twice the slower) is the beat.
    public static func probabilityFaster(slowBeats: [Double], fastBPM: Double, drums: [Float]) -> Double {
        let f = features(slowBeats: slowBeats, fastBPM: fastBPM, drums: drums)
        let logit = weights.tempo * f.tempo + weights.slowMidpointsFilled * f.slowMidpointsFilled + bias
        return 1 / (1 + exp(-logit))
    }
}
