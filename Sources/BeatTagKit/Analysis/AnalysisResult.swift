/// Everything the analysis says about one track.
public struct AnalysisResult: Equatable, Sendable {
    /// Bumped whenever a change to the analysis changes its output: a catalog row analysed by another
    /// version is analysed again on the next scan. `AnalysisSnapshotTests` fails when the output
    /// changes and this does not.
    public static let currentVersion = 49

    public var bpm: BPM
    public var confidence: Double
    public var beats: [Seconds]
    public var grid: BeatGrid?
    public var candidates: [TempoCandidate]
    public var alternative: TempoCandidate?
    /// Probability that `bpm` is the right octave; `alternative.score` is the other one's.
    public var octaveProbability: Double
    public var duration: Seconds
    /// Set when the file broke off part-way and only its beginning was analysed.
    public var decodeWarning: String?
    /// What the confidence was computed from (not stored in the catalog).
    public var evidence: ConfidenceEvidence?
    /// What the phase decisions did to the tracker's beats; for a track analysed window by window,
    /// the half-beat move that holds for most of it (after each window's beats are joined to the
    /// phase of the one before), without a probability.
    public var phase: PhaseDecision = .kept
}
