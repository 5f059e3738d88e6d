@testable import BeatTagKit
import Foundation
import XCTest

/// Rights change without the audio changing: a `.beattag-rights` added, edited or removed, or the
/// scan given another `--source`. The next plain scan applies them without re-analysis, and a
/// no-derivatives track is then no longer offered for a tempo change.
final class RightsFollowTheFilesTests: XCTestCase {
    private func rows(_ catalog: String) throws -> [String: TrackRecord] {
        Dictionary(uniqueKeysWithValues: try Catalog(path: catalog, create: false).allTracks().map { (($0.path as NSString).lastPathComponent, $0) })
    }

    func testASidecarAddedChangedAndRemovedBetweenScans() throws {
        let dir = try temporaryDirectory(self)
        let album = try folder((dir as NSString).appendingPathComponent("Artist/Album"), holding: ["rock-150.flac", "house-124.opus"])
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", dir, "--catalog", catalog]).status, 0)
        XCTAssertEqual(try rows(catalog)["rock-150.flac"]?.sourceType, .unknown)
        let analysedAt = try rows(catalog)["rock-150.flac"]?.scannedAt

        let sidecar = (album as NSString).appendingPathComponent(RightsSidecar.fileName)
        try "source = cc-by-nd\nattribution = Jane Doe\n".write(toFile: sidecar, atomically: true, encoding: .utf8)
        let added = try runBeattag(["scan", dir, "--catalog", catalog, "--json"])
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(added.stdout.utf8))
        XCTAssertEqual(summary.unchanged, 2, "no re-analysis for a rights change")
        XCTAssertEqual(summary.rightsChanged, 2)
        var rock = try XCTUnwrap(try rows(catalog)["rock-150.flac"])
        XCTAssertEqual(rock.sourceType, .ccByNd)
        XCTAssertFalse(rock.tempoAdjustAllowed)
        XCTAssertEqual(rock.attribution, "Jane Doe")
        XCTAssertEqual(rock.scannedAt, analysedAt, "not analysed again")
        // The no-derivatives track is 1.3% off 152 SPM: match no longer offers it.
        let match = try runBeattag(["match", "--spm", "152", "--catalog", catalog])
        XCTAssertFalse(match.stdout.contains("Backbeat at 150"), match.stdout)

        try "source = cc-by\n".write(toFile: sidecar, atomically: true, encoding: .utf8)
        XCTAssertEqual(try runBeattag(["scan", dir, "--catalog", catalog]).status, 0)
        rock = try XCTUnwrap(try rows(catalog)["rock-150.flac"])
        XCTAssertEqual(rock.sourceType, .ccBy)
        XCTAssertTrue(rock.tempoAdjustAllowed)
        XCTAssertTrue(try runBeattag(["match", "--spm", "152", "--catalog", catalog]).stdout.contains("Backbeat at 150"))

        try FileManager.default.removeItem(atPath: sidecar)
        XCTAssertEqual(try runBeattag(["scan", dir, "--catalog", catalog]).status, 0)
        rock = try XCTUnwrap(try rows(catalog)["rock-150.flac"])
        XCTAssertEqual(rock.sourceType, .unknown, "the folder no longer says anything")
        XCTAssertEqual(rock.rightsOrigin, RightsOrigin.none.rawValue)
    }

    func testAnotherSourceOptionAppliesOnARescan() throws {
        let dir = try temporaryDirectory(self)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: (dir as NSString).appendingPathComponent("rock-150.flac"))
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", dir, "--source", "user-owned", "--catalog", catalog]).status, 0)
        XCTAssertEqual(try rows(catalog)["rock-150.flac"]?.sourceType, .userOwned)
        let rescan = try runBeattag(["scan", dir, "--source", "cc-by-nd", "--catalog", catalog])
        XCTAssertTrue(rescan.stdout.contains("unchanged 1") && rescan.stdout.contains("rights changed 1"), rescan.stdout)
        XCTAssertEqual(try rows(catalog)["rock-150.flac"]?.sourceType, .ccByNd)
        XCTAssertEqual(try rows(catalog)["rock-150.flac"]?.tempoAdjustAllowed, false)
        // A rescan without --source keeps what the last one was told.
        XCTAssertEqual(try runBeattag(["scan", dir, "--catalog", catalog]).status, 0)
        XCTAssertEqual(try rows(catalog)["rock-150.flac"]?.sourceType, .ccByNd)
    }
}
