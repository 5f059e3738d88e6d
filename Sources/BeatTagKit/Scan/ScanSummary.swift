/// What a scan did, counted per outcome. `failures` names every file of the scanned roots that is
/// in the failed state after this scan (newly failed or still failing); `problems` what the walk
/// could not read and roots it found unavailable.
public struct ScanSummary: Codable, Equatable, Sendable {
    public var found = 0
    public var analysed = 0
    public var unchanged = 0
    public var metadataOnly = 0
    public var failed = 0
    public var moved = 0
    /// Unchanged files whose rights changed (a `.beattag-rights` added, edited or removed, another
    /// `--source`): updated without re-analysis.
    public var rightsChanged = 0
    /// Files found to be another copy of a recording the catalog holds (another encoding).
    public var sameRecording = 0
    /// Seconds spent fingerprinting recordings (Chromaprint), over all files of this scan.
    public var printSeconds = 0.0
    /// Why recordings were not fingerprinted (Chromaprint missing), if so.
    public var recordingsNotCompared: String?
    public var missing = 0
    /// Files found by the walk that were gone when their turn came (deleted or moved mid-scan).
    public var vanished = 0
    /// Hand data set aside from a name that now holds another recording, and given back to a file
    /// that holds the recording it was entered for.
    public var handDataMoves: [HandDataMove] = []
    /// New paths to files the catalog holds under another path (through a link): left there.
    public var sameFiles: [SameFile] = []
    /// Runs beattag rendered, found among the music: not catalogued (a run is no track to play).
    public var renders: [String] = []
    public var interrupted = false
    /// With --force, files its interrupted run analysed already (counted unchanged): it resumed.
    public var forcedAlready = 0
    /// Stopped while waiting for another scan of the catalog: nothing was looked at.
    public var stoppedWhileWaiting = false
    public var audioSeconds = 0.0
    public var wallSeconds = 0.0
    public var failures: [ScanFailure] = []
    public var problems: [ScanProblem] = []
    /// Files analysed from what decoded (cut short, damaged): catalogued, but a person may want to
    /// know, since the tempo and beats come from part of the file. Not a failure.
    public var decodeWarnings: [ScanProblem] = []
    /// Hidden copies left by a `tag --write` that was killed (its process gone, untouched for an
    /// hour), removed by this scan.
    public var leftoversRemoved: [String] = []

    public var succeeded: Bool { failed == 0 && problems.isEmpty && !interrupted }
}

/// A path found by a scan to a file catalogued under another path.
public struct SameFile: Codable, Equatable, Sendable {
    public var path: String
    public var cataloguedAs: String
}

/// A file that could not be catalogued, and why.
public struct ScanFailure: Codable, Equatable, Sendable {
    public var path: String
    public var reason: String
}

extension ScanSummary {
    /// A catalogued file not decoded this time that failed when it was: it still counts as failed,
    /// so every scan of a folder reports the same.
    mutating func countIfStillFailing(_ row: TrackRecord) {
        guard row.settledState == .failed else { return }
        failed += 1
        failures.append(ScanFailure(path: row.path, reason: row.lastError ?? "failed"))
    }

    /// Counts one processed file. A vanished file counts as missing only if it had a row.
    mutating func count(_ outcome: TrackProcessor.Outcome, record: TrackRecord, hadRow: Bool) {
        switch outcome {
        case .analysed:
            analysed += 1
            audioSeconds += record.durationSeconds ?? 0
            if let warning = record.decodeWarning { decodeWarnings.append(ScanProblem(path: record.path, message: warning)) }
        case .metadataOnly: metadataOnly += 1
        case .failed:
            failed += 1
            failures.append(ScanFailure(path: record.path, reason: record.lastError ?? "failed"))
        case .vanished:
            vanished += 1
            missing += hadRow ? 1 : 0
        }
    }

    /// The summary of a scan whose roots are all missing before any catalog exists: nothing found,
    /// each root a problem, as a later scan of a missing root says it.
    public static func nothingScanned(missingRoots: [String]) -> ScanSummary {
        ScanSummary(problems: missingRoots.map { ScanProblem(path: $0, message: ScanProblem.noSuchFileOrFolder) })
    }
}
