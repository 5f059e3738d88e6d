import Foundation

public struct ScanOptions: Sendable {
    public var roots: [String]
    public var source: SourceType?
    public var force = false
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    public init(roots: [String], source: SourceType? = nil, force: Bool = false) {
        self.roots = roots
        self.source = source
        self.force = force
    }
}

public struct ScanSummary: Codable, Equatable, Sendable {
    public var found = 0
    public var analysed = 0
    public var unchanged = 0
    public var metadataOnly = 0
    public var failed = 0
    public var moved = 0
    public var missing = 0
    public var interrupted = false
    public var audioSeconds = 0.0
    public var wallSeconds = 0.0
    public var problems: [ScanProblem] = []

    public var succeeded: Bool { failed == 0 && problems.isEmpty && !interrupted }
}

/// What a progress display needs, sent after every file.
public struct ScanProgress: Sendable {
    public var done: Int
    public var total: Int
    public var elapsed: Double
    public var currentPath: String
}

/// Schedules the scan: walk, decide what needs work, process files on all cores, one catalog
/// transaction per file. Stopping (`cancel`) lets running files finish and leaves the catalog
/// consistent; the next scan resumes because finished files are then unchanged.
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

        let existing = Dictionary(try catalog.allTracks().map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var work: [(FoundFile, TrackRecord?)] = []
        let now = Date().timeIntervalSince1970
        for file in walk.files {
            let row = existing[file.path]
            if !options.force, var row, try isUnchanged(file, row: &row) {
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

        let foundPaths = Set(walk.files.map(\.path))
        var claimed = Set<Int64>()
        let total = work.count
        var next = 0
        var done = 0
        let workers = max(1, min(options.workers, total))
        var firstError: Error?
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                lock.lock()
                guard next < total, !cancelled, firstError == nil else { lock.unlock(); return }
                let (file, row) = work[next]
                next += 1
                lock.unlock()

                var previous = row
                // A new path: its fingerprint tells whether it is a catalogued file that moved.
                let fingerprint = previous == nil ? Fingerprint.of(path: file.path, size: file.size) : nil
                if let fingerprint, let candidates = try? catalog.tracks(fingerprint: fingerprint, size: file.size) {
                    // Moved or renamed: same content, and its old path is gone (marked missing, or not on disk now).
                    let gone = candidates.filter {
                        $0.state == .missing || (!foundPaths.contains($0.path) && !FileManager.default.fileExists(atPath: $0.path))
                    }
                    lock.lock()
                    if let moved = gone.first(where: { !claimed.contains($0.id ?? -1) }) {
                        claimed.insert(moved.id ?? -1)
                        previous = moved  // keeps its id, manual BPM and rights
                        summary.moved += 1
                    }
                    lock.unlock()
                }
                let (record, outcome) = TrackProcessor.process(file, existing: previous, sourceOption: options.source,
                                                               now: Date().timeIntervalSince1970, fingerprint: fingerprint)
                do {
                    if outcome == .vanished {
                        // Only a row we already had is touched, and only its state.
                        if let id = previous?.id { try catalog.markMissing(id: id, since: record.missingSince ?? 0) }
                    } else {
                        _ = try catalog.save(record)
                    }
                } catch {
                    lock.lock(); firstError = firstError ?? error; lock.unlock()
                    return
                }
                lock.lock()
                done += 1
                switch outcome {
                case .analysed: summary.analysed += 1; summary.audioSeconds += record.durationSeconds ?? 0
                case .metadataOnly: summary.metadataOnly += 1
                case .failed: summary.failed += 1
                case .vanished: summary.missing += previous == nil ? 0 : 1
                }
                let progress = ScanProgress(done: done, total: total, elapsed: Date().timeIntervalSince(started),
                                            currentPath: file.path)
                lock.unlock()
                if outcome == .failed || outcome == .vanished {
                    onProblem?(ScanProblem(path: file.path, message: outcome == .vanished ? "vanished during the scan" : record.lastError ?? "failed"))
                }
                onProgress?(progress)
            }
        }
        if let firstError { throw firstError }
        summary.interrupted = isCancelled
        // Only a complete scan may call files missing: an interrupted one has not looked everywhere.
        if !summary.interrupted {
            let found = Set(walk.files.map(\.path))
            summary.missing = try catalog.markMissing(under: walk.walkedRoots, except: found, now: now)
        }
        summary.wallSeconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Same size and mtime, or same size and fingerprint (touched, not changed), analysed by this version.
    private func isUnchanged(_ file: FoundFile, row: inout TrackRecord) throws -> Bool {
        guard row.fileSize == file.size, row.analysisVersion == AnalysisResult.currentVersion else { return false }
        if row.modifiedAt == file.modifiedAt { return true }
        guard let stored = row.fingerprint, stored == Fingerprint.of(path: file.path, size: file.size) else { return false }
        return true
    }
}
