import Foundation

/// Decides between a tempo and its double from where the kicks fall.
///
/// Kick drums mark the beat level: half-way between the beats of a level that is too slow (rock
/// read at 77 instead of 154) the low band still has kicks; a level that is too fast (hip-hop read
/// at 180 instead of 90) alternates kick / no kick from one pulse to the next. These two
/// measurements on kick-band metrical profiles, plus log-tempo (how music is written: the faster
/// reading grows less likely above ~150 BPM), feed a logistic model. Each feature enters with the
/// sign the music implies; a candidate that fitted the data better but had no musical reason
/// (kicks between fast-level beats) was dropped because it failed on unseen clean drum patterns.
///
/// The weights were fitted (L2-regularised logistic regression on standardised features, folded
/// back here) on the octave pairs of ../shared/corpus-dev: leave-one-clip-out 27/34 there; then
/// 6/8 on ../shared/corpus-real-dev and 8/8 on Fixtures/library, neither seen in fitting.
/// See docs/tempo.md.
public enum OctaveDecision {
    struct Features {
        /// log2(fast BPM / 120).
        var tempo: Double
        /// log of kick strength half-way between slow-level beats over kick strength on them, in -3…1.
        var slowMidpoints: Double
        /// How unequal the kicks on alternate fast-level beats are (0 = equal, 1 = every other one empty).
        var fastAlternation: Double
    }

    static let weights = (tempo: -2.309, slowMidpoints: 0.824, fastAlternation: -3.775)
    static let bias = 3.553
    private static let floor = 0.01

    static func features(slowBeats: [Double], fastBPM: Double, fastBeats: [Double], kick: [Float]) -> Features {
        // Profiles span two beats at 8 bins a beat: bins 0 and 8 are beats, 4 and 12 half-beats.
        let slow = MetricalProfile(novelty: kick, beats: slowBeats).values
        let fast = MetricalProfile(novelty: kick, beats: fastBeats).values
        let midpoints = log(((slow[4] + slow[12]) / 2 + floor) / ((slow[0] + slow[8]) / 2 + floor))
        return Features(tempo: log2(fastBPM / 120), slowMidpoints: min(1, max(-3, midpoints)),
                        fastAlternation: abs(fast[0] - fast[8]) / (fast[0] + fast[8] + floor))
    }

    /// Probability that the faster of the two levels is the beat. Beats in frames of `kick`.
    public static func probabilityFaster(slowBeats: [Double], fastBPM: Double, fastBeats: [Double], kick: [Float]) -> Double {
        let f = features(slowBeats: slowBeats, fastBPM: fastBPM, fastBeats: fastBeats, kick: kick)
        let logit = weights.tempo * f.tempo + weights.slowMidpoints * f.slowMidpoints
            + weights.fastAlternation * f.fastAlternation + bias
        return 1 / (1 + exp(-logit))
    }
}
