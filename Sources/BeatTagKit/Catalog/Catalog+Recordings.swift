import Foundation
import GRDB

/// Copies of one recording in other encodings: grouped by acoustic fingerprint after a scan.
extension Catalog {
    /// Files of about the same length are the only candidates: within 2 s or 2%.
    static func durationWindow(_ seconds: Double) -> ClosedRange<Double> {
        let slack = max(2, seconds * 0.02)
        return (seconds - slack)...(seconds + slack)
    }

    /// Compares the print of track `id` with those of present tracks of about its length and tempo, and
    /// puts it in the recording group of the first it matches (the group made now, if the other
    /// had none). A track that matches none leaves its group. True when it joined one.
    @discardableResult
    public func groupRecording(of id: Int64) throws -> Bool {
        var joined = false
        try writeImmediately { db in
            guard let row = try Catalog.printedTrack(id, db), let duration: Double = row["durationSeconds"] else { return }
            let print = RecordingPrint(data: row["print"], storedHash: row["hash"])
            let window = Catalog.durationWindow(duration)
            // The 32-bit SimHashes first (no blobs): copies of one recording differ in 0–1 of their
            // bits, different recordings in 4 or more; only those within `RecordingPrint.hashBits`
            // have their whole prints read and compared.
            let nearby = try Row.fetchAll(db, sql: """
                SELECT t.id, t.recording, t.bpmAnalysed, p.hash FROM track t JOIN trackPrint p ON p.trackId = t.id
                WHERE t.durationSeconds BETWEEN ? AND ? AND t.id != ? AND t.state != 'missing' ORDER BY t.id
                """, arguments: [window.lowerBound, window.upperBound, id])
            let bpm: Double? = row["bpmAnalysed"]
            for candidate in nearby where print.hashIsNear(UInt32(truncatingIfNeeded: candidate["hash"] as Int64)) {
                let otherID: Int64 = candidate["id"]
                guard let data = try Data.fetchOne(db, sql: "SELECT print FROM trackPrint WHERE trackId = ?", arguments: [otherID]) else { continue }
                let other = RecordingPrint(data: data, storedHash: candidate["hash"])
                guard print.isSameRecording(as: other, bpm: bpm, otherBPM: candidate["bpmAnalysed"]) else { continue }
                let group = (candidate["recording"] as Int64?) ?? otherID
                // One recording's copies are all alike: a track joins a group only if it is also the
                // recording of the group's first track. Likeness alone chains: 120 tones each 5 Hz and
                // 1 BPM from the next made one "recording" of 119 tracks (a concurrency audit's aside).
                if group != otherID, let anchor = try Catalog.printedTrack(group, db),
                    !print.isSameRecording(as: RecordingPrint(data: anchor["print"], storedHash: anchor["hash"]), bpm: bpm,
                                           otherBPM: anchor["bpmAnalysed"]) {
                    continue
                }
                try db.execute(sql: "UPDATE track SET recording = ? WHERE id IN (?, ?)", arguments: [group, id, otherID])
                joined = true
                return
            }
            if (row["recording"] as Int64?) != nil {
                try db.execute(sql: "UPDATE track SET recording = NULL WHERE id = ?", arguments: [id])
            }
        }
        return joined
    }

    /// Track `id`'s length, analysed tempo, recording group and stored print; nil without a print.
    private static func printedTrack(_ id: Int64, _ db: Database) throws -> Row? {
        try Row.fetchOne(db, sql: """
            SELECT t.durationSeconds, t.bpmAnalysed, t.recording, p.print, p.hash FROM track t JOIN trackPrint p ON p.trackId = t.id
            WHERE t.id = ?
            """, arguments: [id])
    }

    /// Ids of the tracks that have a fingerprint.
    /// `under`: only those of tracks at or inside these paths (a scan's roots), which reads their
    /// rows only, not every print's.
    public func trackIDsWithPrints(under paths: [String]? = nil) throws -> Set<Int64> {
        guard let paths else { return try pool.read { db in Set(try Int64.fetchAll(db, sql: "SELECT trackId FROM trackPrint")) } }
        let (under, arguments) = Catalog.pathCondition(under: paths)
        return try pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT trackId FROM trackPrint WHERE trackId IN (SELECT id FROM track WHERE \(under))",
                                   arguments: arguments))
        }
    }
}
