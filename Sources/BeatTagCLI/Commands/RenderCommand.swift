import ArgumentParser
import BeatTagKit
import Foundation

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a run as one audio file: every beat on a metronome clock at your cadence.",
        discussion: """
            Picks tracks as `match --spm` does (±10%, rights, filters), plays each for whole 8-beat \
            phrases of its beat grid (quiet intros and outros skipped), time-stretched with Rubber Band \
            so that every beat lands on the clock (drifting tracks too: the stretch follows the beats), \
            changes track on a phrase start with a 4-beat equal-power crossfade, gains each track to one \
            loudness (libebur128, after the stretch) and limits the sum below −1 dBFS. A track whose \
            licence forbids changes plays only if within 0.5% of the cadence, unstretched. Where no \
            track is left, the click carries the run (with a warning). The run lasts --duration rounded \
            to whole phrases and ends on one.

            Output format by extension: .flac, .ogg, .opus or .wav (44.1 kHz stereo; Opus 48 kHz); a \
            CUE sheet beside it names the tracks. The file appears only when complete: an interrupted \
            or failed render leaves nothing under its name. --json prints the timeline: for each track \
            its source's moment s plays at startSeconds + (s − sourceStartSeconds) × stretch, and every \
            beat's [source, mix] seconds are in beatMap. See docs/render.md.

            --click-only renders the metronome alone. Workout plans and spoken cues are not in this \
            version yet (issue 14).

            Examples:
              beattag render --spm 170 --duration 40m -o run.flac
              beattag render --spm 175 --duration 20m --click -o run.ogg --json
              beattag render --click-only --spm 175 --duration 20m -o click.flac
            """)

    @Option(help: "Cadence in steps per minute (100–240).") var spm: Double
    @Option(help: "Length of the run: 40m, 1h10m, 45:00, 2400 (seconds); rounded to whole 8-beat phrases.") var duration: String
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Audio file to write (.flac, .ogg, .opus, .wav).", valueName: "file"))
    var output: String
    @Flag(help: "Add the metronome click to the music (accent every 8 beats).") var click = false
    @Flag(help: "Render the metronome alone (no music).") var clickOnly = false
    @Option(help: ArgumentHelp("Peak level of the accented click, dBFS (−40 to 0; default −6 alone, −12 over music).", valueName: "dB"))
    var clickLevel: Double?
    @Option(help: ArgumentHelp("Loudness every track is gained to, LUFS (−30 to −8).", valueName: "LUFS")) var loudness: Double = -14
    @Option(help: ArgumentHelp("Time-stretch engine: fast (Rubber Band R2), standard (R3, short window), fine (full R3).", valueName: "q"))
    var quality: String = "standard"
    @Flag(help: "Print the timeline as JSON.") var json = false
    @OptionGroup var filters: MatchFilterOptions
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        guard CadenceRules.cadenceRange.contains(spm) else { throw ValidationError("cadence \(spm.formatted()) SPM is outside 100–240 steps per minute") }
        guard let seconds = PlaylistBuilder.parseDuration(duration), seconds >= 10, seconds <= 6 * 3600 else {
            throw ValidationError("cannot read --duration \"\(duration)\": use e.g. 40m, 1h10m, 45:00 or seconds (10 s to 6 h)")
        }
        guard MixFormat(path: output) != nil else {
            throw ValidationError("cannot write \(output): unknown extension (use \(MixFormat.supportedList))")
        }
        if let clickLevel { guard (-40...0).contains(clickLevel) else { throw ValidationError("--click-level must be between −40 and 0 dBFS") } }
        guard (-30 ... -8).contains(loudness) else { throw ValidationError("--loudness must be between −30 and −8 LUFS") }
        guard TimeStretcher.Quality(rawValue: quality) != nil else { throw ValidationError("--quality must be fast, standard or fine") }
    }

    func run() throws {
        let console = Console.current
        let seconds = PlaylistBuilder.parseDuration(duration)!  // validate() checked it
        let cancelled = CancelFlag()
        let interrupts = InterruptHandler(console: console, message: "stopping; nothing is written") { cancelled.set() }
        defer { interrupts.restore() }
        let bar = ProgressLine(console: console, enabled: console.stderrIsTerminal && !json)
        let started = Date()
        defer { bar.clear() }
        if clickOnly {
            let timeline = try failing { try ClickRun.render(spm: spm, seconds: seconds, levelDB: clickLevel ?? -6, to: output,
                                                              isCancelled: { cancelled.isSet }, progress: { bar.update(fraction: $0, started: started) }) }
            bar.clear()
            if json { try console.printJSON(timeline); return }
            console.print(String(format: "%@ of clicks at %g SPM (%d beats, %d phrases) → %@", DurationText.clock(timeline.durationSeconds),
                                 spm, timeline.beats, timeline.beats / MasterClock.beatsPerPhrase, output))
            return
        }

        let catalog = try catalogOption.open(create: false)
        var rules = CadenceRules(spm: spm, maxShiftPercent: filters.maxShift, allowHalfTime: false)
        rules.spm = spm
        let matches = try failing { CadenceMatcher.match(try catalog.cadenceCandidates(rules), rules: rules, filter: filters.filter).matches }
        guard !matches.isEmpty else {
            let options = try MatchOptions.parse(["--spm", "\(spm)", "--max-shift", "\(filters.maxShift)"])
            throw CommandFailure(try options.explainNoMatch(in: catalog) + "; `--click-only` renders a metronome run")
        }
        let clock = MasterClock(spm: spm, sampleRate: MixFormat(path: output)!.sampleRate)
        let plan = try failing { try RunPlan.plan(clock: clock, seconds: seconds, candidates: matches, catalog: catalog) }
        guard !plan.entries.isEmpty else {
            throw CommandFailure("no track near \(spm.formatted()) SPM can be used: "
                                 + plan.leftOut.prefix(3).map { "\(($0.path as NSString).lastPathComponent): \($0.reason)" }.joined(separator: "; ")
                                 + "; `--click-only` renders a metronome run")
        }
        var options = RunRenderer.Options()
        options.targetLUFS = loudness
        options.click = click
        options.clickLevelDB = clickLevel ?? -12
        options.quality = TimeStretcher.Quality(rawValue: quality)!
        let result = try failing {
            try RunRenderer(options: options).render(plan, to: output, isCancelled: { cancelled.isSet },
                                                     progress: { bar.update(fraction: $0, started: started) })
        }
        bar.clear()
        let cue = CueSheet.text(for: result.timeline, audioFile: output,
                                titles: plan.entries.map { $0.track.displayName(separator: " - ", withExtension: false) },
                                performers: plan.entries.map { $0.track.artist },
                                clickFromSeconds: plan.clickCarriesFrom.map { clock.time(ofBeat: $0).value })
        do { try AtomicFile.write(cue, to: CueSheet.path(besides: output)) } catch { console.problem("\(error)") }
        for item in plan.leftOut.prefix(5) { console.problem("left out \(item.path): \(item.reason)") }
        if plan.leftOut.count > 5 { console.problem("… and \(plan.leftOut.count - 5) more left out") }
        if let from = plan.clickCarriesFrom {
            console.problem(String(format: "not enough music at %g SPM: the click carries the run from %@ to its end (%@)", spm,
                                   DurationText.clock(clock.time(ofBeat: from).value), DurationText.clock(result.timeline.durationSeconds)))
        }
        if json { try console.printJSON(result.timeline); return }
        console.print(String(format: "%@ at %g SPM: %d tracks, %d phrases → %@ (+ %@); rendered in %.1f s",
                             DurationText.clock(result.timeline.durationSeconds), spm, result.timeline.tracks.count,
                             plan.totalBeats / MasterClock.beatsPerPhrase, output, (CueSheet.path(besides: output) as NSString).lastPathComponent,
                             Date().timeIntervalSince(started)))
    }

    /// Library errors as one line; Ctrl-C as exit 130.
    private func failing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let cancelled as RenderCancelled {
            throw CommandFailure("\(cancelled)", code: 130)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(CatalogError.userFacing(error))")
        }
    }
}

/// Set from the signal handler's queue, read by the render loop.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
