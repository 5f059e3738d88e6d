/// The beat list at the tempo in use. The catalog stores the analysis's beats; a hand-set (or
/// tagged) BPM that is a simple multiple of the analysed one (×2, ÷2, ×3/2, ×2/3, …) counts the same
/// pulse at another level, so the list is counted again at that level: beats put between the stored
/// ones, or every other one kept. A scan re-analyses and the hand BPM stays, so this is derived on
/// every read, never stored.
public enum BeatListScaling {
    /// New beats per stored beat, as a fraction: the levels one pulse is counted at.
    public static let levels: [(beats: Int, per: Int)] = [(1, 1), (2, 1), (1, 2), (3, 2), (2, 3), (3, 1), (1, 3), (4, 3), (3, 4)]
    /// A BPM this close (relative) to a level counts as that level (a tapped tempo is a little off).
    public static let tolerance = 0.04

    /// The level that turns `analysed` into `inUse`, if any.
    public static func level(from analysed: Double, to inUse: Double) -> (beats: Int, per: Int)? {
        guard analysed > 0, inUse > 0 else { return nil }
        let ratio = inUse / analysed
        return levels.first { abs(ratio / (Double($0.beats) / Double($0.per)) - 1) <= tolerance }
    }

    /// The tempo of beats analysed at `analysed` counted at the level of `inUse` (`TrackRecord.beatsBPM`).
    public static func tempo(of analysed: Double, countedAt inUse: Double) -> Double? {
        level(from: analysed, to: inUse).map { analysed * Double($0.beats) / Double($0.per) }
    }

    /// `beats` counted `level.beats` to every `level.per` stored beats: new beat j sits at stored
    /// index j·per/beats, between two stored beats in proportion (so a drifting tempo stays followed).
    public static func rescaled(_ beats: [Double], to level: (beats: Int, per: Int)) -> [Double] {
        guard level.beats != level.per, beats.count >= 2 else { return beats }
        var result: [Double] = []
        var j = 0
        while true {
            let position = Double(j * level.per) / Double(level.beats)
            let i = Int(position)
            guard i < beats.count else { break }
            let fraction = position - Double(i)
            if fraction == 0 { result.append(beats[i]) } else if i + 1 < beats.count {
                result.append(beats[i] + fraction * (beats[i + 1] - beats[i]))
            } else { break }
            j += 1
        }
        return result
    }
}

extension TrackRecord {
    /// The beat list in use: the stored one counted at the BPM in use (`BeatListScaling`: the stored
    /// one when that BPM is the analysed one; counted again when a hand or tag BPM is a simple
    /// multiple of it; empty when the BPM in use is no simple multiple, as this analysis's beats do
    /// not hold for that tempo), then moved onto the hand-placed beat if there is one (`BeatAnchor`).
    public var beatsInUse: [Double] {
        let counted = beatsAtBPMInUse
        guard let beatAnchor else { return counted }
        return BeatAnchor.moved(counted, toBeatAt: beatAnchor, duration: durationSeconds)
    }

    /// What a hand or tag BPM off the analysed beats means for match and render, or nil when it
    /// is on them: within 4% of a simple multiple they go by the beats (`beatsBPM`), beyond it the
    /// track has no beat grid. `tag` says it: a 0.1 BPM change across the line moved the tempo
    /// matched to another level without a word.
    public var beatsAtHandBPMNote: String? {
        guard bpmSource != .analysis, let bpm, let analysed = bpmAnalysed, waveformAnalysed else { return nil }
        guard let tempo = BeatListScaling.tempo(of: analysed, countedAt: bpm) else {
            return String(format: "no beat grid at this BPM: %.1f is more than %g%% from every simple multiple of the analysed %.1f, "
                          + "so render leaves the track out (a BPM within %g%% of one keeps its beats)",
                          bpm, BeatListScaling.tolerance * 100, analysed, BeatListScaling.tolerance * 100)
        }
        guard abs(tempo - bpm) >= 0.05 else { return nil }
        return String(format: "its beats run at %.1f BPM (%+.1f%% from %.1f): match and render go by them", tempo, (tempo / bpm - 1) * 100, bpm)
    }

    /// The stored beats counted at the BPM in use, before any hand-placed beat.
    public var beatsAtBPMInUse: [Double] {
        let stored = beatTimes
        guard let bpm, let analysed = bpmAnalysed, !stored.isEmpty else { return stored }
        guard let level = BeatListScaling.level(from: analysed, to: bpm) else { return [] }
        return BeatListScaling.rescaled(stored, to: level)
    }
}
