public struct TempoCandidate: Codable, Equatable, Sendable {
    public var bpm: Double
    /// Relative score; the chosen candidate's is the highest.
    public var score: Double
}

public struct TempoEstimate: Equatable, Sendable {
    public var bpm: Double
    public var confidence: Double
    /// The best few candidates, best first (the chosen tempo included).
    public var candidates: [TempoCandidate]
    /// The runner-up at another metrical level (×2, ½, ×3/2, ⅔), when it came close.
    public var alternative: TempoCandidate?
}
