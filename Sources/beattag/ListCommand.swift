import ArgumentParser
import BeatTagKit
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show what the catalog holds.",
        discussion: "Filters combine. Examples:\n  beattag list --min-bpm 165 --max-bpm 185\n  beattag list --state failed\n  beattag list --search \"daft punk\" --json",
        aliases: ["show"])

    @Option(help: "Only tracks whose BPM in use is at least this.") var minBPM: Double?
    @Option(help: "Only tracks whose BPM in use is at most this.") var maxBPM: Double?
    @Option(help: ArgumentHelp("Only tracks in this state.", valueName: "state"))
    var state: TrackState?
    @Option(help: ArgumentHelp("Only tracks with these rights.", valueName: "type")) var source: SourceType?
    @Option(help: "Case-insensitive text to find in path, title, artist, album or genre.") var search: String?
    @Flag(help: "One JSON array of rows (beats included).") var json = false
    @OptionGroup var catalogOption: CatalogOption

    struct Row: Encodable {
        var track: TrackRecord
        var beats: [Double]
        enum CodingKeys: CodingKey { case track, beats }
        func encode(to encoder: Encoder) throws {
            try track.encode(to: encoder)  // flat: the row's columns, with beats decoded
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(beats, forKey: .beats)
        }
    }

    func run() throws {
        let catalog = try catalogOption.open(create: false)
        let needle = search?.lowercased()
        let rows = try catalog.allTracks(includingBeats: json).filter { t in
            if let state, t.state != state { return false }
            if let source, t.sourceType != source { return false }
            if let minBPM, (t.bpm ?? -1) < minBPM { return false }
            if let maxBPM, (t.bpm ?? .infinity) > maxBPM { return false }
            if let needle {
                let hay = [t.path, t.title, t.artist, t.album, t.genre].compactMap { $0?.lowercased() }
                if !hay.contains(where: { $0.contains(needle) }) { return false }
            }
            return true
        }
        if json {
            printJSON(rows.map { Row(track: $0, beats: $0.beatTimes.map { rounded($0, 4) }) })
            return
        }
        var table = TextTable(columns: ["BPM", "from", "conf", "state", "rights", "track"])
        for t in rows {
            table.add([t.bpm.map { String(format: "%.1f", $0) } ?? "-", t.bpmSource?.rawValue ?? "-",
                       t.confidence.map { String(format: "%.2f", $0) } ?? "-", t.state.rawValue,
                       t.sourceType.rawValue + (t.tempoAdjustAllowed ? "" : " (no tempo change)"),
                       displayName(t) + (t.lastError.map { "  [\($0)]" } ?? "") + (t.decodeWarning.map { "  [\($0)]" } ?? "") + (t.metadataOnlyReason.map { "  [\($0)]" } ?? "")])
        }
        print(table.render(), terminator: "")
        print("\(rows.count) track\(rows.count == 1 ? "" : "s")")
    }
}

func displayName(_ t: TrackRecord) -> String {
    if let title = t.title {
        return (t.artist.map { "\($0) – " } ?? "") + title
    }
    return (t.path as NSString).lastPathComponent
}

/// Columns padded to their widest cell; counts characters, not bytes, so Unicode names line up.
struct TextTable {
    var columns: [String]
    var rows: [[String]] = []
    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        var widths = columns.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ") + "\n"
        }
        return line(columns) + rows.map(line).joined()
    }
}
