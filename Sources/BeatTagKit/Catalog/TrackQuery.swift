import GRDB

/// What `list` asks of the catalog: filters run in SQLite (the BPM range on its index), so a large
/// catalog is not loaded into memory to be filtered.
public struct TrackQuery: Sendable {
    /// BPM in use at least / at most this; tracks without a BPM never pass a BPM bound.
    public var minBPM: Double?
    public var maxBPM: Double?
    public var state: TrackState?
    public var source: SourceType?
    /// Found in path, title, artist, album or genre, case and accents ignored (`TextMatch`).
    public var search: String?
    /// The beat blobs are most of a catalog's bytes: loaded only when asked for.
    public var includeBeats = false

    public init() {}

    func request(columns: [String]) -> SQLRequest<TrackRecord> {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let minBPM { conditions.append("bpm >= ?"); arguments += [minBPM] }
        if let maxBPM { conditions.append("bpm <= ?"); arguments += [maxBPM] }
        if let state { conditions.append("state = ?"); arguments += [state.rawValue] }
        if let source { conditions.append("sourceType = ?"); arguments += [source.rawValue] }
        if let search {
            let fields = ["path", "title", "artist", "album", "genre"].map { "instr(\(Catalog.foldFunction.name)(\($0)), ?) > 0" }
            conditions.append("(" + fields.joined(separator: " OR ") + ")")
            arguments += StatementArguments(Array(repeating: TextMatch.fold(search), count: fields.count))
        }
        let selected = columns.map { $0 == "beats" && !includeBeats ? "NULL AS beats" : "\"\($0)\"" }.joined(separator: ", ")
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return SQLRequest(sql: "SELECT \(selected) FROM track\(filter) ORDER BY path", arguments: arguments)
    }
}
