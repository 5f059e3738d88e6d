import Foundation

/// Picks the tempo family (a tempo up to a power of two) among the salience proposals.
///
/// Each family is read at its member in one reference octave (84–168 BPM), so that this choice
/// knows nothing of the octave, which `OctaveDecision` makes next. The evidence is how the music
/// repeats at that period and its multiples and fractions: a beat period repeats at two beats and
/// at the bar (four beats), the kicks and snares repeat at two beats, hats divide the beat in two.
/// A 3:2 or 4:3 reading repeats at its own period but not at the bar of the real beat. A score per
/// family from `model` (FamilyModel+Generated.swift: a `BlendedModel` that `scripts/fit/refit.sh` fits on the
/// development corpora and writes; docs/tempo.md).
public enum FamilyDecision {
    /// The reference octave every family is read in.
    public static let octave = 84.0..<168.0

    public static func folded(_ bpm: Double) -> Double {
        precondition(bpm > 0, "a tempo is positive")
        var x = bpm
        while x < octave.lowerBound { x *= 2 }
        while x >= octave.upperBound { x /= 2 }
        return x
    }

    /// Same family: a power-of-two apart within `tolerance`.
    public static func sameFamily(_ a: Double, _ b: Double, tolerance: Double = 0.04) -> Bool {
        let octaves = log2(a / b)
        return abs(octaves - octaves.rounded()) <= log2(1 + tolerance)
    }

    public static let featureNames = [
        "salience", "familySalience", "tempo", "tempoSquared", "allHalf", "allBeat", "allOneAndHalf", "allTwo",
        "allThree", "allFour", "lowTwo", "lowFour", "snareTwo", "hatsHalf",
        "pitchSalience", "pitchFamilySalience", "pitchBeat", "pitchFour",
    ]

    /// The fitted model (FamilyModel+Generated.swift, written by `scripts/fit/refit.sh`), checked against
    /// `featureNames` by name on first use.
    static let model = FittedModel.load(fitted, reads: featureNames, as: "FamilyDecision")

    /// `relativeSalience(bpm)`: periodicity support relative to the strongest tempo; `pitchSalience`
    /// the same for the note changes (`OnsetCurves.pitch`), which carry the pulse where nothing is
    /// struck.
    static func features(bpm: Double, frameRate: Double, periodicity: Periodicity,
                         relativeSalience: (Double) -> Double, pitchSalience: (Double) -> Double) -> [Double] {
        let f = folded(bpm)
        let period = 60 * frameRate / f
        func c(_ x: Periodicity.Curve, _ beats: Double) -> Double { periodicity.coefficient(x, lag: period * beats) }
        func logSalience(_ bpm: Double) -> Double { log(max(relativeSalience(bpm), 1e-3)) }
        func logPitch(_ bpm: Double) -> Double { log(max(pitchSalience(bpm), 1e-3)) }
        let tempo = log2(f / 120)
        return [
            logSalience(f), max(logSalience(f / 2), logSalience(f), logSalience(f * 2)), tempo, tempo * tempo,
            c(.all, 0.5), c(.all, 1), c(.all, 1.5), c(.all, 2), c(.all, 3), c(.all, 4),
            c(.low, 2), c(.low, 4), c(.snare, 2), c(.high, 0.5),
            logPitch(f), max(logPitch(f / 2), logPitch(f), logPitch(f * 2)), c(.pitch, 1), c(.pitch, 4),
        ]
    }

}
