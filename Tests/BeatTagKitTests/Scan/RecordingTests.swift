@testable import BeatTagKit
import Foundation
import XCTest

/// One recording in several encodings (the fixtures' house-128 as WAV, ALAC, AAC and iTunes AAC;
/// trance-140 as FLAC, AAC and WMA; rock-150 and its truncated AAC): recognised by Chromaprint
/// fingerprints, offered once (the lossless copy), listed every one.
final class RecordingTests: XCTestCase {
    private func groups(_ catalog: String) throws -> Set<Set<String>> {
        let rows = try Catalog(path: catalog, create: false).allTracks().filter { $0.recording != nil }
        return Set(Dictionary(grouping: rows, by: { $0.recording! }).values.map { Set($0.map { ($0.path as NSString).lastPathComponent }) })
    }

    func testCopiesInOtherFormatsAreOneRecordingAndOthersAreNot() throws {
        let fixtures = try ScannedFixtures(self)
        XCTAssertEqual(try groups(fixtures.catalog), [
            ["house-128.wav", "house-128-alac.m4a", "house-128-aac.mp4", "itunes-priming.m4a"],
            ["trance-140.flac", "trance-140-aac.m4a", "trance-140.wma"],
            ["rock-150.flac", "truncated.m4a"],
        ])
        // Offered once, the lossless copy; listed every one.
        let match = try runBeattag(["match", "--spm", "128", "--json", "--catalog", fixtures.catalog])
        let paths = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(match.stdout.utf8)) as? [[String: Any]])
            .compactMap { ($0["track"] as? [String: Any])?["path"] as? String }.map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(paths.filter { $0.hasPrefix("house-128") || $0 == "itunes-priming.m4a" }.count, 1, "\(paths)")
        XCTAssertTrue(paths.contains("house-128.wav") || paths.contains("house-128-alac.m4a"), "lossless first: \(paths)")
        let list = try runBeattag(["list", "--duplicates", "--catalog", fixtures.catalog])
        XCTAssertTrue(list.stdout.contains("9 tracks"), list.stdout)
        // Each recording's copies next to each other.
        let rows = try JSONDecoder().decode([TrackRecord].self,
                                            from: Data(try runBeattag(["list", "--duplicates", "--json", "--catalog", fixtures.catalog]).stdout.utf8))
        let order = rows.compactMap(\.recording)
        XCTAssertEqual(order.count, 9)
        XCTAssertEqual(order, order.sorted(), "grouped by recording: \(rows.map(\.fileName))")
        let playlist = (fixtures.folder as NSString).appendingPathComponent("p.m3u8")
        _ = try runBeattag(["playlist", "--spm", "140", "--duration", "10m", "--allow-short", "-o", playlist, "--catalog", fixtures.catalog])
        let entries = try String(contentsOfFile: playlist, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(entries.filter { $0.contains("trance-140") }.count, 1, "\(entries)")
        XCTAssertTrue(entries.contains { $0.hasSuffix("trance-140.flac") }, "the FLAC, not the AAC or WMA: \(entries)")

        // What was said by hand of one copy holds for the others (a match audit: a FLAC disliked and
        // hand-set to half its tempo came back through its MP3). Each file keeps its own row.
        let catalog = try Catalog(path: fixtures.catalog)
        let house = fixtures.library + "/house-128.wav", trance = fixtures.library + "/trance-140.flac"
        _ = try ManualBPM.apply(.set(64), to: house, in: catalog)
        _ = try Rating.set(.disliked, for: trance, in: catalog)
        func offered(_ spm: Double) throws -> [String] {
            let full = try catalog.cadenceMatches(CadenceRules(spm: spm), filter: MatchFilter()).matches.map(\.track.fileName)
            let paged = try CadenceSearch.best(25, rules: CadenceRules(spm: spm), filter: MatchFilter(), in: catalog).matches.map(\.track.fileName)
            XCTAssertEqual(full.prefix(25), paged[...], "at \(spm)")
            return full
        }
        let at128 = try offered(128), at140 = try offered(140)
        XCTAssertFalse(at128.contains { $0.hasPrefix("house-128") || $0 == "itunes-priming.m4a" }, "set to 64 on the WAV: \(at128)")
        XCTAssertFalse(at140.contains { $0.hasPrefix("trance-140") }, "disliked on the FLAC: \(at140)")
        let aac = try XCTUnwrap(try catalog.track(path: fixtures.library + "/encoded/house-128-aac.mp4"))
        XCTAssertNil(aac.bpmManual, "the copy's own row is untouched")
        // `list` shows each copy as music is chosen from it: at the BPM set on the WAV, said to come from a copy.
        let listed = try runBeattag(["list", "--search", "house-128-aac", "--catalog", fixtures.catalog]).stdout
        XCTAssertTrue(listed.contains("64.0") && listed.contains("manual (copy)"), listed)
        XCTAssertNotNil(try catalog.cadenceMatches(CadenceRules(spm: 140), filter: MatchFilter()).matches.first, "others still match")
    }

    /// Tones each 5 Hz and 1 BPM from the next are each like their neighbours, not like the ones
    /// further along: joining whichever group a neighbour is in made 119 of 120 such files one
    /// "recording" (a concurrency audit's aside), offered once.
    func testLikenessDoesNotChainDifferentTracksIntoOneRecording() throws {
        let dir = try temporaryDirectory(self)
        let ffmpeg = try requiredTool("ffmpeg")
        for i in 1...8 {
            let bpm = 120 + i, pitch = 300 + 5 * i
            let (status, log) = try runTool(ffmpeg, ["-loglevel", "error", "-f", "lavfi", "-i",
                                                     "aevalsrc=sin(2*PI*\(pitch)*t)*exp(-25*mod(t\\,60/\(bpm))):s=22050:d=30",
                                                     "-c:a", "flac", (dir as NSString).appendingPathComponent("t\(i).flac")])
            XCTAssertEqual(status, 0, log)
        }
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        let scan = try runBeattag(["scan", dir, "--catalog", catalog])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        let tracks = try Catalog(path: catalog, create: false).allTracks()
        XCTAssertEqual(tracks.count, 8)
        // Each joins only a group whose first track it is like too: neighbours, not a chain. (Tones
        // this alike are one recording to Chromaprint, and the print is far closer than either is to
        // itself displaced, which the rule for two encodings analysed at different tempi accepts.)
        for group in Dictionary(grouping: tracks.filter { $0.recording != nil }, by: { $0.recording! }).values {
            XCTAssertLessThanOrEqual(group.count, 3, "\(group.map(\.fileName)) \(group.compactMap(\.bpmAnalysed))")
        }
    }

    func testWithoutChromaprintScansGoOnAndSaySo() throws {
        let dir = try temporaryDirectory(self)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        let scan = try runBinary(["scan", TestPaths.fixture("encoded"), "--catalog", catalog],
                                 environment: ["BEATTAG_LIBCHROMAPRINT": "libchromaprint-hidden.so.1"])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertTrue(scan.stderr.contains("Chromaprint is not installed") && scan.stderr.contains("libchromaprint1"), scan.stderr)
        XCTAssertEqual(scan.stderr.split(separator: "\n").count, 1, scan.stderr)
        XCTAssertEqual(try groups(catalog), [])
        // Installed again: the next plain scan fingerprints what it could not.
        XCTAssertEqual(try runBinary(["scan", TestPaths.fixture("encoded"), "--catalog", catalog]).status, 0)
        XCTAssertEqual(try groups(catalog), [["house-128-alac.m4a", "house-128-aac.mp4"], ["trance-140-aac.m4a", "trance-140.wma"]])
    }

    func testBitErrorRateFindsTheAlignmentAndNeedsOverlap() {
        var rng = SplitMix64(seed: 3)
        let a = (0..<200).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        let shifted = RecordingPrint(items: Array(a.dropFirst(3)), hash: 0)
        XCTAssertEqual(RecordingPrint(items: a, hash: 0).bitErrorRate(to: shifted), 0)
        let other = RecordingPrint(items: (0..<200).map { _ in UInt32(truncatingIfNeeded: rng.next()) }, hash: 0)
        XCTAssertGreaterThan(RecordingPrint(items: a, hash: 0).bitErrorRate(to: other), 0.4)
        XCTAssertEqual(RecordingPrint(items: Array(a.prefix(10)), hash: 0).bitErrorRate(to: shifted), 1, "too little overlap says nothing")
        XCTAssertEqual(RecordingPrint(data: RecordingPrint(items: a, hash: 7).data, hash: 7).items, a)
        XCTAssertTrue(RecordingPrint(items: a, hash: 0b1011).hashIsNear(0b0011))
        XCTAssertFalse(RecordingPrint(items: a, hash: 0).hashIsNear(0x1FF), "nine bits apart: not compared")
        XCTAssertTrue(RecordingPrint.sameTempo(128, 128.5))
        XCTAssertTrue(RecordingPrint.sameTempo(87, 174))
        XCTAssertFalse(RecordingPrint.sameTempo(165, 168))
        XCTAssertFalse(RecordingPrint.sameTempo(175, 176), "drum tracks a BPM apart are two recordings")
        // Tempi read apart: a print that changes bar to bar still says "one recording"; a loop's does not.
        let music = RecordingPrint(items: a, hash: 0)
        var copy = a
        for i in stride(from: 0, to: copy.count, by: 5) { copy[i] ^= 1 }
        XCTAssertTrue(music.isSameRecording(as: RecordingPrint(items: copy, hash: 0), bpm: 160.7, otherBPM: 81.5))
        // A drum loop's print: little chroma, so it changes little from itself (0.10–0.35 measured).
        let loop = RecordingPrint(items: (0..<200).map { a[0] ^ ($0 % 3 == 0 ? 0xFF : 0) }, hash: 0)
        XCTAssertLessThan(loop.selfContrast, 0.3)
        XCTAssertGreaterThan(loop.selfContrast, RecordingPrint.leastContrast)
        var otherLoop = loop.items
        for i in stride(from: 0, to: otherLoop.count, by: 3) { otherLoop[i] ^= 0xFF00 }
        XCTAssertFalse(loop.isSameRecording(as: RecordingPrint(items: otherLoop, hash: 0), bpm: 165, otherBPM: 168))
        XCTAssertTrue(loop.isSameRecording(as: RecordingPrint(items: otherLoop, hash: 0), bpm: 165, otherBPM: 165.5))
        // A print that never changes (clicks on one tone, an audit's 120- and 150-BPM files) is
        // identical to any other such print: it only says "one recording" where the tempi agree.
        let tone = RecordingPrint(items: Array(repeating: a[0], count: 140), hash: 0)
        XCTAssertEqual(tone.selfContrast, 0)
        XCTAssertFalse(tone.isSameRecording(as: tone, bpm: 150, otherBPM: 120))
        XCTAssertTrue(tone.isSameRecording(as: tone, bpm: 120, otherBPM: 120.2))
        XCTAssertFalse(tone.isSameRecording(as: tone, bpm: 199, otherBPM: 200), "a metronome a BPM from another")
    }

    /// A metronome pack: clicks at 170, 171 and 172 BPM are three recordings (with 1% they were one,
    /// and `match --spm 171` offered the 170 stretched), while the 170's Opus copy is a copy.
    func testMetronomeTracksABPMApartAreNotCopies() throws {
        let dir = try temporaryDirectory(self)
        let ffmpeg = try requiredTool("ffmpeg")
        for bpm in [170, 171, 172] {
            let click = "aevalsrc='if(lt(mod(t\\,60/\(bpm))\\,0.02)\\,sin(2*PI*1000*t)\\,0)':s=44100:d=60"
            let (status, log) = try runTool(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", click, "-c:a", "flac",
                                                     (dir as NSString).appendingPathComponent("click-\(bpm).flac")])
            XCTAssertEqual(status, 0, log)
        }
        let (status, log) = try runTool(ffmpeg, ["-v", "error", "-y", "-i", (dir as NSString).appendingPathComponent("click-172.flac"),
                                                 "-c:a", "libopus", "-b:a", "96k", (dir as NSString).appendingPathComponent("click-172.opus")])
        XCTAssertEqual(status, 0, log)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", dir, "--catalog", catalog]).status, 0)
        XCTAssertEqual(try groups(catalog), [["click-172.flac", "click-172.opus"]])
        let match = try runBeattag(["match", "--spm", "171", "--json", "--catalog", catalog])
        let first = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(match.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(((first["track"] as? [String: Any])?["path"] as? NSString)?.lastPathComponent, "click-171.flac")
    }
}
