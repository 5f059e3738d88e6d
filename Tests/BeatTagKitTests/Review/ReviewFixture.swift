import Foundation
import GRDB
import XCTest

/// The fixtures scanned into a catalog, four of them made doubtful (their confidence lowered by
/// hand) so the review queue holds them: an AIFF, an Ogg, a WMA and an ALAC (the last two are played
/// through a FLAC copy), four recordings (a copy settled on another leaves the queue with it). No grid counts as moved by the analysis, whatever it decided for these
/// files: the queue holds the four alone unless a test says otherwise.
struct ReviewFixture {
    var scanned: ScannedFixtures
    var catalog: String { scanned.catalog }
    var library: String { scanned.library }
    static let doubtful = ["metal-168.aiff", "dnb-174.ogg", "encoded/trance-140.wma", "encoded/house-128-alac.m4a"]

    init(_ test: XCTestCase) throws {
        scanned = try ScannedFixtures(test)
        let library = scanned.library
        try checkingConnection(scanned.catalog).write { db in
            try db.execute(sql: "UPDATE track SET phaseMoved = 0 WHERE phaseMoved")
            for name in Self.doubtful {
                try db.execute(sql: "UPDATE track SET confidence = 0.35 WHERE path = ?", arguments: [(library as NSString).appendingPathComponent(name)])
                XCTAssertEqual(db.changesCount, 1, name)
            }
        }
    }

    func id(of name: String) throws -> Int64 {
        let path = (library as NSString).appendingPathComponent(name)
        return try XCTUnwrap(try checkingConnection(catalog).read { try Int64.fetchOne($0, sql: "SELECT id FROM track WHERE path = ?", arguments: [path]) })
    }

    /// The row `beattag list --json` prints for a file (an independent reader of the catalog).
    func listed(_ name: String) throws -> [String: Any] {
        let result = try runBinary(["list", "--json", "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let path = (library as NSString).appendingPathComponent(name)
        return try XCTUnwrap(rows.first { $0["path"] as? String == path }, "\(name) listed")
    }
}
