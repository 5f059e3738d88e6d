import Foundation

/// Decides between a tempo and its double from the musical evidence at the two metrical levels.
///
/// The question is which of two levels, slow S and fast F = 2S, a listener taps. The evidence, read
/// on F's tracked beats taken in pairs (one of each pair a beat of S, the other its half-beat):
/// - how kicks and snares fill the two sets of positions: popular music puts a kick or snare on
///   every beat and fills half-beats only now and then, so at a level that is too slow both sets
///   carry one (the snare on 2 and 4 of the real tempo), while at the right level the weaker set is
///   nearly empty somewhere. Read per band: kick/bass, snare bodies, hats, all;
/// - backbeat: kicks on one set and snares on the other, or alternating within the stronger set;
/// - how strongly each level's periodicity and its tracked beats stand out;
/// - tempo itself: the training pairs are weighted to `TempoPrior.library` (most songs 80–140 BPM),
///   so the tempo terms and splits act as that prior, not as a lean toward the running range.
///
/// The answer comes from `model` (OctaveModel+Generated.swift: a `BlendedModel` that `scripts/fit/refit.sh` fits
/// on the development corpora and writes); bench reports the held-out splits. See docs/tempo.md.
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
        "tempo", "drumsEmptiest", "drumsBalance", "lowBalance", "snareBalance", "highBalance",
        "allBalance", "kickSnareOpposition", "snareAlternation", "lowAlternation", "salienceRatio", "clarityRatio",
        "slowClarity", "tempoSquared", "tempoXEmptiest", "tempoXAlternation", "fastHalf", "fastQuarter",
        "fastHatsQuarter", "fastHatsHalf", "chordEightOverFour", "chordParity", "timbreEightOverFour", "timbreParity",
    ]

    /// The fitted model (OctaveModel+Generated.swift, written by `scripts/fit/refit.sh`), checked against
    /// `featureNames` by name on first use.
    static let model = FittedModel.load(fitted, reads: featureNames, as: "OctaveDecision")

    private static let floor = 0.01

    /// How far from a beat or half-beat an onset still counts for it, in beats of the slower level.
    /// Wider than a quarter beat on purpose: a kick an eighth of the faster level off the half-beat
    /// (the "and" of 3 in a two-step) fills that beat of the faster level.
    static let window = 0.3

    /// Strength of a stream at the slow level's beats and half-beats, by position in a four-beat bar.
    ///
    /// Every feature read from it is the same whichever set is which (`beat` and `half` swapped):
    /// which of F's beats pair up is the tracker's accident, and it must not change the answer.
    struct Profile {
        /// Mean per slow beat / per half-beat, by position in the four-beat bar.
        var beat = [Double](repeating: 0, count: 4)
        var half = [Double](repeating: 0, count: 4)

        /// Positions of the bar that got at least one pair (a short track may fill fewer than four).
        private var filled = 0

        /// Read on the faster level's tracked beats, taken in pairs: the first of each pair is a slow
        /// beat, the second its half-beat. The slow level's own tracking is not used: at a level that
        /// is too slow, beats and half-beats both carry onsets and its tracker may change phase
        /// mid-song (a 1 ms shift of the audio was enough), mixing the two sets. (Where the faster
        /// level's tracker skips or adds a beat, the pairing flips from there on and the two sets
        /// mix too; that is rarer, the faster level having an onset on most beats.)
        /// `radius`: frames around each beat, else `OctaveDecision.window` of the slow beat.
        init(_ x: [Float], fastBeats: [FramePosition], radius fixedRadius: Int? = nil) {
            var counts = [Double](repeating: 0, count: 4)
            var k = 0
            while 2 * k + 2 < fastBeats.count {
                let length = fastBeats[2 * k + 2] - fastBeats[2 * k]
                let radius = fixedRadius ?? Int((length.value * OctaveDecision.window).rounded())
                beat[k % 4] += Novelty.peak(x, around: fastBeats[2 * k], radius: radius) ?? 0
                half[k % 4] += Novelty.peak(x, around: fastBeats[2 * k + 1], radius: radius) ?? 0
                counts[k % 4] += 1
                k += 1
            }
            filled = counts.filter { $0 > 0 }.count
            for k in 0..<4 {
                beat[k] /= max(counts[k], 1)
                half[k] /= max(counts[k], 1)
            }
        }

        /// Over the positions that got a pair.
        private var beatMean: Double { beat.prefix(filled).reduce(0, +) / Double(max(filled, 1)) }
        private var halfMean: Double { half.prefix(filled).reduce(0, +) / Double(max(filled, 1)) }
        /// How much the beat set outweighs the other, 0…1 (½: alike). The features below that need
        /// "the stronger set" blend the two readings by it, so that a near tie (as at a level that is
        /// too slow) moves them smoothly instead of switching between the sets.
        private var beatShare: Double { beatMean + halfMean > 0 ? beatMean / (beatMean + halfMean) : 0.5 }
        private func blend(ifBeatStrong: Double, ifHalfStrong: Double) -> Double {
            beatShare * ifBeatStrong + (1 - beatShare) * ifHalfStrong
        }

        /// Weaker positions over the stronger (1: the faster level's beats all alike; near 0: every
        /// other one empty, as at a right slow level).
        var balance: Double { min(beatMean, halfMean) / (max(beatMean, halfMean) + OctaveDecision.floor) }
        /// The emptiest of the weaker positions over the stronger: at a level that is too slow even
        /// this one carries a kick or snare.
        var emptiest: Double {
            func e(_ weak: [Double], over strong: Double) -> Double {
                min(1.5, (weak.prefix(filled).min() ?? 0) / (strong + OctaveDecision.floor))
            }
            return blend(ifBeatStrong: e(half, over: beatMean), ifHalfStrong: e(beat, over: halfMean))
        }
        /// Log of beat strength over half-beat strength: its sign flips with the phase.
        var lean: Double { max(-3, min(3, log((beatMean + OctaveDecision.floor) / (halfMean + OctaveDecision.floor)))) }
        /// Pulse clarity of the faster level (mean on all its beats) and of the slower level at its
        /// better phase.
        var clarity: Double { (beatMean + halfMean) / 2 }
        var slowClarity: Double { max(beatMean, halfMean) }
        /// How much alternate positions of the stronger set differ (kick, snare, kick, snare); 0
        /// until all four positions of the bar are filled.
        var alternation: Double {
            guard filled == 4 else { return 0 }
            func a(_ s: [Double]) -> Double { abs(s[0] + s[2] - s[1] - s[3]) / (s[0] + s[1] + s[2] + s[3] + OctaveDecision.floor) }
            return blend(ifBeatStrong: a(beat), ifHalfStrong: a(half))
        }
    }

    /// log(a / b), each floored at 0.001 and the result capped at ±3: how much one level's salience
    /// or clarity exceeds the other's (the octave, triple and hemiola features all read it so).
    static func logRatio(_ a: Double, _ b: Double) -> Double { max(-3, min(3, log(max(a, 1e-3) / max(b, 1e-3)))) }

    /// Features of the pair in `featureNames` order.
    public static func features(slow: LevelEvidence, fast: LevelEvidence, curves: OnsetCurves) -> [Double] {
        let drums = Profile(curves.drums, fastBeats: fast.beats)
        let low = Profile(curves.low, fastBeats: fast.beats)
        let snare = Profile(curves.snare, fastBeats: fast.beats)
        let high = Profile(curves.high, fastBeats: fast.beats)
        let all = Profile(curves.all, fastBeats: fast.beats)
        let body = Profile(curves.body, fastBeats: fast.beats, radius: 2)
        let tempo = log2(fast.bpm / 120)
        let sub = fast.subdivision
        // Kicks on one set of positions and snares on the other: the backbeat of the faster level.
        // The product of the two leans keeps its sign when the phase flips.
        let opposition = max(-3, min(3, -low.lean * snare.lean))
        let chords = HarmonicRhythm(beats: fast.beats, curves: curves, frames: curves.chroma)
        let timbre = HarmonicRhythm(beats: fast.beats, curves: curves, frames: curves.spectrum)
        return [
            tempo, drums.emptiest, drums.balance, low.balance, snare.balance, high.balance,
            all.balance, opposition, snare.alternation, low.alternation, logRatio(fast.salience, slow.salience),
            logRatio(body.clarity, body.slowClarity), min(6, body.slowClarity),
            tempo * tempo, tempo * drums.emptiest, tempo * snare.alternation,
            sub.half - sub.beat, sub.quarter - sub.beat, sub.hatsQuarter, sub.hatsHalf,
            chords.repeatsAtTwoBars(of: 4), chords.groupContrast(size: 2), timbre.repeatsAtTwoBars(of: 4), timbre.groupContrast(size: 2),
        ]
    }

    /// Probability that the faster of the two levels is the beat.
    public static func probabilityFaster(slow: LevelEvidence, fast: LevelEvidence, curves: OnsetCurves) -> Double {
        model.probability(features(slow: slow, fast: fast, curves: curves))
    }
}
