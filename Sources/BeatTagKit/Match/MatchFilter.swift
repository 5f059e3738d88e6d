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
    /// Only tracks rated liked (`beattag rate --like`).
    public var likedOnly = false
    /// Whole-word keywords (case and accents ignored) that exclude a track by title or album.
    public var excludedKeywords: [String] = WorkoutKeywords.defaultExcluded

    public init() {}

    public enum Reason: String, CaseIterable, Codable, Sendable {
        case genre = "genre filter", artist = "artist filter", confidence = "below --min-confidence"
        case source = "rights filter", keyword = "excluded keyword", notLiked = "not liked (--liked)"
    }

    /// nil when the track passes; else the first filter that rejects it.
    public func rejection(of track: TrackRecord) -> Reason? { folded().rejection(of: track) }

    /// The filter with its words folded once (`TextMatch`), for checking many tracks.
    public func folded() -> Folded { Folded(self) }

    public struct Folded: Sendable {
        let filter: MatchFilter
        let includeGenres: [String], excludeGenres: [String], artists: [String], keywords: [String]

        init(_ filter: MatchFilter) {
            self.filter = filter
            includeGenres = filter.includeGenres.map(TextMatch.fold)
            excludeGenres = filter.excludeGenres.map(TextMatch.fold)
            artists = filter.artists.map(TextMatch.fold)
            keywords = filter.excludedKeywords.map { TextMatch.collapsingSpaces(TextMatch.fold($0)) }
        }

        public func rejection(of track: TrackRecord) -> Reason? {
            let genre = TextMatch.fold(track.genre ?? "")
            if !includeGenres.isEmpty, !includeGenres.contains(where: { genre.contains($0) }) { return .genre }
            if excludeGenres.contains(where: { !genre.isEmpty && genre.contains($0) }) { return .genre }
            if !artists.isEmpty {
                let artist = TextMatch.fold(track.artist ?? "")
                if !artists.contains(where: { artist.contains($0) }) { return .artist }
            }
            // A hand-set BPM needs no analysis confidence.
            if let minConfidence = filter.minConfidence, track.bpmSource != .manual, (track.confidence ?? 0) < minConfidence {
                return .confidence
            }
            if !filter.sources.isEmpty, !filter.sources.contains(track.sourceType) { return .source }
            if filter.likedOnly, track.rating != .liked { return .notLiked }
            let text = [track.title, track.album, track.fileName].compactMap { $0.map { TextMatch.collapsingSpaces(TextMatch.fold($0)) } }
            if keywords.contains(where: { word in text.contains { TextMatch.containsFoldedWord(word, inFolded: $0) } }) {
                return .keyword
            }
            return nil
        }
    }
}
