import ArgumentParser
import BeatTagKit
import Foundation

struct PlaylistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Write an M3U8 playlist of cadence matches that fills a running time.",
        discussion: """
            Picks from the tracks `beattag match` would list (same rules and filters), favouring the \
            smallest tempo changes, never the same song twice (album, Radio Edit, Remastered and feat. \
            versions count as one, nor do two copies of one recording), with artists spread out. The same \
            --seed gives the same playlist. Paths are written relative to the playlist with forward slashes \
            (--absolute for full paths). A playlist more than 5% short of --duration is still written, \
            and the exit status is 3 (0 with --allow-short).

            Examples:
              beattag playlist --spm 175 --duration 40m -o run.m3u8
              beattag playlist --spm 168 --duration 1h --fresh --seed 7 -o long-run.m3u8
              beattag playlist --spm 175 --duration 30m -o - | mpv --playlist=-
            """)

    @OptionGroup var options: MatchOptions
    @Option(parsing: .unconditional, help: "Running time to fill: 40m, 1h10m, 45:00, 2400 (seconds; a bare number from 600 on).") var duration: String
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Playlist file to write (.m3u8); - writes it to stdout (absolute paths, the summary on stderr).", valueName: "file")) var output: String
    @Option(help: "Seed for the choice among good matches (default: a new one, printed).") var seed: UInt64?
    @Flag(help: "Avoid tracks of the playlists and workouts written in the last --fresh-days days (used only if nothing else fills the time; `match --m3u8` lists do not count).")
    var fresh = false
    @Option(parsing: .unconditional, help: ArgumentHelp("What --fresh counts as recent (default: 7).", valueName: "days"), transform: PlainNumber.double)
    var freshDays: Double = 7
    @Option(help: "Title inside the playlist (default: beattag <spm> SPM).") var title: String?
    @Flag(help: "Write absolute paths.") var absolute = false
    @OptionGroup var shortOption: AllowShortOption
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        guard freshDays > 0, freshDays <= 3650 else { throw ValidationError("--fresh-days must be more than 0 and at most 3650") }
        guard let seconds = DurationText.seconds(duration) else {
            throw ValidationError("cannot read --duration \"\(duration)\": use e.g. 40m, 1h10m, 45:00 or seconds")
        }
        try DurationArgument.refuseShortBareSeconds(duration, seconds: seconds)
    }

    func run() throws {
        let console = Console.current.reportingOnStderr(PlaylistExport.isStandardOutput(output))
        let (catalog, _) = try catalogOption.openWritableIfPossible()
        let result = try catalog.cadenceMatches(options.rules, filter: options.filter)
        guard !result.matches.isEmpty else { throw CommandFailure(try options.explainNoMatch(in: catalog)) }
        let usedSeed = seed ?? SeededOrder.newSeed()
        let target = DurationText.seconds(duration)!  // validate() checked it
        var builder = PlaylistBuilder(targetSeconds: target, seed: usedSeed)
        let now = Date().timeIntervalSince1970
        if fresh { builder.avoid = try catalog.exportedTracks(since: now - freshDays * 86400) }
        builder.unusableFile = { $0.fileProblemSinceScan ?? $0.renderedRunProblem }
        builder.otherCopies = { [options] in (try? catalog.otherCopies(of: $0, rules: options.rules, filter: options.filter)) ?? [] }
        let playlist = builder.build(from: result.matches)
        console.reportLeftOut(playlist.leftOut)
        guard !playlist.entries.isEmpty else { throw CommandFailure("no matching track's file can be used (see above); no playlist written") }
        do {
            if let note = try PlaylistExport.write(playlist.entries, title: title ?? PlaylistExport.defaultTitle(spm: options.spm), to: output,
                                                   absolute: absolute, catalog: catalog, at: now, standardOutput: Console.current.writeProduct) {
                console.problem(note)
            }
        } catch { throw CommandFailure("\(CatalogError.userFacing(error))") }

        console.print(MatchTable.render(playlist.entries), terminator: "")
        var summary = "\(playlist.entries.count) track\(playlist.entries.count == 1 ? "" : "s"), \(DurationText.clock(playlist.seconds)) of \(DurationText.clock(target)) → \(PlaylistExport.name(of: output)) (seed \(usedSeed))"
        if playlist.seconds < target { summary += "; not enough matching music to fill the time" }
        if playlist.reused > 0 { summary += "; \(playlist.reused) recently exported track\(playlist.reused == 1 ? "" : "s") reused to fill it" }
        console.print(summary)
        if RunShortfall.isShort(music: playlist.seconds, planned: target) { try shortOption.exitIfShort() }
    }
}
