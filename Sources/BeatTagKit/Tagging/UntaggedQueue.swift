/// Tracks that need a human, most useful first: those a runner could use once they have a tempo.
public enum UntaggedQueue {
    public enum Reason: String, Codable, Sendable {
        case noBPM = "no BPM (metadata-only)"
        case octaveAmbiguous = "octave ambiguous"
        case lowConfidence = "low confidence"
    }

    public struct Item: Sendable {
        public var track: TrackRecord
        public var reason: Reason
    }

    /// The runner-up octave's probability from which the octave counts as in doubt. (Rows analysed
    /// before version 10 may hold an alternative without a score: those count as in doubt.)
    public static let octaveInDoubt = 0.25

    /// `below`: analysed tempi under this confidence are listed; the default is the level `match`
    /// marks as in doubt.
    public static func items(_ tracks: [TrackRecord], below confidence: Double = ConfidenceEvidence.trusted) -> [Item] {
        var items: [Item] = []
        for t in tracks where t.state != .missing && t.bpmManual == nil {
            if t.bpm == nil, t.state == .metadataOnly {
                items.append(Item(track: t, reason: .noBPM))
            } else if t.bpmSource == .analysis, t.bpmAlternative != nil, (t.bpmAlternativeScore ?? 1) >= UntaggedQueue.octaveInDoubt {
                items.append(Item(track: t, reason: .octaveAmbiguous))
            } else if t.bpmSource == .analysis, (t.confidence ?? 0) < confidence {
                items.append(Item(track: t, reason: .lowConfidence))
            }
        }
        // Runnable tempos first (a wrong octave there costs a run), then the rest by confidence.
        func usefulness(_ item: Item) -> Double {
            let bpm = item.track.bpm ?? 0
            let runnable = [bpm, bpm * 2].contains { TempoRanges.runnable.contains($0) } ? 1.0 : 0
            let reasonWeight = item.reason == .octaveAmbiguous ? 2.0 : (item.reason == .noBPM ? 1.5 : 1)
            return runnable * 10 + reasonWeight * 2 - (item.track.confidence ?? 0)
        }
        return items.sorted { usefulness($0) > usefulness($1) || (usefulness($0) == usefulness($1) && $0.track.path < $1.track.path) }
    }
}
