import Foundation
import GRDB

/// The SQLite catalog: one WAL database, schema by migrations, one transaction per file so that a
/// killed scan leaves every finished file in and nothing half-written.
public final class Catalog: @unchecked Sendable {
    public let path: String
    /// A pool (one writer, concurrent readers) for commands that write; a single read-only
    /// connection for those that only read (one connection to open: start-up is most of a `match`).
    public let pool: any DatabaseWriter
    /// `Catalog.sharedCopyKeys`, read once per catalog opened (a command's lifetime).
    let sharedCopyKeysCache = Locked<Set<String>?>(nil)

    /// `$BEATTAG_CATALOG`, else `$XDG_DATA_HOME/beattag/catalog.sqlite`, else `~/.local/share/beattag/catalog.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["BEATTAG_CATALOG"], !explicit.isEmpty { return explicit }
        return (UserDirectories.base("XDG_DATA_HOME", else: ".local/share", environment) as NSString).appendingPathComponent("beattag/catalog.sqlite")
    }

    /// What a command needs: readers (list, match, stats) work on a read-only catalog and while a
    /// scan writes; writers (scan, tag) need write access.
    public enum Access: Sendable { case readOnly, readWrite }

    /// Opens the catalog, creating it when `create` (and writable), and brings its schema up to date.
    /// A file that is not a beattag catalog is refused before anything is written to it.
    public init(path: String, create: Bool = true, access: Access = .readWrite) throws {
        self.path = path
        let fm = FileManager.default
        // A catalog on a read-only folder (a mounted backup, another user's files): SQLite cannot make
        // the WAL index beside it, and no writer can be at work there, so it is opened as immutable.
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        let exists = fm.fileExists(atPath: path, isDirectory: &isFolder)
        if isFolder.boolValue {
            throw CatalogError.cannotOpen(path: path, reason: "it is a folder; name the catalog file, e.g. "
                                          + (path as NSString).appendingPathComponent("catalog.sqlite"))
        }
        let frozen = access == .readOnly && exists && !fm.fileExists(atPath: path + "-shm")
            && !fm.isWritableFile(atPath: folder.isEmpty ? "." : folder)
        let openPath = frozen ? Catalog.immutableURI(path) : path
        if exists {
            if access == .readWrite, !fm.isWritableFile(atPath: path) { throw CatalogError.readOnly(path: path) }
        } else {
            guard create, access == .readWrite else { throw CatalogError.notFound(path: path) }
            if !folder.isEmpty {
                do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                    throw CatalogError.cannotOpen(path: path, reason: "cannot create folder \(folder)")
                }
            }
        }
        var config = Configuration()
        config.readonly = access == .readOnly
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            // Reads map the file instead of copying each page: whole-catalog queries (stats, untagged) halve.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
            db.add(function: Catalog.foldFunction)
            db.add(function: Catalog.searchedPathFunction)
        }
        do {
            if exists, access == .readWrite { try Catalog.checkIsCatalog(path) }  // before the pool switches the file to WAL
            pool = access == .readOnly ? try DatabaseQueue(path: openPath, configuration: config)
                : try DatabasePool(path: openPath, configuration: config)
            // Readers check the file through their own connection: one open instead of two.
            let (complete, newer, empty) = try pool.read { db -> (Bool, Bool, Bool) in
                if access == .readOnly { try Catalog.verifyTables(db, path: path) }
                return (try CatalogSchema.migrator.hasCompletedMigrations(db), try CatalogSchema.migrator.hasBeenSuperseded(db),
                        try !db.tableExists("track"))
            }
            // A schema this build does not know: writing it could break what the newer one keeps.
            if newer {
                throw CatalogError.cannotOpen(path: path, reason: "it was made by a newer beattag (use that version; this one would not know its tables)")
            }
            if !complete, access == .readOnly {
                // An empty file: nothing scanned into it yet, or a first scan creating it right now.
                if empty { throw CatalogError.cannotOpen(path: path, reason: "it holds no catalog yet (empty): run `beattag scan FOLDER` first") }
                // An older catalog is brought up to date by whichever command opens it first, as a scan
                // would (a reader asking for a scan made every upgrade cost one); only one this user
                // cannot write is left as it is.
                guard !frozen, fm.isWritableFile(atPath: path) else {
                    throw CatalogError.cannotOpen(path: path, reason: "it was made by an older beattag and cannot be written here: "
                                                  + "run `beattag scan` once where it can, to upgrade it")
                }
                _ = try Catalog(path: path, create: false, access: .readWrite)
            } else if !complete {
                // Two processes opening a new catalog at once must not both create its tables.
                let lock = try FileLock(path: path + ".lock", wait: true)
                try CatalogSchema.migrator.migrate(pool)
                withExtendedLifetime(lock) {}
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw CatalogError.notACatalog(path: path, reason: "not an SQLite database")
        } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {
            // Opening writes when the WAL is empty (GRDB sets up WAL mode): a long write elsewhere is
            // "busy", as for any other write, not SQLite's "database is locked".
            throw CatalogError.userFacing(error)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw CatalogError.damaged  // as when found part-way: one wording, one status
        } catch let error as DatabaseError {
            throw CatalogError.cannotOpen(path: path, reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }

    /// `file:` URI that opens the database without locks or WAL index (SQLite's `immutable`).
    static func immutableURI(_ path: String) -> String {
        let absolute = FileWalker.absolutePath(path)
        let escaped = absolute.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
            .replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }

    /// Refuses a file that is not SQLite, or an SQLite database with tables that are not beattag's.
    /// Read through SQLite itself, read-only: closing a plain file handle on the database would drop
    /// the locks SQLite holds on it in this process (POSIX locks belong to the process).
    static func checkIsCatalog(_ path: String) throws {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(10)  // another process (or pool) may be checkpointing as it closes
        try DatabaseQueue(path: path, configuration: config).read { try verifyTables($0, path: path) }
    }

    /// Empty, or beattag's tables: anything else is someone else's database.
    static func verifyTables(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard tables.isEmpty || (tables.contains("grdb_migrations") && tables.contains("track")) else {
            throw CatalogError.notACatalog(path: path, reason: "an SQLite database with other tables: " + tables.sorted().prefix(3).joined(separator: ", "))
        }
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

    /// One track, with its beats.
    public func track(path: String) throws -> TrackRecord? {
        try trackWithBeats { try TrackRecord.filter(Column("path") == path).fetchOne($0) }
    }

    /// One track by its id, with its beats (the review page finds audio by id, never by a path it is sent).
    public func track(id: Int64) throws -> TrackRecord? {
        try trackWithBeats { try TrackRecord.fetchOne($0, key: id) }
    }

    /// The row `fetch` finds, with its beat list, read in one transaction.
    private func trackWithBeats(_ fetch: (Database) throws -> TrackRecord?) throws -> TrackRecord? {
        try pool.read { db in try fetch(db).flatMap { try Catalog.attachBeats([$0], db).first } }
    }

    /// The catalog path of a file the user names: the path itself (made absolute, links kept) when
    /// catalogued, else the catalogued path that reaches the same file through symbolic links (the
    /// user named a link's target, or another link to it) or is another hard link to it (a scan
    /// catalogues a file with several names once). Throws `noSuchFile` or `notInCatalog`.
    public func locate(_ userPath: String) throws -> String {
        let absolute = FileWalker.absolutePath(userPath)
        let target = LexicalPath.resolved(absolute)
        let sameSize: [String] = try pool.read { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM track WHERE path = ?", arguments: [absolute]) == true { return [absolute] }
            // The link's target's size (`attributesOfItem` of the link would give the link's own).
            guard let target, let size = (try? FileManager.default.attributesOfItem(atPath: target))?[.size] as? Int64 else { return [] }
            return try String.fetchAll(db, sql: "SELECT path FROM track WHERE fileSize = ?", arguments: [size])
        }
        if sameSize == [absolute] { return absolute }
        guard let target else { throw ManualBPMError.noSuchFile(absolute) }
        if let linked = sameSize.first(where: { LexicalPath.resolved($0) == target }) { return linked }
        var named = stat(), other = stat()
        guard stat(target, &named) == 0, named.st_nlink > 1,
              let hardLinked = sameSize.first(where: { stat($0, &other) == 0 && other.st_dev == named.st_dev && other.st_ino == named.st_ino })
        else { throw ManualBPMError.notInCatalog(absolute) }
        return hardLinked
    }

    /// Every row, ordered by path. Without `beats` unless asked: matching, stats and the scan's
    /// change check do not need the beat blobs, which are most of a large catalog's bytes.
    public func allTracks(includingBeats: Bool = false) throws -> [TrackRecord] {
        var query = TrackQuery()
        query.includeBeats = includingBeats
        return try tracks(matching: query)
    }

    /// The rows (without beats) at or inside any of `paths` (absolute), on the path index.
    public func tracks(under paths: [String]) throws -> [TrackRecord] {
        let (condition, arguments) = Self.pathCondition(under: paths)
        return try pool.read { db in
            try TrackRecord.fetchAll(db, sql: "SELECT \(TrackQuery.recordColumns) FROM track WHERE \(condition) ORDER BY path", arguments: arguments)
        }
    }

    /// A WHERE condition for paths at or inside any of `paths` (absolute) that the path index
    /// answers: inside a folder is after "folder/" and before "folder0" ("0" follows "/" in byte
    /// order). A scan reads only its roots' rows (100,000 of them for a new album: 565 MB).
    static func pathCondition(under paths: [String]) -> (sql: String, arguments: StatementArguments) {
        let folders = paths.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        if folders.isEmpty { return ("0", []) }
        if folders.contains("/") { return ("1", []) }
        return (folders.map { _ in "(path = ? OR (path >= ? AND path < ?))" }.joined(separator: " OR "),
                StatementArguments(folders.flatMap { [$0, $0 + "/", $0 + "0"] }))
    }

    /// The rows a `TrackQuery` selects, in its order.
    public func tracks(matching query: TrackQuery) throws -> [TrackRecord] {
        try pool.read { db in
            let records = try query.request().fetchAll(db)
            return query.includeBeats ? try Catalog.attachBeats(records, db) : records
        }
    }

    /// The rows of a `TrackQuery` a batch at a time, in its order, read in one transaction: for an
    /// output of the whole catalog (`list --json`), whose rows with their beats took 3 GB at 100,000
    /// tracks when read all at once.
    public func forEachTrack(matching query: TrackQuery, batch: Int = 500, _ body: ([TrackRecord]) throws -> Void) throws {
        try pool.read { db in
            let cursor = try query.request().fetchCursor(db)
            var records: [TrackRecord] = []
            func flush() throws {
                guard !records.isEmpty else { return }
                try body(query.includeBeats ? try Catalog.attachBeats(records, db) : records)
                records.removeAll(keepingCapacity: true)
            }
            while let record = try cursor.next() {
                records.append(record)
                if records.count == batch { try flush() }
            }
            try flush()
        }
    }

    /// `ids` in slices small enough to bind as one statement's arguments (well under SQLite's limit).
    static func inChunks<Value>(_ ids: [Value], _ body: (Array<Value>.SubSequence) throws -> Void) rethrows {
        for start in stride(from: 0, to: ids.count, by: 500) { try body(ids[start..<min(start + 500, ids.count)]) }
    }

    /// The records with their beat lists from `trackBeats`.
    static func attachBeats(_ records: [TrackRecord], _ db: Database) throws -> [TrackRecord] {
        var beats: [Int64: Data] = [:]
        try inChunks(records.compactMap(\.id)) { chunk in
            let marks = chunk.map { _ in "?" }.joined(separator: ",")
            for row in try Row.fetchAll(db, sql: "SELECT trackId, beats FROM trackBeats WHERE trackId IN (\(marks))",
                                        arguments: StatementArguments(chunk)) {
                beats[row["trackId"]] = row["beats"]
            }
        }
        return records.map { record in
            var copy = record
            copy.beats = record.id.flatMap { beats[$0] }
            return copy
        }
    }

    /// How many rows a `TrackQuery` selects, before its limit.
    public func count(matching query: TrackQuery) throws -> Int {
        try pool.read { db in try query.countRequest().fetchOne(db) ?? 0 }
    }

    /// `TextMatch.fold` inside SQL, for case- and accent-insensitive search.
    static let foldFunction = DatabaseFunction("beattag_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(TextMatch.fold)
    }

    /// `TrackRecord.searchedPath(_:root:)` inside SQL (path, libraryRoot).
    static let searchedPathFunction = DatabaseFunction("beattag_searched_path", argumentCount: 2, pure: true) { values in
        String.fromDatabaseValue(values[0]).map { TrackRecord.searchedPath($0, root: String.fromDatabaseValue(values[1])) }
    }

    /// Rows with this content fingerprint and size, any state: candidates for a moved or renamed file.
    public func tracks(fingerprint: String, size: Int64) throws -> [TrackRecord] {
        try pool.read { db in
            try TrackRecord.filter(Column("fingerprint") == fingerprint && Column("fileSize") == size).order(Column("id")).fetchAll(db)
        }
    }

    /// Rows whose decoded audio hashes the same (`AudioHash`): the same recording under another
    /// path, after a move and a retag.
    public func tracks(audioHash: String) throws -> [TrackRecord] {
        try pool.read { db in try TrackRecord.filter(Column("audioHash") == audioHash).order(Column("id")).fetchAll(db) }
    }

    /// The catalog's scan lock, held for a whole scan: one scan per catalog at a time (readers and
    /// hand edits go on meanwhile). nil when another scan holds it and `wait` is false, or when
    /// `stopWaiting` ends the wait.
    public func scanLock(wait: Bool, onWait: () -> Void = {}, stopWaiting: () -> Bool = { false }) throws -> AnyObject? {
        try FileLock(path: path + ".scan-lock", wait: wait, onWait: onWait, stopWaiting: stopWaiting)
    }
}
