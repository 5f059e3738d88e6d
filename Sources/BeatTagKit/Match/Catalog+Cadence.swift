import GRDB

/// The catalog asked for cadence matches: the one entry point of `match`, `playlist`, `workout` and
/// `render` (`CadenceSearch` reads the same window a page at a time for `match --limit`).
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
        query.bpmWindows = rules.bpmWindows.map(Catalog.candidateWindow)
        return query
    }

    /// A cadence window made a hair wider for reading candidates: the matcher's own check decides
    /// at the edges.
    static func candidateWindow(_ window: ClosedRange<Double>) -> ClosedRange<Double> {
        window.lowerBound * (1 - 1e-6)...window.upperBound * (1 + 1e-6)
    }

    /// Present tracks holding the same recording as any of `tracks` (by `contentIdentity`'s keys:
    /// recording group, decoded audio, file fingerprint), `tracks` among them.
    func copies(of tracks: [TrackRecord]) throws -> [TrackRecord] {
        var conditions: [String] = [], arguments: StatementArguments = []
        func any(_ column: String, _ values: [DatabaseValueConvertible]) {
            guard !values.isEmpty else { return }
            conditions.append("\(column) IN (\(values.map { _ in "?" }.joined(separator: ",")))")
            arguments += StatementArguments(values)
        }
        any("recording", tracks.compactMap(\.recording))
        any("audioHash", tracks.compactMap(\.audioHash))
        any("fingerprint", tracks.compactMap(\.fingerprint))
        guard !conditions.isEmpty else { return [] }
        arguments += [TrackState.missing.rawValue]
        return try self.tracks(where: "(\(conditions.joined(separator: " OR "))) AND state != ?", arguments: arguments, orderBy: "id", limit: nil)
    }

    /// Rows (without beats) by a WHERE clause the caller writes: for the cadence walk's keyset pages.
    func tracks(where condition: String, arguments: StatementArguments, orderBy: String, limit: Int?, index: String? = nil) throws -> [TrackRecord] {
        let indexed = index.map { " INDEXED BY \($0)" } ?? ""
        let page = limit.map { " LIMIT \(max(0, $0))" } ?? ""
        return try pool.read { db in
            try TrackRecord.fetchAll(db, sql: "SELECT \(TrackQuery.recordColumns) FROM track\(indexed) WHERE \(condition) ORDER BY \(orderBy)\(page)",
                                     arguments: arguments)
        }
    }
}
