import Foundation

/// Which tracks may be offered at all, before the tempo rule.
public struct MatchFilter: Sendable {
    /// Genres to keep (any of, part of the name, case and accents ignored: `TextMatch`); empty keeps all.
    public var includeGenres: [String] = []
    public var excludeGenres: [String] = []
    /// Artists to keep (any of, part of the name, case and accents ignored: `TextMatch`); empty keeps all.
    public var artists: [String] = []
    public var minConfidence: Double?
    public var sources: [SourceType] = []
    /// Whole-word keywords (case and accents ignored) that exclude a track by title or album.
    public var excludedKeywords: [String] = WorkoutKeywords.defaultExcluded

    public init() {}

    public enum Reason: String, CaseIterable, Codable, Sendable {
        case genre = "genre filter", artist = "artist filter", confidence = "below --min-confidence"
        case source = "rights filter", keyword = "excluded keyword"
    }

    /// nil when the track passes; else the first filter that rejects it.
    public func rejection(of track: TrackRecord) -> Reason? {
        let genre = track.genre ?? ""
        if !includeGenres.isEmpty, !includeGenres.contains(where: { TextMatch.contains(genre, $0) }) { return .genre }
        if excludeGenres.contains(where: { !genre.isEmpty && TextMatch.contains(genre, $0) }) { return .genre }
        if !artists.isEmpty, !artists.contains(where: { TextMatch.contains(track.artist, $0) }) { return .artist }
        // A hand-set BPM needs no analysis confidence.
        if let minConfidence, track.bpmSource != .manual, (track.confidence ?? 0) < minConfidence { return .confidence }
        if !sources.isEmpty, !sources.contains(track.sourceType) { return .source }
        let text = [track.title, track.album, track.fileName].compactMap { $0 }
        for keyword in excludedKeywords where text.contains(where: { TextMatch.containsWord(keyword, in: $0) }) {
            return .keyword
        }
        return nil
    }
}
