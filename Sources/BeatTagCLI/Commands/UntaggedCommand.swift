import ArgumentParser
import BeatTagKit
import Foundation

struct UntaggedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untagged",
        abstract: "Tracks that need a human: no BPM, octave in doubt, low confidence, or beats moved half a beat, most useful first.",
        discussion: """
            Low confidence means below 0.8, the tracks `match` marks with `?`: the confidence is the \
            calibrated probability that the analysed tempo is right. Fix them with `beattag tap FILE`, \
            `beattag tag FILE --bpm N`, or `--double` / `--half`. \
            "beats moved half a beat": the analysis moved the tracker's beats onto the other half of \
            the beat, which on real recordings is wrong more often than not. Listen with the click \
            (`beattag review`); if it falls between the beats, `beattag tag FILE --shift-beats 0.5` \
            (the review page's O). A hand-set BPM takes a track off the list; a placed beat takes off one listed for its beats. \
            Runnable tempi come first, then the slow and fast ones.
            """)

    @Option(parsing: .unconditional, help: "Show at most this many (default: 50 in the table, all with --json).") var limit: Int?
    @Flag(help: "JSON instead of a table.") var json = false
    @OptionGroup var catalogOption: CatalogOption

    struct Row: Encodable { var path: String; var reason: String; var bpm: Double?; var alternative: Double?; var confidence: Double? }

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        let console = Console.current
        let catalog = try catalogOption.open(create: false, access: .readOnly)
        if json {
            try console.printJSONArray { (row: (Row) throws -> Void) in
                try UntaggedQueue.forEachItem(in: catalog, limit: limit) { items in
                    for item in items {
                        try row(Row(path: item.track.path, reason: item.reason.rawValue, bpm: item.track.bpm,
                                    alternative: item.track.bpmAlternative, confidence: item.track.confidence))
                    }
                }
            }
            return
        }
        let (items, total) = try UntaggedQueue.items(in: catalog, limit: limit ?? 50)
        guard total > 0 else { console.print("nothing needs a human: every track has a BPM you can trust"); return }
        // `--limit 0` asks for the count alone (it said nothing needed a human).
        guard !items.isEmpty else { console.print("\(total) track\(total == 1 ? "" : "s") to check (--limit N lists them)"); return }
        var table = TextTable(columns: ["#", "why", "BPM", "or", "conf", "track", "folder"], flexible: [5, 6], title: 5)
        for (i, item) in items.enumerated() {
            let t = item.track
            table.add(["\(i + 1)", item.reason.rawValue, t.bpm.map { String(format: "%.1f", $0) } ?? "-",
                       t.bpmAlternative.map { String(format: "%.1f", $0) } ?? "-", TrackCells.confidence(t),
                       t.displayName(), t.folder])
        }
        console.print(table.render(), terminator: "")
        console.print("\(items.count) of \(total) track\(total == 1 ? "" : "s") to check" + (items.count < total ? " (--limit N for more)" : ""))
    }
}
