import ArgumentParser
import BeatTagKit
import Foundation

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a run as one audio file on a metronome clock at your cadence.",
        discussion: """
            --click-only renders a pure metronome run: a click on every step at --spm, a brighter one \
            on the first beat of every 8-beat phrase, for --duration (rounded to whole phrases, so the \
            run ends on a phrase). The output format follows the file's extension: .flac, .ogg, .opus \
            or .wav (44.1 kHz stereo; Opus 48 kHz). The file appears only when complete: an interrupted \
            or failed render leaves nothing under its name.

            Rendering music (tracks time-stretched to the clock, phrase-aligned crossfades, matched \
            loudness, spoken cues, workout plans) is not in this version yet (issue 14).

            Examples:
              beattag render --click-only --spm 175 --duration 20m -o click.flac
              beattag render --click-only --spm 168 --duration 45:00 --click-level -12 -o run.ogg --json
            """)

    @Option(help: "Cadence in steps per minute (100–240).") var spm: Double
    @Option(help: "Length of the run: 40m, 1h10m, 45:00, 2400 (seconds); rounded to whole 8-beat phrases.") var duration: String
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Audio file to write (.flac, .ogg, .opus, .wav).", valueName: "file"))
    var output: String
    @Flag(help: "Render the metronome alone (no music).") var clickOnly = false
    @Option(help: ArgumentHelp("Peak level of the accented click, dBFS (−40 to 0).", valueName: "dB")) var clickLevel: Double = -6
    @Flag(help: "Print the timeline as JSON.") var json = false

    func validate() throws {
        guard CadenceRules.cadenceRange.contains(spm) else { throw ValidationError("cadence \(spm.formatted()) SPM is outside 100–240 steps per minute") }
        guard let seconds = PlaylistBuilder.parseDuration(duration), seconds >= 10, seconds <= 6 * 3600 else {
            throw ValidationError("cannot read --duration \"\(duration)\": use e.g. 40m, 1h10m, 45:00 or seconds (10 s to 6 h)")
        }
        guard MixFormat(path: output) != nil else {
            throw ValidationError("cannot write \(output): unknown extension (use \(MixFormat.supportedList))")
        }
        guard (-40...0).contains(clickLevel) else { throw ValidationError("--click-level must be between −40 and 0 dBFS") }
        guard clickOnly else {
            throw ValidationError("rendering music is not in this version yet (issue 14); --click-only renders the metronome run")
        }
    }

    func run() throws {
        let console = Console.current
        let seconds = PlaylistBuilder.parseDuration(duration)!  // validate() checked it
        let cancelled = CancelFlag()
        let interrupts = InterruptHandler(console: console, message: "stopping; nothing is written") { cancelled.set() }
        defer { interrupts.restore() }
        let bar = ProgressLine(console: console, enabled: console.stderrIsTerminal && !json)
        let started = Date()
        let timeline: RenderTimeline
        do {
            timeline = try ClickRun.render(spm: spm, seconds: seconds, levelDB: clickLevel, to: output,
                                           isCancelled: { cancelled.isSet }, progress: { bar.update(fraction: $0, started: started) })
        } catch let error as ClickRun.Cancelled {
            bar.clear()
            throw CommandFailure("\(error)", code: 130)
        } catch {
            bar.clear()
            throw CommandFailure("\(error)")
        }
        bar.clear()
        if json { try console.printJSON(timeline); return }
        console.print(String(format: "%@ of clicks at %g SPM (%d beats, %d phrases) → %@", DurationText.clock(timeline.durationSeconds),
                             spm, timeline.beats, timeline.beats / MasterClock.beatsPerPhrase, output))
    }
}

/// Set from the signal handler's queue, read by the render loop.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
