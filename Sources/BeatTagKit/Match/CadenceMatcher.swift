import Foundation

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

/// Titles and albums a workout playlist should not pick by default (docs/matching.md).
public enum WorkoutKeywords {
    public static let defaultExcluded = [
        "sleep", "lullaby", "christmas", "xmas", "meditation", "relaxation", "relaxing", "ambient", "white noise",
        "rain sounds", "asmr", "spa", "yoga nidra", "interlude", "intro", "outro", "skit",
    ]
}

/// Which tracks may be offered at all, before the tempo rule.
public struct MatchFilter: Sendable {
    /// Genres to keep (any of, case-insensitive substring); empty keeps all.
    public var includeGenres: [String] = []
    public var excludeGenres: [String] = []
    /// Artists to keep (any of, case-insensitive substring); empty keeps all.
    public var artists: [String] = []
    public var minConfidence: Double?
    public var sources: [SourceType] = []
    /// Whole-word, case-insensitive keywords that exclude a track by title or album.
    public var excludedKeywords: [String] = WorkoutKeywords.defaultExcluded

    public init() {}

    public enum Reason: String, CaseIterable, Codable, Sendable {
        case genre = "genre filter", artist = "artist filter", confidence = "below --min-confidence"
        case source = "rights filter", keyword = "excluded keyword"
    }

    /// nil when the track passes; else the first filter that rejects it.
    public func rejection(of track: TrackRecord) -> Reason? {
        let genre = track.genre?.lowercased() ?? ""
        if !includeGenres.isEmpty, !includeGenres.contains(where: { genre.contains($0.lowercased()) }) { return .genre }
        if excludeGenres.contains(where: { !genre.isEmpty && genre.contains($0.lowercased()) }) { return .genre }
        let artist = track.artist?.lowercased() ?? ""
        if !artists.isEmpty, !artists.contains(where: { artist.contains($0.lowercased()) }) { return .artist }
        // A hand-set BPM needs no analysis confidence.
        if let minConfidence, track.bpmSource != .manual, (track.confidence ?? 0) < minConfidence { return .confidence }
        if !sources.isEmpty, !sources.contains(track.sourceType) { return .source }
        let text = [track.title, track.album, (track.path as NSString).lastPathComponent].compactMap { $0?.lowercased() }
        for keyword in excludedKeywords where text.contains(where: { MatchFilter.containsWord(keyword.lowercased(), in: $0) }) {
            return .keyword
        }
        return nil
    }

    static func containsWord(_ word: String, in text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let range = text.range(of: word, range: searchRange) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before?.isLetter ?? false), !(after?.isLetter ?? false) { return true }
            searchRange = range.upperBound..<text.endIndex
        }
        return false
    }
}

public struct CadenceRules: Sendable {
    public static let cadenceRange = 100.0...240.0
    public static let defaultMaxShiftPercent = 10.0
    public var spm: Double
    /// Largest tempo change allowed, percent.
    public var maxShiftPercent = CadenceRules.defaultMaxShiftPercent
    /// Tracks whose rights forbid tempo adjustment must already be this close, percent.
    public var untouchableTolerancePercent = 1.0
    /// Let a track serve at one beat every two steps (88 BPM at 176 SPM). Off by default.
    public var allowHalfTime = false

    public init(spm: Double, maxShiftPercent: Double = CadenceRules.defaultMaxShiftPercent, allowHalfTime: Bool = false) {
        self.spm = spm
        self.maxShiftPercent = maxShiftPercent
        self.allowHalfTime = allowHalfTime
    }
}

public enum CadenceMatcher {
    public enum Rejection: String, CaseIterable, Codable, Sendable {
        case noBPM = "no BPM"
        case tooFar = "tempo change beyond the limit"
        case rightsForbidChange = "rights forbid tempo change"
        case missing = "file missing"
        case filtered = "filtered out"
    }

    public struct Result: Sendable {
        public var matches: [CadenceMatch]
        public var rejected: [Rejection: Int]
        public var filtered: [MatchFilter.Reason: Int]
        /// Usable BPMs closest to the cadence among tracks rejected only for tempo: what the library has nearby.
        public var nearest: [Double]
    }

    public static func match(_ tracks: [TrackRecord], rules: CadenceRules, filter: MatchFilter = MatchFilter()) -> Result {
        var matches: [CadenceMatch] = []
        var rejected: [Rejection: Int] = [:]
        var filtered: [MatchFilter.Reason: Int] = [:]
        var nearMisses: [Double] = []
        for track in tracks {
            if track.state == .missing { rejected[.missing, default: 0] += 1; continue }
            if let reason = filter.rejection(of: track) {
                rejected[.filtered, default: 0] += 1
                filtered[reason, default: 0] += 1
                continue
            }
            guard let bpm = track.bpm, bpm > 0 else { rejected[.noBPM, default: 0] += 1; continue }
            var best: CadenceMatch?
            var forbidden = false
            for stepsPerBeat in rules.allowHalfTime ? [1, 2] : [1] {
                let ratio = rules.spm / (bpm * Double(stepsPerBeat))
                let shift = (ratio - 1) * 100
                // A hair of tolerance: 175 / 159.1 is +9.99…%, inside ±10%.
                guard abs(shift) <= rules.maxShiftPercent + 1e-9 else { continue }
                if !track.tempoAdjustAllowed, abs(shift) > rules.untouchableTolerancePercent + 1e-9 {
                    forbidden = true
                    continue
                }
                let candidate = CadenceMatch(track: track, bpm: bpm, stepsPerBeat: stepsPerBeat, ratio: ratio,
                                             shiftPercent: shift, adjustedBPM: bpm * ratio)
                if best == nil || abs(candidate.shiftPercent) < abs(best!.shiftPercent) { best = candidate }
            }
            if let best {
                matches.append(best)
            } else if forbidden {
                rejected[.rightsForbidChange, default: 0] += 1
            } else {
                rejected[.tooFar, default: 0] += 1
                nearMisses.append(bpm)
            }
        }
        matches.sort(by: rankedBefore)
        let nearest = nearMisses.sorted { abs($0 - rules.spm) < abs($1 - rules.spm) }
        return Result(matches: matches, rejected: rejected, filtered: filtered, nearest: Array(nearest.prefix(5)))
    }

    /// Smallest change first, then one step per beat before half-time, then the beat we trust most,
    /// then steady before variable.
    static func rankedBefore(_ a: CadenceMatch, _ b: CadenceMatch) -> Bool {
        let da = abs(a.shiftPercent), db = abs(b.shiftPercent)
        if abs(da - db) > 1e-9 { return da < db }
        if a.stepsPerBeat != b.stepsPerBeat { return a.stepsPerBeat < b.stepsPerBeat }
        let ca = a.track.bpmSource == .manual ? 1 : (a.track.confidence ?? 0)
        let cb = b.track.bpmSource == .manual ? 1 : (b.track.confidence ?? 0)
        if ca != cb { return ca > cb }
        let va = a.track.tempoVariable ?? false, vb = b.track.tempoVariable ?? false
        if va != vb { return !va }
        return a.track.path < b.track.path
    }
}
