@testable import BeatTagKit
import Foundation
import XCTest

/// Another process holds the catalog's write lock past the 10-s wait (a long scan over a moved
/// library did for 7–8 s: a concurrency audit). Each command says "busy, try again" and exits 1, and
/// a playlist already written is not failed for its export record.
final class BusyCatalogTests: XCTestCase {
    /// A python3 process holding the write lock of `catalog` until it is terminated. With `emptyWAL`
    /// the WAL is emptied first (opening the catalog then needs the lock too); otherwise it holds a
    /// committed change, as during a scan.
    private func holdWriteLock(_ catalog: String, emptyWAL: Bool) throws -> Process {
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            c.execute("PRAGMA wal_autocheckpoint = 0")
            if sys.argv[2] == "empty": c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            else: c.execute("CREATE TABLE busy_probe (x)"); c.execute("DROP TABLE busy_probe")
            c.execute("BEGIN IMMEDIATE")
            print("held", flush=True)
            time.sleep(120)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try requiredTool("python3"))
        process.arguments = ["-c", script, catalog, emptyWAL ? "empty" : "full"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // Read to the line's end: a loaded machine can hand the pipe's bytes over in pieces.
        var said = ""
        while !said.hasSuffix("\n") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            said += String(decoding: data, as: UTF8.self)
        }
        XCTAssertEqual(said, "held\n")
        return process
    }

    func testAHeldWriteLockIsBusyAndAWrittenPlaylistStands() throws {
        let fixtures = try ScannedFixtures(self)
        let file = (fixtures.library as NSString).appendingPathComponent("rock-150.flac")
        // The audit's raw "cannot open catalog …: database is locked", exit 2.
        var holder = try holdWriteLock(fixtures.catalog, emptyWAL: true)
        let tag = try runBeattag(["tag", file, "--bpm", "151", "--catalog", fixtures.catalog])
        holder.terminate()
        holder.waitUntilExit()
        XCTAssertEqual(tag.status, 1, tag.stderr)
        XCTAssertTrue(tag.stderr.contains("the catalog stayed busy"), tag.stderr)
        XCTAssertFalse(tag.stderr.contains("database is locked"), tag.stderr)

        // The playlist is written; only the record of its export waits, and gives up with a note.
        holder = try holdWriteLock(fixtures.catalog, emptyWAL: false)
        let list = (fixtures.folder as NSString).appendingPathComponent("run.m3u8")
        let playlist = try runBeattag(["playlist", "--spm", "150", "--duration", "2m", "--allow-short", "-o", list,
                                       "--catalog", fixtures.catalog])
        holder.terminate()
        holder.waitUntilExit()
        XCTAssertEqual(playlist.status, 0, playlist.stderr)
        XCTAssertTrue(playlist.stderr.contains("--fresh will not know"), playlist.stderr)
        XCTAssertTrue(try String(contentsOfFile: list, encoding: .utf8).hasPrefix("#EXTM3U"))
        XCTAssertNil(try Catalog(path: fixtures.catalog).track(path: file)?.bpmManual, "the refused edit did not happen")
    }
}
