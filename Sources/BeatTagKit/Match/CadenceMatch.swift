/// One track that can be played at the runner's cadence.
public struct CadenceMatch: Codable, Equatable, Sendable {
    public var track: TrackRecord
    /// The tempo the track is matched at: that of its beats (`TrackRecord.beatsBPM`), which the
    /// render stretches, else its BPM in use. A tap a little off the beats does not move it.
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

extension TrackRecord {
    /// The tempo its beats in use run at: the analysed tempo counted at the level of the BPM in use
    /// (`BeatListScaling`). A hand or tag BPM a little off the analysed one (a tap) counts the same
    /// pulse, and the beats are the analysis's. Nil without an analysed tempo, or for a BPM in use
    /// its beats cannot count.
    public var beatsBPM: Double? {
        guard let bpm, let analysed = bpmAnalysed else { return nil }
        return BeatListScaling.tempo(of: analysed, countedAt: bpm)
    }
}
