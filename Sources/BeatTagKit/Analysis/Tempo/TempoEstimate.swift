public struct TempoCandidate: Codable, Equatable, Sendable {
    public var bpm: Double
    /// The family's score (`FamilyDecision`, logit); the chosen candidate's is the highest.
    public var score: Double
}

public struct TempoEstimate: Equatable, Sendable {
    public var bpm: Double
    public var confidence: Double
    /// The best few candidates, best first (the chosen tempo included).
    public var candidates: [TempoCandidate]
    /// The runner-up octave (nil only when no other octave is in range); its `score` is the
    /// probability it is the beat, `1 - octaveProbability`.
    public var alternative: TempoCandidate?
    /// Probability that the chosen octave is the beat (from the octave decisions made).
    public var octaveProbability: Double
    /// What `confidence` was computed from.
    public var evidence: ConfidenceEvidence
}
