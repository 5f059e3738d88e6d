import GRDB

/// What a command asks of the catalog: filters, order and paging run in SQLite (BPM bounds on the
/// bpm index), so a large catalog is never loaded into memory to be filtered.
public struct TrackQuery: Sendable {
    /// BPM in use at least / at most this; tracks without a BPM never pass a BPM bound.
    public var minBPM: Double?
    public var maxBPM: Double?
    /// BPM in use inside any of these (the cadence windows of `match`); empty: no such bound.
    public var bpmWindows: [ClosedRange<Double>] = []
    /// With `bpmWindows`: also the tracks `match` judges at a tempo their BPM in use does not give
    /// (`judgedElsewhere`), within windows made this much wider (relative).
    public var judgedElsewhereSlack = 0.0
    public var state: TrackState?
    /// Leave out tracks whose files are missing.
    public var presentOnly = false
    /// Rights of any of these; empty: any.
    public var sources: [SourceType] = []
    /// Only tracks rated liked.
    public var likedOnly = false
    /// Only files that hold a recording another file holds too (another encoding).
    public var copiesOnly = false
    /// Found in path (from the scanned folder down), title, artist, album or genre, case and accents ignored (`TextMatch`).
    public var search: String?
    /// The beat lists are most of a catalog's bytes: loaded (from `trackBeats`) only when asked for.
    public var includeBeats = false
    public var sort = Sort.path
    public var limit: Int?
    /// Rows skipped before the first one returned (with `limit`: a page of a long list).
    public var offset = 0

    public enum Sort: String, CaseIterable, Sendable {
        case path, bpm, title, artist, confidence
        /// Copies of one recording together (`list --duplicates`).
        case recording
        var orderBy: String {
            switch self {
            case .recording: return "recording IS NULL, recording, path"
            case .path: return "path"
            case .bpm: return "bpm IS NULL, bpm, path"
            case .title: return "coalesce(title, path) COLLATE NOCASE, path"
            case .artist: return "artist IS NULL, artist COLLATE NOCASE, title COLLATE NOCASE, path"
            case .confidence: return "confidence IS NULL, confidence, path"
            }
        }
    }

    public init() {}

    /// Rows whose BPM in use may differ from the tempo their beats run at: a hand or tag BPM
    /// chosen over an analysis (`TrackRecord.beatsBPM`).
    static let offTheBeats = "bpmSource != '\(BPMSource.analysis.rawValue)' AND bpmAnalysed IS NOT NULL"

    /// Tracks `match` judges at a tempo other than their BPM in use, whose windows (made `slack`
    /// wider) they may reach from outside them. They are few:
    /// - a hand or tag BPM over an analysis (`offTheBeats`): judged by the tempo of its beats, up to
    ///   4% from it;
    /// - a copy of a recording another copy of which has a BPM set by hand, judged at that BPM
    ///   (`Catalog.withRecordingsHandWord`): the recording vanished when the copy holding it was gone.
    static func judgedElsewhere(_ windows: [ClosedRange<Double>], slack: Double) -> (sql: String, arguments: StatementArguments) {
        func inAny(_ column: String) -> String { "(" + windows.map { _ in "\(column) BETWEEN ? AND ?" }.joined(separator: " OR ") + ")" }
        var bounds: StatementArguments = []
        for window in windows { bounds += [window.lowerBound * (1 - slack), window.upperBound * (1 + slack)] }
        let handSet = "bpmManual IS NOT NULL AND \(inAny("bpmManual"))"
        return ("""
            ((\(offTheBeats) AND \(inAny("bpm")))
             OR recording IN (SELECT recording FROM track WHERE recording IS NOT NULL AND \(handSet))
             OR audioHash IN (SELECT audioHash FROM track WHERE audioHash IS NOT NULL AND \(handSet)))
            """, bounds + bounds + bounds)
    }

    /// The WHERE clause (empty when nothing filters) and its arguments.
    func filter() -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let minBPM { conditions.append("bpm >= ?"); arguments += [minBPM] }
        if let maxBPM { conditions.append("bpm <= ?"); arguments += [maxBPM] }
        if !bpmWindows.isEmpty {
            let inAny = bpmWindows.map { _ in "bpm BETWEEN ? AND ?" }.joined(separator: " OR ")
            for window in bpmWindows { arguments += [window.lowerBound, window.upperBound] }
            if judgedElsewhereSlack > 0 {
                let elsewhere = TrackQuery.judgedElsewhere(bpmWindows, slack: judgedElsewhereSlack)
                conditions.append("(\(inAny) OR \(elsewhere.sql))")
                arguments += elsewhere.arguments
            } else {
                conditions.append("(\(inAny))")
            }
        }
        if let state { conditions.append("state = ?"); arguments += [state.rawValue] }
        if presentOnly { conditions.append("state != ?"); arguments += [TrackState.missing.rawValue] }
        if !sources.isEmpty {
            conditions.append("sourceType IN (" + sources.map { _ in "?" }.joined(separator: ",") + ")")
            arguments += StatementArguments(sources.map(\.rawValue))
        }
        if likedOnly { conditions.append("rating = ?"); arguments += [TrackRating.liked.rawValue] }
        if copiesOnly { conditions.append("recording IS NOT NULL") }
        if let search {
            // A substring test reads every row: through the small `searchText` index it reads half
            // the pages of the table (SQLite would pick the table). Rows without a stored search
            // text (written by another tool) are folded on the spot.
            conditions.append("id IN (SELECT id FROM track INDEXED BY track_on_searchText "
                + "WHERE instr(coalesce(searchText, \(Catalog.foldFunction.name)(\(TrackRecord.searchFieldsSQL))), ?) > 0)")
            arguments += [TextMatch.fold(search)]
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    /// Every column of a `TrackRecord` (the beat lists live in `trackBeats`), quoted for a SELECT.
    static let recordColumns = TrackRecord.CodingKeys.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    func request() -> SQLRequest<TrackRecord> {
        let (filter, arguments) = filter()
        let page = limit.map { " LIMIT \(max(0, $0))" + (offset > 0 ? " OFFSET \(offset)" : "") } ?? ""
        return SQLRequest(sql: "SELECT \(Self.recordColumns) FROM track\(filter) ORDER BY \(sort.orderBy)\(page)", arguments: arguments)
    }

    func countRequest() -> SQLRequest<Int> {
        let (filter, arguments) = filter()
        return SQLRequest(sql: "SELECT count(*) FROM track\(filter)", arguments: arguments)
    }
}
