import GRDB

/// Tracks that need a human, most useful first: those a runner could use once they have a tempo.
/// Tempo doubts, and grids the analysis moved half a beat from where the tracker put them, which on
/// real recordings are off the beat more often than not (docs/benchmark.md, "Grids the analysis
/// moved"). A track leaves the queue when a person settles its tempo (a hand BPM) or, for its
/// beats, places a beat (`HandBeat`), on it or on another copy of its recording.
public enum UntaggedQueue {
    public enum Reason: String, Codable, Sendable {
        case noBPM = "no BPM (metadata-only)"
        case octaveAmbiguous = "octave ambiguous"
        case lowConfidence = "low confidence"
        case beatsMoved = "beats moved half a beat"
    }

    public struct Item: Sendable {
        public var track: TrackRecord
        public var reason: Reason
    }

    /// The runner-up octave's probability from which the octave counts as in doubt. (Rows analysed
    /// before version 10 may hold an alternative without a score: those count as in doubt.)
    public static let octaveInDoubt = 0.25

    /// The queue, most useful first, in SQL over the whole catalog (a light scan of a few early
    /// columns): runnable tempos first (a wrong octave there costs a run), then octave doubts, tracks
    /// without a BPM, low confidence and beats moved, then by confidence (so a runnable track's
    /// beats come before a slow track's tempo doubt). `below`: analysed tempi under this
    /// confidence are listed (default: the level `match` marks as in doubt). Returns the first
    /// `limit` items (all when nil) and how many there are.
    public static func items(in catalog: Catalog, below confidence: Double = ConfidenceEvidence.trusted,
                             limit: Int? = nil, offset: Int = 0) throws -> (items: [Item], total: Int) {
        var items: [Item] = []
        let total = try forEachItem(in: catalog, below: confidence, limit: limit, offset: offset) { items += $0 }
        return (items, total)
    }

    /// The same, handed over a few hundred at a time in queue order (the whole queue of a large
    /// catalog as records took 290 MB for `untagged --json`); returns the queue's length.
    @discardableResult
    public static func forEachItem(in catalog: Catalog, below confidence: Double = ConfidenceEvidence.trusted, limit: Int? = nil,
                                   offset: Int = 0, _ body: ([Item]) throws -> Void) throws -> Int {
        try catalog.pool.read { db in
            let (queue, arguments) = try queueSQL(below: confidence, db)
            // Two passes beat one with a window count: the ordered one then keeps only the first `limit`.
            // Ties go by id (scan order): ordering by path would read every row, not just the index.
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(queue))", arguments: arguments) ?? 0
            let page = limit.map { " LIMIT \(max(0, $0))" + (offset > 0 ? " OFFSET \(offset)" : "") } ?? ""
            let shown = try Row.fetchAll(db, sql: "SELECT id, reason FROM (\(queue)) ORDER BY usefulness DESC, id\(page)", arguments: arguments)
                .map { (id: $0["id"] as Int64, reason: $0["reason"] as String) }
            try Catalog.inChunks(shown) { chunk in
                var records: [Int64: TrackRecord] = [:]
                for record in try TrackRecord.fetchAll(db, keys: chunk.map(\.id)) { records[record.id ?? -1] = record }
                try body(chunk.compactMap { row in
                    guard let track = records[row.id], let reason = reasons[row.reason] else { return nil }
                    return Item(track: track, reason: reason)
                })
            }
            return total
        }
    }

    /// Why an analysed tempo (the BPM in use, not set by hand, and no beat placed by hand) is in the
    /// queue, if it is: the rule of `queueSQL` for one track, for `bench` to score the queue on
    /// annotated clips (a test keeps the two the same). `phaseMoved`: `TrackRecord.phaseMoved`.
    public static func reason(analysedConfidence confidence: Double?, alternative: Double?, alternativeScore: Double?,
                              phaseMoved: Bool?, below threshold: Double = ConfidenceEvidence.trusted) -> Reason? {
        if alternative != nil, (alternativeScore ?? 1) >= octaveInDoubt { return .octaveAmbiguous }
        if (confidence ?? 0) < threshold { return .lowConfidence }
        if phaseMoved == true { return .beatsMoved }
        return nil
    }

    /// Why one track is in the queue now, nil when it is not (settled since, on it or on another copy
    /// of its recording): the review page checks a card before it shows it.
    public static func reason(ofTrack id: Int64, in catalog: Catalog, below confidence: Double = ConfidenceEvidence.trusted) throws -> Reason? {
        try catalog.pool.read { db in
            let (queue, arguments) = try queueSQL(below: confidence, db)
            let row = try String.fetchOne(db, sql: "SELECT reason FROM (\(queue)) WHERE id = ?", arguments: arguments + [id])
            return row.flatMap { reasons[$0] }
        }
    }

    /// The queue's reasons as `queueSQL` names them.
    static let reasons: [String: Reason] = ["noBPM": .noBPM, "octave": .octaveAmbiguous, "low": .lowConfidence, "beats": .beatsMoved]

    /// How many tracks the queue holds (no ordering: `stats` only needs the number).
    public static func count(in catalog: Catalog, below confidence: Double = ConfidenceEvidence.trusted) throws -> Int {
        try catalog.pool.read { db in
            let (queue, arguments) = try queueSQL(below: confidence, db)
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(queue))", arguments: arguments) ?? 0
        }
    }

    /// The queue as SQL: each row's id, reason and usefulness, read from the `track_review` index alone
    /// (and, where some copies were settled on another copy, the few hand-edited rows and their copies).
    /// A runnable track's beats come before a slow one's tempo doubt (a grid off the beat flams
    /// every crossfade of a run), after a runnable one's. Beats are listed only where the analysed
    /// tempo is in use: a BPM tag at another level counts the grid anew, and the move means nothing there.
    static func queueSQL(below confidence: Double, _ db: Database) throws -> (String, StatementArguments) {
        let runnable = TempoRanges.runnable
        // Most libraries have no settled copies: then the queue is read from the index alone. Where
        // there are, each list is one uncorrelated subquery, read once (a `json_each` list of ids
        // was read again for every row: minutes at 100,000 tracks).
        var exclusions = ""
        for (column, own, exclusion) in copyConditions {
            let copies = copiesSQL(of: column, unless: own)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (\(copies))") ?? false { exclusions += exclusion(copies) }
        }
        let arguments: StatementArguments = [octaveInDoubt, confidence]
        let queue = """
            SELECT id, reason, (CASE WHEN bpm BETWEEN \(runnable.lowerBound) AND \(runnable.upperBound)
                                      OR bpm * 2 BETWEEN \(runnable.lowerBound) AND \(runnable.upperBound) THEN 10 ELSE 0 END)
                               + (CASE reason WHEN 'octave' THEN 4 WHEN 'noBPM' THEN 3 WHEN 'low' THEN 2 ELSE 1 END)
                               - coalesce(confidence, 0) AS usefulness
            FROM (SELECT id, bpm, confidence, CASE
                    WHEN bpm IS NULL AND state = 'metadata-only' THEN 'noBPM'
                    WHEN bpmSource = 'analysis' AND bpmAlternative IS NOT NULL AND coalesce(bpmAlternativeScore, 1) >= ? THEN 'octave'
                    WHEN bpmSource = 'analysis' AND coalesce(confidence, 0) < ? THEN 'low'
                    WHEN bpmSource = 'analysis' AND state = 'analysed' AND phaseMoved AND beatAnchor IS NULL THEN 'beats'
                  END AS reason
                  FROM track WHERE state != 'missing' AND bpmManual IS NULL)
            WHERE reason IS NOT NULL\(exclusions)
            """
        return (queue, arguments)
    }

    /// Tracks settled on another copy of their recording (same recording group or decoded audio):
    /// `match` and `render` judge such a copy by the other's hand BPM or placed beat
    /// (`Catalog.withRecordingsHandWord`), so the queue does not ask a person about it again. A hand
    /// BPM settles a copy (`tempo`); a placed beat settles only its beats (`beats`). Few tracks hold hand
    /// data: they are read from their own partial indexes (migration v15), then their copies by the
    /// `recording` and `audioHash` indexes, named: without statistics SQLite chose to walk the whole
    /// `recording` index, or with a condition on the copy the whole table for each hand-edited track
    /// (7 minutes for `untagged` at 100,000 tracks).
    static func settledCopies(_ db: Database) throws -> (tempo: [Int64], beats: [Int64]) {
        let lists = try copyConditions.map { try Int64.fetchAll(db, sql: copiesSQL(of: $0.column, unless: $0.own)) }
        return (lists[0], lists[1])
    }

    /// A hand BPM on a copy settles every reason; a placed beat only the beats. `own`: the copy has
    /// no such hand data itself (else the queue's own conditions drop it). `exclusion`: the queue's
    /// condition, given the copies' SQL.
    static let copyConditions: [(column: String, own: String, exclusion: @Sendable (String) -> String)] = [
        ("bpmManual", "c.bpmManual IS NULL", { " AND id NOT IN (\($0))" }),
        ("beatAnchor", "c.bpmManual IS NULL AND c.beatAnchor IS NULL", { " AND (reason != 'beats' OR id NOT IN (\($0)))" }),
    ]

    /// The tracks `c` (`own`: a condition on them) holding the recording of a track `h` where `column` is set.
    static func copiesSQL(of column: String, unless own: String) -> String {
        """
        SELECT c.id FROM track h CROSS JOIN track c INDEXED BY track_on_recording ON c.recording = h.recording WHERE h.\(column) IS NOT NULL AND \(own)
        UNION SELECT c.id FROM track h CROSS JOIN track c INDEXED BY track_on_audioHash ON c.audioHash = h.audioHash WHERE h.\(column) IS NOT NULL AND \(own)
        """
    }
}
