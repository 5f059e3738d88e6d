import GRDB

/// The best few matches in a large catalog, reading about as many rows as it shows in any library
/// shape. `CadenceMatcher`, the one judge of every rule, filter and tie, ranks what is read. The
/// tempo window is walked outward from each target tempo (the cadence; at half-time half of it
/// too), up and down, a page at a time (keyset, no OFFSET), nearest first: the unliked tracks on the
/// (bpm, state, path) index, the liked ones apart on their own partial index, since a liked track
/// outranks the others within its whole percent of change. Within each kind the rank follows the
/// distance, so once a page is read every track of that kind nearer than the page's edge is known.
/// A match is final when nothing unread can rank before it (`isFinal`). Then the copies of the
/// chosen recordings are read: the better source is the one offered.
public enum CadenceSearch {
    public struct Result: Sendable {
        public var matches: [CadenceMatch]
        /// Tracks in the tempo window before filters and rights: what `limit` chose from (one
        /// count on the bpm index).
        public var inWindow: Int
        /// Rows read to choose them (tests check that it follows `limit`, not the window).
        public var rowsRead: Int
    }

    public static func best(_ limit: Int, rules: CadenceRules, filter: MatchFilter, in catalog: Catalog) throws -> Result {
        let inWindow = try catalog.count(matching: catalog.cadenceQuery(rules))
        let limit = min(limit, inWindow)
        guard limit > 0 else { return Result(matches: [], inWindow: inWindow, rowsRead: 0) }
        var cursors = [false, true].flatMap { liked in
            rules.stepCounts.flatMap { steps in
                [true, false].map { CadenceCursor(rules: rules, stepsPerBeat: steps, upward: $0, liked: liked) }
            }
        }
        // Tracks judged at a tempo their BPM in use does not give (a hand or tag BPM, by its beats'
        // tempo; a copy, at a BPM set by hand on another) are read first, all of them: every unread
        // track is then judged where the walk finds it.
        var candidates = try catalog.judgedElsewhereCandidates(rules)
        var known = Set(candidates.compactMap(\.id))
        var page = limit + 16
        while true {
            for i in cursors.indices where !cursors[i].exhausted {
                candidates += try cursors[i].next(page, in: catalog).filter { known.insert($0.id ?? -1).inserted }
            }
            // Every unread track of a kind lies at least this far from the cadence.
            func edge(liked: Bool) -> Double { cursors.filter { $0.liked == liked && !$0.exhausted }.map(\.edgeDistance).min() ?? .infinity }
            let (likedEdge, unlikedEdge) = (edge(liked: true), edge(liked: false))
            let judged = CadenceMatcher.match(candidates, rules: rules, filter: filter).matches
            let final = judged.prefix { isFinal($0, likedEdge: likedEdge, unlikedEdge: unlikedEdge) }
            if final.count >= limit || (likedEdge == .infinity && unlikedEdge == .infinity) {
                let chosen = try withCopies(Array(final.prefix(limit)), candidates: candidates, rules: rules, filter: filter, in: catalog)
                return Result(matches: chosen, inWindow: inWindow, rowsRead: candidates.count)
            }
            page *= 2
        }
    }

    /// Nothing unread ranks before `match`. Unread liked tracks lie at least `likedEdge` away,
    /// unread others at least `unlikedEdge`. A liked track ranks before another whose band (whole
    /// percent of change) is no nearer; within a kind, the nearer ranks first (an equal distance
    /// is a tie other keys break: not final).
    static func isFinal(_ match: CadenceMatch, likedEdge: Double, unlikedEdge: Double) -> Bool {
        let distance = abs(match.shiftPercent) / 100
        let band = CadenceMatcher.likedBand(abs(match.shiftPercent))
        func bandOf(_ edge: Double) -> Double { edge == .infinity ? .infinity : CadenceMatcher.likedBand(edge * 100) }
        if match.track.rating == .liked {
            return distance < likedEdge - 1e-12 && band <= bandOf(unlikedEdge)
        }
        return distance < unlikedEdge - 1e-12 && band < bandOf(likedEdge)
    }

    /// The chosen matches judged again with every copy of their recordings in the catalog: a copy
    /// not read yet may be the better source, the one a recording is offered as.
    static func withCopies(_ chosen: [CadenceMatch], candidates: [TrackRecord], rules: CadenceRules, filter: MatchFilter,
                           in catalog: Catalog) throws -> [CadenceMatch] {
        let copies = try catalog.copies(of: chosen.map(\.track))
        guard !copies.isEmpty else { return chosen }
        let known = Set(candidates.compactMap(\.id))
        let identities = Set(chosen.map(\.track.contentIdentity))
        let pool = candidates.filter { identities.contains($0.contentIdentity) } + copies.filter { !known.contains($0.id ?? -1) }
        let judged = CadenceMatcher.match(pool, rules: rules, filter: filter).matches
        let byIdentity = Dictionary(judged.map { ($0.track.contentIdentity, $0) }, uniquingKeysWith: { first, _ in first })
        return chosen.map { byIdentity[$0.track.contentIdentity] ?? $0 }
    }
}

/// One direction of the walk outward from a target tempo (the cadence, or half of it at half-time):
/// present tracks in the window, liked or not, nearest first, a page at a time after the last row
/// read, on the index that holds them in tempo order.
struct CadenceCursor {
    let rules: CadenceRules
    let stepsPerBeat: Int
    let upward: Bool
    let liked: Bool
    private(set) var exhausted = false
    /// The sort key of the last row read, where the next page starts: (bpm, state, path) on the
    /// unliked walk's index, (bpm, id) on the liked one's.
    private var last: (bpm: Double, key: [DatabaseValueConvertible])?

    init(rules: CadenceRules, stepsPerBeat: Int, upward: Bool, liked: Bool) {
        self.rules = rules
        self.stepsPerBeat = stepsPerBeat
        self.upward = upward
        self.liked = liked
    }

    /// How far the last row read is from the cadence (0 before the first page): every row still
    /// to come is at least as far.
    var edgeDistance: Double {
        guard let last else { return 0 }
        return rules.distance(bpm: last.bpm, stepsPerBeat: stepsPerBeat)
    }

    mutating func next(_ count: Int, in catalog: Catalog) throws -> [TrackRecord] {
        let target = rules.spm / Double(stepsPerBeat)
        let window = Catalog.candidateWindow(rules.bpmWindow(stepsPerBeat: stepsPerBeat))
        // The liked condition is written out, not bound: SQLite uses a partial index only then.
        var conditions = ["state != ?", liked ? "rating = '\(TrackRating.liked.rawValue)'" : "(rating IS NULL OR rating != '\(TrackRating.liked.rawValue)')"]
        var arguments: StatementArguments = [TrackState.missing.rawValue]
        conditions.append(upward ? "bpm >= ? AND bpm <= ?" : "bpm < ? AND bpm >= ?")
        arguments += upward ? [target, window.upperBound] : [target, window.lowerBound]
        let key = liked ? ["bpm", "id"] : ["bpm", "state", "path"]
        if let last {
            conditions.append("(\(key.joined(separator: ", "))) \(upward ? ">" : "<") (\(key.map { _ in "?" }.joined(separator: ", ")))")
            arguments += StatementArguments(last.key)
        }
        let order = key.map { upward ? $0 : "\($0) DESC" }.joined(separator: ", ")
        let rows = try catalog.tracks(where: conditions.joined(separator: " AND "), arguments: arguments, orderBy: order, limit: count,
                                      index: liked ? "track_liked_on_bpm" : "track_on_bpm_state_path")
        if rows.count < count { exhausted = true }
        if let row = rows.last, let bpm = row.bpm {
            last = (bpm, liked ? [bpm, row.id ?? 0] : [bpm, row.state.rawValue, row.path])
        }
        return try catalog.withRecordingsHandWord(rows)
    }
}
