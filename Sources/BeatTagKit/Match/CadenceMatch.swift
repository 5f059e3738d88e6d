/// One track that can be played at the runner's cadence.
public struct CadenceMatch: Codable, Equatable, Sendable {
    public var track: TrackRecord
    /// The track's BPM in use.
    public var bpm: Double
    /// Steps per beat: 1, or 2 when half-time was allowed (one beat every two steps).
    public var stepsPerBeat: Int
    /// Playback-rate factor that puts the beat on the step: spm / (bpm × stepsPerBeat).
    public var ratio: Double
    /// Signed tempo change in percent: (ratio - 1) × 100.
    public var shiftPercent: Double
    /// The tempo the track plays at after the change.
    public var adjustedBPM: Double
    public var halfTime: Bool { stepsPerBeat == 2 }
    /// The analysed tempo is in doubt (confidence below `ConfidenceEvidence.trusted`); a hand-set
    /// or tag BPM never is. Such a track is still offered, marked, for the runner to check.
    public var tempoInDoubt: Bool {
        track.bpmSource == .analysis && (track.confidence ?? 0) < ConfidenceEvidence.trusted
    }
}
