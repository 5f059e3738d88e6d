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
            licence forbids changes plays only if within 0.5% of the cadence, unstretched. The run lasts \
            --duration rounded to whole phrases and ends on one.

            When the catalog has too little new music at a cadence, music the run already played fills \
            the rest: first parts of long tracks not played yet, then repeats (never a track right after \
            itself); only then does the click carry it. Each is said on stderr, the timeline marks each \
            track's "fill", and a run whose music falls more than 5% short (a segment or the whole) is \
            still written but exits 3 (0 with --allow-short). --seed picks again among the good tracks: \
            the same seed, the same run (the seed used is printed on stderr and in --json).

            Output format by extension: .flac, .ogg, .opus or .wav (44.1 kHz stereo; Opus 48 kHz); a \
            CUE sheet beside it names the tracks, and run.credits.txt credits them: licence, source, the \
            changes made, and what their licences ask of whoever shares the file. The file appears only when complete: an interrupted \
            or failed render leaves nothing under its name. --json prints the timeline: for each track \
            its source's moment s plays at startSeconds + (s − sourceStartSeconds) × stretch, and every \
            beat's [source, mix] seconds are in beatMap. See docs/render.md.

            With a PLAN (4x4, easy, tempo, progression or a TOML plan file, see `beattag workout`) \
            the cadence follows the plan: each segment runs on its own clock for whole phrases at its \
            zone's cadence (`beattag zones`; --zone-spm or the saved profile, no heart rate needed), \
            and changes on the beat with a clean cut (no crossfade \
            across two tempi); at each segment start its cue is spoken (espeak-ng) over the ducked music \
            (--no-cues to skip; no two cues within 20 s). --click-only renders the metronome alone, \
            at --spm for --duration or through a PLAN's segments with their cues.

            Examples:
              beattag render --spm 170 --duration 40m -o run.flac
              beattag render 4x4 --zone-spm 5=182 --click -o intervals.ogg
              beattag render --spm 175 --duration 20m --click -o run.ogg --json
              beattag render --click-only --spm 175 --duration 20m -o click.flac
              beattag render 4x4 --click-only --zone-spm 5=182 -o intervals-click.ogg
            """)

    @Argument(help: ArgumentHelp("A workout plan: 4x4, easy, tempo, progression or a TOML plan file (instead of --spm and --duration).", valueName: "plan"))
    var plan: String?
    @Option(parsing: .unconditional, help: "Cadence in steps per minute (100–240).", transform: PlainNumber.double) var spm: Double?
    @Option(parsing: .unconditional, help: "Length of the run: 40m, 1h10m, 45:00, 2400 (seconds; a bare number from 600 on); rounded to whole 8-beat phrases.") var duration: String?
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Audio file to write (.flac, .ogg, .opus, .wav).", valueName: "file"))
    var output: String
    @Flag(help: "Add the metronome click to the music (accent every 8 beats).") var click = false
    @Flag(help: "Render the metronome alone (no music).") var clickOnly = false
    // Unconditional: every level but 0 is negative, and `--click-level -6` was "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Peak level of the accented click, dBFS (−40 to 0; default −6 alone, −12 over music).", valueName: "dB"),
            transform: PlainNumber.double)
    var clickLevel: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Loudness every track is gained to, LUFS (−30 to −8; default: −14).", valueName: "LUFS"),
            transform: PlainNumber.double) var loudness: Double = -14
    @Option(help: ArgumentHelp("Time-stretch engine: fast (Rubber Band R2), standard (R3, short window), fine (full R3).", valueName: "q"))
    var quality: String = "standard"
    @Flag(help: "With a plan: do not speak the segment cues.") var noCues = false
    @Flag(help: "Print the timeline as JSON.") var json = false
    @Option(help: "Seed for the choice among good tracks (default: a new one, printed on stderr).") var seed: UInt64?
    @OptionGroup var shortOption: AllowShortOption
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var filters: MatchFilterOptions
    @OptionGroup(visibility: .hidden) var halfTime: HalfTimeOption
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        // The master clock puts every beat of every track on a step: there is no half-time render.
        guard !halfTime.allowHalfTime else {
            throw ValidationError("render puts a beat on every step: --allow-half-time is for match, playlist and workout")
        }
        if plan != nil {
            guard spm == nil, duration == nil else { throw ValidationError("a plan sets the cadence and the length: give a PLAN or --spm and --duration, not both") }
        } else {
            guard let spm, let duration else { throw ValidationError("give --spm and --duration (or a workout PLAN)") }
            // Heart rates and zone cadences choose a plan's cadences: with --spm they were dropped without a word.
            if let first = profile.given.first {
                throw ValidationError("\(first) goes with a workout PLAN (its zones' cadences); --spm gives the cadence itself"
                                      + (profile.save ? " (save a profile with `beattag zones … --save`)" : ""))
            }
            if noCues { throw ValidationError("--no-cues goes with a workout PLAN: a run at one cadence has no cues") }
            try MatchOptions.checkCadence(spm)
            guard let seconds = DurationText.seconds(duration) else {
                throw ValidationError("cannot read --duration \"\(duration)\": use e.g. 40m, 1h10m, 45:00 or seconds (10 s to 6 h)")
            }
            // Read, but out of range: said as such (it was "cannot read" for 9s and 6h1m).
            guard seconds >= 10 else { throw ValidationError("--duration \(duration) is shorter than a run can be (10 s)") }
            guard seconds <= 6 * 3600 else { throw ValidationError("--duration \(duration) is longer than a run can be (6 h)") }
            try DurationArgument.refuseShortBareSeconds(duration, seconds: seconds)
        }
        guard MixFormat(path: output) != nil else {
            throw ValidationError("cannot write \(output): unknown extension (use \(MixFormat.supportedList))")
        }
        if let clickLevel { guard (-40...0).contains(clickLevel) else { throw ValidationError("--click-level must be between −40 and 0 dBFS") } }
        guard (-30 ... -8).contains(loudness) else { throw ValidationError("--loudness must be between −30 and −8 LUFS") }
        guard TimeStretcher.Quality(rawValue: quality) != nil else { throw ValidationError("--quality must be fast, standard or fine") }
    }

    /// The render replaces an earlier run at `output`, never a song of the catalog (`-o` naming one
    /// by mistake), an audio file beattag did not render (a download not scanned yet), nor what is
    /// not a regular file. With `companions`, its CUE sheet and credits must be writable too (a CD's
    /// cue sheet of the same name was replaced): checked before the work, not after it.
    private func checkOutput(catalog: Catalog?, companions: Bool) throws {
        // Said of the file asked for, not of the first companion checked (it named the .cue).
        do { try AtomicFile.checkFolder(of: output) } catch { throw CommandFailure("\(error)") }
        if companions {
            // A CUE sheet quotes its FILE name and can escape neither a quote nor a line break: it named another file.
            let name = (output as NSString).lastPathComponent
            guard !name.contains("\""), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw CommandFailure("cannot write \(VisibleControls.text(output)): its CUE sheet could not name a file with a double quote (\") "
                                     + "or a control character in its name; choose another name")
            }
            if let other = RenderCompanions.otherRender(besides: FileWalker.absolutePath(output)) {
                throw CommandFailure("cannot write \(output): its CUE sheet and credits would replace those of \(other), another render "
                                     + "beside it (not replaced; choose another name, e.g. \(Self.distinctName(for: output)))")
            }
            do {
                try AtomicFile.checkWritable(CueSheet.path(besides: output), as: .cueSheet)
                try AtomicFile.checkWritable(RunCredits.path(besides: output), as: .credits)
            } catch { throw CommandFailure("\(error)") }
        }
        let absolute = FileWalker.absolutePath(output)
        var existing = stat()
        guard stat(absolute, &existing) == 0 else { return }
        guard existing.st_mode & S_IFMT == S_IFREG else { throw CommandFailure("cannot write \(output): it is not a regular file") }
        let target = LexicalPath.writeTarget(absolute)
        if let catalog, try Set([absolute, target]).contains(where: { try catalog.track(path: $0) != nil }) {
            throw CommandFailure("cannot write \(output): it is a track in the catalog (a render never replaces your music; choose another name)")
        }
        // Renders are marked since this build; an earlier one is known by the credits written beside it.
        guard existing.st_size == 0 || MixFileWriter.isRender(path: target) || RunCredits.describes(audioFile: target) else {
            throw CommandFailure("cannot write \(output): it exists and is not a run beattag rendered (not replaced; remove it or choose another name)")
        }
    }

    /// `run.mp3` → `run-mp3.mp3`: a name whose companions are its own.
    static func distinctName(for output: String) -> String {
        let ext = (output as NSString).pathExtension
        return (output as NSString).deletingPathExtension + "-" + ext.lowercased() + (ext.isEmpty ? "" : "." + ext)
    }

    func run() throws {
        let console = Console.current
        let cancelled = Locked(false)  // set by the signal's reader, read by the render loop
        let interrupts = InterruptHandler(console: console, message: "stopping; nothing is written") { cancelled.value = true }
        defer { interrupts.restore() }
        let bar = ProgressLine(console: console, enabled: console.stderrIsTerminal && !json)
        let started = Date()
        defer { bar.clear() }
        // The run: one cadence for the whole length, or a plan's segments.
        let sampleRate = MixFormat(path: output)!.sampleRate
        let segments: [RunSegment]
        var planTitle: String?  // the plan's own name (a plan file's `name`), for the CUE sheet
        if let planName = plan {
            let loaded = try PlanArgument.load(planName)
            planTitle = loaded.name
            segments = RunSchedule.segments(of: loaded, zoneSPM: try profile.zoneCadences(console: console), cues: !noCues)
        } else {
            segments = [RunSegment(spm: spm!, seconds: DurationText.seconds(duration!)!)]  // validate() checked both
        }
        if clickOnly {
            try checkOutput(catalog: nil, companions: false)
            try renderClicks(segments, console: console, bar: bar, started: started, isCancelled: { cancelled.value })
            return
        }
        let catalog = try catalogOption.open(create: false, access: .readOnly)  // a render writes nothing to it
        try checkOutput(catalog: catalog, companions: true)
        let usedSeed = seed ?? SeededOrder.newSeed()
        let plans: [RunPlan]
        do {
            plans = try RunSchedule.plans(for: segments, catalog: catalog, filter: filters.filter, maxShiftPercent: filters.maxShift,
                                          seed: usedSeed, sampleRate: sampleRate,
                                          progress: { bar.update(fraction: $0, started: started, label: "choosing music") })
            bar.clear()
        } catch RunSchedule.Failure.noMatch(let rules) {
            throw CommandFailure(try filters.explainNoMatch(rules, in: catalog) + "; `--click-only` renders a metronome run")
        } catch RunSchedule.Failure.nothingUsable(let spm, let leftOut) {
            throw CommandFailure("no track near \(spm.formatted()) SPM can be used: "
                                 + leftOut.prefix(3).map { "\(($0.path as NSString).lastPathComponent): \($0.reason)" }.joined(separator: "; ")
                                 + (leftOut.count > 3 ? "; and \(leftOut.count - 3) more" : "")
                                 + "; `--click-only` renders a metronome run")
        } catch { throw CommandFailure("\(CatalogError.userFacing(error))") }
        try failing { try RunRenderer.requireLibraries(for: plans) }  // a render that cannot be made says only that
        let cues = try spokenCues(segments, plans: plans, sampleRate: sampleRate)
        // All that the plans tell is said before the audio is made (minutes for a long run): the seed
        // is known to a runner who stops it, and what it lacks can be fixed first.
        console.reportLeftOut(plans.flatMap(\.leftOut))  // once each: a track can be left out of several segments
        console.problem("seed \(usedSeed) (--seed \(usedSeed) picks the same tracks again)")
        RunSchedule.fillReport(plans: plans).forEach { console.problem($0) }
        var options = RunRenderer.Options()
        options.targetLUFS = loudness
        options.click = click
        options.clickLevelDB = clickLevel ?? -12
        options.quality = TimeStretcher.Quality(rawValue: quality)!
        let result = try failing {
            try RunRenderer(options: options).render(plans, cues: cues, to: output, isCancelled: { cancelled.value },
                                                     progress: { bar.update(fraction: $0, started: started) })
        }
        bar.clear()
        let entries = plans.flatMap(\.entries)
        let cue = CueSheet.text(for: result.timeline, audioFile: output,
                                titles: entries.map { $0.track.displayName(separator: " - ", withExtension: false) },
                                performers: entries.map { $0.track.artist },
                                title: planTitle.map { "beattag workout \"\($0)\"" })
        // Checked before the render; a failure now (a disk filled, a file put there meanwhile) is said and fails the command.
        var companionsFailed = false
        do { try AtomicFile.write(cue, to: CueSheet.path(besides: output), as: .cueSheet) } catch { console.problem("\(error)"); companionsFailed = true }
        let credits = RunCredits.text(for: result.timeline, records: entries.map(\.track), audioFile: output)
        do { try AtomicFile.write(credits, to: RunCredits.path(besides: output), as: .credits) } catch { console.problem("\(error)"); companionsFailed = true }
        var timeline = result.timeline
        timeline.seed = usedSeed
        RunSchedule.shortfallReport(plans: plans, timeline: timeline, allowed: shortOption.allowShort).forEach { console.problem($0) }
        // A loud target is reached only as far as the peaks allow (`--loudness -8` measured −11):
        // said, as what the runner hears is not what was asked. A run mostly of click is not judged.
        if let measured = result.runLoudness, measured < loudness - 1.5, timeline.musicSeconds >= 0.9 * timeline.durationSeconds {
            // Too quiet to raise that far (the gain's cap), or too loud to hold under the ceiling (the limiter).
            let quiet = result.loudness.compactMap { $0 }.filter { loudness - $0 > RunRenderer.maxGainDB }.count
            let why = quiet > 0
                ? String(format: "%d of its tracks %@ too quiet for it (raised %g dB at most)", quiet, quiet == 1 ? "is" : "are", RunRenderer.maxGainDB)
                : String(format: "the limiter holds its peaks under %.1f dBTP, and at this level that takes the rest", MixFormat(path: output)!.truePeakCeilingDB)
                    + (loudness > -14 ? " (music keeps its punch nearer the default, -14)" : "")
            console.problem(String(format: "the run measures %.1f LUFS, %.1f LU under the %g LUFS asked: %@",
                                   measured, loudness - measured, loudness, why).replacingOccurrences(of: "-", with: "−"))
        }
        // A track the gain's cap holds more than 1 LU under the run is heard as a dip: named, even where
        // the run as a whole reaches its loudness (an audit: −16.7 LUFS among tracks at −14, unsaid).
        var quietTracks: [String: Double] = [:]
        for (track, measured) in zip(timeline.tracks, result.loudness) {
            guard let measured else { continue }
            let under = loudness - measured - RunRenderer.maxGainDB
            if under > 1 { quietTracks[(track.path as NSString).lastPathComponent] = under }
        }
        if !quietTracks.isEmpty {
            let named = quietTracks.sorted { $0.value > $1.value }
            console.problem(String(format: "%@ under the run's %g LUFS, too quiet to raise more than %g dB: ", named.count == 1 ? "a track plays" : "\(named.count) tracks play",
                                   loudness, RunRenderer.maxGainDB).replacingOccurrences(of: "-", with: "−")
                            + named.prefix(3).map { String(format: "%@ (%.1f LU)", VisibleControls.text($0.key), $0.value) }.joined(separator: ", ")
                            + (named.count > 3 ? ", …" : ""))
        }
        if json {
            try console.printJSON(timeline)
        } else {
            let shape = plan == nil ? String(format: "at %g SPM", plans[0].clock.spm)
                : "in \(plans.count) segment\(plans.count == 1 ? "" : "s"), \(cues.count) cue\(cues.count == 1 ? "" : "s")"
            let count = timeline.tracks.count
            console.print(String(format: "%@ %@: %d track%@ → %@ (+ %@, %@); rendered in %.1f s", DurationText.clock(timeline.durationSeconds),
                                 shape, count, count == 1 ? "" : "s", output, (CueSheet.path(besides: output) as NSString).lastPathComponent,
                                 (RunCredits.path(besides: output) as NSString).lastPathComponent, Date().timeIntervalSince(started)))
        }
        if companionsFailed {
            throw CommandFailure("\(output) is written, but not all of its CUE sheet and credits (above); a run of Creative Commons music needs its credits")
        }
        if timeline.short { try shortOption.exitIfShort() }
    }

    /// The segments' cues (espeak-ng), and a line for each one the 20-s rule dropped: the runner is
    /// not told of that change of cadence.
    private func spokenCues(_ segments: [RunSegment], plans: [RunPlan], sampleRate: Int) throws -> [RunRenderer.Cue] {
        let cues = try failing { try RunSchedule.cues(for: segments, plans: plans, sampleRate: sampleRate) {
            try SpeechSynthesizer.speak($0, outputRate: sampleRate)
        } }
        RunSchedule.droppedCueReport(segments: segments, plans: plans, cues: cues).forEach { Console.current.problem($0) }
        return cues
    }

    /// `--click-only`: the metronome alone, for `--duration` or through a plan's segments and cues.
    private func renderClicks(_ segments: [RunSegment], console: Console, bar: ProgressLine, started: Date,
                              isCancelled: @escaping () -> Bool) throws {
        var options = RunRenderer.Options()
        options.click = true
        options.clickLevelDB = clickLevel ?? -6
        let sampleRate = MixFormat(path: output)!.sampleRate
        let plans = RunSchedule.clickPlans(for: segments, sampleRate: sampleRate)
        let cues = try spokenCues(segments, plans: plans, sampleRate: sampleRate)
        let timeline = try failing {
            try RunRenderer(options: options).render(plans, cues: cues, to: output, isCancelled: isCancelled,
                                                     progress: { bar.update(fraction: $0, started: started) })
        }.timeline
        bar.clear()
        if json { try console.printJSON(timeline); return }
        let shape = plan == nil ? String(format: "at %g SPM", plans[0].clock.spm)
            : "in \(plans.count) segment\(plans.count == 1 ? "" : "s"), \(cues.count) cue\(cues.count == 1 ? "" : "s")"
        console.print(String(format: "%@ of clicks %@ (%d beats, %d phrases) → %@", DurationText.clock(timeline.durationSeconds),
                             shape, timeline.beats, timeline.beats / MasterClock.beatsPerPhrase, output))
    }

    /// Library errors as one line; Ctrl-C as exit 130 (SIGTERM 143).
    private func failing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let cancelled as RenderCancelled {
            throw CommandFailure("\(cancelled)", code: InterruptHandler.exitStatus)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(CatalogError.userFacing(error))")
        }
    }
}
