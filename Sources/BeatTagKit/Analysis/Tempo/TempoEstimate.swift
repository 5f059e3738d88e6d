/// What `TempoEstimator` concludes: the tempo, how sure, and the alternatives it weighed.
public struct TempoEstimate: Equatable, Sendable {
    public var bpm: BPM
    public var confidence: Double
    /// The best few candidates, best first (the chosen tempo included).
    public var candidates: [TempoCandidate]
    /// The runner-up octave (nil only when no other octave is in range); its `score` is the
    /// probability it is the beat, `1 - octaveProbability`.
    public var alternative: TempoCandidate?
    /// Probability that the chosen octave is the beat (from the octave decisions made); below one
    /// half where the evidence favoured, not surely, a level above `TempoRanges.reported` and its
    /// fallback is given.
    public var octaveProbability: Double
    /// What `confidence` was computed from.
    public var evidence: ConfidenceEvidence
    /// What the phase decisions did to the tracked beats.
    public var phase: PhaseDecision = .kept
}
