import Foundation

/// Decides between two levels three to two apart, slow S and fast F = 1.5·S: a waltz's quarter
/// against its dotted quarter (two per bar), a 6/8 or 12/8 dotted quarter against the
/// "quarter-equivalent" of its eighths. Neither the octave walk (factors of two) nor the step by
/// three can move between them, and the family decision, trained mostly on music in four, likes a
/// waltz's two-per-bar reading: it repeats at two beats and at four, like a backbeat.
///
/// The two levels meet every two beats of S (three of F) and share one grid below them, 3·S = 2·F.
/// The evidence is read on F's tracked beats taken in threes, each with the point half-way to the
/// next (six positions, F's beats on the even ones). S's beats fall on one of F's beats and on the
/// "and" opposite it. At a right fast level (a waltz) every beat of F carries the kick or a chord
/// and its "and"s are weak; where S is the beat (12/8, F its quarter-equivalent of two eighths)
/// one "and" carries an accent as strong as the beat opposite it, and two of F's three beats are
/// weak. Per stream: S's strength at its best phase over F's mean, the strongest "and" against the
/// strongest beat, F's weakest beat over its strongest; all the same whichever beat of F starts a
/// three.
/// Also the salience ratio of the two levels, how F divides, and tempo, which (the training pairs
/// weighted to `TempoPrior.library`) act as the prior.
///
/// The answer comes from `model` (HemiolaModel+Generated.swift: a `BlendedModel` that `scripts/fit/refit.sh`
/// fits on the development corpora and writes). See docs/tempo.md.
public enum HemiolaDecision {
    public static let featureNames = [
        "tempo", "tempoSquared",
        "drumsSlowOverFast", "drumsAnd", "drumsWeakest", "kickSlowOverFast", "kickAnd", "kickWeakest",
        "snareSlowOverFast", "snareAnd", "snareWeakest", "hatsSlowOverFast", "hatsAnd", "hatsWeakest",
        "allSlowOverFast", "allAnd", "allWeakest",
        "salienceRatio", "fastHalf", "fastHatsHalf",
    ]

    /// The fitted model (HemiolaModel+Generated.swift, written by `scripts/fit/refit.sh`), checked against
    /// `featureNames` by name on first use.
    static let model = FittedModel.load(fitted, reads: featureNames, as: "HemiolaDecision")

    /// The probability at which the estimator moves to the other level: a 3:2 error is rare once
    /// the family decision, the octave walk and the step by three agree, so a coin toss must not
    /// overrule them (the same bar as a trusted tempo, `ConfidenceEvidence.trusted`).
    public static let moveAt = ConfidenceEvidence.trusted

    /// The faster level's beats below which the step does not ask: two whole threes (an empty
    /// profile is no evidence, but would read as one).
    public static let minimumBeats = 7

    /// How far from a position an onset still counts for it, in steps of the shared grid (half a
    /// beat of F): short of half, so that neighbouring positions never share an onset.
    static let window = 0.35

    /// Mean strength of a stream at the six positions of F's beats taken in threes with their "and"s.
    struct Profile {
        var positions = [Double](repeating: 0, count: 6)

        init(_ x: [Float], fastBeats: [FramePosition]) {
            var sums = [Double](repeating: 0, count: 6)
            var groups = 0
            while 3 * groups + 3 < fastBeats.count {
                for j in 0..<3 {
                    let beat = fastBeats[3 * groups + j], next = fastBeats[3 * groups + j + 1]
                    let step = (next - beat).value / 2
                    let radius = max(1, Int((step * HemiolaDecision.window).rounded()))
                    sums[2 * j] += Novelty.peak(x, around: beat, radius: radius) ?? 0
                    sums[2 * j + 1] += Novelty.peak(x, around: .midpoint(beat, next), radius: radius) ?? 0
                }
                groups += 1
            }
            positions = sums.map { $0 / Double(max(groups, 1)) }
        }

        private static let floor = 0.01
        private var beats: [Double] { [positions[0], positions[2], positions[4]] }
        /// S's mean strength at its best phase (a beat of F and the "and" opposite) over F's mean.
        var slowOverFast: Double {
            var slow = 0.0
            for k in 0..<3 { slow = max(slow, (positions[2 * k] + positions[(2 * k + 3) % 6]) / 2) }
            let fast: Double = beats.reduce(0, +) / 3
            return max(-3, min(3, log((slow + Self.floor) / (fast + Self.floor))))
        }
        /// The strongest "and"'s share of itself and the strongest beat of F, 0…1 (a ratio would
        /// run off to any size where the beats carry none of a stream, as off-beat hats leave them).
        var and: Double {
            let and = max(positions[1], positions[3], positions[5])
            return and / (and + beats.max()! + Self.floor)
        }
        /// F's weakest beat over its strongest.
        var weakest: Double { beats.min()! / (beats.max()! + Self.floor) }
    }

    /// Features of the pair in `featureNames` order.
    public static func features(slow: OctaveDecision.LevelEvidence, fast: OctaveDecision.LevelEvidence,
                                curves: OnsetCurves) -> [Double] {
        let streams = [curves.drums, curves.low, curves.snare, curves.high, curves.all].map { Profile($0, fastBeats: fast.beats) }
        let tempo = log2(fast.bpm / 120)
        return [tempo, tempo * tempo]
            + streams.flatMap { [$0.slowOverFast, $0.and, $0.weakest] }
            + [OctaveDecision.logRatio(fast.salience, slow.salience),
               fast.subdivision.half - fast.subdivision.beat, fast.subdivision.hatsHalf]
    }

    /// Probability that the faster of the two levels is the beat.
    public static func probabilityFaster(slow: OctaveDecision.LevelEvidence, fast: OctaveDecision.LevelEvidence,
                                         curves: OnsetCurves) -> Double {
        model.probability(features(slow: slow, fast: fast, curves: curves))
    }
}
