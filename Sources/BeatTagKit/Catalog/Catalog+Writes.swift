import Foundation
import GRDB

/// How the catalog changes: scans write what they found, users what they entered by hand.
extension Catalog {
    /// Saves what a scan found for one file, in its own transaction. The hand-entered fields are
    /// re-read under the write lock and kept, and the BPM in use chosen again: a `tag` or `tap`
    /// that landed while the file was being analysed is never overwritten.
    public func saveScanResult(_ record: TrackRecord) throws -> TrackRecord {
        try saveScanResult(record, settingAsideHandDataOf: nil).record
    }

    /// As `saveScanResult(_:)`; with `replaced` (the row as it was, when the file at its path now
    /// holds another recording) the hand data is not kept on the row but set aside for the
    /// recording it was entered for (`HandDataAside`), in the same transaction.
    func saveScanResult(_ record: TrackRecord, settingAsideHandDataOf replaced: TrackRecord?) throws
        -> (record: TrackRecord, setAside: HandDataAside?) {
        var copy = record
        var setAside: HandDataAside?
        try writeImmediately { db in
            if let id = copy.id, let current = try TrackRecord.fetchOne(db, key: id) {
                (copy.bpmManual, copy.rating, copy.beatAnchor) = (current.bpmManual, current.rating, current.beatAnchor)
                // A `tag --write` that landed while the file was analysed rewrote it (its audio checked
                // the same): the row describes the new file, this scan's snapshot the old one.
                if current.path == copy.path, (current.fileSize, current.modifiedAt) != (copy.fileSize, copy.modifiedAt),
                   copy.fileSinceScan() == .changed, current.fileSinceScan() == .asScanned {
                    (copy.fileSize, copy.modifiedAt, copy.fingerprint, copy.bpmTag) =
                        (current.fileSize, current.modifiedAt, current.fingerprint, current.bpmTag)
                }
                if let replaced, let audioHash = replaced.audioHash {
                    setAside = try HandDataAside.insert(HandData(of: copy), audioHash: audioHash, formerPath: replaced.path, db: db)
                    (copy.bpmManual, copy.rating, copy.beatAnchor) = (nil, nil, nil)
                }
                copy.chooseBPM()
            }
            try copy.save(db)
            try db.execute(sql: "UPDATE track SET searchText = ? WHERE id = ?", arguments: [copy.searchText, copy.id])
            if let beats = copy.beats {
                try db.execute(sql: "INSERT OR REPLACE INTO trackBeats (trackId, beats) VALUES (?, ?)", arguments: [copy.id, beats])
            } else {
                try db.execute(sql: "DELETE FROM trackBeats WHERE trackId = ?", arguments: [copy.id])
            }
            if let print = copy.recordingPrint {
                try db.execute(sql: "INSERT OR REPLACE INTO trackPrint (trackId, print, hash) VALUES (?, ?, ?)",
                               arguments: [copy.id, print.data, Int64(print.hash)])
            } else if copy.state != .missing {
                try db.execute(sql: "DELETE FROM trackPrint WHERE trackId = ?", arguments: [copy.id])
            }
        }
        return (copy, setAside)
    }

    /// Removes the row of a run beattag rendered, catalogued as a song by an earlier build, unless
    /// it holds hand data (kept: nothing entered by hand is lost). True when removed.
    func removeRender(id: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM track WHERE id = ? AND bpmManual IS NULL AND beatAnchor IS NULL AND rating IS NULL", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Changes a track's hand-entered data: read, edit and write in one short transaction that
    /// touches only the hand-owned columns and the BPM choice (a running scan's rows stay its own).
    /// `commit: false` returns the edited row and writes nothing (a dry run); `withBeats` gives the
    /// edit the row's beat list, read in the same transaction.
    public func editHandData(path: String, commit: Bool = true, withBeats: Bool = false,
                             _ edit: (inout TrackRecord) throws -> Void) throws -> TrackRecord {
        var edited: TrackRecord?
        try writeImmediatelyOrRollBack({ db in
            guard let found = try TrackRecord.filter(Column("path") == path).fetchOne(db) else { return .rollback }
            var record = withBeats ? try Catalog.attachBeats([found], db)[0] : found
            try edit(&record)
            record.chooseBPM()
            edited = record
            guard commit else { return .rollback }
            try Catalog.writeHandColumns(of: record, db)
            return .commit
        })
        guard let edited else { throw ManualBPMError.notInCatalog(path) }
        return edited
    }

    /// Writes only the hand-owned columns and the BPM choice of `record`: what a hand edit changes.
    static func writeHandColumns(of record: TrackRecord, _ db: Database) throws {
        try db.execute(sql: "UPDATE track SET bpmManual = ?, bpm = ?, bpmSource = ?, bpmReason = ?, rating = ?, beatAnchor = ? WHERE id = ?",
                       arguments: [record.bpmManual, record.bpm, record.bpmSource, record.bpmReason, record.rating, record.beatAnchor,
                                   record.id])
    }

    /// A file `tag --write` rewrote (its tags changed, its audio checked identical): its size, mtime,
    /// fingerprint and BPM tag as the verified copy had them before it took the file's name, as a
    /// scan would read them, so that the next scan finds it unchanged instead of analysing it again,
    /// and a later write knows it for the scanned file.
    public func noteTagWritten(path: String, file: BPMTagWriter.WrittenFile) throws {
        try writeImmediately { db in
            guard var record = try TrackRecord.filter(Column("path") == path).fetchOne(db) else { return }
            (record.fileSize, record.modifiedAt, record.fingerprint, record.bpmTag) = (file.size, file.modifiedAt, file.fingerprint, file.bpmTag)
            record.chooseBPM()
            try db.execute(sql: """
                UPDATE track SET fileSize = ?, modifiedAt = ?, fingerprint = ?, bpmTag = ?, bpm = ?, bpmSource = ?, bpmReason = ?
                WHERE id = ?
                """, arguments: [file.size, file.modifiedAt, file.fingerprint, file.bpmTag, record.bpm, record.bpmSource,
                                 record.bpmReason, record.id])
        }
    }

    /// A write transaction that takes the write lock at its start (BEGIN IMMEDIATE), so what it
    /// reads cannot change before it writes, whichever process writes next.
    func writeImmediately(_ body: (Database) throws -> Void) throws {
        try writeImmediatelyOrRollBack({ db in
            try body(db)
            return .commit
        })
    }

    /// The same, for a body that decides whether to commit (a dry run rolls back).
    func writeImmediatelyOrRollBack(_ body: (Database) throws -> Database.TransactionCompletion) throws {
        try pool.writeWithoutTransaction { db in try db.inTransaction(.immediate) { try body(db) } }
    }

    /// An unchanged file seen again: only its presence, state and mtime change (rows from
    /// `allTracks()` carry no beats: saving them whole would delete the beat list).
    public func markPresent(_ record: TrackRecord) throws {
        guard let id = record.id else { return }
        try pool.write { db in
            try db.execute(sql: "UPDATE track SET state = ?, missingSince = NULL, modifiedAt = ? WHERE id = ?",
                           arguments: [record.state.rawValue, record.modifiedAt, id])
        }
    }

    /// A file moved unchanged: its row takes the new path (and what follows from it: the search
    /// text, the scan root, the state, the rights of its new folder). The analysis, its beats and
    /// print, and the hand data stay as they are.
    public func moveRow(_ record: TrackRecord) throws {
        guard let id = record.id else { return }
        try pool.write { db in
            try db.execute(sql: """
                UPDATE track SET path = ?, modifiedAt = ?, state = ?, missingSince = NULL, scannedAt = ?, libraryRoot = ?, searchText = ?,
                sourceType = ?, license = ?, attribution = ?, sourceURL = ?, tempoAdjustAllowed = ?, rightsOrigin = ? WHERE id = ?
                """, arguments: [record.path, record.modifiedAt, record.state.rawValue, record.scannedAt, record.libraryRoot, record.searchText,
                                 record.sourceType.rawValue, record.license, record.attribution, record.sourceURL, record.tempoAdjustAllowed,
                                 record.rightsOrigin, id])
        }
    }

    /// New rights for an unchanged file: only the rights columns of `rights` are written.
    public func updateRights(_ rights: TrackRecord) throws {
        guard let id = rights.id else { return }
        try pool.write { db in
            try db.execute(sql: """
                UPDATE track SET sourceType = ?, license = ?, attribution = ?, sourceURL = ?, tempoAdjustAllowed = ?,
                rightsOrigin = ? WHERE id = ?
                """, arguments: [rights.sourceType.rawValue, rights.license, rights.attribution, rights.sourceURL,
                                 rights.tempoAdjustAllowed, rights.rightsOrigin, id])
        }
    }

    /// One file gone mid-scan: the row stays as it was, marked missing.
    public func markMissing(id: Int64, since time: Double) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE track SET state = ?, missingSince = ? WHERE id = ?",
                           arguments: [TrackState.missing.rawValue, time, id])
        }
    }

    /// Marks rows under `roots` whose files the completed scan did not find as missing, except those
    /// inside folders it could not read (`sparing`: not looked at is not gone). Rows are kept:
    /// manual BPM and rights survive until the user prunes them.
    ///
    /// A library moved or unmounted makes this most of the catalog: one transaction of 100,000
    /// updates held the write lock for 7–8 s, and a `tag` or `rate` waiting on it could run out of
    /// its 10-s patience (a concurrency audit). The rows are chosen in a read and marked in short
    /// transactions with a pause between them, so a waiting writer gets in. A scan stopped half-way
    /// leaves some rows unmarked, which the next scan marks.
    /// `stillThere`: a file the walk did not take that is there all the same (one scanned by name
    /// that a folder walk passes over: a hidden name, a kind it does not look for) is not missing.
    public func markMissing(under roots: [String], except found: Set<String>, sparing unread: [String] = [], now: Double,
                            stillThere: (String) -> Bool = { _ in false }) throws -> Int {
        let candidates: [(id: Int64, path: String)] = try pool.read { db in
            // Paths only, under the roots, and a targeted update: the rows themselves are not read or rewritten.
            let (under, arguments) = Catalog.pathCondition(under: roots)
            return try Row.fetchAll(db, sql: "SELECT id, path FROM track WHERE state != ? AND (\(under))",
                                    arguments: [TrackState.missing.rawValue] + arguments).compactMap { row in
                let path: String = row["path"]
                guard !found.contains(path), !unread.contains(where: { path.isInside(folder: $0) }) else { return nil }
                return (row["id"], path)
            }
        }
        let ids = candidates.filter { !stillThere($0.path) }.map(\.id)
        var count = 0
        for start in stride(from: 0, to: ids.count, by: Catalog.missingMarksPerTransaction) {
            if start > 0 { usleep(Catalog.pauseBetweenMarks) }
            let chunk = ids[start..<min(start + Catalog.missingMarksPerTransaction, ids.count)]
            try pool.write { db in
                // `state != missing`: a row marked since the read is not counted twice.
                try Catalog.inChunks(Array(chunk)) { part in
                    let marks = part.map { _ in "?" }.joined(separator: ",")
                    try db.execute(sql: "UPDATE track SET state = ?, missingSince = ? WHERE state != ? AND id IN (\(marks))",
                                   arguments: StatementArguments([TrackState.missing.rawValue, now, TrackState.missing.rawValue] as [DatabaseValueConvertible])
                                       + StatementArguments(Array(part)))
                    count += db.changesCount
                }
            }
        }
        return count
    }

    /// About 0.1 s of work a transaction at 100,000 rows; a pause long enough for SQLite's busy
    /// handler, which sleeps 1–100 ms between tries, to find the lock free.
    static let missingMarksPerTransaction = 2_000
    static let pauseBetweenMarks: useconds_t = 30_000
}
