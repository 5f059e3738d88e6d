import ArgumentParser
import BeatTagKit
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show what the catalog holds.",
        discussion: "Filters combine. Examples:\n  beattag list --min-bpm 165 --max-bpm 185\n  beattag list --state failed\n  beattag list --search \"daft punk\" --json",
        aliases: ["show"])

    @Option(parsing: .unconditional, help: "Only tracks whose BPM in use is at least this.", transform: PlainNumber.double) var minBPM: Double?
    @Option(parsing: .unconditional, help: "Only tracks whose BPM in use is at most this.", transform: PlainNumber.double) var maxBPM: Double?
    @Option(help: ArgumentHelp("Only tracks in this state.", valueName: "state"))
    var state: TrackState?
    @Option(help: ArgumentHelp("Only tracks with these rights (repeatable).", valueName: "type")) var source: [SourceType] = []
    @Option(help: "Text to find in title, artist, album, genre or path (from the scanned folder down; case and accents ignored: bjork finds Björk).") var search: String?
    @Option(help: ArgumentHelp("Order: path, bpm, title, artist, confidence, or recording (copies of one recording side by side).", valueName: "key")) var sort: TrackQuery.Sort = .path
    @Option(parsing: .unconditional, help: "Show at most this many (default: 100 in the table, all with --json).") var limit: Int?
    @Flag(help: "Only tracks you liked (`beattag rate --like`).") var liked = false
    @Flag(help: "Only files that hold the same recording as another (another format or bit rate), grouped; match and playlists use one copy of each, lossless first.")
    var duplicates = false
    @Flag(help: "One JSON array of rows (beats included: at the BPM in use, so a hand ×2 doubles them).") var json = false
    @OptionGroup var catalogOption: CatalogOption

    /// A row as JSON: the track's columns, flat, and its beats in use to 0.1 ms (written apart,
    /// `JSONDecimals`: they are most of the text), among the keys in their sorted place.
    static func json(_ track: TrackRecord) throws -> String {
        let columns = try Console.json(track)
        let beats = "\"beats\":" + JSONDecimals.array(track.beatsInUse, decimals: 4)
        // The first key after "beats": a flat object's keys follow `,"` (or `{"`), which a string value escapes.
        for key in Self.keysAfterBeats {
            if let at = columns.range(of: ",\"\(key)\":") { return columns[..<at.lowerBound] + "," + beats + columns[at.lowerBound...] }
            if columns.hasPrefix("{\"\(key)\":") { return "{" + beats + "," + columns.dropFirst() }
        }
        guard columns.hasSuffix("}") else { return columns }
        return columns.dropLast() + (columns == "{}" ? "" : ",") + beats + "}"
    }

    private static let keysAfterBeats = TrackRecord.columnNames.filter { $0 > "beats" }.sorted()

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let minBPM, let maxBPM, minBPM > maxBPM { throw ValidationError("--min-bpm \(minBPM.formatted()) is above --max-bpm \(maxBPM.formatted()): no track could match") }
    }

    func run() throws {
        let console = Console.current
        let catalog = try catalogOption.open(create: false, access: .readOnly)
        var query = TrackQuery()
        (query.minBPM, query.maxBPM, query.state, query.sources, query.search) = (minBPM, maxBPM, state, source, search)
        (query.sort, query.limit, query.includeBeats) = (sort, limit ?? (json ? nil : 100), json)
        query.likedOnly = liked
        // Copies of one recording next to each other, whatever --sort says.
        if duplicates { (query.copiesOnly, query.sort) = (true, .recording) }
        if json {
            // Row by row: the whole catalog as one array took 3 GB at 100,000 tracks.
            try console.printJSONArrayOfText { row in
                try catalog.forEachTrack(matching: query) { batch in
                    for track in batch { try row(try ListCommand.json(track)) }
                }
            }
            return
        }
        let rows = try catalog.tracks(matching: query)
        // The table shows a file as music is chosen from it: a BPM or a dislike set on another copy
        // of its recording holds for it (it showed its own analysis, which match does not use).
        let judged = try catalog.withRecordingsHandWord(rows)
        var table = TextTable(columns: (duplicates ? ["copy of"] : []) + ["BPM", "from", "tag", "conf", "♥", "state", "rights", "folder", "track"],
                              flexible: duplicates ? [6, 7, 8, 9] : [5, 6, 7, 8], title: duplicates ? 9 : 8)
        for (own, t) in zip(rows, judged) {
            let from = (t.bpmSource?.rawValue ?? "-") + (own.bpmManual == nil && t.bpmManual != nil ? " (copy)" : "")
            table.add((duplicates ? [t.recording.map { "#\($0)" } ?? "-"] : []) + [t.bpm.map { String(format: "%.1f", $0) } ?? "-", from,
                       t.bpmTag.map { String(format: "%.1f", $0) } ?? "-",
                       TrackCells.confidence(t), TrackCells.rating(t), t.state.rawValue,
                       t.sourceType.rawValue + (t.tempoAdjustAllowed ? "" : " (no tempo change)"), t.folder,
                       t.displayName() + (t.lastError.map { "  [\($0)]" } ?? "") + (t.decodeWarning.map { "  [\($0)]" } ?? "")
                           + (t.metadataOnlyReason.map { "  [\($0)]" } ?? "")])
        }
        console.print(table.render(), terminator: "")
        let total = rows.count < (query.limit ?? .max) ? rows.count : try catalog.count(matching: query)
        console.print(rows.count == total ? "\(total) track\(total == 1 ? "" : "s")"
            : "\(rows.count) of \(total) tracks (--limit N for more, --sort to order them)")
    }
}
