import Foundation

/// What the confidence is computed from, kept with the estimate so that the calibration can be
/// refitted (`scripts/fit/refit.sh`) and checked (`bench` reliability table).
public struct ConfidenceEvidence: Codable, Equatable, Sendable {
    /// Probability that the chosen octave is right, from the least certain step of the octave walk.
    public var octaveProbability: Double
    /// Mean body novelty on the chosen beats (units of its standard deviation).
    public var clarity: Double
    /// How sure the family is (logit units, capped at 6): the least certain of the `FamilyDecision`
    /// score over the best rival family and the `TripleDecision` log-odds; after a step by three, the
    /// latter alone; after a step by three halves, the `HemiolaDecision` log-odds alone.
    public var familyMargin: Double
    /// The chosen tempo: how error-prone a reading is depends on where it lies.
    public var bpm: Double
    /// How far the strongest onsets rise above the rest (`OnsetHeight`): it limits the confidence,
    /// outside the fitted model. Nil when unknown (curves given directly).
    public var onsetHeight: Double?

    /// The confidence above which an analysed tempo is trusted without review.
    public static let trusted = 0.8

    public static let featureNames = ["octaveLogit", "clarity", "familyMargin", "tempo", "tempoSquared"]

    public var features: [Double] {
        let p = min(max(octaveProbability, 1e-4), 1 - 1e-4)
        let tempo = log2(bpm / 120)
        return [log(p / (1 - p)), min(clarity, 6), familyMargin, tempo, tempo * tempo]
    }

    /// Logistic calibration, weighted to `TempoPrior.library`, fitted on songs the family, octave and
    /// phase models never saw (`scripts/fit/refit.sh`), so it learns how far their outputs can be
    /// trusted out of sample: the probability that the tempo is right (within 4%).
    /// (ConfidenceModel+Generated.swift, checked against `featureNames`.)
    static let model = FittedModel.load(fitted, reads: featureNames, as: "ConfidenceEvidence")

    /// Probability that the tempo is right: never above the probability that its octave is right,
    /// so a coin-toss octave never looks certain, however clear the pulse; nor above what the onsets'
    /// height allows, so audio without onsets (a tone, noise) never looks like music with a pulse.
    public var confidence: Double {
        min(Self.model.probability(features), octaveProbability, onsetHeight.map(OnsetHeight.confidenceLimit) ?? 1)
    }
}
