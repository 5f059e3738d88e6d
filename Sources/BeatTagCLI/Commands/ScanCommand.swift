import ArgumentParser
import BeatTagKit
import Foundation

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Catalog the audio under one or more folders.",
        discussion: """
            Walks the folders (hidden entries skipped, symbolic links followed once), reads tags with TagLib, \
            decodes with libsndfile and measures tempo, beat grid and confidence. Files libsndfile cannot \
            decode but TagLib can read (M4A/AAC, ALAC, WMA, DRM) are catalogued from their tags as \
            metadata-only. Music files are never modified.

            A rescan only analyses new or changed files and marks vanished ones missing (hand-entered data \
            is kept). An interrupted scan (Ctrl-C, kill) resumes where it stopped.

            Rights: --source states what you are scanning; a `.beattag-rights` file in a folder covers that \
            folder and below (see docs/rights.md); licence tags inside a file win over both.

            Exit status: 0 when every file was catalogued, 1 when any failed (each has a recorded error), \
            130 when interrupted.
            """)

    @Argument(help: ArgumentHelp("Folders or files to scan.", valueName: "path"))
    var paths: [String]

    @Option(help: ArgumentHelp("Rights of what is being scanned (tags in files and .beattag-rights files win).",
                               valueName: "type"))
    var source: SourceType?

    @Flag(help: "Re-analyse every file, changed or not.")
    var force = false

    @Option(help: ArgumentHelp("Files analysed at once (default: all cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var catalogOption: CatalogOption

    func run() throws {
        let console = Console.current
        let catalog = try catalogOption.open(create: true)
        var options = ScanOptions(roots: paths, source: source, force: force)
        if let jobs { options.workers = max(1, jobs) }
        let scanner = LibraryScanner(catalog: catalog, options: options)
        let progress = ProgressLine(console: console, enabled: console.stderrIsTerminal && !json)
        scanner.onProgress = { progress.update($0) }
        scanner.onProblem = { problem in
            progress.clear()
            console.problem("\(problem.path): \(problem.message)")
        }
        let interrupt = InterruptHandler(console: console) { scanner.cancel() }
        let summary: ScanSummary
        do { summary = try scanner.run() } catch { throw CommandFailure("scan stopped: \(error)") }
        interrupt.restore()
        progress.clear()
        if json {
            try console.printJSON(summary)
        } else {
            let rate = summary.wallSeconds > 0 ? Double(summary.analysed + summary.metadataOnly + summary.failed) / summary.wallSeconds : 0
            console.print("found \(summary.found), analysed \(summary.analysed), unchanged \(summary.unchanged), "
                + "metadata-only \(summary.metadataOnly), failed \(summary.failed)"
                + (summary.moved > 0 ? ", moved \(summary.moved)" : "")
                + (summary.missing > 0 ? ", now missing \(summary.missing)" : "")
                + String(format: " in %.1f s (%.1f files/s)", summary.wallSeconds, rate)
                + (summary.interrupted ? " — interrupted; run the same scan again to resume" : ""))
            console.print("catalog: \(catalog.path)")
        }
        if summary.interrupted { throw ExitCode(130) }
        if !summary.succeeded { throw ExitCode(1) }
    }
}
