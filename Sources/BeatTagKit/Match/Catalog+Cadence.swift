import Foundation

/// The catalog asked for cadence matches: the one entry point of `match`, `playlist`, `workout` and
/// `render` (`CadenceSearch` pages through the same query for `match --limit`).
extension Catalog {
    /// Every track that fits `rules` and passes `filter`, ranked, one copy per recording.
    public func cadenceMatches(_ rules: CadenceRules, filter: MatchFilter) throws -> CadenceMatcher.Result {
        CadenceMatcher.match(try cadenceCandidates(rules), rules: rules, filter: filter)
    }

    /// The tracks that can match `rules` at all: present, with a BPM in a cadence window (read on the
    /// bpm index, without beats). `CadenceMatcher` decides the rest.
    public func cadenceCandidates(_ rules: CadenceRules) throws -> [TrackRecord] {
        try tracks(matching: cadenceQuery(rules))
    }

    func cadenceQuery(_ rules: CadenceRules) -> TrackQuery {
        var query = TrackQuery()
        query.presentOnly = true
        // A hair wider than the windows: the matcher's own check decides at the edges.
        query.bpmWindows = rules.bpmWindows.map { $0.lowerBound * (1 - 1e-6)...$0.upperBound * (1 + 1e-6) }
        return query
    }
}
