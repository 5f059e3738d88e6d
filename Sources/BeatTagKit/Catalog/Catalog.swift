import Foundation
import GRDB

/// The SQLite catalog: one WAL database, schema by migrations, one transaction per file so that a
/// killed scan leaves every finished file in and nothing half-written.
public final class Catalog: @unchecked Sendable {
    public let path: String
    public let pool: DatabasePool

    /// `$BEATTAG_CATALOG`, else `$XDG_DATA_HOME/beattag/catalog.sqlite`, else `~/.local/share/beattag/catalog.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["BEATTAG_CATALOG"], !explicit.isEmpty { return explicit }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".local/share")
        return (dataHome as NSString).appendingPathComponent("beattag/catalog.sqlite")
    }

    /// Opens (creating when `create`) and migrates the catalog.
    public init(path: String, create: Bool = true) throws {
        self.path = path
        let fm = FileManager.default
        if !fm.fileExists(atPath: path) {
            guard create else { throw CatalogError.notFound(path: path) }
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty {
                do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                    throw CatalogError.cannotOpen(path: path, reason: "cannot create folder \(dir)")
                }
            }
        }
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            db.add(function: Catalog.foldFunction)
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try Catalog.migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw CatalogError.cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: tracks") { db in
            try db.create(table: "track") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull().unique()
                t.column("fileSize", .integer).notNull()
                t.column("modifiedAt", .double).notNull()
                t.column("fingerprint", .text).indexed()
                t.column("state", .text).notNull().indexed()
                t.column("format", .text)
                t.column("durationSeconds", .double)
                t.column("sampleRate", .integer)
                t.column("channels", .integer)
                t.column("bitrateKbps", .integer)
                t.column("title", .text)
                t.column("artist", .text)
                t.column("album", .text)
                t.column("genre", .text)
                t.column("year", .integer)
                t.column("trackNumber", .integer)
                t.column("bpmTag", .double)
                t.column("bpmAnalysed", .double)
                t.column("bpmManual", .double)
                t.column("bpm", .double).indexed()
                t.column("bpmSource", .text)
                t.column("bpmReason", .text)
                t.column("confidence", .double)
                t.column("bpmAlternative", .double)
                t.column("bpmAlternativeScore", .double)
                t.column("bpmScore", .double)
                t.column("gridOffset", .double)
                t.column("gridPeriod", .double)
                t.column("tempoSteadiness", .double)
                t.column("tempoVariable", .boolean)
                t.column("tempoMin", .double)
                t.column("tempoMax", .double)
                t.column("beats", .blob)
                t.column("sourceType", .text).notNull().defaults(to: "unknown")
                t.column("license", .text)
                t.column("attribution", .text)
                t.column("sourceURL", .text)
                t.column("tempoAdjustAllowed", .boolean).notNull().defaults(to: true)
                t.column("rightsOrigin", .text).notNull().defaults(to: "none")
                t.column("waveformAnalysed", .boolean).notNull().defaults(to: false)
                t.column("metadataOnlyReason", .text)
                t.column("analysisVersion", .integer)
                t.column("lastError", .text)
                t.column("firstSeenAt", .double).notNull()
                t.column("scannedAt", .double).notNull()
                t.column("missingSince", .double)
            }
        }
        migrator.registerMigration("v2: playlist exports") { db in
            try db.create(table: "playlistExport") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("track", onDelete: .cascade).notNull()
                t.column("exportedAt", .double).notNull().indexed()
                t.column("playlistPath", .text).notNull()
            }
        }
        migrator.registerMigration("v3: decode warnings") { db in
            try db.alter(table: "track") { t in t.add(column: "decodeWarning", .text) }
        }
        return migrator
    }

    /// Remembers what a playlist exported, for `--fresh` next time.
    public func recordExport(trackIDs: [Int64], playlistPath: String, at time: Double) throws {
        try pool.write { db in
            for id in trackIDs {
                try db.execute(sql: "INSERT INTO playlistExport (trackId, exportedAt, playlistPath) VALUES (?, ?, ?)",
                               arguments: [id, time, playlistPath])
            }
        }
    }

    /// Track ids exported since `time`.
    public func exportedTracks(since time: Double) throws -> Set<Int64> {
        try pool.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT DISTINCT trackId FROM playlistExport WHERE exportedAt >= ?", arguments: [time]))
        }
    }

    public func track(path: String) throws -> TrackRecord? {
        try pool.read { db in try TrackRecord.filter(Column("path") == path).fetchOne(db) }
    }

    /// Every row, ordered by path. Without `beats` unless asked: matching, stats and the scan's
    /// change check do not need the beat blobs, which are most of a large catalog's bytes.
    public func allTracks(includingBeats: Bool = false) throws -> [TrackRecord] {
        var query = TrackQuery()
        query.includeBeats = includingBeats
        return try tracks(matching: query)
    }

    /// The rows a `TrackQuery` selects, ordered by path.
    public func tracks(matching query: TrackQuery) throws -> [TrackRecord] {
        try pool.read { db in
            let columns = try db.columns(in: TrackRecord.databaseTableName).map(\.name)
            return try query.request(columns: columns).fetchAll(db)
        }
    }

    /// `TextMatch.fold` inside SQL, for case- and accent-insensitive search.
    static let foldFunction = DatabaseFunction("beattag_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(TextMatch.fold)
    }

    /// Saves one track in its own transaction.
    public func save(_ record: TrackRecord) throws -> TrackRecord {
        var copy = record
        try pool.write { db in try copy.save(db) }
        return copy
    }

    /// An unchanged file seen again: only its presence, state and mtime change (rows from
    /// `allTracks()` lack beats, so saving them whole would lose the beat grid).
    public func markPresent(_ record: TrackRecord) throws {
        guard let id = record.id else { return }
        try pool.write { db in
            try db.execute(sql: "UPDATE track SET state = ?, missingSince = NULL, modifiedAt = ? WHERE id = ?",
                           arguments: [record.state.rawValue, record.modifiedAt, id])
        }
    }

    /// One file gone mid-scan: the row stays as it was, marked missing.
    public func markMissing(id: Int64, since time: Double) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE track SET state = ?, missingSince = ? WHERE id = ?",
                           arguments: [TrackState.missing.rawValue, time, id])
        }
    }

    /// Marks rows under `roots` whose files the completed scan did not find as missing. Rows are
    /// kept: manual BPM and rights survive until the user prunes them.
    public func markMissing(under roots: [String], except found: Set<String>, now: Double) throws -> Int {
        try pool.write { db in
            // Paths only, and a targeted update: the rows themselves (beats and all) are not read or rewritten.
            let rows = try Row.fetchAll(db, sql: "SELECT id, path FROM track WHERE state != ?", arguments: [TrackState.missing.rawValue])
            var count = 0
            for row in rows {
                let path: String = row["path"]
                guard !found.contains(path), roots.contains(where: { path.isInside(folder: $0) }) else { continue }
                try db.execute(sql: "UPDATE track SET state = ?, missingSince = ? WHERE id = ?",
                               arguments: [TrackState.missing.rawValue, now, row["id"] as Int64])
                count += 1
            }
            return count
        }
    }

    /// Rows with this content fingerprint and size, any state: candidates for a moved or renamed file.
    public func tracks(fingerprint: String, size: Int64) throws -> [TrackRecord] {
        try pool.read { db in
            try TrackRecord.filter(Column("fingerprint") == fingerprint && Column("fileSize") == size).order(Column("id")).fetchAll(db)
        }
    }
}
