import Foundation

/// Decides between a tempo and its double from the musical evidence at the two metrical levels.
///
/// The question is which of two levels, slow S and fast F = 2S, a listener taps. The evidence:
/// - where kicks and snares fall in the slow level's four-beat bar: popular music puts a kick or
///   snare on every beat and fills half-beats only now and then, so at a level that is too slow
///   every half-beat carries one (the snare on 2 and 4 of the real tempo), while at the right level
///   some half-beat is nearly empty. Read per band: kick/bass, snare bodies, hats, all;
/// - backbeat: at the right slow level kick and snare alternate between beats;
/// - how strongly each level's periodicity and its tracked beats stand out;
/// - tempo itself: the training pairs are weighted to `TempoPrior.library` (most songs 80–140 BPM),
///   so the tempo terms and the bias act as that prior, not as a lean toward the running range.
///
/// The weights come from `scripts/fit/refit.sh` (L2-regularised logistic regression on
/// standardised features, folded back here) on the development corpora; bench reports the
/// held-out split. See docs/tempo.md.
public enum OctaveDecision {
    /// One tempo level: its tracked beats (frames, empty until tracked) and support.
    public struct LevelEvidence: Sendable {
        public var bpm: Double
        public var beats: [FramePosition]
        /// Periodicity support relative to the strongest tempo, 0…1.
        public var salience: Double
        /// Mean body novelty on the beats (pulse clarity).
        public var onBeat: Double
        /// Periodicity (autocorrelation coefficient) of all bands and of the hats at the half and
        /// quarter beat: how the level divides, which tells a dense fast groove from a slow one.
        public var subdivision: Subdivision
        public init(bpm: Double, beats: [FramePosition], salience: Double, onBeat: Double, subdivision: Subdivision = Subdivision()) {
            self.bpm = bpm
            self.beats = beats
            self.salience = salience
            self.onBeat = onBeat
            self.subdivision = subdivision
        }
    }

    public struct Subdivision: Sendable {
        public var beat = 0.0, half = 0.0, quarter = 0.0
        public var hatsHalf = 0.0, hatsQuarter = 0.0
        public init(beat: Double = 0, half: Double = 0, quarter: Double = 0, hatsHalf: Double = 0, hatsQuarter: Double = 0) {
            self.beat = beat
            self.half = half
            self.quarter = quarter
            self.hatsHalf = hatsHalf
            self.hatsQuarter = hatsQuarter
        }
    }

    public static let featureNames = [
        "tempo", "drumsEmptiestHalf", "drumsMeanHalf", "lowMeanHalf", "snareMeanHalf", "highMeanHalf",
        "allMeanHalf", "snareAlternation", "lowAlternation", "salienceRatio", "clarityRatio", "slowClarity",
        "tempoSquared", "tempoXEmptiest", "tempoXAlternation", "fastHalf", "fastQuarter", "fastHatsQuarter",
        "fastHatsHalf",
    ]

    /// Weights in `featureNames` order and the bias (see the type's comment for where they come from).
    static let model = LogisticModel(
        weights: [-0.9026, 3.7194, 0.0243, 0.2225, -0.0564, -0.6917, 0.2477, -2.3884, -2.7467, 1.9643, 1.6139, 0.2605, -3.5511, -1.0640, -1.1364, 1.2921, -1.0432, 2.4010, 2.7861],
        bias: -0.4762)
    private static let floor = 0.01

    /// How far from a beat or half-beat an onset still counts for it, in beats of the slower level.
    /// Wider than a quarter beat on purpose: a kick an eighth of the faster level off the half-beat
    /// (the "and" of 3 in a two-step) fills that beat of the faster level.
    static let window = 0.3

    /// Strength of a stream on the slow level's beats and half-beats.
    struct Profile {
        var onBeat = 0.0
        var even = 0.0, odd = 0.0
        /// Mean per half-beat position in the four-beat bar.
        var half = [Double](repeating: 0, count: 4)

        init(_ x: [Float], slowBeats: [FramePosition]) {
            var counts = [Double](repeating: 0, count: 4)
            var evenCount = 0.0, oddCount = 0.0
            let intervals = max(0, slowBeats.count - 1)
            for i in 0..<intervals {
                let length = slowBeats[i + 1] - slowBeats[i]
                let radius = Int((length.value * OctaveDecision.window).rounded())
                let on = Novelty.peak(x, around: slowBeats[i], radius: radius) ?? 0
                onBeat += on
                if i % 2 == 0 { even += on; evenCount += 1 } else { odd += on; oddCount += 1 }
                half[i % 4] += Novelty.peak(x, around: slowBeats[i] + length / 2, radius: radius) ?? 0
                counts[i % 4] += 1
            }
            onBeat /= Double(max(intervals, 1))
            even /= max(evenCount, 1)
            odd /= max(oddCount, 1)
            for k in 0..<4 { half[k] /= max(counts[k], 1) }
        }

        var emptiestHalf: Double { min(1.5, (half.min() ?? 0) / (onBeat + OctaveDecision.floor)) }
        var meanHalf: Double { min(1.5, half.reduce(0, +) / 4 / (onBeat + OctaveDecision.floor)) }
        var alternation: Double { abs(even - odd) / (even + odd + OctaveDecision.floor) }
    }

    /// Features of the pair in `featureNames` order.
    public static func features(slow: LevelEvidence, fast: LevelEvidence, curves: OnsetCurves) -> [Double] {
        let drums = Profile(curves.drums, slowBeats: slow.beats)
        let low = Profile(curves.low, slowBeats: slow.beats)
        let snare = Profile(curves.snare, slowBeats: slow.beats)
        let high = Profile(curves.high, slowBeats: slow.beats)
        let all = Profile(curves.all, slowBeats: slow.beats)
        func ratio(_ a: Double, _ b: Double) -> Double { max(-3, min(3, log(max(a, 1e-3) / max(b, 1e-3)))) }
        let tempo = log2(fast.bpm / 120)
        let sub = fast.subdivision
        return [
            tempo, drums.emptiestHalf, drums.meanHalf, low.meanHalf, snare.meanHalf, high.meanHalf,
            all.meanHalf, snare.alternation, low.alternation, ratio(fast.salience, slow.salience),
            ratio(fast.onBeat, slow.onBeat), min(6, slow.onBeat),
            tempo * tempo, tempo * drums.emptiestHalf, tempo * snare.alternation,
            sub.half - sub.beat, sub.quarter - sub.beat, sub.hatsQuarter, sub.hatsHalf,
        ]
    }

    /// Probability that the faster of the two levels is the beat.
    public static func probabilityFaster(slow: LevelEvidence, fast: LevelEvidence, curves: OnsetCurves) -> Double {
        model.probability(features(slow: slow, fast: fast, curves: curves))
    }
}
