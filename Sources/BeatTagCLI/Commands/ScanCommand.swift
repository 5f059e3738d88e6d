import ArgumentParser
import BeatTagKit
import Foundation

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Catalog the audio under one or more folders.",
        discussion: """
            Walks the folders (hidden entries skipped, symbolic links followed once), reads tags with TagLib, \
            decodes with libsndfile (WAV, AIFF, FLAC, Ogg Vorbis, MP3) or, for what libsndfile refuses and Opus, \
            FFmpeg (AAC and ALAC in M4A/MP4, WMA, Opus), chosen by content, and measures tempo, beat grid and \
            confidence. Files no decoder takes but TagLib can read (DRM-protected ones) are catalogued from \
            their tags as metadata-only. A file cut short or damaged is analysed from what decoded and \
            named on stderr ("catalogued, but …"; --json lists them under "decodeWarnings"). Music files \
            are never modified.

            A rescan only analyses new or changed files and marks vanished ones missing (hand-entered data \
            is kept and follows the recording: a file moved or retagged, or names swapped). A root that is absent, empty or lost \
            most of its files looks like an unmounted disk: it is reported and its tracks are kept, unless \
            --prune. An interrupted scan (Ctrl-C, kill) resumes where it stopped, a --force one too. One scan per catalog runs \
            at a time (a second one waits, or refuses with --no-wait); list, match, tag and tap work meanwhile.

            Rights: --source states what you are scanning, for the files this scan catalogues (they keep it; \
            files a later scan without --source finds are unknown); a `.beattag-rights` file in a folder covers that \
            folder and below for good (see docs/rights.md); licence tags inside a file win over both.

            Exit status: 0 when every file was catalogued, 1 when any file failed, a root was unavailable \
            or a .beattag-rights file could not be read \
            (the same on every scan while they are; --json lists each failing file under "failures"), \
            2 when the catalog cannot be used (not a catalog, read-only, another scan with --no-wait), \
            64 for a usage error, 130 when interrupted (143 by SIGTERM).
            """)

    @Argument(help: ArgumentHelp("Folders or files to scan.", valueName: "path"))
    var paths: [String]

    @Option(help: ArgumentHelp("Rights of what is being scanned (tags in files and .beattag-rights files win).",
                               valueName: "type"))
    var source: SourceType?

    @Flag(help: "Re-analyse every file, changed or not.")
    var force = false

    @Flag(help: "Mark tracks missing even under a root that is empty or lost most of its files (else kept: an unmounted disk looks like that).")
    var prune = false

    @Flag(help: "If another scan is running on the catalog, stop at once (exit 2) instead of waiting for it.")
    var noWait = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Files analysed at once (default: all cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
    }

    func run() throws {
        let console = Console.current
        // Nothing to scan: say so before a catalog is made for it. Exit 1 as for a root that is
        // gone on a later scan (2 is for a catalog that cannot be used).
        let absent = paths.filter { !FileManager.default.fileExists(atPath: FileWalker.absolutePath($0)) }
        if absent.count == paths.count, !FileManager.default.fileExists(atPath: catalogOption.path) {
            if json {
                // The summary a later scan of a missing root gives: a script reads one shape either way.
                try console.printJSON(ScanSummary.nothingScanned(missingRoots: absent.map(FileWalker.absolutePath)))
            }
            throw CommandFailure(absent.map { "\($0): \(ScanProblem.noSuchFileOrFolder)" }.joined(separator: "; ") + "; nothing scanned, no catalog made", code: 1)
        }
        let catalog = try catalogOption.open(create: true)
        var options = ScanOptions(roots: paths, source: source, force: force)
        options.prune = prune
        options.waitForOtherScan = !noWait
        if let jobs { options.workers = jobs }
        let scanner = LibraryScanner(catalog: catalog, options: options)
        let progress = ProgressLine(console: console, enabled: console.stderrIsTerminal && !json)
        let catalogPath = catalog.path
        scanner.onWaitingForOtherScan = {
            console.problem("another scan is running on \(catalogPath); waiting for it to finish (--no-wait to refuse)")
        }
        scanner.onProgress = { progress.update($0) }
        scanner.onProblem = { problem in
            progress.clear()
            console.problem("\(problem.path): \(problem.message)")
        }
        let summary: ScanSummary
        do {
            let interrupt = InterruptHandler(console: console, message: {
                scanner.isWaitingForOtherScan ? "stopping: nothing is scanned yet" : "stopping after the files in progress"
            }) { scanner.cancel() }
            defer { interrupt.restore(); progress.clear() }
            summary = try scanner.run()
        } catch let error as CatalogError {
            throw CommandFailure("\(error)", code: 2)
        } catch {
            // Damage found part-way is as unusable as at opening (2); a disk full or a busy catalog is 1.
            let reason = CatalogError.userFacing(error)
            throw CommandFailure("scan stopped: \(reason)", code: (reason as? CatalogError)?.isUnusable == true ? 2 : 1)
        }
        if let reason = summary.recordingsNotCompared, summary.analysed > 0 {
            console.problem("\(reason); copies of one recording in other formats are not recognised")
        }
        if json {
            try console.printJSON(summary)
        } else if summary.stoppedWhileWaiting {
            console.print("stopped while waiting for the other scan: nothing scanned")
        } else {
            if !summary.leftoversRemoved.isEmpty {
                let n = summary.leftoversRemoved.count
                console.print("removed \(n) hidden cop\(n == 1 ? "y" : "ies") left by a `beattag tag --write` that was stopped outright "
                              + "(\(summary.leftoversRemoved.map { VisibleControls.text(($0 as NSString).lastPathComponent) }.prefix(3).joined(separator: ", "))"
                              + (n > 3 ? ", …" : "") + ")")
            }
            if summary.forcedAlready > 0 {
                console.print("resumed the interrupted --force scan: \(summary.forcedAlready) file\(summary.forcedAlready == 1 ? "" : "s") "
                              + "it analysed already kept (counted unchanged)")
            }
            for move in summary.handDataMoves {
                switch move.kind {
                case .setAside:
                    console.print("\(VisibleControls.text(move.path)) now holds another recording; the \(move.what) "
                        + "of the one that was there kept aside until a scan finds it")
                case .givenBack:
                    console.print("\(VisibleControls.text(move.path)) holds the recording that was at "
                        + "\(VisibleControls.text(move.formerPath)); its \(move.what) moved with it")
                }
            }
            if let first = summary.sameFiles.first {
                let n = summary.sameFiles.count
                console.print("\(n) file\(n == 1 ? " is" : "s are") catalogued already under another path to the same file "
                              + "(a link), and kept there: \(VisibleControls.text(first.path)) is \(VisibleControls.text(first.cataloguedAs))"
                              + (n > 1 ? ", …" : ""))
            }
            if let first = summary.renders.first {
                let n = summary.renders.count
                console.print("\(n) run\(n == 1 ? "" : "s") beattag rendered left out (a run is a mix of other tracks, under their rights, "
                              + "not a track to play): \(VisibleControls.text(first))" + (n > 1 ? ", …" : ""))
            }
            let processed = Double(summary.analysed + summary.metadataOnly + summary.failed)
            let rate = summary.wallSeconds > 0 ? processed / summary.wallSeconds : 0
            // A few long files: seconds per file says more than "0.0 files/s"; nothing decoded, no pace.
            let pace = processed == 0 ? "" : rate >= 1 ? String(format: " (%.1f files/s)", rate)
                : String(format: " (%.1f s a file)", summary.wallSeconds / processed)
            console.print("found \(summary.found), analysed \(summary.analysed), unchanged \(summary.unchanged), "
                + "metadata-only \(summary.metadataOnly), failed \(summary.failed)"
                + (summary.decodeWarnings.isEmpty ? "" : ", decode warnings \(summary.decodeWarnings.count)")
                + (summary.moved > 0 ? ", moved \(summary.moved)" : "")
                + (summary.rightsChanged > 0 ? ", rights changed \(summary.rightsChanged)" : "")
                + (summary.sameRecording > 0 ? ", copies of a recording \(summary.sameRecording)" : "")
                + (summary.vanished > 0 ? ", gone during the scan \(summary.vanished)" : "")
                + (summary.missing > 0 ? ", now missing \(summary.missing)" : "")
                + String(format: " in %.1f s", summary.wallSeconds) + pace
                + (summary.interrupted ? " — interrupted; run the same scan again to resume" : ""))
            console.line("catalog: \(catalog.path)")
        }
        if summary.interrupted { throw ExitCode(InterruptHandler.exitStatus) }
        if !summary.succeeded { throw ExitCode(1) }
    }
}
