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
        let catalog = try catalogOption.open(create: true)
        var options = ScanOptions(roots: paths, source: source, force: force)
        if let jobs { options.workers = max(1, jobs) }
        let scanner = LibraryScanner(catalog: catalog, options: options)
        let progress = ProgressLine(enabled: stderrIsTerminal && !json)
        scanner.onProgress = { progress.update($0) }
        scanner.onProblem = { problem in
            progress.clear()
            writeStderr("beattag: \(problem.path): \(problem.message)\n")
        }
        let interrupt = InterruptHandler { scanner.cancel() }
        let summary: ScanSummary
        do { summary = try scanner.run() } catch { throw CleanExit.failure("scan stopped: \(error)") }
        interrupt.restore()
        progress.clear()
        if json {
            printJSON(summary)
        } else {
            let rate = summary.wallSeconds > 0 ? Double(summary.analysed + summary.metadataOnly + summary.failed) / summary.wallSeconds : 0
            print("found \(summary.found), analysed \(summary.analysed), unchanged \(summary.unchanged), "
                + "metadata-only \(summary.metadataOnly), failed \(summary.failed)"
                + (summary.moved > 0 ? ", moved \(summary.moved)" : "")
                + (summary.missing > 0 ? ", now missing \(summary.missing)" : "")
                + String(format: " in %.1f s (%.1f files/s)", summary.wallSeconds, rate)
                + (summary.interrupted ? " — interrupted; run the same scan again to resume" : ""))
            print("catalog: \(catalog.path)")
        }
        if summary.interrupted { throw ExitCode(130) }
        if !summary.succeeded { throw ExitCode(1) }
    }
}

/// done/total, files per second and time left, redrawn in place on a terminal at most 10 times a second.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var lastDraw = 0.0
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: ScanProgress) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        guard p.done == p.total || p.elapsed - lastDraw >= 0.1 else { return }
        lastDraw = p.elapsed
        let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
        let eta = rate > 0 ? Double(p.total - p.done) / rate : 0
        let width = 24
        let filled = p.total > 0 ? width * p.done / p.total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let name = (p.currentPath as NSString).lastPathComponent
        let line = String(format: "[%@] %d/%d  %.1f files/s  ETA %@  %@", bar, p.done, p.total, rate,
                          formatDuration(eta), String(name.prefix(40)))
        writeStderr("\r\u{1B}[2K" + line)
        drawn = true
    }

    func clear() {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if drawn { writeStderr("\r\u{1B}[2K"); drawn = false }
    }
}

func formatDuration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
}

/// The first Ctrl-C asks the scan to stop after the files in progress; a second one quits at once.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(_ onInterrupt: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            var count = 0
            source.setEventHandler {
                count += 1
                if count == 1 {
                    writeStderr("\nbeattag: stopping after the files in progress (Ctrl-C again to quit now)\n")
                    onInterrupt()
                } else {
                    exit(130)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    func restore() {
        sources.forEach { $0.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
