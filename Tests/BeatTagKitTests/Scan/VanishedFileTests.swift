@testable import BeatTagKit
import XCTest

/// Files that disappear: before their turn in a scan, or between two scans.
final class VanishedFileTests: XCTestCase {
    func testFileThatVanishesBeforeItsTurn() throws {
        let ghost = FoundFile(path: "/nonexistent/ghost.flac", size: 1000, modifiedAt: 1, sidecar: nil)
        let (fresh, outcome) = TrackProcessor.process(ghost, existing: nil, sourceOption: nil, now: 5)
        XCTAssertEqual(outcome, .vanished)
        XCTAssertEqual(fresh.state, .missing)

        var known = TrackRecord(path: ghost.path, fileSize: 1000, modifiedAt: 1, now: 0)
        known.bpmManual = 170
        known.bpmAnalysed = 171.2
        known.beatTimes = [0.5, 0.85]
        let (kept, _) = TrackProcessor.process(ghost, existing: known, sourceOption: nil, now: 5)
        XCTAssertEqual(kept.state, .missing)
        XCTAssertEqual(kept.bpmManual, 170, "hand-entered data survives")
        XCTAssertEqual(kept.bpmAnalysed, 171.2, "a vanished file keeps its analysis")
        XCTAssertEqual(kept.missingSince, 5)
    }

    /// A library gone at once (moved, unmounted) is marked in short transactions, so other writers
    /// get in between (a concurrency audit: 100,000 rows held the lock for 7–8 s); every row under
    /// the root and only those, whatever the number of transactions.
    func testManyRowsAreMarkedMissingAcrossTransactions() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        let count = Catalog.missingMarksPerTransaction * 2 + 7
        for i in 0..<count {
            var record = TrackRecord(path: "/gone/\(i).flac", fileSize: 1, modifiedAt: 0, now: 0)
            record.state = .analysed
            _ = try catalog.saveScanResult(record)
        }
        var kept = TrackRecord(path: "/gone/kept.flac", fileSize: 1, modifiedAt: 0, now: 0)
        kept.state = .analysed
        _ = try catalog.saveScanResult(kept)
        var elsewhere = TrackRecord(path: "/other/x.flac", fileSize: 1, modifiedAt: 0, now: 0)
        elsewhere.state = .analysed
        _ = try catalog.saveScanResult(elsewhere)
        XCTAssertEqual(try catalog.markMissing(under: ["/gone"], except: ["/gone/kept.flac"], now: 9), count)
        let states = Dictionary(grouping: try catalog.allTracks(), by: \.state).mapValues(\.count)
        XCTAssertEqual(states[.missing], count)
        XCTAssertEqual(states[.analysed], 2)
        XCTAssertEqual(try catalog.markMissing(under: ["/gone"], except: [], now: 10), 1, "the rest were marked already")
    }

    /// A file deleted while the scan reads it: Linux reads an unlinked file to its end, and it was
    /// stored as analysed (offered by `match`) until the next scan. The file is removed once this
    /// process has held it open for 100 ms (its descriptor in /proc/self/fd): the decoder, not the
    /// quick reads of its fingerprint and tags before it (removed then, it was stored as failed).
    func testAFileDeletedWhileItIsReadVanishes() throws {
        let dir = try temporaryDirectory(self)
        let path = (dir as NSString).appendingPathComponent("long.wav")
        // 20 minutes: open for a while even in an optimised build.
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=220:d=1200",
                                                                     "-ar", "11025", "-ac", "1", path])
        XCTAssertEqual(status, 0, log)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let file = FoundFile(path: path, size: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                             modifiedAt: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0, sidecar: nil)
        let removed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(60)
            var openSince: Date?
            while Date() < deadline {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
                let isOpen = fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path }
                openSince = isOpen ? openSince ?? Date() : nil
                if let since = openSince, Date().timeIntervalSince(since) > 0.1 {
                    try? FileManager.default.removeItem(atPath: path)
                    removed.signal()
                    return
                }
                usleep(500)
            }
        }
        let (record, outcome) = TrackProcessor.process(file, existing: nil, sourceOption: nil, now: 5)
        XCTAssertEqual(removed.wait(timeout: .now() + 1), .success, "the file was removed while it was decoded")
        XCTAssertEqual(outcome, .vanished)
        XCTAssertEqual(record.state, .missing)
    }

    /// One file gone since the last scan, one gone while the scan runs: both are counted missing
    /// (the second used to be overwritten by the first).
    func testScanCountsFilesGoneBeforeAndDuringIt() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let names = ["a-rock.flac", "b-house.wav", "c-trance.flac"]
        for (name, source) in zip(names, ["rock-150.flac", "house-128.wav", "trance-140.flac"]) {
            try FileManager.default.copyItem(atPath: TestPaths.fixture(source), toPath: (music as NSString).appendingPathComponent(name))
        }
        let catalog = try Catalog(path: (dir as NSString).appendingPathComponent("c.sqlite"))
        XCTAssertEqual(try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [music])).run().analysed, 3)

        try FileManager.default.removeItem(atPath: (music as NSString).appendingPathComponent("c-trance.flac"))
        var options = ScanOptions(roots: [music], force: true)
        options.workers = 1
        let scanner = LibraryScanner(catalog: catalog, options: options)
        // After the first file, the other one still waiting disappears.
        scanner.onProgress = { progress in
            guard progress.done == 1 else { return }
            for name in names where !progress.currentPath.hasSuffix(name) {
                try? FileManager.default.removeItem(atPath: (music as NSString).appendingPathComponent(name))
            }
        }
        let summary = try scanner.run()
        XCTAssertEqual(summary.analysed, 1)
        XCTAssertEqual(summary.missing, 2, "one gone before the scan, one during it")
        XCTAssertEqual(summary.vanished, 1, "the one found by the walk and gone at its turn")
        XCTAssertEqual(summary.found, summary.analysed + summary.unchanged + summary.metadataOnly + summary.failed + summary.vanished,
                       "every file found is accounted for (scan audit LOW 10)")
        XCTAssertEqual(try catalog.allTracks().filter { $0.state == .missing }.count, 2)
    }
}
