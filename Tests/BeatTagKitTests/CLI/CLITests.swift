@testable import BeatTagKit
import Foundation
import GRDB
import XCTest

/// Checks what a user sees: commands run in process through BeatTagCLI, and end to end through the
/// built binary where a real process matters (help, a full scan → list → match, environment, kill -9).
final class CLITests: XCTestCase {
    func testHelpTeaches() throws {
        let help = try runBinary(["--help"])
        XCTAssertEqual(help.status, 0)
        for word in ["scan", "match", "list", "analyze", "bench", "--catalog"] { XCTAssertTrue(help.stdout.contains(word), word) }
        let scanHelp = try runBeattag(["scan", "--help"])
        XCTAssertTrue(scanHelp.stdout.contains("--source"))
        XCTAssertTrue(scanHelp.stdout.contains(".beattag-rights"))
    }

    func testScanListMatchOnFixtures() throws {
        let library = try copyOfFixtures(self)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        let scan = try runBinary(["scan", library, "--catalog", catalog])
        XCTAssertEqual(scan.status, 1, "failed files make the exit status non-zero")
        XCTAssertTrue(scan.stdout.contains("found 25, analysed 18, unchanged 0, metadata-only 1, failed 6"), scan.stdout)
        XCTAssertTrue(scan.stdout.contains("failed 6, decode warnings 1,"), scan.stdout)
        let errorLines = scan.stderr.split(separator: "\n")
        XCTAssertEqual(errorLines.count, 7, "six failures and the file cut short: \(scan.stderr)")
        XCTAssertEqual(errorLines.filter { $0.contains("truncated.m4a: catalogued, but ") }.count, 1, scan.stderr)
        XCTAssertTrue(errorLines.allSatisfy { $0.hasPrefix("beattag: ") })
        XCTAssertFalse(scan.stderr.contains("\u{1B}["), "no progress bar when stderr is not a terminal")

        let rescan = try runBeattag(["scan", library, "--catalog", catalog, "--json"])
        XCTAssertEqual(rescan.status, 1, "the broken files still fail")
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(rescan.stdout.utf8))
        XCTAssertEqual(summary.unchanged, 25)

        let list = try runBeattag(["list", "--catalog", catalog, "--json"])
        XCTAssertEqual(list.status, 0)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 25)
        XCTAssertTrue(rows.contains { ($0["path"] as? String)?.hasSuffix("Ünïcødé – ритм 160.ogg") ?? false })

        let failed = try runBeattag(["list", "--catalog", catalog, "--state", "failed"])
        XCTAssertTrue(failed.stdout.contains("6 tracks"))

        let match = try runBinary(["match", "--spm", "175", "--catalog", catalog])
        XCTAssertEqual(match.status, 0)
        XCTAssertTrue(match.stdout.contains("Two-step at 174"), match.stdout)
        XCTAssertFalse(match.stdout.contains("Boom bap"), "the ND track is not within 0.5%")
    }

    func testAnalyzeJSONLines() throws {
        let result = try runBeattag(["analyze", "--json", TestPaths.fixture("rock-150.flac"), TestPaths.fixture("odd/corrupt.flac")])
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 2)
        let ok = try XCTUnwrap(lines[0])
        XCTAssertEqual(ok["bpm"] as? Double ?? 0, 150, accuracy: 3)
        XCTAssertGreaterThan((ok["beats"] as? [Double])?.count ?? 0, 20)
        XCTAssertEqual(ok["duration"] as? Double ?? 0, 12, accuracy: 0.1)
        XCTAssertNotNil(ok["confidence"])
        XCTAssertNotNil(try XCTUnwrap(lines[1])["error"])
    }

    func testBadInputGivesOneLineErrors() throws {
        let dir = try temporaryDirectory(self)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        let missing = try runBeattag(["scan", "/nonexistent/music", "--catalog", catalog])
        XCTAssertEqual(missing.status, 1, "a root unavailable, as on a later scan (it said 2, the catalog's code)")
        XCTAssertEqual(missing.stderr, "beattag: /nonexistent/music: no such file or folder; nothing scanned, no catalog made\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: catalog), "no empty catalog made for nothing")
        // With --json the summary's shape all the same (it printed nothing): the root under "problems".
        let missingJSON = try runBeattag(["scan", "/nonexistent/music", "--json", "--catalog", catalog])
        XCTAssertEqual(missingJSON.status, 1)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(missingJSON.stdout.utf8)) as? [String: Any], missingJSON.stdout)
        XCTAssertEqual((summary["problems"] as? [[String: Any]])?.first?["path"] as? String, "/nonexistent/music")
        XCTAssertEqual(summary["found"] as? Int, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: catalog))
        XCTAssertEqual(try runBeattag(["scan", TestPaths.fixture("cc0"), "--catalog", catalog]).status, 0)
        XCTAssertEqual(try runBeattag(["scan", "/nonexistent/music", "--catalog", catalog]).status, 1)

        let noCatalog = try runBeattag(["list", "--catalog", (dir as NSString).appendingPathComponent("none.sqlite")])
        XCTAssertNotEqual(noCatalog.status, 0)
        XCTAssertTrue(noCatalog.stderr.contains("no catalog at"), noCatalog.stderr)

        let cadence = try runBeattag(["match", "--spm", "300", "--catalog", catalog])
        XCTAssertNotEqual(cadence.status, 0)
        XCTAssertTrue(cadence.stderr.contains("100–240"), cadence.stderr)

        let notADirectory = try runBeattag(["scan", TestPaths.fixtures, "--catalog", "/proc/version/catalog.sqlite"])
        XCTAssertNotEqual(notADirectory.status, 0)
        XCTAssertTrue(notADirectory.stderr.hasPrefix("beattag: cannot open catalog"), notADirectory.stderr)
    }

    func testEnvironmentChoosesTheCatalog() throws {
        let dir = try temporaryDirectory(self)
        let catalog = (dir as NSString).appendingPathComponent("env.sqlite")
        try runBinary(["scan", TestPaths.fixture("cc0")], environment: ["BEATTAG_CATALOG": catalog])
        XCTAssertTrue(FileManager.default.fileExists(atPath: catalog))
    }

    /// kill -9 in the middle of a scan leaves a consistent catalog; the next scan finishes the job.
    func testKilledScanResumes() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let sources = ["rock-150.flac", "dnb-174.ogg", "trance-140.flac", "house-128.wav"]
        for i in 0..<24 {
            let name = sources[i % sources.count]
            try FileManager.default.copyItem(atPath: TestPaths.fixture(name), toPath: (music as NSString).appendingPathComponent("\(i)-\(name)"))
        }
        // Make the copies distinct files with distinct content so none counts as a move of another.
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable)
        process.arguments = ["scan", music, "--catalog", catalog, "--jobs", "1"]
        process.standardOutput = FileHandle.nullDevice
        let errorLog = (dir as NSString).appendingPathComponent("scan.err")
        FileManager.default.createFile(atPath: errorLog, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLog))
        try process.run()
        // Wait until some rows are committed, then kill without warning. The catalog is read only
        // once the scan has it open in WAL mode: opened earlier, this test's own connection would
        // create the file before the scan does.
        let deadline = Date(timeIntervalSinceNow: 60)
        var committed = 0
        while Date() < deadline, process.isRunning {
            if FileManager.default.fileExists(atPath: catalog + "-wal"), let db = try? checkingConnection(catalog),
               let n = try? db.read({ try Int.fetchOne($0, sql: "SELECT count(*) FROM track") }) {
                committed = n ?? 0
                if committed >= 2 { break }
            }
            usleep(20_000)
        }
        let ranToTheKill = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let scanErrors = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        XCTAssertTrue(ranToTheKill || process.terminationStatus == 0,
                      "the first scan ended by itself (status \(process.terminationStatus)) with \(committed) rows: \(scanErrors)")

        let resumed = try runBeattag(["scan", music, "--catalog", catalog, "--json"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(resumed.stdout.utf8))
        XCTAssertEqual(summary.found, 24)
        XCTAssertEqual(summary.analysed + summary.unchanged, 24)
        XCTAssertGreaterThanOrEqual(summary.unchanged, 2, "work finished before the kill is kept (\(committed) rows seen before it)")
        let db = try checkingConnection(catalog)
        XCTAssertEqual(try db.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }, "ok")
        XCTAssertEqual(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM track") }, 24)
    }
}
