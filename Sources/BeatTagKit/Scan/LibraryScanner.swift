import Foundation

/// Schedules the scan in four stages: walk the roots, plan (skip what is unchanged), process the
/// rest on all cores with one catalog transaction per file, and mark what the walk no longer found
/// as missing. Stopping (`cancel`) lets running files finish and leaves the catalog consistent; the
/// next scan resumes because finished files are then unchanged.
public final class LibraryScanner: @unchecked Sendable {
    private let catalog: Catalog
    private let options: ScanOptions
    private let lock = NSLock()
    private var cancelled = false
    public var onProgress: (@Sendable (ScanProgress) -> Void)?
    /// Called with a one-line message for each file that fails.
    public var onProblem: (@Sendable (ScanProblem) -> Void)?

    public init(catalog: Catalog, options: ScanOptions) {
        self.catalog = catalog
        self.options = options
    }

    public func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    private var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }

    public func run() throws -> ScanSummary {
        let started = Date()
        var summary = ScanSummary()
        let walk = FileWalker.walk(roots: options.roots)
        summary.problems = walk.problems
        walk.problems.forEach { onProblem?($0) }
        summary.found = walk.files.count
        let now = Date().timeIntervalSince1970
        let work = try plan(walk.files, summary: &summary)
        try process(work, foundPaths: Set(walk.files.map(\.path)), started: started, summary: &summary)
        summary.interrupted = isCancelled
        // Only a complete scan may call files missing: an interrupted one has not looked everywhere.
        // (Files that vanished while it ran are counted already and are missing now, so not counted twice.)
        if !summary.interrupted {
            summary.missing += try catalog.markMissing(under: walk.walkedRoots, except: Set(walk.files.map(\.path)), now: now)
        }
        summary.wallSeconds = Date().timeIntervalSince(started)
        return summary
    }

    /// A file to process and the row it had, if any.
    typealias WorkItem = (file: FoundFile, row: TrackRecord?)

    /// The files that need work; unchanged ones are only marked present.
    private func plan(_ files: [FoundFile], summary: inout ScanSummary) throws -> [WorkItem] {
        let existing = Dictionary(try catalog.allTracks().map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var work: [WorkItem] = []
        for file in files {
            let row = existing[file.path]
            if !options.force, var row, isUnchanged(file, row: row) {
                summary.unchanged += 1
                if row.state == .missing || row.modifiedAt != file.modifiedAt {
                    row.state = row.settledState
                    row.modifiedAt = file.modifiedAt
                    try catalog.markPresent(row)
                }
                continue
            }
            work.append((file, row))
        }
        return work
    }

    /// Runs the work on `options.workers` threads, each taking the next file until none is left.
    private func process(_ work: [WorkItem], foundPaths: Set<String>, started: Date, summary: inout ScanSummary) throws {
        var claimed = Set<Int64>()
        var next = 0, done = 0
        var firstError: Error?
        var tally = summary
        DispatchQueue.concurrentPerform(iterations: max(1, min(options.workers, work.count))) { _ in
            while true {
                lock.lock()
                guard next < work.count, !cancelled, firstError == nil else { lock.unlock(); return }
                let (file, row) = work[next]
                next += 1
                lock.unlock()

                var previous = row
                // A new path: its fingerprint tells whether it is a catalogued file that moved.
                let fingerprint = previous == nil ? Fingerprint.of(path: file.path, size: file.size) : nil
                if let fingerprint, let moved = movedRow(fingerprint: fingerprint, size: file.size, foundPaths: foundPaths, claimed: &claimed) {
                    previous = moved  // keeps its id, manual BPM and rights
                    lock.lock(); tally.moved += 1; lock.unlock()
                }
                let (record, outcome) = TrackProcessor.process(file, existing: previous, sourceOption: options.source,
                                                               now: Date().timeIntervalSince1970, fingerprint: fingerprint)
                do { try store(record, outcome: outcome, previous: previous) } catch {
                    lock.lock(); firstError = firstError ?? error; lock.unlock()
                    return
                }
                lock.lock()
                done += 1
                tally.count(outcome, record: record, hadRow: previous != nil)
                let progress = ScanProgress(done: done, total: work.count, elapsed: Date().timeIntervalSince(started), currentPath: file.path)
                lock.unlock()
                if outcome == .failed || outcome == .vanished {
                    onProblem?(ScanProblem(path: file.path, message: outcome == .vanished ? "vanished during the scan" : record.lastError ?? "failed"))
                }
                onProgress?(progress)
            }
        }
        summary = tally
        if let firstError { throw firstError }
    }

    /// Moved or renamed: a row with the same content whose old path is gone (marked missing, or not
    /// on disk now) and that no other file of this scan has claimed.
    private func movedRow(fingerprint: String, size: Int64, foundPaths: Set<String>, claimed: inout Set<Int64>) -> TrackRecord? {
        guard let candidates = try? catalog.tracks(fingerprint: fingerprint, size: size) else { return nil }
        let gone = candidates.filter {
            $0.state == .missing || (!foundPaths.contains($0.path) && !FileManager.default.fileExists(atPath: $0.path))
        }
        lock.lock(); defer { lock.unlock() }
        guard let moved = gone.first(where: { !claimed.contains($0.id ?? -1) }) else { return nil }
        claimed.insert(moved.id ?? -1)
        return moved
    }

    private func store(_ record: TrackRecord, outcome: TrackProcessor.Outcome, previous: TrackRecord?) throws {
        if outcome == .vanished {
            // Only a row we already had is touched, and only its state.
            if let id = previous?.id { try catalog.markMissing(id: id, since: record.missingSince ?? 0) }
        } else {
            _ = try catalog.save(record)
        }
    }

    /// Same size and mtime, or same size and fingerprint (touched, not changed), analysed by this version.
    private func isUnchanged(_ file: FoundFile, row: TrackRecord) -> Bool {
        guard row.fileSize == file.size, row.analysisVersion == AnalysisResult.currentVersion else { return false }
        if row.modifiedAt == file.modifiedAt { return true }
        guard let stored = row.fingerprint, stored == Fingerprint.of(path: file.path, size: file.size) else { return false }
        return true
    }
}
