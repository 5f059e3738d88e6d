/// Whether the file at a catalogued path now holds another recording than its row describes, so
/// that the hand data entered for the row's recording must not stay with the name.
enum RecordingChange {
    /// The decoded audio differs (not only tags or bytes) and nothing says it is the same recording
    /// re-encoded or remastered: not their acoustic prints when both have one, nor their tags when
    /// both name an artist and a title. A file that no longer decodes is no evidence either way, nor
    /// is one whose bytes did not change (size and `Fingerprint`): a catalog migration or a new
    /// decoder analyses it again, and its decode can differ (lost audio put back as silence).
    static func isAnotherRecording(_ new: TrackRecord, was old: TrackRecord, oldPrint: @autoclosure () -> RecordingPrint?) -> Bool {
        guard let before = old.audioHash, let after = new.audioHash, before != after else { return false }
        if let bytes = old.fingerprint, bytes == new.fingerprint, old.fileSize == new.fileSize { return false }
        if let oldPrint = oldPrint(), let newPrint = new.recordingPrint, !oldPrint.items.isEmpty, !newPrint.items.isEmpty,
           newPrint.isSameRecording(as: oldPrint, bpm: new.bpmAnalysed, otherBPM: old.bpmAnalysed, tempoTolerance: handDataTempoTolerance) {
            return false
        }
        if namesSong(old), namesSong(new), SongIdentity.key(for: new) == SongIdentity.key(for: old) { return false }
        return true
    }

    /// Wider than the grouping's: a wrong "another recording" sets a person's hand data aside, a
    /// wrong "copy" only hides a track behind its twin. Tempi 1% apart still say "the same".
    static let handDataTempoTolerance = 0.01

    private static func namesSong(_ track: TrackRecord) -> Bool {
        !(track.artist ?? "").isEmpty && !(track.title ?? "").isEmpty
    }
}
