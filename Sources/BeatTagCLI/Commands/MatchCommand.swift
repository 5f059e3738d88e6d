import ArgumentParser
import BeatTagKit
import Foundation

struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Tracks you can run to at a cadence, one step per beat.",
        discussion: """
            A track qualifies when the tempo change to reach the cadence (spm / bpm) is within ±10% \
            (--max-shift), its rights allow that change (no-derivatives licences only match within 0.5%), \
            and it has a BPM (analysed, tagged, or set by hand). Ranked by the size of the change (a liked \
            track first within its whole percent), then beat confidence, then steady tempo before variable. No half- or double-time unless \
            --allow-half-time: a 90 BPM track never matches 180 SPM by default.

            Examples:
              beattag match --spm 175
              beattag match --spm 165 --genre rock --genre punk --min-confidence 0.5
              beattag match --spm 180 --source cc0 --source cc-by --m3u8 cc-run.m3u8
            """)

    @OptionGroup var options: MatchOptions
    @Option(parsing: .unconditional, help: "Show at most this many (default: 50 in the table, all with --json or --m3u8).") var limit: Int?
    @Option(help: ArgumentHelp("Also write the matches (all, or --limit) as an M3U8 playlist; - writes it to stdout (the table on stderr).", valueName: "file")) var m3u8: String?
    @Flag(help: "Write absolute paths in the playlist.") var absolute = false
    @Flag(help: "JSON array instead of a table.") var json = false
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if json, let m3u8, PlaylistExport.isStandardOutput(m3u8) { throw ValidationError("--json and --m3u8 - both write to stdout: choose one") }
        if absolute && m3u8 == nil { throw ValidationError("--absolute goes with --m3u8 FILE (the paths in the playlist)") }
    }

    func run() throws {
        let console = Console.current.reportingOnStderr(m3u8.map(PlaylistExport.isStandardOutput) ?? false)
        // Read-only with --m3u8 too: its playlists are not recorded (`--fresh` counts `playlist` and `workout`).
        let catalog = try catalogOption.open(create: false, access: .readOnly)
        let shown = limit ?? (json || m3u8 != nil ? nil : 50)
        let matches: [CadenceMatch]
        let footer: String
        if let shown {
            // The best few: judged nearest-first, without loading the whole tempo window.
            let best = try CadenceSearch.best(shown, rules: options.rules, filter: options.filter, in: catalog)
            matches = best.matches
            if matches.count == shown {
                footer = "\(matches.count) best of \(best.inWindow) track\(best.inWindow == 1 ? "" : "s") in the tempo window at "
                    + "\(String(format: "%g", options.spm)) SPM (--limit N for more)"
            } else {
                // Every match is shown: "best of" would promise more (the rest are copies, dislikes, rights, filters).
                footer = "\(matches.count) matching track\(matches.count == 1 ? "" : "s") at \(String(format: "%g", options.spm)) SPM"
                    + (best.inWindow > matches.count ? " (of \(best.inWindow) in the tempo window: a recording is offered once; rights, dislikes and filters leave out the rest)" : "")
            }
        } else {
            let result = try catalog.cadenceMatches(options.rules, filter: options.filter)
            matches = result.matches
            footer = "\(matches.count) matching track\(matches.count == 1 ? "" : "s") at \(String(format: "%g", options.spm)) SPM"
        }
        if let m3u8 {
            // No playlist of nothing: said as `playlist` says it (exit 1, no file).
            if matches.isEmpty, shown != 0 { throw CommandFailure(try options.explainNoMatch(in: catalog) + "; no playlist written") }
            // The table shows what the catalog holds; the playlist only files a player can open.
            let leftOut = matches.compactMap { match in match.track.fileProblemSinceScan.map { RunPlan.LeftOut(path: match.track.path, reason: $0, needsRescan: true) } }
            console.reportLeftOut(leftOut)
            let unusable = Set(leftOut.map(\.path))
            let playable = matches.filter { !unusable.contains($0.track.path) }
            if playable.isEmpty, shown != 0 { throw CommandFailure("no matching track's file can be used (see above); no playlist written") }
            do {
                if let note = try PlaylistExport.write(playable, title: PlaylistExport.defaultTitle(spm: options.spm), to: m3u8, absolute: absolute,
                                            recordsExport: false, catalog: catalog, at: Date().timeIntervalSince1970, standardOutput: Console.current.writeProduct) {
                    console.problem(note)
                }
            } catch { throw CommandFailure("\(CatalogError.userFacing(error))") }
        }
        if json {
            try console.printJSON(matches)
            return
        }
        guard !matches.isEmpty || shown == 0 else {
            console.print(try options.explainNoMatch(in: catalog))
            return
        }
        console.print(MatchTable.render(matches), terminator: "")
        // A BPM typed by hand or tagged a little off the analysed beats is matched at the beats' tempo.
        let offTheirBeats = matches.filter { abs($0.bpm - ($0.track.bpm ?? $0.bpm)) >= 0.05 }.count
        if offTheirBeats > 0 {
            console.print("BPM: the tempo of the track's beats, which a render stretches; \(offTheirBeats) track\(offTheirBeats == 1 ? " has" : "s have") "
                          + "a BPM set by hand or tagged a little off them (`beattag list` shows it)")
        }
        let doubtful = matches.filter(\.tempoInDoubt).count
        if doubtful > 0 {
            console.print(String(format: "? %d tempo%@ in doubt (confidence below %.1f): check with `beattag tag FILE --double/--half` or `beattag tap FILE`",
                         doubtful, doubtful == 1 ? "" : "s", ConfidenceEvidence.trusted))
        }
        console.line(footer + (m3u8.map { "; playlist written to \(PlaylistExport.name(of: $0))" } ?? ""))
    }
}
