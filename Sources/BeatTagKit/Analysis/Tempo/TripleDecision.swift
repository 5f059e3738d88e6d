import Foundation

/// Decides between a tempo and its triple: which of two levels, slow S and fast F = 3S, a listener
/// taps. The octave walk only moves by factors of two, so it cannot leave a 6/8 song read at the
/// eighth (3× the dotted quarter) or a waltz read at the bar (⅓ of the quarter).
///
/// The evidence is read on F's tracked beats taken in threes (the first of each three a beat of S):
/// - how each stream fills the three positions, sorted so that it does not matter which beat of a
///   three the tracker started on. At a right slow level (6/8 read at the eighth) one position
///   carries the kick or snare and the others are nearly empty; at a right fast level (a waltz's
///   quarters) every position carries one (kick on 1, snare or chord on 2 and 3);
/// - whether F itself divides in two (a waltz's quarter holds eighths; a 6/8 eighth rarely divides);
/// - how strongly each level stands out, and tempo: the training pairs are weighted to
///   `TempoPrior.library`, so the tempo terms act as that prior.
///
/// The answer comes from `model` (TripleModel+Generated.swift: a `BlendedModel` that `scripts/fit/refit.sh`
/// fits on the development corpora and writes). See docs/tempo.md.
public enum TripleDecision {
    public static let featureNames = [
        "tempo", "tempoSquared",
        "drumsLow", "drumsMid", "kickLow", "kickMid", "snareLow", "snareMid", "hatsLow", "hatsMid", "allLow", "allMid",
        "salienceRatio", "clarityRatio", "fastHalf", "fastHatsHalf", "pitchLow", "pitchMid",
    ]

    /// The fitted model (TripleModel+Generated.swift, written by `scripts/fit/refit.sh`), checked against
    /// `featureNames` by name on first use.
    static let model = FittedModel.load(fitted, reads: featureNames, as: "TripleDecision")

    /// How far from a beat of F an onset still counts for it, in beats of F: short of half, so that
    /// neighbouring positions never share an onset.
    static let window = 0.35

    /// Strength of a stream at the three positions of F's beats grouped in threes, strongest first.
    struct Profile {
        var sorted = [Double](repeating: 0, count: 3)

        init(_ x: [Float], fastBeats: [FramePosition]) {
            var sums = [Double](repeating: 0, count: 3)
            var groups = 0
            while 3 * groups + 3 < fastBeats.count {
                let first = 3 * groups
                let length = (fastBeats[first + 3] - fastBeats[first]).value / 3
                let radius = max(1, Int((length * TripleDecision.window).rounded()))
                for j in 0..<3 {
                    sums[j] += Novelty.peak(x, around: fastBeats[first + j], radius: radius) ?? 0
                }
                groups += 1
            }
            sorted = sums.map { $0 / Double(max(groups, 1)) }.sorted(by: >)
        }

        private static let floor = 0.01
        /// The weakest and the middle position over the strongest (near 0: one accent in three).
        var low: Double { sorted[2] / (sorted[0] + Self.floor) }
        var mid: Double { sorted[1] / (sorted[0] + Self.floor) }
        /// Mean over the three positions (F's pulse clarity) and the strongest (S's, at its best phase).
        var clarity: Double { sorted.reduce(0, +) / 3 }
        var slowClarity: Double { sorted[0] }
    }

    /// Features of the pair in `featureNames` order.
    public static func features(slow: OctaveDecision.LevelEvidence, fast: OctaveDecision.LevelEvidence,
                                curves: OnsetCurves) -> [Double] {
        let drums = Profile(curves.drums, fastBeats: fast.beats)
        let low = Profile(curves.low, fastBeats: fast.beats)
        let snare = Profile(curves.snare, fastBeats: fast.beats)
        let high = Profile(curves.high, fastBeats: fast.beats)
        let all = Profile(curves.all, fastBeats: fast.beats)
        let body = Profile(curves.body, fastBeats: fast.beats)
        // The notes where nothing is struck: a 6/8 without drums changes chord and bass on the first
        // eighth of three.
        let pitch = Profile(curves.pitch, fastBeats: fast.beats)
        let tempo = log2(fast.bpm / 120)
        return [
            tempo, tempo * tempo,
            drums.low, drums.mid, low.low, low.mid, snare.low, snare.mid, high.low, high.mid, all.low, all.mid,
            OctaveDecision.logRatio(fast.salience, slow.salience), OctaveDecision.logRatio(body.clarity, body.slowClarity),
            fast.subdivision.half - fast.subdivision.beat, fast.subdivision.hatsHalf, pitch.low, pitch.mid,
        ]
    }

    /// Probability that the faster of the two levels is the beat.
    public static func probabilityFaster(slow: OctaveDecision.LevelEvidence, fast: OctaveDecision.LevelEvidence,
                                         curves: OnsetCurves) -> Double {
        model.probability(features(slow: slow, fast: fast, curves: curves))
    }
}
