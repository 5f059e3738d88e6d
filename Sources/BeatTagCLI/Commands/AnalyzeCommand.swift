import ArgumentParser
import BeatTagKit
import Foundation

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure tempo and beats of files without touching the catalog.",
        discussion: """
            One line per file. With --json each line is an object with path, bpm, confidence, beats \
            (seconds), duration, grid, candidates, phase (what the phase decisions did to the tracker's \
            beats), format and decoder; a file that fails gives {"path", "error"}. "beats moved half a \
            beat": the analysis put the beats on what the tracker took for the "and"s, which on real \
            recordings is wrong more often than not; listen (beattag review lists such tracks).
            """)

    @Argument(help: ArgumentHelp("Audio files.", valueName: "file"))
    var files: [String]

    @Flag(help: "One JSON object per line.")
    var json = false

    struct Line: Encodable {
        var path: String
        var bpm: BPM?
        var confidence: Double?
        var beats: [Double]?
        var duration: Double?
        var grid: BeatGrid?
        var candidates: [TempoCandidate]?
        var alternative: TempoCandidate?
        var octaveProbability: Double?
        var phase: PhaseDecision?
        var format: String?
        /// The decoding library and version (a beat grid holds for audio decoded the same way).
        var decoder: String?
        var warning: String?
        var error: String?
    }

    func run() throws {
        let console = Console.current
        var failures = 0
        for file in files {
            do {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue {
                    throw CommandFailure("a folder: analyze reads files (beattag scan catalogues a folder)")
                }
                let (info, result) = try AudioFileAnalysis.analyse(path: file)
                if json {
                    try console.printJSON(Line(path: file, bpm: result.bpm, confidence: Rounding.decimals(result.confidence, 3),
                                   beats: result.beats.map { Rounding.decimals($0.value, 4) }, duration: Rounding.decimals(info.durationSeconds, 3),
                                   grid: result.grid, candidates: result.candidates, alternative: result.alternative,
                                   octaveProbability: Rounding.decimals(result.octaveProbability, 3), phase: result.phase,
                                   format: info.format,
                                   decoder: info.decoder, warning: result.decodeWarning))
                } else {
                    var line = String(format: "%6.1f BPM  confidence %.2f  %d beats", result.bpm.value, result.confidence, result.beats.count)
                    if let grid = result.grid, grid.variableTempo {
                        line += String(format: "  variable %.1f–%.1f", grid.tempoMin.value, grid.tempoMax.value)
                    }
                    if let alternative = result.alternative, alternative.score >= UntaggedQueue.octaveInDoubt {
                        line += String(format: "  (or %.1f)", alternative.bpm.value)
                    }
                    if result.phase.halfBeat { line += "  " + UntaggedQueue.Reason.beatsMoved.rawValue }
                    if let warning = result.decodeWarning { line += "  [\(warning)]" }
                    console.line("\(line)  \(file)")
                }
            } catch {
                failures += 1
                if json { try console.printJSON(Line(path: file, error: "\(error)")) } else { console.problem("\(file): \(error)") }
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
