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
        try withRecordingsHandWord(try tracks(matching: cadenceQuery(rules)))
    }

    /// `tracks` as music is chosen from them (never saved): what was entered by hand on one copy of
    /// a recording holds for its other copies. A dislike keeps out every copy not rated itself; a
    /// copy without a hand BPM of its own is judged at the one set on another copy (the better
    /// source's, if several were), so a recording set to 85.6 on its FLAC is not offered at 171 as
    /// its MP3. A hand-placed beat holds for a copy without one (taken to the nearest quarter, third or
    /// half of the copy's own grid, so an encoder's delay does not matter). Each file's own row
    /// keeps its own hand data.
    public func withRecordingsHandWord(_ tracks: [TrackRecord]) throws -> [TrackRecord] {
        let groups = Array(Set(tracks.compactMap(\.recording))), hashes = Array(Set(tracks.compactMap(\.audioHash)))
        guard !groups.isEmpty || !hashes.isEmpty else { return tracks }
        var handed: [Int64: TrackRecord] = [:]
        try pool.read { db in
            for (column, values) in [("recording", groups.map { $0 as DatabaseValueConvertible }), ("audioHash", hashes.map { $0 as DatabaseValueConvertible })] {
                try Catalog.inChunks(values) { slice in
                    let rows = try TrackRecord.fetchAll(db, sql: """
                        SELECT \(TrackQuery.recordColumns) FROM track WHERE \(column) IN (\(slice.map { _ in "?" }.joined(separator: ",")))
                        AND (bpmManual IS NOT NULL OR beatAnchor IS NOT NULL OR rating = '\(TrackRating.disliked.rawValue)')
                        """, arguments: StatementArguments(Array(slice)))
                    for row in rows { if let id = row.id { handed[id] = row } }
                }
            }
        }
        guard !handed.isEmpty else { return tracks }
        let byGroup = Dictionary(grouping: handed.values.filter { $0.recording != nil }, by: { $0.recording! })
        let byAudio = Dictionary(grouping: handed.values.filter { $0.audioHash != nil }, by: { $0.audioHash! })
        return tracks.map { track in
            let found = (track.recording.flatMap { byGroup[$0] } ?? []) + (track.audioHash.flatMap { byAudio[$0] } ?? [])
            // The better source first: its hand BPM is the one its copies take.
            let copies = found.filter { $0.id != track.id }.sorted { ($0.sourceQuality, -($0.id ?? 0)) > ($1.sourceQuality, -($1.id ?? 0)) }
            guard !copies.isEmpty else { return track }
            var judged = track
            if judged.rating == nil, copies.contains(where: { $0.rating == .disliked }) { judged.rating = .disliked }
            if judged.bpmManual == nil, let hand = copies.first(where: { $0.bpmManual != nil }) {
                judged.bpmManual = hand.bpmManual
                judged.chooseBPM()
                judged.bpmReason = "set by hand on a copy (\(hand.fileName))"
            }
            if judged.beatAnchor == nil, let hand = copies.first(where: { $0.beatAnchor != nil }) { judged.beatAnchor = hand.beatAnchor }
            return judged
        }
    }

    func cadenceQuery(_ rules: CadenceRules) -> TrackQuery {
        var query = TrackQuery()
        query.presentOnly = true
        query.bpmWindows = rules.bpmWindows.map(Catalog.candidateWindow)
        query.judgedElsewhereSlack = BeatListScaling.tolerance
        return query
    }

    /// The present tracks `match` judges at a tempo their BPM in use does not give
    /// (`TrackQuery.judgedElsewhere`), read whole: `CadenceSearch` walks the bpm index in the order
    /// of the BPM in use, which is not their order.
    func judgedElsewhereCandidates(_ rules: CadenceRules) throws -> [TrackRecord] {
        let elsewhere = TrackQuery.judgedElsewhere(rules.bpmWindows.map(Catalog.candidateWindow), slack: BeatListScaling.tolerance)
        return try withRecordingsHandWord(try tracks(where: "state != ? AND \(elsewhere.sql)", arguments: [TrackState.missing.rawValue] + elsewhere.arguments,
                                                     orderBy: "id", limit: nil))
    }

    /// A cadence window made a hair wider for reading candidates: the matcher's own check decides
    /// at the edges.
    static func candidateWindow(_ window: ClosedRange<Double>) -> ClosedRange<Double> {
        window.lowerBound * (1 - 1e-6)...window.upperBound * (1 + 1e-6)
    }

    /// The other present copies of a match's recording that fit the same rules and filter, the
    /// better source first: what a playlist plays when the copy offered is gone since the scan (the
    /// matcher offers one copy of a recording, so the playlist had nothing else to fall back on).
    public func otherCopies(of match: CadenceMatch, rules: CadenceRules, filter: MatchFilter) throws -> [CadenceMatch] {
        // Most recordings have one copy: no query for them (a workout over an unmounted disk asked
        // once for each of 90,000 gone matches, 48 s).
        guard try !sharedCopyKeys().isDisjoint(with: Self.copyKeys(of: match.track)) else { return [] }
        return try copies(of: [match.track]).filter { $0.id != match.track.id }
            .compactMap { CadenceMatcher.match([$0], rules: rules, filter: filter).matches.first }
            .sorted { $0.track.sourceQuality > $1.track.sourceQuality }
    }

    /// The keys `copies(of:)` finds copies by, as `sharedCopyKeys` spells them.
    static func copyKeys(of track: TrackRecord) -> [String] {
        [track.recording.map { "r\($0)" }, track.audioHash.map { "a" + $0 }, track.fingerprint.map { "f" + $0 }].compactMap { $0 }
    }

    /// The copy keys more than one present row holds: only a recording with one of them has
    /// another copy. Read once per catalog opened.
    func sharedCopyKeys() throws -> Set<String> {
        if let known = sharedCopyKeysCache.value { return known }
        let keys = try pool.read { db in
            try String.fetchSet(db, sql: ["recording": "r", "audioHash": "a", "fingerprint": "f"].map { column, prefix in
                "SELECT '\(prefix)' || \(column) FROM track WHERE \(column) IS NOT NULL AND state != '\(TrackState.missing.rawValue)' "
                    + "GROUP BY \(column) HAVING count(*) > 1"
            }.joined(separator: " UNION ALL "))
        }
        sharedCopyKeysCache.value = keys
        return keys
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
        return try withRecordingsHandWord(
            try self.tracks(where: "(\(conditions.joined(separator: " OR "))) AND state != ?", arguments: arguments, orderBy: "id", limit: nil))
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
