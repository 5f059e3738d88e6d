import Foundation

/// Schedules the scan in stages: take the catalog's scan lock (one scan at a time), walk the roots,
/// check each root is really there, plan (skip what is unchanged), process the rest on all cores
/// with one catalog transaction per file, and mark what the walk no longer found as missing.
/// Stopping (`cancel`) lets running files finish and leaves the catalog consistent; the next scan
/// resumes because finished files are then unchanged.
public final class LibraryScanner: @unchecked Sendable {
    private let catalog: Catalog
    private let options: ScanOptions
    private let lock = NSLock()
    private var cancelled = false
    /// Rows a file of this scan has taken over (moved, renamed or retagged): each is taken once.
    private var claimed = Set<Int64>()
    /// Tracks that have a recording print (nil when Chromaprint is missing: none can be made).
    private var withPrints: Set<Int64>?
    /// When the forced scan of each root began (`Catalog.beginForcedScan`); empty without --force.
    private var forcedSince: [String: Double] = [:]
    public var onProgress: (@Sendable (ScanProgress) -> Void)?
    /// Called with a one-line message for each file that fails or vanishes, each file analysed with a
    /// decode warning (`ScanSummary.decodeWarnings`), each walk problem and each unavailable root.
    public var onProblem: (@Sendable (ScanProblem) -> Void)?
    /// Called once if the scan has to wait for another scan of the same catalog.
    public var onWaitingForOtherScan: (@Sendable () -> Void)?

    public init(catalog: Catalog, options: ScanOptions) {
        self.catalog = catalog
        self.options = options
    }

    public func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    private var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }

    /// Waiting for another scan of the catalog to finish: nothing of this one has started.
    public var isWaitingForOtherScan: Bool { lock.lock(); defer { lock.unlock() }; return waiting }
    private var waiting = false

    public func run() throws -> ScanSummary {
        let scanLock = try catalog.scanLock(wait: options.waitForOtherScan, onWait: {
            lock.lock(); waiting = true; lock.unlock()
            onWaitingForOtherScan?()
        }, stopWaiting: { isCancelled })
        lock.lock(); waiting = false; lock.unlock()
        guard let scanLock else {
            // Stopped while waiting for the other scan: nothing was done, nothing is left to resume.
            if isCancelled { return ScanSummary(interrupted: true, stoppedWhileWaiting: true) }
            throw CatalogError.scanRunning(path: catalog.path)
        }
        defer { withExtendedLifetime(scanLock) {} }
        let started = Date()
        var summary = ScanSummary()
        var walk = FileWalker.walk(roots: options.roots, source: options.source)
        // Only the rows under the roots: a scan of one new album into 100,000 tracks read them all (565 MB).
        let roots = options.roots.map(FileWalker.absolutePath)
        let existing = try catalog.tracks(under: roots)
        FileWalker.addUnvisited(existing.map(\.path), to: &walk)
        summary.found = walk.files.count
        summary.sameFiles = walk.sameFiles
        summary.recordingsNotCompared = OptionalLibrary.chromaprint.unavailableReason
        withPrints = summary.recordingsNotCompared == nil ? try catalog.trackIDsWithPrints(under: roots) : nil
        let (unavailable, goneAndPruned) = unavailableRoots(walk: &walk, existing: existing)
        summary.problems = walk.problems + unavailable
        summary.problems.forEach { onProblem?($0) }
        // A `tag --write` killed mid-way leaves a hidden full copy of the file, which nothing else
        // would ever remove (the next write of that same file only, an hour later).
        summary.leftoversRemoved = walk.taggedCopies.filter { WorkingFile.removeIfStale($0.path, writtenBy: $0.writer) }.map(\.path)
        let now = Date().timeIntervalSince1970
        let forcedRoots = walk.walkedRoots.filter { root in !unavailable.contains { $0.path == root } }
        if options.force { forcedSince = try catalog.beginForcedScan(of: forcedRoots, now: now) }
        let work = try plan(walk.files, existing: existing, summary: &summary)
        let foundPaths = Set(walk.files.map(\.path))
        try process(work, foundPaths: foundPaths, roots: walk.walkedRoots, started: started, summary: &summary)
        summary.interrupted = isCancelled
        // Only a complete scan may call files missing: an interrupted one has not looked everywhere.
        // (Files that vanished while it ran are counted already and are missing now, so not counted twice.)
        if !summary.interrupted {
            if options.force { try catalog.endForcedScan(of: forcedRoots) }
            let available = walk.walkedRoots.filter { root in !unavailable.contains { $0.path == root } } + goneAndPruned
            summary.missing += try catalog.markMissing(under: available, except: foundPaths, sparing: walk.unreadableFolders, now: now,
                                                       stillThere: FileWalker.isRegularFile)
        }
        summary.failures.sort { $0.path < $1.path }
        summary.renders.sort()
        summary.sameFiles.sort { $0.path < $1.path }
        summary.wallSeconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Roots that hold catalogued tracks but look unmounted: absent, empty, or (from 10 tracks) with
    /// fewer than half of them found. Their tracks are left as they are unless `prune`; `goneAndPruned`:
    /// absent roots whose tracks `prune` marks missing (they were kept whatever it said).
    private func unavailableRoots(walk: inout FileWalker.Result, existing: [TrackRecord]) -> (problems: [ScanProblem], goneAndPruned: [String]) {
        var problems: [ScanProblem] = []
        var goneAndPruned: [String] = []
        let present = existing.filter { $0.state != .missing }.map(\.path)
        for root in options.roots.map(FileWalker.absolutePath) {
            let catalogued = present.filter { $0.isInside(folder: root) }.count
            guard catalogued > 0, !walk.fileRoots.contains(root), !walk.aliasedRoots.contains(root) else { continue }
            let kept = "\(catalogued) catalogued track\(catalogued == 1 ? "" : "s") under it kept as they are"
            if !walk.walkedRoots.contains(root) {
                // Not there at all: replace the walk's plain "no such file or folder".
                walk.problems.removeAll { $0.path == root }
                if options.prune { goneAndPruned.append(root); continue }
                problems.append(ScanProblem(path: root, message: "not there (an unmounted disk?): \(kept); scan with --prune to mark them missing"))
                continue
            }
            let found = walk.files.filter { $0.path.isInside(folder: root) }.count
            guard !options.prune, found == 0 || (catalogued >= 10 && found * 2 < catalogued) else { continue }
            let what = found == 0 ? "empty (an unmounted disk?)" : "only \(found) of its \(catalogued) catalogued files are there"
            problems.append(ScanProblem(path: root, message: "\(what): \(kept); scan with --prune to mark them missing"))
        }
        return (problems, goneAndPruned)
    }

    /// A file to process and the row it had, if any.
    typealias WorkItem = (file: FoundFile, row: TrackRecord?)

    /// The files that need work; unchanged ones are only marked present (and still count as failed
    /// while they fail, so every scan of a folder reports the same).
    private func plan(_ files: [FoundFile], existing: [TrackRecord], summary: inout ScanSummary) throws -> [WorkItem] {
        let rows = Dictionary(existing.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var work: [WorkItem] = []
        for file in files {
            let row = rows[file.path]
            // A run an earlier build catalogued as a song (it has no title or artist of its own, and
            // its credits beside it): no longer a track, unless someone entered hand data for it.
            if let row, let id = row.id, row.title == nil, row.artist == nil, RunCredits.describes(audioFile: row.path),
               try catalog.removeRender(id: id) {
                summary.renders.append(row.path)
                continue
            }
            if var row, isUnchanged(file, row: row), !options.force || analysedByThisForcedScan(row) {
                summary.unchanged += 1
                if options.force { summary.forcedAlready += 1 }
                if row.state == .missing || row.modifiedAt != file.modifiedAt {
                    row.state = row.settledState
                    row.modifiedAt = file.modifiedAt
                    try catalog.markPresent(row)
                }
                // Rights are cheap and follow the folder and the scan: resolved again every time. Rights
                // read from the file's own tags stay (the file did not change); the folder's sidecar and
                // this scan's `--source` are read anew, as `TrackProcessor` reads them for a file it analyses.
                if let rights = row.withRightsNow(sidecar: file.sidecar, option: options.source) {
                    try catalog.updateRights(rights)
                    summary.rightsChanged += 1
                }
                summary.countIfStillFailing(row)
                continue
            }
            work.append((file, row))
        }
        return work
    }

    /// Runs the work on `options.workers` threads, each taking the next file until none is left.
    private func process(_ work: [WorkItem], foundPaths: Set<String>, roots: [String], started: Date,
                         summary: inout ScanSummary) throws {
        var next = 0, done = 0
        var firstError: Error?
        var printed: [Int64] = []
        var tally = summary
        // A file done without being decoded (kept where it is catalogued, a render, a row moved):
        // counted, and its progress said.
        func finishedWithoutDecoding(_ file: FoundFile, _ count: (inout ScanSummary) -> Void) {
            lock.lock()
            done += 1
            count(&tally)
            let progress = ScanProgress(done: done, total: work.count, elapsed: Date().timeIntervalSince(started), currentPath: file.path)
            lock.unlock()
            onProgress?(progress)
        }
        DispatchQueue.concurrentPerform(iterations: max(1, min(options.workers, work.count))) { _ in
            while true {
                lock.lock()
                guard next < work.count, !cancelled, firstError == nil else { lock.unlock(); return }
                var (file, row) = work[next]
                next += 1
                lock.unlock()

                var previous = row
                // A new path: its fingerprint tells whether it is a catalogued file that moved.
                let fingerprint = previous == nil ? Fingerprint.of(path: file.path, size: file.size) : nil
                // Or one catalogued under another path that still reaches it (`scan /data/music` after
                // `scan ~/Music`, a link to it): it stays under the path it has, once, with its hand data.
                var sameFile = fingerprint.flatMap { cataloguedUnderAnotherPath(file, fingerprint: $0, foundPaths) }
                // One file under two paths whose folders say different rights has the stricter: a row
                // made through a link from a folder of unknown rights moves to the path whose folder
                // forbids a tempo change (it kept "unknown" and was stretched).
                if let known = sameFile, known.rightsOrigin != RightsOrigin.tag.rawValue, known.tempoAdjustAllowed,
                   !RightsResolver.resolve(tags: nil, sidecar: file.sidecar, option: options.source).tempoAdjustAllowed, claim(known) {
                    previous = known
                    sameFile = nil
                }
                // `--force` through such a path analyses the file again where it is catalogued (it said
                // "kept there" and analysed nothing), once: a run resumed after an interruption keeps
                // what the first one did, as it does for files reached by their own path.
                var forcedAlready = false
                if options.force, let known = sameFile, analysedByThisForcedScan(known, reachedAs: file.path) {
                    forcedAlready = true
                } else if options.force, let known = sameFile {
                    file = FoundFile(path: known.path, size: file.size, modifiedAt: file.modifiedAt, sidecar: FileWalker.sidecar(forFileAt: known.path))
                    (previous, row) = (known, known)  // its own row: analysed again, not moved
                    sameFile = nil
                }
                // Such a path is not catalogued again; nor is a run beattag rendered, saved among the music:
                // a mix of other tracks under their rights, which would come back as one track of unknown
                // rights (stretched, uncredited).
                if sameFile != nil || MixFileWriter.isRender(path: file.path) {
                    finishedWithoutDecoding(file) { tally in
                        if forcedAlready {
                            tally.unchanged += 1
                            tally.forcedAlready += 1
                        } else if let sameFile {
                            tally.sameFiles.append(SameFile(path: file.path, cataloguedAs: sameFile.path))
                            tally.countIfStillFailing(sameFile)  // where it is catalogued, as on a scan of that path
                        } else {
                            tally.renders.append(file.path)
                        }
                    }
                    continue
                }
                if previous == nil, let fingerprint, let moved = claimGoneRow(try? catalog.tracks(fingerprint: fingerprint, size: file.size), foundPaths) {
                    previous = moved  // keeps its id, manual BPM and rights
                    // Moved and unchanged (a folder renamed): the row follows the file with its analysis,
                    // and only the rights of its new folder are read (a renamed folder of 10,000 tracks was
                    // decoded and analysed again, all of it).
                    if !options.force, isUnchanged(file, row: moved) {
                        var record = moved
                        (record.path, record.modifiedAt, record.missingSince, record.scannedAt) = (file.path, file.modifiedAt, nil, Date().timeIntervalSince1970)
                        record.state = moved.settledState
                        record.libraryRoot = Self.libraryRoot(of: file.path, among: roots)
                        if let rights = record.withRightsNow(sidecar: file.sidecar, option: options.source) { record = rights }
                        do { try catalog.moveRow(record) } catch {
                            lock.lock(); firstError = firstError ?? error; lock.unlock()
                            return
                        }
                        finishedWithoutDecoding(file) { tally in
                            tally.moved += 1
                            tally.unchanged += 1
                            tally.countIfStillFailing(record)
                        }
                        continue
                    }
                }
                var timing = AudioFileAnalysis.Timing()
                var (record, outcome) = TrackProcessor.process(file, existing: previous, sourceOption: options.source,
                                                               now: Date().timeIntervalSince1970, fingerprint: fingerprint,
                                                               timing: &timing)
                record.libraryRoot = Self.libraryRoot(of: file.path, among: roots)
                // Moved and retagged: the bytes differ, the audio does not. The old row's hand data follows.
                if previous == nil, let hash = record.audioHash,
                   let gone = claimGoneRow(try? catalog.tracks(audioHash: hash), foundPaths) {
                    record.adoptHandData(from: gone)
                    previous = gone
                }
                // Another recording under a known name (names swapped, another song saved over it):
                // the hand data entered for the one that was there is set aside for it.
                var replaced: TrackRecord?
                if let row, let id = row.id, outcome == .analysed,
                   RecordingChange.isAnotherRecording(record, was: row, oldPrint: try? catalog.recordingPrint(ofTrack: id)) {
                    replaced = row
                }
                let stored: TrackRecord, setAside: HandDataAside?
                do { (stored, setAside) = try store(record, outcome: outcome, previous: previous, replacing: replaced) } catch {
                    lock.lock(); firstError = firstError ?? error; lock.unlock()
                    return
                }
                lock.lock()
                done += 1
                if let setAside { tally.handDataMoves.append(HandDataMove(.setAside, path: file.path, setAside)) }
                if previous != nil, row == nil { tally.moved += 1 }
                tally.count(outcome, record: record, hadRow: previous != nil)
                tally.printSeconds += timing.printSeconds
                if let print = stored.recordingPrint, !print.items.isEmpty, let id = stored.id { printed.append(id) }
                let progress = ScanProgress(done: done, total: work.count, elapsed: Date().timeIntervalSince(started), currentPath: file.path)
                lock.unlock()
                if outcome == .failed || outcome == .vanished {
                    onProblem?(ScanProblem(path: file.path, message: outcome == .vanished ? "vanished during the scan" : record.lastError ?? "failed"))
                } else if outcome == .analysed, let warning = record.decodeWarning {
                    onProblem?(ScanProblem(path: file.path, message: "catalogued, but \(warning)"))
                }
                onProgress?(progress)
            }
        }
        summary = tally
        if let firstError { throw firstError }
        // Once all are stored: a recording set aside from one name may have turned up under another.
        summary.handDataMoves += try catalog.giveBackHandDataAside()
        summary.handDataMoves.sort { ($0.kind == .setAside ? 0 : 1, $0.path) < ($1.kind == .setAside ? 0 : 1, $1.path) }
        // One at a time once all are stored: two copies analysed at once see each other here.
        let grouping = Date()
        let ids = printed.sorted()
        for (index, id) in ids.enumerated() where !isCancelled {
            if try catalog.groupRecording(of: id) { summary.sameRecording += 1 }
            onProgress?(ScanProgress(done: index + 1, total: ids.count, elapsed: Date().timeIntervalSince(grouping), currentPath: "",
                                     stage: .copies))
        }
    }

    /// The present row that holds this file under another path to the same file, if any.
    private func cataloguedUnderAnotherPath(_ file: FoundFile, fingerprint: String, _ foundPaths: Set<String>) -> TrackRecord? {
        let rows = (try? catalog.tracks(fingerprint: fingerprint, size: file.size)) ?? []
        return rows.first { $0.state != .missing && !foundPaths.contains($0.path) && FileWalker.isSameFile($0.path, file.path) }
    }

    /// Takes `row` for a file of this scan, unless another has: each row is taken once.
    private func claim(_ row: TrackRecord) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return claimed.insert(row.id ?? -1).inserted
    }

    /// The first of `candidates` whose file is gone (marked missing, or not on disk now) and that
    /// no other file of this scan has taken; taken by this call. Copies that both exist keep their rows.
    private func claimGoneRow(_ candidates: [TrackRecord]?, _ foundPaths: Set<String>) -> TrackRecord? {
        let gone = (candidates ?? []).filter {
            $0.state == .missing || (!foundPaths.contains($0.path) && !FileManager.default.fileExists(atPath: $0.path))
        }
        return gone.first(where: claim)
    }

    private func store(_ record: TrackRecord, outcome: TrackProcessor.Outcome, previous: TrackRecord?,
                       replacing replaced: TrackRecord?) throws -> (TrackRecord, HandDataAside?) {
        if outcome == .vanished {
            // Only a row we already had is touched, and only its state.
            if let id = previous?.id { try catalog.markMissing(id: id, since: record.missingSince ?? 0) }
            return (record, nil)
        }
        return try catalog.saveScanResult(record, settingAsideHandDataOf: replaced)
    }

    /// The scan root a file was found under: the deepest that holds it.
    private static func libraryRoot(of path: String, among roots: [String]) -> String? {
        roots.filter { path.isInside(folder: $0) }.max { $0.count < $1.count }
    }

    /// Analysed since the forced scan of its root began: by this scan's run before an interruption.
    /// `path`: where this scan reached the row's file (a link to it), if not at the row's own path.
    private func analysedByThisForcedScan(_ row: TrackRecord, reachedAs path: String? = nil) -> Bool {
        let root = forcedSince.keys.filter { (path ?? row.path).isInside(folder: $0) }.max { $0.count < $1.count }
        guard let root, let since = forcedSince[root] else { return false }
        return row.scannedAt >= since
    }

    /// Same size and mtime, or same size and fingerprint (touched, not changed), analysed by this
    /// version from audio decoded by the decoder version this build has.
    private func isUnchanged(_ file: FoundFile, row: TrackRecord) -> Bool {
        guard row.fileSize == file.size, row.analysisVersion == AnalysisResult.currentVersion else { return false }
        // Decoded before recordings were fingerprinted: decoded again, once, for its print.
        if let withPrints, row.state == .analysed, let id = row.id, !withPrints.contains(id) { return false }
        if let stored = row.decoder, let library = DecoderLibrary(identity: stored), library.isAvailable, stored != library.identity { return false }
        return row.describesFile(size: file.size, modifiedAt: file.modifiedAt, path: file.path)
    }
}
