@testable import BeatTagKit
import GRDB
import XCTest

final class CatalogTests: XCTestCase {
    func testDefaultPathFollowsEnvironment() {
        XCTAssertEqual(Catalog.defaultPath(environment: ["BEATTAG_CATALOG": "/x/c.sqlite", "HOME": "/h"]), "/x/c.sqlite")
        XCTAssertEqual(Catalog.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"]), "/data/beattag/catalog.sqlite")
        XCTAssertEqual(Catalog.defaultPath(environment: ["HOME": "/h"]), "/h/.local/share/beattag/catalog.sqlite")
        XCTAssertEqual(Catalog.defaultPath(environment: ["XDG_DATA_HOME": "data", "HOME": "/h"]), "/h/.local/share/beattag/catalog.sqlite",
                       "a relative XDG directory is ignored, as the spec says")
        // The profile follows $HOME the same way (it read the account's home whatever $HOME said).
        XCTAssertEqual(ProfileStore.defaultPath(environment: ["HOME": "/h"]), "/h/.config/beattag/profile.toml")
        XCTAssertEqual(ProfileStore.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]), "/c/beattag/profile.toml")
        XCTAssertEqual(ProfileStore.defaultPath(environment: ["XDG_CONFIG_HOME": "c", "HOME": "/h"]), "/h/.config/beattag/profile.toml")
    }

    /// `TrackRecord(row:)` is written out column by column: every column, set, must come back set
    /// and equal (a column added to `CodingKeys` but not read there would come back nil).
    func testEveryColumnIsReadBack() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        var record = TrackRecord(path: "/music/a.flac", fileSize: 10, modifiedAt: 1, now: 2)
        record = try catalog.saveScanResult(record)
        let textValues: [TrackRecord.CodingKeys: String] = [.state: "analysed", .bpmSource: "manual", .sourceType: "cc0", .rating: "liked"]
        try catalog.pool.write { db in
            let types = Dictionary(try Row.fetchAll(db, sql: "PRAGMA table_info(track)").map { ($0["name"] as String, ($0["type"] as String).uppercased()) },
                                   uniquingKeysWith: { a, _ in a })
            for (index, key) in TrackRecord.CodingKeys.allCases.enumerated() where key != .id {
                let value: DatabaseValueConvertible = textValues[key] ?? {
                    switch types[key.rawValue] ?? "" {
                    case "TEXT": return "v\(index)"
                    case "BOOLEAN": return true
                    case "INTEGER": return index + 1000
                    default: return Double(index) + 0.5
                    }
                }()
                try db.execute(sql: "UPDATE track SET \"\(key.rawValue)\" = ?", arguments: [value])
            }
        }
        let stored = try catalog.pool.read { db in try XCTUnwrap(try Row.fetchOne(db, sql: "SELECT * FROM track")) }
        // By position (the columns a query selects) and by name (`SELECT *`).
        let byPosition = try XCTUnwrap(try catalog.allTracks().first).databaseDictionary
        let byName = try catalog.pool.read { db in try XCTUnwrap(try TrackRecord.fetchOne(db, sql: "SELECT * FROM track")) }.databaseDictionary
        for read in [byPosition, byName] {
            for key in TrackRecord.CodingKeys.allCases {
                XCTAssertFalse(read[key.rawValue]?.isNull ?? true, "\(key.rawValue) not read")
                XCTAssertEqual(read[key.rawValue], stored[key.rawValue] as DatabaseValue, key.rawValue)
            }
        }
    }

    func testCreatesMigratesAndRoundTrips() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("nested/dir/catalog.sqlite")
        var record = TrackRecord(path: "/music/a.flac", fileSize: 10, modifiedAt: 1, now: 2)
        record.state = .analysed
        record.bpmAnalysed = 174.3
        record.confidence = 0.9
        record.beatTimes = [0.5, 0.8448, 1.1896]
        record.sourceType = .ccByNd
        record.tempoAdjustAllowed = false
        record.title = "Ünïcødé"
        record.chooseBPM()
        do {
            let catalog = try Catalog(path: path)
            record = try catalog.saveScanResult(record)
            XCTAssertNotNil(record.id)
        }
        let reopened = try Catalog(path: path, create: false)
        let loaded = try XCTUnwrap(try reopened.track(path: "/music/a.flac"))
        XCTAssertEqual(loaded, record)
        XCTAssertEqual(loaded.beatTimes.count, 3)
        for (a, b) in zip(loaded.beatTimes, [0.5, 0.8448, 1.1896]) { XCTAssertEqual(a, b, accuracy: 1e-6) }
        let journal = try reopened.pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(journal, "wal")
        let migrations = try reopened.pool.read { try CatalogSchema.migrator.appliedMigrations($0) }
        XCTAssertEqual(migrations, ["v1: tracks", "v2: playlist exports", "v3: decode warnings", "v4: audio identity and library roots", "v5: beats apart, cadence index", "v6: decoder per track", "v7: likes", "v8: recordings", "v9: liked tracks indexed", "v10: search text", "v11: stats leave disliked tracks out", "v12: hand data set aside", "v13: hand-placed beat", "v14: grids the analysis moved", "v15: hand data by recording", "v16: decoded again where audio was lost", "v17: damaged files decoded again", "v18: no-derivatives in more words", "v19: forced scans resume", "v20: search below the scanned folder"])

        let id = try XCTUnwrap(record.id)
        try reopened.recordExport(trackIDs: [id], playlistPath: "/p/run.m3u8", at: 100)
        XCTAssertEqual(try reopened.exportedTracks(since: 50), [id])
        XCTAssertEqual(try reopened.exportedTracks(since: 150), [])
    }

    func testOpeningAMissingCatalogWithoutCreateFails() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("none.sqlite")
        XCTAssertThrowsError(try Catalog(path: path, create: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    /// A catalog a newer beattag migrated is refused, read or write, and left as it is (an audit:
    /// it was written to, or failed with raw SQL).
    func testACatalogFromANewerBeattagIsRefusedUntouched() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("future.sqlite")
        _ = try Catalog(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        func applied() throws -> [String] { try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") } }
        let before = try applied()
        for access in [Catalog.Access.readWrite, .readOnly] {
            XCTAssertThrowsError(try Catalog(path: path, create: false, access: access)) { error in
                XCTAssertTrue("\(error)".contains("made by a newer beattag"), "\(error)")
            }
        }
        XCTAssertEqual(try applied(), before, "nothing migrated")
    }

    /// A catalog of the version before the last gains the columns (the hand-placed beat, the grids
    /// the analysis moved), with its hand data and the data set aside kept (older catalogs are
    /// migrated in place on first open); its analysed rows are not listed for their beats until a
    /// scan analyses them again.
    func testACatalogOfTheLastVersionIsMigratedWithItsHandData() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("v12.sqlite")
        var configuration = Configuration()
        configuration.prepareDatabase { $0.add(function: Catalog.foldFunction); $0.add(function: Catalog.searchedPathFunction) }  // the migrations' own functions
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try CatalogSchema.migrator.migrate(queue, upTo: "v12: hand data set aside")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO track (path, fileSize, modifiedAt, state, bpmManual, bpm, bpmSource, rating, firstSeenAt, scannedAt)
                VALUES ('/music/a.flac', 1, 0, 'analysed', 172, 172, 'manual', 'liked', 0, 0)
                """)
            try db.execute(sql: """
                INSERT INTO track (path, fileSize, modifiedAt, state, bpmAnalysed, bpm, bpmSource, confidence, analysisVersion,
                                   waveformAnalysed, firstSeenAt, scannedAt)
                VALUES ('/music/c.flac', 1, 0, 'analysed', 171, 171, 'analysis', 0.95, 47, 1, 0, 0)
                """)
            try db.execute(sql: "INSERT INTO handDataAside (audioHash, bpmManual, formerPath, setAsideAt) VALUES ('h', 121, '/music/b.flac', 0)")
        }
        try queue.close()
        let catalog = try Catalog(path: path, create: false)
        let track = try XCTUnwrap(try catalog.track(path: "/music/a.flac"))
        XCTAssertEqual(track.bpmManual, 172)
        XCTAssertEqual(track.rating, .liked)
        XCTAssertNil(track.beatAnchor)
        XCTAssertEqual(try catalog.handDataAside().map(\.hand), [HandData(bpmManual: 121)])
        XCTAssertNil(try catalog.track(path: "/music/c.flac")?.phaseMoved)
        XCTAssertEqual(try UntaggedQueue.count(in: catalog), 0)
        // The queue's index was made again with the new columns: the queue reads it alone.
        let indexed = try catalog.pool.read { try String.fetchAll($0, sql: "SELECT name FROM pragma_index_info('track_review')") }
        XCTAssertEqual(Array(indexed.suffix(2)), ["phaseMoved", "beatAnchor"])
    }

    /// A reader opening a catalog of an older version upgrades it, as a scan would: `list`, `match`
    /// and `stats` asked for a scan first, so every upgrade of beattag cost its user one.
    func testAReaderUpgradesAnOlderCatalog() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("v19.sqlite")
        var configuration = Configuration()
        configuration.prepareDatabase { $0.add(function: Catalog.foldFunction); $0.add(function: Catalog.searchedPathFunction) }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try CatalogSchema.migrator.migrate(queue, upTo: "v19: forced scans resume")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO track (path, fileSize, modifiedAt, state, bpmManual, bpm, bpmSource, firstSeenAt, scannedAt)
                VALUES ('/music/Rock/a.flac', 1, 0, 'analysed', 172, 172, 'manual', 0, 0)
                """)
        }
        try queue.close()
        for command in [["list", "--json"], ["match", "--spm", "172"], ["stats"]] {
            let result = try runBeattag(command + ["--catalog", path])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        let catalog = try Catalog(path: path, create: false, access: .readOnly)
        XCTAssertEqual(try catalog.track(path: "/music/Rock/a.flac")?.bpmManual, 172)
        let applied = try catalog.pool.read { try CatalogSchema.migrator.appliedIdentifiers($0) }
        XCTAssertTrue(applied.contains("v20: search below the scanned folder"))
    }

    /// An empty file (a first scan creating it, or `touch`) is said to be empty, not "made by an older
    /// beattag"; an empty `--catalog` is a usage error, not GRDB's "could not activate WAL Mode" (scan
    /// audit LOW 7).
    func testAnEmptyCatalogFileOrPathIsSaidSo() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        let list = try runBeattag(["list", "--catalog", path])
        XCTAssertEqual(list.status, 2, list.stderr)
        XCTAssertTrue(list.stderr.contains("holds no catalog yet"), list.stderr)
        let blank = try runBeattag(["list", "--catalog", ""])
        XCTAssertEqual(blank.status, 64, blank.stderr)
        XCTAssertTrue(blank.stderr.contains("--catalog needs a file path"), blank.stderr)
        let song = (try temporaryDirectory(self) as NSString).appendingPathComponent("song.flac")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: song)
        let scan = try runBeattag(["scan", song, "--catalog", path])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(try runBeattag(["list", "--catalog", path]).status, 0, "a scan fills the empty file")
    }

    func testBeatCodingIsFourBytesABeat() {
        let beats = (0..<700).map { Double($0) * 0.3428 }
        let data = BeatCoding.encode(beats)
        XCTAssertEqual(data.count, 2800)
        for (a, b) in zip(BeatCoding.decode(data), beats) { XCTAssertEqual(a, b, accuracy: 1e-4) }
    }

    func testBPMInUsePolicy() {
        var r = TrackRecord(path: "p", fileSize: 1, modifiedAt: 0, now: 0)
        r.chooseBPM()
        XCTAssertNil(r.bpm)

        r.bpmTag = 128
        r.chooseBPM()
        XCTAssertEqual(r.bpm, 128); XCTAssertEqual(r.bpmSource, .tag)

        r.bpmAnalysed = 127.8; r.confidence = 0.2
        r.chooseBPM()
        XCTAssertEqual(r.bpm, 127.8); XCTAssertEqual(r.bpmSource, .analysis, "agreeing tag: analysis has the finer value")

        r.bpmTag = 64
        r.chooseBPM()
        XCTAssertEqual(r.bpm, 64); XCTAssertEqual(r.bpmSource, .tag, "doubtful analysis loses to a tag")

        r.confidence = 0.9
        r.chooseBPM()
        XCTAssertEqual(r.bpm, 127.8); XCTAssertEqual(r.bpmSource, .analysis)
        XCTAssertTrue(r.bpmReason?.contains("overrides the BPM tag") ?? false)

        r.bpmManual = 172
        r.chooseBPM()
        XCTAssertEqual(r.bpm, 172); XCTAssertEqual(r.bpmSource, .manual)
    }

    func testMarkMissingKeepsRowsAndHandEnteredData() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        var kept = TrackRecord(path: "/m/a/keep.ogg", fileSize: 1, modifiedAt: 0, now: 0)
        var gone = TrackRecord(path: "/m/a/gone.ogg", fileSize: 1, modifiedAt: 0, now: 0)
        var elsewhere = TrackRecord(path: "/other/x.ogg", fileSize: 1, modifiedAt: 0, now: 0)
        gone.bpmManual = 171
        kept.state = .analysed; gone.state = .analysed; elsewhere.state = .analysed
        for r in [kept, gone, elsewhere] { _ = try catalog.saveScanResult(r) }
        XCTAssertEqual(try catalog.markMissing(under: ["/m"], except: ["/m/a/keep.ogg"], now: 5), 1)
        let row = try XCTUnwrap(try catalog.track(path: "/m/a/gone.ogg"))
        XCTAssertEqual(row.state, .missing)
        XCTAssertEqual(row.bpmManual, 171)
        XCTAssertEqual(try catalog.track(path: "/other/x.ogg")?.state, .analysed, "outside the scanned roots")
        XCTAssertFalse("/m/ab/x".isInside(folder: "/m/a"))
        XCTAssertTrue("/m/a/x".isInside(folder: "/m/a/"))
    }
}

final class CatalogUpgradeTests: XCTestCase {
    /// A catalog made before beat lists had their own table keeps every beat list on upgrade.
    func testBeatListsSurviveTheMoveToTheirOwnTable() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("old.sqlite")
        let old = try DatabasePool(path: path)
        try CatalogSchema.migrator.migrate(old, upTo: "v4: audio identity and library roots")
        let beats = BeatCoding.encode([0.5, 0.9, 1.3])
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO track (path, fileSize, modifiedAt, state, firstSeenAt, scannedAt, bpmManual, beats)
                VALUES ('/m/a.flac', 1, 0, 'analysed', 0, 0, 171, ?)
                """, arguments: [beats])
        }
        try old.close()
        let catalog = try Catalog(path: path)
        let record = try XCTUnwrap(try catalog.track(path: "/m/a.flac"))
        XCTAssertEqual(record.beatTimes.count, 3)
        XCTAssertEqual(record.bpmManual, 171)
        XCTAssertEqual(try catalog.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM track WHERE beats IS NOT NULL") }, 0)
    }

    /// A catalog from before FFmpeg: its metadata-only M4A is decoded on the next scan (hand-set BPM
    /// kept), its libsndfile tracks are recorded as such and stay unchanged.
    func testFilesLibsndfileRefusedAreDecodedAfterTheUpgrade() throws {
        let library = try copyOfFixtures(self)
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("old.sqlite")
        let old = try DatabasePool(path: path)
        try CatalogSchema.migrator.migrate(old, upTo: "v5: beats apart, cadence index")
        let files = FileWalker.walk(roots: [library]).files
        let m4a = try XCTUnwrap(files.first { $0.path.hasSuffix("odd/aac-tagged.m4a") })
        let wav = try XCTUnwrap(files.first { $0.path.hasSuffix("/house-128.wav") })
        try old.write { db in
            for (file, state, analysed) in [(m4a, "metadata-only", false), (wav, "analysed", true)] {
                try db.execute(sql: """
                    INSERT INTO track (path, fileSize, modifiedAt, state, firstSeenAt, scannedAt, analysisVersion, waveformAnalysed, bpmManual, bpm)
                    VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, 130)
                    """, arguments: [file.path, file.size, file.modifiedAt, state, AnalysisResult.currentVersion, analysed, analysed ? nil : 130])
            }
        }
        try old.close()
        let catalog = try Catalog(path: path)
        XCTAssertEqual(try catalog.track(path: wav.path)?.decoder, DecoderLibrary.libsndfile.identity)
        let summary = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [m4a.path, wav.path])).run()
        // The WAV too: decoded before recordings were fingerprinted, it is decoded once more for its print.
        XCTAssertEqual(summary.analysed, 2)
        XCTAssertEqual(summary.unchanged, 0)
        XCTAssertEqual(try catalog.trackIDsWithPrints().count, 2)
        let row = try XCTUnwrap(try catalog.track(path: m4a.path))
        XCTAssertEqual(row.state, .analysed)
        XCTAssertEqual(row.decoder, DecoderLibrary.ffmpeg.identity)
        XCTAssertEqual(row.bpmManual, 130, "hand data survives the re-analysis")
        XCTAssertEqual(row.bpmAnalysed ?? 0, 128, accuracy: 2)
    }
}
