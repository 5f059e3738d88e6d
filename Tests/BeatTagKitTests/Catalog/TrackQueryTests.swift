@testable import BeatTagKit
import GRDB
import XCTest

final class TrackQueryTests: XCTestCase {
    private func catalog(_ rows: [(path: String, artist: String?, bpm: Double?, state: TrackState)]) throws -> Catalog {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        for row in rows {
            var record = TrackRecord(path: row.path, fileSize: 1, modifiedAt: 0, now: 0)
            (record.artist, record.bpmManual, record.state) = (row.artist, row.bpm, row.state)
            record.beatTimes = [0.5, 1.0]
            record.chooseBPM()
            _ = try catalog.saveScanResult(record)
        }
        return catalog
    }

    func testFiltersCombineInSQL() throws {
        let catalog = try catalog([
            ("/m/1.flac", "Björk", 172, .analysed), ("/m/2.flac", "Bjorn", 160, .analysed),
            ("/m/3.flac", "Sigur Rós", 185, .missing), ("/m/4.flac", nil, nil, .metadataOnly),
        ])
        func paths(_ configure: (inout TrackQuery) -> Void) throws -> [String] {
            var query = TrackQuery()
            configure(&query)
            return try catalog.tracks(matching: query).map(\.path)
        }
        XCTAssertEqual(try paths { _ in }, ["/m/1.flac", "/m/2.flac", "/m/3.flac", "/m/4.flac"])
        XCTAssertEqual(try paths { $0.search = "bjork" }, ["/m/1.flac"], "accents and case ignored")
        XCTAssertEqual(try paths { $0.search = "SIGUR ROS" }, ["/m/3.flac"])
        XCTAssertEqual(try paths { $0.search = "%" }, [], "LIKE wildcards are plain text")
        XCTAssertEqual(try paths { $0.minBPM = 165 }, ["/m/1.flac", "/m/3.flac"], "no BPM never passes a bound")
        XCTAssertEqual(try paths { $0.maxBPM = 175 }, ["/m/1.flac", "/m/2.flac"])
        XCTAssertEqual(try paths { ($0.minBPM, $0.state) = (150, .analysed) }, ["/m/1.flac", "/m/2.flac"])
        XCTAssertEqual(try paths { $0.state = .metadataOnly }, ["/m/4.flac"])
        // Rights: any of those given (`list --source a --source b` kept the last).
        try catalog.pool.write { db in try db.execute(sql: "UPDATE track SET sourceType = CASE id WHEN 1 THEN 'cc0' WHEN 2 THEN 'cc-by' ELSE 'user-owned' END") }
        XCTAssertEqual(try paths { $0.sources = [.cc0, .ccBy] }, ["/m/1.flac", "/m/2.flac"])
        XCTAssertEqual(try paths { $0.sources = [.ccBy] }, ["/m/2.flac"])
    }

    func testBeatsOnlyWhenAsked() throws {
        let catalog = try catalog([("/m/1.flac", nil, 172, .analysed)])
        XCTAssertEqual(try catalog.tracks(matching: TrackQuery()).first?.beatTimes, [])
        var query = TrackQuery()
        query.includeBeats = true
        XCTAssertEqual(try catalog.tracks(matching: query).first?.beatTimes, [0.5, 1.0])
    }

    func testTheBPMBoundUsesTheIndex() throws {
        let catalog = try catalog([])
        var query = TrackQuery()
        query.minBPM = 160
        let plan = try catalog.pool.read { db -> String in
            let request = query.request()
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [160]).map { $0["detail"] as String }.joined()
        }
        XCTAssertTrue(plan.contains("USING INDEX"), plan)
    }
}
