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

extension CadenceMatch {
    /// This match at the tempo the track's beats run at, one beat a step: the analysed tempo counted
    /// at the level of the BPM in use (`BeatListScaling`). A hand or tag BPM a little off the
    /// analysed one (a tap) counts the same pulse, the beats are the analysis's, and a render
    /// stretches those, so its change and its limits are read on them. Unchanged without an analysed tempo.
    func atTheTempoOfItsBeats(spm: Double) -> CadenceMatch {
        guard let bpm = track.bpm, let analysed = track.bpmAnalysed,
              let level = BeatListScaling.level(from: analysed, to: bpm) else { return self }
        let beatsBPM = analysed * Double(level.beats) / Double(level.per)
        guard abs(beatsBPM - self.bpm) > 1e-9 else { return self }
        var measured = self
        measured.bpm = beatsBPM
        measured.stepsPerBeat = 1
        measured.ratio = CadenceRules.ratio(spm: spm, bpm: beatsBPM, stepsPerBeat: 1)
        measured.shiftPercent = (measured.ratio - 1) * 100
        measured.adjustedBPM = spm
        return measured
    }
}
