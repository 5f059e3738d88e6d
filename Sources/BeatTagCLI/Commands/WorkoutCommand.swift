import ArgumentParser
import BeatTagKit
import Foundation

struct WorkoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: "Fill a workout plan with tracks at each segment's cadence; write an M3U8.",
        discussion: """
            PLAN is a built-in plan — 4x4 (10 min warm-up, 4 × 4 min in zone 5 with 3 min recoveries, \
            cool-down), easy (30 min in zone 2), tempo (zone 4 blocks with zone 3 floats), progression \
            (a zone faster every block) — or a TOML plan file:

            \(PlanFile.example.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))

            A zone runs at the cadence your profile gives it (see `beattag zones`), and is shown with its \
            heart rates, so a plan of zones needs a heart rate (--max-hr, --age or the saved profile; `render` plays \
            the zones' cadences without one); a plan of cadences alone needs none. Each segment gets whole \
            tracks under the 1:1 rules of `match` (±10%, rights, filters, no half-time unless asked) whose \
            lengths add up closest to the segment; no track twice, artists spread, liked tracks first. The \
            M3U8 names each segment and its spoken cue in comment lines players skip.

            A segment (or the whole workout) filled more than 5% short is reported with what to do; the \
            workout is still written and the exit status is 3 (0 with --allow-short). --seed picks again \
            among the good tracks: the same seed, the same workout (the seed used is printed on stderr).

            Examples:
              beattag workout 4x4 --max-hr 190 -o intervals.m3u8
              beattag workout my-plan.toml --age 41 -o run.m3u8 --json
            """)

    @Argument(help: ArgumentHelp("A built-in plan (4x4, easy, tempo, progression) or a TOML plan file.", valueName: "plan"))
    var plan: String
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var filters: MatchFilterOptions
    @OptionGroup var halfTime: HalfTimeOption
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Playlist file to write (.m3u8); - writes it to stdout (absolute paths, the summary on stderr).", valueName: "file")) var output: String?
    @Flag(help: "Print the workout as JSON (segments, cadences, cues, tracks with absolute paths).") var json = false
    @Flag(help: "Write absolute paths in the M3U8.") var absolute = false
    @Option(help: "Seed for the choice among good tracks (default: a new one, printed on stderr).") var seed: UInt64?
    @OptionGroup var shortOption: AllowShortOption
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        if output == nil && !json { throw ValidationError("give -o FILE.m3u8 to write the playlist, or --json to print the workout") }
        if json, let output, PlaylistExport.isStandardOutput(output) { throw ValidationError("--json and -o - both write to stdout: choose one") }
        if absolute && output == nil { throw ValidationError("--absolute goes with -o FILE.m3u8 (the JSON's paths are absolute already)") }
    }

    func run() throws {
        let console = Console.current.reportingOnStderr(output.map(PlaylistExport.isStandardOutput) ?? false)
        let plan = try PlanArgument.load(self.plan)
        // Heart rates name each zone's range; a plan of cadences alone needs none (`render` plays
        // zones without them too).
        let resolved = plan.segments.contains { $0.zone != nil } ? try profile.resolve(console: console) : nil
        let zoneSPM = try resolved?.zoneSPM ?? profile.zoneCadences(console: console)
        let zones = resolved.map(HeartRateZones.init)
        let (catalog, _) = try catalogOption.openWritableIfPossible()
        var builder = WorkoutBuilder(maxShiftPercent: filters.maxShift, allowHalfTime: halfTime.allowHalfTime, filter: filters.filter)
        builder.seed = seed ?? SeededOrder.newSeed()
        builder.unusableFile = { $0.fileProblemSinceScan ?? $0.renderedRunProblem }
        let workout: WorkoutBuilder.Workout
        do { workout = try builder.build(plan, zoneSPM: zoneSPM, catalog: catalog) } catch {
            throw CommandFailure("\(CatalogError.userFacing(error))")
        }
        console.reportLeftOut(workout.leftOut)
        console.problem("seed \(builder.seed) (--seed \(builder.seed) picks the same tracks again)")
        if let output {
            do {
                let text = WorkoutExport.m3u8(workout, playlistPath: output,
                                              absolute: PlaylistExport.writesAbsolutePaths(to: output, absolute: absolute), zones: zones)
                if let note = try PlaylistExport.deliver(text, to: output, trackIDs: workout.segments.flatMap { $0.tracks.compactMap(\.track.id) },
                                                         catalog: catalog, at: Date().timeIntervalSince1970, standardOutput: Console.current.writeProduct) {
                    console.problem(note)
                }
            } catch { throw CommandFailure("\(CatalogError.userFacing(error))") }
        }
        if json {
            var document = WorkoutExport.document(workout, profile: resolved)
            document.seed = builder.seed
            try console.printJSON(document)
        } else {
            printSummary(workout, zones: zones, console: console)
        }
        // One line per cadence that is short, naming its segments.
        let short = workout.shortSegments
        for spm in short.map(\.spm).reduce(into: [Double](), { if !$0.contains($1) { $0.append($1) } }) {
            let segments = short.filter { $0.spm == spm }
            let under = segments.map { $0.plannedSeconds - $0.filledSeconds }.reduce(0, +)
            let named = segments.map { segment -> String in
                let (filled, planned) = DurationText.clocks(segment.filledSeconds, segment.plannedSeconds)
                return "\"\(segment.segment.name)\" \(filled) of \(planned)"
            }
            // Tracks that fit but play in other segments are said apart: "scan more music" alone reads
            // as if they were not there.
            let taken = segments.map(\.takenElsewhere).max() ?? 0
            let elsewhere = taken > 0 ? String(format: ", %d of them already in other segments (a track plays once)", taken) : ""
            let available = segments[0].available
            // Tracks whose files are gone (a disk not mounted) fit too: "fix their tempo" would mislead.
            let remedy = !workout.leftOut.isEmpty
                ? "tracks were left out because their files are gone or changed since the scan (listed above; a disk not mounted? scan again)"
                : "`beattag untagged` and `beattag tap` find and fix tracks whose tempo is in doubt, or scan more music"
            console.problem(String(format: "%g SPM is short by %@ (%@): %d track%@ in the catalog fit%@ %g SPM within ±%g%%%@; %@",
                                   spm, DurationText.shortfall(under), named.joined(separator: ", "), available, available == 1 ? "" : "s",
                                   available == 1 ? "s" : "", spm, filters.maxShift,
                                   elsewhere, remedy))
        }
        if workout.isShort { try shortOption.exitIfShort() }
    }

    private func printSummary(_ workout: WorkoutBuilder.Workout, zones: HeartRateZones?, console: Console) {
        var table = TextTable(columns: ["segment", "zone", "heart rate", "SPM", "planned", "filled", "tracks"])
        for s in workout.segments {
            let heartRate = zones?.range(of: s.segment.zone).map { "\($0.min)–\($0.max)" } ?? "-"
            let (planned, filled) = DurationText.clocks(s.plannedSeconds, s.filledSeconds)
            table.add([s.segment.name, s.segment.zone.map { "Z\($0)" } ?? "-", heartRate, String(format: "%g", s.spm),
                       planned, filled + (s.isShort ? " short" : ""),
                       "\(s.tracks.count)"])
        }
        console.print(table.render())
        var line = "\(workout.plan.name): \(DurationText.clock(workout.filledSeconds)) of \(DurationText.clock(workout.plannedSeconds)), "
            + "segment changes at most \(DurationText.clock(workout.largestBoundaryError)) off the plan"
        if let output { line += " → \(PlaylistExport.name(of: output))" }
        console.print(line)
    }
}
