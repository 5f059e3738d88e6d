/// One tempo reading and its score.
public struct TempoCandidate: Codable, Equatable, Sendable {
    public var bpm: BPM
    /// The family's score (`FamilyDecision`, logit); the chosen candidate's is the highest.
    public var score: Double
}
