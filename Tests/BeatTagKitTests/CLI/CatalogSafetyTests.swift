@testable import BeatTagKit
import Foundation
import GRDB
import XCTest

/// What a catalog must survive: hand edits during a scan (real processes), two scans at once,
/// foreign files given as the catalog, unmounted roots, and files that keep failing.
final class CatalogSafetyTests: XCTestCase {
    /// `count` copies of four fixtures in a fresh folder (from the fifth on, identical copies of earlier ones).
    private func library(_ count: Int) throws -> String {
        let music = (try temporaryDirectory(self) as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let sources = ["rock-150.flac", "dnb-174.ogg", "trance-140.flac", "house-128.wav"]
        for i in 0..<count {
            let name = sources[i % sources.count]
            let target = (music as NSString).appendingPathComponent(String(format: "%02d-%@", i, name))
            try FileManager.default.copyItem(atPath: TestPaths.fixture(name), toPath: target)
        }
        return music
    }

    /// A library of three tracks, a link to its folder, and a catalog with the library scanned
    /// through the link or under its own path.
    private func linkedLibrary(scannedThroughTheLink: Bool) throws -> (music: String, link: String, catalog: String) {
        let music = try library(3)
        let link = (try temporaryDirectory(self) as NSString).appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: music)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", scannedThroughTheLink ? link : music, "--catalog", catalog]).status, 0)
        return (music, link, catalog)
    }

    /// The built `beattag` running `arguments` as a process of its own, output discarded.
    private func startedScan(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func files(_ music: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: music).sorted().map { (music as NSString).appendingPathComponent($0) }
    }

    private func manualBPMs(_ catalog: String) throws -> [String: Double] {
        let rows = try Catalog(path: catalog, create: false, access: .readOnly).allTracks()
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in row.bpmManual.map { (row.path, $0) } })
    }

    /// `tag` and `rate` processes while a `scan --force` process rewrites every row: every hand BPM,
    /// hand-placed beat and like survives, and each returns while the scan is still running.
    func testHandBPMsSetDuringAScanAreKept() throws {
        let music = try library(20)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBinary(["scan", music, "--catalog", catalog]).status, 0)
        let scan = try startedScan(["scan", music, "--force", "--jobs", "1", "--catalog", catalog])
        var expected: [String: Double] = [:]
        var expectedRatings: [String: TrackRating] = [:]
        var expectedBeats: Set<String> = []
        var duringScan = 0
        for (i, file) in try files(music).enumerated() {
            if i % 3 == 2 {
                let shift = try runBinary(["tag", file, "--shift-beats", "0.5", "--catalog", catalog])
                XCTAssertEqual(shift.status, 0, shift.stderr)
                expectedBeats.insert(file)
            } else if i % 3 == 0 {
                let bpm = 150 + Double(i)
                let tag = try runBinary(["tag", file, "--bpm", "\(bpm)", "--catalog", catalog])
                XCTAssertEqual(tag.status, 0, tag.stderr)
                expected[file] = bpm
            } else {
                let rating: TrackRating = i % 2 == 0 ? .liked : .disliked
                let rate = try runBinary(["rate", file, rating == .liked ? "--like" : "--dislike", "--catalog", catalog])
                XCTAssertEqual(rate.status, 0, rate.stderr)
                expectedRatings[file] = rating
            }
            if scan.isRunning { duringScan += 1 }
        }
        scan.waitUntilExit()
        XCTAssertEqual(scan.terminationStatus, 0)
        XCTAssertGreaterThanOrEqual(duringScan, 3, "the edits must land while the scan runs for this test to mean anything")
        XCTAssertEqual(try manualBPMs(catalog), expected)
        let rows = try Catalog(path: catalog, create: false, access: .readOnly).allTracks()
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: rows.compactMap { r in r.rating.map { (r.path, $0) } }), expectedRatings)
        XCTAssertEqual(Set(rows.filter { $0.beatAnchor != nil }.map(\.path)), expectedBeats)
    }

    /// `tag --write` on M4A files while a `scan --force` process rewrites every row: each file gets
    /// its tag (read back by TagLib), each hand BPM survives the scan.
    func testTagWritesDuringAScanKeepBothTheFileAndTheCatalog() throws {
        let music = (try temporaryDirectory(self) as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        // Thirty files, so that an optimised build's scan still runs while the six writes land.
        for i in 0..<30 {
            try FileManager.default.copyItem(atPath: TestPaths.fixture(i % 2 == 0 ? "encoded/trance-140-aac.m4a" : "rock-150.flac"),
                                             toPath: (music as NSString).appendingPathComponent(String(format: "%02d.%@", i, i % 2 == 0 ? "m4a" : "flac")))
        }
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBinary(["scan", music, "--catalog", catalog]).status, 0)
        let scan = try startedScan(["scan", music, "--force", "--jobs", "1", "--catalog", catalog])
        var expected: [String: Double] = [:]
        var duringScan = 0
        for (i, file) in try files(music).enumerated() where i % 2 == 0 && i < 12 {
            let bpm = 160 + Double(i)
            let tag = try runBinary(["tag", file, "--bpm", "\(bpm)", "--write", "--catalog", catalog])
            XCTAssertEqual(tag.status, 0, tag.stderr)
            expected[file] = bpm
            if scan.isRunning { duringScan += 1 }
        }
        scan.waitUntilExit()
        XCTAssertEqual(scan.terminationStatus, 0)
        XCTAssertGreaterThanOrEqual(duringScan, 2, "the writes must land while the scan runs for this test to mean anything")
        XCTAssertEqual(try manualBPMs(catalog), expected)
        for (file, bpm) in expected {
            XCTAssertEqual(try TagReader.read(path: file).properties["BPM"]?.first, String(Int(bpm)), file)
        }
    }

    func testASecondScanWaitsOrRefuses() throws {
        let music = try library(12)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        let first = try startedScan(["scan", music, "--jobs", "1", "--catalog", catalog])
        // Wait for the first scan to hold its lock (its first row is written after it takes it).
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline, (try? Catalog(path: catalog, create: false, access: .readOnly).allTracks().count) ?? 0 == 0 {
            usleep(20_000)
        }
        let refused = try runBinary(["scan", music, "--no-wait", "--catalog", catalog])
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderr, "beattag: another scan is running on \(catalog) (without --no-wait, scan waits for it)\n")
        let list = try runBinary(["list", "--catalog", catalog])
        XCTAssertEqual(list.status, 0, "readers work during a scan: \(list.stderr)")
        let waited = try runBinary(["scan", music, "--json", "--catalog", catalog])
        XCTAssertTrue(waited.stderr.contains("waiting for it to finish") || !first.isRunning, waited.stderr)
        XCTAssertEqual(waited.status, 0, waited.stderr)
        first.waitUntilExit()
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(waited.stdout.utf8))
        XCTAssertEqual(summary.unchanged, 12, "the second scan ran after the first, not beside it")
    }

    func testForeignFilesAreRefusedAndLeftAlone() throws {
        let dir = try temporaryDirectory(self)
        let foreign = (dir as NSString).appendingPathComponent("other.sqlite")
        try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE note (text TEXT)") }
        let text = (dir as NSString).appendingPathComponent("notes.txt")
        try "hello".write(toFile: text, atomically: true, encoding: .utf8)
        for file in [foreign, text] {
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            for command in [["list"], ["scan", TestPaths.fixture("cc0")]] {
                let result = try runBeattag(command + ["--catalog", file])
                XCTAssertEqual(result.status, 2, result.stderr)
                XCTAssertTrue(result.stderr.hasPrefix("beattag: \(file) is not a beattag catalog ("), result.stderr)
                XCTAssertFalse(result.stderr.contains("CREATE") || result.stderr.contains("SELECT"), "no SQL: \(result.stderr)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
            XCTAssertFalse(FileManager.default.fileExists(atPath: file + "-wal"))
        }
    }

    func testUnmountedRootKeepsItsTracksUnlessPruned() throws {
        let music = try library(4)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 0)
        let away = music + "-away"
        try FileManager.default.moveItem(atPath: music, toPath: away)
        let absent = try runBeattag(["scan", music, "--catalog", catalog])
        XCTAssertEqual(absent.status, 1)
        XCTAssertTrue(absent.stderr.contains("not there (an unmounted disk?): 4 catalogued tracks under it kept"), absent.stderr)
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: false)
        let empty = try runBeattag(["scan", music, "--catalog", catalog, "--json"])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("empty (an unmounted disk?)"), empty.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(empty.stdout.utf8)).missing, 0)
        XCTAssertEqual(try Catalog(path: catalog).allTracks().filter { $0.state == .missing }.count, 0)
        let pruned = try runBeattag(["scan", music, "--prune", "--catalog", catalog, "--json"])
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(pruned.stdout.utf8)).missing, 4)
        // A root not there at all, with --prune: its tracks are marked missing too (they were kept,
        // and every scan of it failed); a single file named as the root likewise.
        let other = try library(3)
        XCTAssertEqual(try runBeattag(["scan", other, "--catalog", catalog]).status, 0)
        let one = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: other).first)
        let single = (other as NSString).appendingPathComponent(one)
        try FileManager.default.removeItem(atPath: other)
        XCTAssertTrue(try runBeattag(["scan", other, "--catalog", catalog]).stderr.contains("scan with --prune to mark them missing"))
        let file = try runBeattag(["scan", single, "--prune", "--catalog", catalog, "--json"])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(file.stdout.utf8)).missing, 1)
        let gone = try runBeattag(["scan", other, "--prune", "--catalog", catalog, "--json"])
        XCTAssertEqual(gone.status, 0, gone.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(gone.stdout.utf8)).missing, 2)
        let underOther = try Catalog(path: catalog).allTracks().filter { $0.path.hasPrefix(other + "/") }
        XCTAssertEqual(underOther.count, 3)
        XCTAssertTrue(underOther.allSatisfy { $0.state == .missing }, "\(underOther.map(\.state))")
    }

    /// Two roots that are one folder (one a link to the other) in one scan: its files are catalogued
    /// once, and the second is said to be the same folder (it was called "empty (an unmounted disk?)").
    func testTwoRootsThatAreOneFolderAreScannedOnceAndSaidSo() throws {
        let (music, link, catalog) = try linkedLibrary(scannedThroughTheLink: true)
        let both = try runBeattag(["scan", music, link, music, "--catalog", catalog, "--json"])
        XCTAssertTrue(both.stderr.contains("\(link): the same folder as one scanned above under another path (a link): its files are catalogued once"), both.stderr)
        XCTAssertFalse(both.stderr.contains("unmounted"), both.stderr)
        XCTAssertEqual(both.stderr.components(separatedBy: "the same folder").count, 2, "said once: the same path twice is no news")
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(both.stdout.utf8))
        XCTAssertEqual(summary.found, 3)
        XCTAssertEqual(summary.missing, 0, "the tracks catalogued through the link are not missing")
    }

    /// The same folder scanned in two runs under two paths (a link to it): the second run finds the
    /// files catalogued already and leaves them under the first path, with their hand data (each was
    /// catalogued twice, and offered twice wherever copies were not recognised).
    func testAFolderScannedAgainThroughALinkIsCataloguedOnce() throws {
        let (music, link, catalog) = try linkedLibrary(scannedThroughTheLink: false)
        let first = try XCTUnwrap(try Catalog(path: catalog).allTracks().first)
        XCTAssertEqual(try runBeattag(["tag", first.path, "--bpm", "171", "--catalog", catalog]).status, 0)
        let again = try runBeattag(["scan", link, "--catalog", catalog, "--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(again.stdout.utf8))
        XCTAssertEqual(summary.sameFiles.count, 3)
        XCTAssertEqual(summary.analysed, 0)
        let tracks = try Catalog(path: catalog).allTracks()
        XCTAssertEqual(tracks.count, 3, tracks.map(\.path).joined(separator: ", "))
        XCTAssertTrue(tracks.allSatisfy { $0.path.hasPrefix(music + "/") && $0.state != .missing })
        XCTAssertEqual(tracks.first { $0.id == first.id }?.bpmManual, 171)
        let said = try runBeattag(["scan", link, "--catalog", catalog])
        XCTAssertTrue(said.stdout.contains("3 files are catalogued already under another path to the same file (a link), and kept there: "
                                           + "\(link)/"), said.stdout)
        // `--force` through the link analyses them again where they are catalogued, hand data kept.
        let forced = try runBeattag(["scan", "--force", link, "--catalog", catalog, "--json"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(forced.stdout.utf8)).analysed, 3)
        let reanalysed = try Catalog(path: catalog).allTracks()
        XCTAssertEqual(reanalysed.map(\.path).sorted(), tracks.map(\.path).sorted())
        XCTAssertTrue(reanalysed.allSatisfy { $0.scannedAt > first.scannedAt })
        XCTAssertEqual(reanalysed.first { $0.id == first.id }?.bpmManual, 171)
        // A copy of a file (not the file under another path) is a file of its own.
        let copy = (try temporaryDirectory(self) as NSString).appendingPathComponent("copy")
        try FileManager.default.copyItem(atPath: music, toPath: copy)
        let copied = try runBeattag(["scan", copy, "--catalog", catalog, "--json"])
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(copied.stdout.utf8)).sameFiles.count, 0)
        XCTAssertEqual(try Catalog(path: catalog).allTracks().count, 6)
    }

    /// One file reached through two folders whose rights differ (a hard link in an inbox of unknown
    /// rights, the original in a no-derivatives folder): the row takes the stricter, whichever path
    /// was scanned first, and keeps it however often the other is scanned (it kept "unknown" and was stretched).
    func testOneFileUnderTwoFoldersTakesTheStricterRights() throws {
        let dir = try temporaryDirectory(self)
        let nd = (dir as NSString).appendingPathComponent("music/nd"), inbox = (dir as NSString).appendingPathComponent("inbox")
        for folder in [nd, inbox] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let original = (nd as NSString).appendingPathComponent("t.flac"), link = (inbox as NSString).appendingPathComponent("t.flac")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: original)
        try "source = cc-by-nd\n".write(toFile: (nd as NSString).appendingPathComponent(".beattag-rights"), atomically: true, encoding: .utf8)
        try FileManager.default.linkItem(atPath: original, toPath: link)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", inbox, "--catalog", catalog]).status, 0)
        XCTAssertEqual(try runBeattag(["tag", link, "--bpm", "151", "--catalog", catalog]).status, 0)
        for root in [(dir as NSString).appendingPathComponent("music"), inbox] {
            XCTAssertEqual(try runBeattag(["scan", root, "--catalog", catalog]).status, 0)
            let tracks = try Catalog(path: catalog).allTracks()
            XCTAssertEqual(tracks.map(\.path), [original], "after scanning \(root)")
            XCTAssertEqual(tracks.first?.sourceType, .ccByNd)
            XCTAssertEqual(tracks.first?.tempoAdjustAllowed, false)
            XCTAssertEqual(tracks.first?.bpmManual, 151, "the hand BPM moved with it")
        }
    }

    /// A catalog SQLite finds damaged, at opening or part-way: exit 2 (it cannot be used) in one
    /// wording, and no half a JSON array on stdout (it was 1, and "[").
    func testADamagedCatalogIsUnusableInOneWording() throws {
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", TestPaths.fixtures, "--catalog", catalog]).status, 1, "the odd fixtures fail")
        let damaged = (try temporaryDirectory(self) as NSString).appendingPathComponent("d.sqlite")
        var refused = 0
        for offset in stride(from: 4096, to: 135_168, by: 4096) {
            try? FileManager.default.removeItem(atPath: damaged)
            try FileManager.default.copyItem(atPath: catalog, toPath: damaged)
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: damaged))
            try handle.seek(toOffset: UInt64(offset))
            handle.write(Data(repeating: 0xAB, count: 4096))
            try handle.close()
            for command in [["list", "--json"], ["stats"], ["untagged"], ["scan", TestPaths.fixture("cc0"), "--force", "--json"]] {
                let result = try runBinary(command + ["--catalog", damaged])
                guard result.status != 0 else { continue }
                refused += 1
                XCTAssertEqual(result.status, 2, "\(offset) \(command): \(result.stderr)")
                XCTAssertTrue(result.stderr.hasSuffix("catalog error: the catalog file is damaged (move it aside and `beattag scan` your folders again to rebuild it)\n"), result.stderr)
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
                XCTAssertEqual(result.stdout, "", "\(offset) \(command)")
            }
        }
        XCTAssertGreaterThan(refused, 10, "damage was found")
    }

    /// A file named on the command line is a root that is there, not an unmounted disk, and a file
    /// reached both through its folder and by name is one file.
    func testAFileNamedAsARootIsScannedLikeAnyOther() throws {
        let music = try library(3)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 0)
        let file = try files(music)[0]
        // A link to that file from outside the folder: under its own path a file of its own, and the
        // folder's row of it stays present whichever root comes first.
        let link = (try temporaryDirectory(self) as NSString).appendingPathComponent("link.flac")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        for (roots, found) in [([file], 1), ([music, file], 3), ([file, music], 3), ([link, music], 4), ([music, link], 4)] {
            let result = try runBeattag(["scan"] + roots + ["--catalog", catalog, "--json"])
            XCTAssertEqual(result.status, 0, "\(roots): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("unmounted"), result.stderr)
            let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(result.stdout.utf8))
            XCTAssertEqual(summary.found, found, "\(roots)")
            XCTAssertEqual(summary.missing, 0, "\(roots)")
            XCTAssertEqual(try Catalog(path: catalog).allTracks().filter { $0.state == .missing }.map(\.path), [], "\(roots)")
        }
    }

    /// Tracks in a folder the scan could not read are not missing: nothing looked at them. The
    /// catalog's rule, whoever runs the test.
    func testTracksInAFolderThatCannotBeReadAreSparedByTheCatalog() throws {
        let (music, sub, _, catalog) = try libraryWithSubfolder()
        let store = try Catalog(path: catalog)
        XCTAssertEqual(try store.markMissing(under: [music], except: [], sparing: [sub], now: 1), 2)
        XCTAssertEqual(try store.allTracks().filter { $0.state == .missing }.map(\.path), try files(music).filter { $0 != sub })
    }

    /// The scan's side: a folder that cannot be listed, and one that can be listed but not searched
    /// (mode r--), are said once, in the system's words, and their tracks stay. Root reads every
    /// folder: as root (CI) the scan runs as `nobody`.
    func testTracksInAFolderThatCannotBeReadAreNotMarkedMissing() throws {
        let (music, sub, inside, catalog) = try libraryWithSubfolder()
        var scan = { try runBeattag(["scan", music, "--catalog", catalog, "--json"]) }
        if getuid() == 0 {
            let nobody: uid_t = 65534
            for top in [music, (catalog as NSString).deletingLastPathComponent] {
                chown(top, nobody, nobody)
                for name in try FileManager.default.subpathsOfDirectory(atPath: top) {
                    chown((top as NSString).appendingPathComponent(name), nobody, nobody)
                }
            }
            chown(sub, 0, 0)  // not nobody's: its mode is what decides
            guard access("/usr/bin/setpriv", X_OK) == 0 else { throw XCTSkip("root reads every folder, and setpriv is missing") }
            // A checkout in a folder only root may enter (/root) keeps nobody from the binary itself.
            let probe = try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", TestPaths.executable, "--version"])
            guard probe.status == 0 else { throw XCTSkip("root reads every folder, and nobody cannot run \(TestPaths.executable) here") }
            scan = {
                try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", TestPaths.executable,
                                                    "scan", music, "--catalog", catalog, "--json"])
            }
        }
        for mode: mode_t in [0, 0o444] {
            chmod(sub, mode)
            defer { chmod(sub, 0o755) }
            let result = try scan()
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(result.stderr.components(separatedBy: "cannot read folder: permission denied").count - 1, 1, result.stderr)
            XCTAssertFalse(result.stderr.contains(".beattag-rights"), "the folder is said, not a sidecar it may not have: \(result.stderr)")
            XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(result.stdout.utf8)).missing, 0)
            XCTAssertEqual(try Catalog(path: catalog).track(path: inside)?.state, .analysed)
        }
    }

    /// Three files, one of them in music/sub, scanned.
    private func libraryWithSubfolder() throws -> (music: String, sub: String, inside: String, catalog: String) {
        let music = try library(3)
        let sub = (music as NSString).appendingPathComponent("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
        let inside = (sub as NSString).appendingPathComponent("inside.flac")
        try FileManager.default.moveItem(atPath: try files(music)[0], toPath: inside)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 0)
        return (music, sub, inside, catalog)
    }

    /// `tag --write` writes a BPM only into the file the catalog measured it on; after a write the
    /// catalog knows the rewritten file, so a second write works and the next scan analyses nothing.
    func testTagWriteChecksTheFileIsTheScannedOneAndKeepsTheCatalogInStep() throws {
        let music = try library(2)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 0)
        let (first, second) = (try files(music)[0], try files(music)[1])
        XCTAssertEqual(try runBeattag(["tag", first, "--bpm", "133", "--write", "--catalog", catalog]).status, 0)
        let again = try runBeattag(["tag", first, "--bpm", "134", "--write", "--catalog", catalog])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try TagReader.read(path: first).properties["BPM"]?.first, "134")
        let rescan = try runBeattag(["scan", music, "--catalog", catalog, "--json"])
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(rescan.stdout.utf8))
        XCTAssertEqual(summary.analysed, 0, "the written file is known: \(rescan.stdout)")
        XCTAssertEqual(summary.unchanged, 2)
        XCTAssertEqual(try Catalog(path: catalog).track(path: first)?.bpmTag, 134)

        // Another song copied over the scanned one: its BPM is not written into it.
        try FileManager.default.removeItem(atPath: second)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("hiphop-90.mp3"), toPath: second)
        let before = try Data(contentsOf: URL(fileURLWithPath: second))
        let stale = try runBeattag(["tag", second, "--write", "--catalog", catalog])
        XCTAssertEqual(stale.status, 1)
        XCTAssertTrue(stale.stderr.contains("changed since it was scanned"), stale.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: second)), before)

        // A file with a second name is refused, by a dry run too, and neither name changes.
        let twin = (music as NSString).appendingPathComponent("twin.flac")
        try FileManager.default.linkItem(atPath: first, toPath: twin)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        for extra in [["--dry-run"], []] {
            let linked = try runBeattag(["tag", first, "--write", "--catalog", catalog] + extra)
            XCTAssertEqual(linked.status, 1, "\(extra)")
            XCTAssertTrue(linked.stderr.contains("hard links"), linked.stderr)
            XCTAssertFalse(linked.stdout.contains("would write"), linked.stdout)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: twin)), bytes)
    }

    func testEveryScanNamesEveryFailingFile() throws {
        let library = try copyOfFixtures(self)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        var reports: [ScanSummary] = []
        for _ in 0..<2 {
            let result = try runBeattag(["scan", library, "--json", "--catalog", catalog])
            XCTAssertEqual(result.status, 1, "failing files fail every scan")
            reports.append(try JSONDecoder().decode(ScanSummary.self, from: Data(result.stdout.utf8)))
        }
        XCTAssertEqual(reports[0].failed, 6)
        XCTAssertEqual(reports[1].failed, 6)
        XCTAssertEqual(reports[0].failures, reports[1].failures)
        XCTAssertEqual(reports[1].failures.count, 6)
        XCTAssertTrue(reports[1].failures.allSatisfy { $0.path.hasPrefix("/") && !$0.reason.isEmpty })
    }

    func testHandBPMFollowsTheFile() throws {
        let music = try library(3)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 0)
        let file = try files(music)[0]
        XCTAssertEqual(try runBeattag(["tag", file, "--bpm", "133", "--write", "--catalog", catalog]).status, 0)
        XCTAssertEqual(try runBeattag(["rate", file, "--like", "--catalog", catalog]).status, 0)
        // Written as the integer 172, marked `manual 172 (171.6)`.
        let rounded = try files(music)[2]
        XCTAssertEqual(try runBeattag(["tag", rounded, "--bpm", "171.6", "--write", "--catalog", catalog]).status, 0)
        XCTAssertEqual(try TagReader.read(path: rounded).properties["BPM"], ["172"])

        // A fresh catalog restores the BPM beattag wrote and marked as hand-set, at the value set by hand.
        let fresh = (try temporaryDirectory(self) as NSString).appendingPathComponent("fresh.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", fresh]).status, 0)
        XCTAssertEqual(try manualBPMs(fresh), [file: 133, rounded: 171.6])
        // A BPM tag another tool changed afterwards is an ordinary tag again.
        let other = try files(music)[1]
        XCTAssertEqual(try runBeattag(["tag", other, "--bpm", "140", "--write", "--catalog", catalog]).status, 0)
        try TagWriter.write(path: other, properties: [("BPM", "141")])

        // Retagged and moved: the bytes differ, the audio does not; the hand BPM follows, no orphan is left.
        try TagWriter.write(path: file, properties: [("TITLE", "Renamed and retagged")])
        let moved = (music as NSString).appendingPathComponent("sub/moved.flac")
        try FileManager.default.createDirectory(atPath: (moved as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: file, toPath: moved)
        let rescan = try runBeattag(["scan", music, "--json", "--catalog", catalog])
        XCTAssertEqual(rescan.status, 0, rescan.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(rescan.stdout.utf8)).moved, 1)
        XCTAssertEqual(try manualBPMs(catalog)[moved], 133)
        XCTAssertEqual(try Catalog(path: catalog).track(path: moved)?.rating, .liked, "the like follows the file too")
        XCTAssertEqual(try Catalog(path: catalog).allTracks().count, 3, "the old row moved with the file")

        let newest = (try temporaryDirectory(self) as NSString).appendingPathComponent("newest.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", newest]).status, 0)
        XCTAssertEqual(try manualBPMs(newest), [moved: 133, rounded: 171.6], "the retagged BPM of \(other) is not taken as hand-set")
    }

    func testNoHandBPMOnAFileThatIsNotAudio() throws {
        let library = try copyOfFixtures(self)
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        try runBeattag(["scan", library, "--catalog", catalog])
        let result = try runBeattag(["tag", (library as NSString).appendingPathComponent("odd/empty.wav"), "--bpm", "175", "--catalog", catalog])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("empty.wav: not playable audio (empty file (0 bytes)); no BPM set"), result.stderr)
    }

    /// A catalog the user may only read (a 0444 file in a folder they cannot write): readers work,
    /// writers are refused with a reason. Root ignores file permissions, so as root the commands run
    /// as `nobody` (through `su`), with a copy of the binary that user may execute.
    func testReadOnlyCatalogServesReadersAndRefusesWriters() throws {
        let dir = try temporaryDirectory(self)
        let music = try library(4)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 0)
        let binary = (dir as NSString).appendingPathComponent("beattag")
        try FileManager.default.copyItem(atPath: TestPaths.executable, toPath: binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: catalog)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: music)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir) }
        func run(_ arguments: [String]) throws -> CommandResult {
            guard getuid() == 0 else { return try runBinary(arguments) }
            guard FileManager.default.isExecutableFile(atPath: "/bin/su") else { throw XCTSkip("root without su: cannot drop to a user file permissions apply to") }
            let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/su")
            process.arguments = ["nobody", "-s", "/bin/sh", "-c", quoted]
            let out = Pipe(), err = Pipe()
            (process.standardOutput, process.standardError) = (out, err)
            try process.run()
            let outData = out.fileHandleForReading.readDataToEndOfFile(), errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                 stderr: String(decoding: errData, as: UTF8.self))
        }
        let list = try run(["list", "--catalog", catalog])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("4 tracks"), list.stdout)
        XCTAssertEqual(try run(["match", "--spm", "150", "--catalog", catalog]).status, 0)
        // Its playlist too: match records no export (it asked to write, exit 2).
        let m3u8 = try run(["match", "--spm", "150", "--m3u8", "-", "--catalog", catalog])
        XCTAssertEqual(m3u8.status, 0, m3u8.stderr)
        XCTAssertTrue(m3u8.stdout.hasPrefix("#EXTM3U"), m3u8.stdout)
        XCTAssertEqual(try run(["stats", "--catalog", catalog]).status, 0)
        // A playlist, a workout's and a render are written; only the export's record for --fresh is
        // missing, and said (they refused, exit 2, with nothing written).
        let playlist = try run(["playlist", "--spm", "150", "--duration", "2m", "--allow-short", "-o", "-", "--catalog", catalog])
        XCTAssertEqual(playlist.status, 0, playlist.stderr)
        XCTAssertTrue(playlist.stdout.hasPrefix("#EXTM3U"), playlist.stdout)
        XCTAssertTrue(playlist.stderr.contains("could not record the export"), playlist.stderr)
        let workout = try run(["workout", "easy", "--max-hr", "190", "--allow-short", "-o", "-", "--catalog", catalog])
        XCTAssertEqual(workout.status, 0, workout.stderr)
        XCTAssertTrue(workout.stdout.hasPrefix("#EXTM3U"), workout.stdout)
        let out = (dir as NSString).appendingPathComponent("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        let render = try run(["render", "--spm", "150", "--duration", "1m", "--allow-short", "-o", (out as NSString).appendingPathComponent("run.flac"), "--catalog", catalog])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: (out as NSString).appendingPathComponent("run.flac")))
        let tag = try run(["tag", (music as NSString).appendingPathComponent("00-rock-150.flac"), "--bpm", "150", "--catalog", catalog])
        XCTAssertEqual(tag.status, 2)
        XCTAssertTrue(tag.stderr.contains("is read-only: this command needs to write to it"), tag.stderr)
    }
}
