@testable import BeatTagKit
import BeatTagTestSupport
import GRDB
import XCTest

final class ScanTests: XCTestCase {
    private func scan(_ roots: [String], catalog: Catalog, source: SourceType? = nil, force: Bool = false,
                      configure: (LibraryScanner) -> Void = { _ in }) throws -> ScanSummary {
        let scanner = LibraryScanner(catalog: catalog, options: ScanOptions(roots: roots, source: source, force: force))
        configure(scanner)
        return try scanner.run()
    }

    private func newCatalog() throws -> Catalog {
        try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("catalog.sqlite"))
    }

    /// A sidecar that cannot be read fails closed: its folder's tracks are never stretched, whatever
    /// `--source` the scan was given (it may have been declaring no-derivatives music).
    func testAnUnreadableSidecarForbidsTempoChangeInItsFolder() throws {
        try expectUnreadableSidecarFailsClosed { try "source = cc-by-nd-typo   # a typo\n".write(toFile: $0, atomically: true, encoding: .utf8) }
        // A misspelt key is no less a declaration beattag cannot read (it was ignored: the folder stretched).
        try expectUnreadableSidecarFailsClosed { try "sorce = cc-by-nd\n".write(toFile: $0, atomically: true, encoding: .utf8) }
        // A folder of that name, or a link to nowhere, is not "no sidecar" either.
        try expectUnreadableSidecarFailsClosed { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) }
        try expectUnreadableSidecarFailsClosed { try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: "gone") }
    }

    private func expectUnreadableSidecarFailsClosed(_ make: (String) throws -> Void, line: UInt = #line) throws {
        let library = try copyOfFixtures(self)
        try? FileManager.default.removeItem(atPath: library + "/cc0/" + RightsSidecar.fileName)  // the fixtures' own
        try make(library + "/cc0/" + RightsSidecar.fileName)
        let catalog = try newCatalog()
        let summary = try scan([library], catalog: catalog, source: .userOwned)
        XCTAssertTrue(summary.problems.contains { $0.message.contains("not time-stretched until it is fixed") }, "\(summary.problems)", line: line)
        let inFolder = try catalog.allTracks().filter { $0.path.hasPrefix(library + "/cc0/") }
        XCTAssertFalse(inFolder.isEmpty, line: line)
        for track in inFolder where track.rightsOrigin == "sidecar" {
            XCTAssertEqual(track.sourceType, .unknown, track.path, line: line)
            XCTAssertFalse(track.tempoAdjustAllowed, track.path, line: line)
        }
        XCTAssertTrue(inFolder.contains { $0.rightsOrigin == "sidecar" }, "the folder's untagged tracks take the failed sidecar's rights", line: line)
        let outside = try XCTUnwrap(try catalog.allTracks().first { $0.path.hasSuffix("/rock-150.flac") })
        XCTAssertEqual(outside.sourceType, .userOwned, "the scan's --source still applies elsewhere", line: line)
    }

    /// A file scanned as no-derivatives (`--source`), then renamed and retagged elsewhere, is found
    /// by its audio and keeps those rights (an audit: it came back `unknown`, stretchable).
    func testRightsAScanWasToldFollowAMovedRetaggedFile() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        _ = try scan([library], catalog: catalog, source: .ccByNd)
        let old = library + "/house-128.wav", new = library + "/renamed.wav"
        let before = try XCTUnwrap(try catalog.track(path: old))
        XCTAssertEqual(before.sourceType, .ccByNd)
        // Retagged: a chunk the audio does not read is added, so the bytes differ and the audio does not.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: old))
        bytes.append(contentsOf: Array("JUNK".utf8) + [8, 0, 0, 0] + [UInt8](repeating: 0, count: 8))
        let riffSize = UInt32(bytes.count - 8)
        bytes.replaceSubrange(4..<8, with: withUnsafeBytes(of: riffSize.littleEndian) { Array($0) })
        try bytes.write(to: URL(fileURLWithPath: new))
        try FileManager.default.removeItem(atPath: old)
        _ = try scan([library], catalog: catalog)
        let after = try XCTUnwrap(try catalog.track(path: new))
        XCTAssertEqual(after.id, before.id, "found as the same track by its audio")
        XCTAssertNotEqual(after.fingerprint, before.fingerprint, "the bytes did change")
        XCTAssertEqual(after.sourceType, .ccByNd)
        XCTAssertFalse(after.tempoAdjustAllowed)
        XCTAssertEqual(after.rightsOrigin, RightsOrigin.option.rawValue)
    }

    /// A name whose bytes are not UTF-8 is said, not skipped silently; a FIFO named as a root is left
    /// out with a reason, not read (the scan would hang on it).
    func testALatin1NameIsSaidAndAFIFORootIsLeftOut() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let latin1: [UInt8] = Array(music.utf8) + Array("/caf".utf8) + [0xE9] + Array(".wav".utf8) + [0]
        let fd = latin1.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let fifo = (dir as NSString).appendingPathComponent("pipe.mp3")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let walk = FileWalker.walk(roots: [music, fifo])
        XCTAssertTrue(walk.problems.contains { $0.message.contains("not valid UTF-8") }, "\(walk.problems)")
        XCTAssertTrue(walk.problems.contains { $0.path == fifo && $0.message.contains("not a regular file") }, "\(walk.problems)")
        XCTAssertTrue(walk.files.isEmpty)
        // Named on the command line, the name arrives with U+FFFD in place of the byte (as Swift
        // reads argv): `analyze` and `tag` say why, not "no such file".
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 1)
        for arguments in [["analyze"], ["tag", "--bpm", "150", "--catalog", catalog]] {
            let result = try runBeattag([arguments[0], music + "/caf\u{FFFD}.wav"] + arguments.dropFirst())
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("its name is not valid UTF-8"), result.stderr)
        }
    }

    func testScanOfFixturesCataloguesEveryCase() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        let summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.found, 25, "hidden folder skipped, symlink loop walked once")
        XCTAssertEqual(summary.analysed, 18)
        XCTAssertEqual(summary.metadataOnly, 1)
        XCTAssertEqual(summary.failed, 6)
        XCTAssertFalse(summary.succeeded)

        let rows = Dictionary(uniqueKeysWithValues: try catalog.allTracks(includingBeats: true).map { (($0.path as NSString).lastPathComponent, $0) })
        XCTAssertEqual(rows.count, 25)
        XCTAssertNil(rows["skip-me.wav"])

        let rock = try XCTUnwrap(rows["rock-150.flac"])
        XCTAssertEqual(rock.state, .analysed)
        XCTAssertEqual(rock.bpm ?? 0, 150, accuracy: 3)
        XCTAssertEqual(rock.bpmSource, .analysis)
        XCTAssertEqual(rock.title, "Backbeat at 150")
        XCTAssertEqual(rock.format, "flac")
        XCTAssertEqual(rock.analysisVersion, AnalysisResult.currentVersion)
        XCTAssertTrue(rock.waveformAnalysed)
        XCTAssertGreaterThan(rock.beatTimes.count, 20)
        XCTAssertNotNil(rock.gridPeriod)
        XCTAssertNotNil(rock.fingerprint)

        // Rights: sidecar for the cc0 folder, tag beats sidecar, ND forbids tempo change, CC URL in a comment.
        XCTAssertEqual(rows["cardio-165.ogg"]?.sourceType, .cc0)
        XCTAssertEqual(rows["cardio-165.ogg"]?.rightsOrigin, "sidecar")
        XCTAssertEqual(rows["cardio-165.ogg"]?.attribution, "beattag fixtures")
        XCTAssertEqual(rows["punk-180.mp3"]?.sourceType, .ccBy)
        XCTAssertEqual(rows["punk-180.mp3"]?.rightsOrigin, "tag")
        XCTAssertEqual(rows["hiphop-90.mp3"]?.sourceType, .ccByNd)
        XCTAssertEqual(rows["hiphop-90.mp3"]?.tempoAdjustAllowed, false)
        XCTAssertEqual(rows["trance-140.flac"]?.sourceType, .ccBySa)
        XCTAssertEqual(rows["house-128.wav"]?.sourceType, .unknown)

        // BPM sources: a wrong-octave tag (82) loses to confident analysis; the tag stays recorded.
        let cardio = try XCTUnwrap(rows["cardio-165.ogg"])
        XCTAssertEqual(cardio.bpmTag, 82)
        XCTAssertEqual(cardio.bpm ?? 0, 165, accuracy: 3.3)

        // What libsndfile refuses, FFmpeg decodes; each row says which library decoded it.
        XCTAssertEqual(rock.decoder, DecoderLibrary.libsndfile.identity)
        for (name, format, bpm) in [("aac-tagged.m4a", "aac", 128.0), ("trance-140-aac.m4a", "aac", 140), ("house-128-alac.m4a", "alac", 128),
                                    ("house-128-aac.mp4", "aac", 128), ("trance-140.wma", "wmav2", 140), ("itunes-priming.m4a", "aac", 128)] {
            let row = try XCTUnwrap(rows[name], name)
            XCTAssertEqual(row.state, .analysed, name)
            XCTAssertEqual(row.decoder, DecoderLibrary.ffmpeg.identity, name)
            XCTAssertEqual(row.format, format, name)
            XCTAssertEqual(row.bpm ?? 0, bpm, accuracy: bpm * 0.04, name)
            XCTAssertTrue(row.waveformAnalysed, name)
            XCTAssertGreaterThan(Double(row.beatTimes.count), 0.8 * (row.durationSeconds ?? 0) * bpm / 60, name)
        }
        XCTAssertEqual(rows["aac-tagged.m4a"]?.bpmTag, 128, "tags still come from TagLib")
        XCTAssertEqual(rows["trance-140.wma"]?.title, "WMA at 140")
        XCTAssertNil(rows["house-128.wav"]?.metadataOnlyReason)

        let drm = try XCTUnwrap(rows["drm-protected.m4a"])
        XCTAssertEqual(drm.state, .metadataOnly)
        XCTAssertEqual(drm.metadataOnlyReason, "DRM-protected: the audio cannot be decoded")
        XCTAssertEqual(drm.bpm, 128, "its BPM tag")
        XCTAssertNil(drm.decoder)
        let cut = try XCTUnwrap(rows["truncated.m4a"])
        XCTAssertEqual(cut.state, .analysed)
        XCTAssertTrue(cut.decodeWarning?.contains("of the 12.0 s its header gives") ?? false, cut.decodeWarning ?? "nil")

        XCTAssertEqual(rows["disguised.mp3"]?.state, .analysed)
        XCTAssertEqual(rows["disguised.mp3"]?.format, "wav")
        XCTAssertEqual(rows["Ünïcødé – ритм 160.ogg"]?.state, .analysed)
        XCTAssertEqual(rows["Ünïcødé – ритм 160.ogg"]?.artist, "Björk-ish Ensemble")

        for (name, message) in [("empty.wav", "empty file"), ("notes.mp3", "text file"), ("corrupt.flac", "cannot decode"),
                                ("truncated.flac", "part-way"), ("jingle-2s.wav", "too short"),
                                ("video-only.mp4", "a video with no audio stream")] {
            let row = try XCTUnwrap(rows[name], name)
            XCTAssertEqual(row.state, .failed, name)
            XCTAssertTrue(row.lastError?.contains(message) ?? false, "\(name): \(row.lastError ?? "nil")")
        }
    }

    func testRescanSkipsUnchangedAndReanalysesChanged() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        _ = try scan([library], catalog: catalog)
        let again = try scan([library], catalog: catalog)
        XCTAssertEqual(again.unchanged, 25)
        XCTAssertEqual(again.analysed + again.metadataOnly, 0)
        XCTAssertEqual(again.failed, 6, "files that still fail are reported on every scan, unchanged or not")
        XCTAssertEqual(again.failures.count, 6)

        // Touched (new mtime, same bytes): unchanged by fingerprint; the stored beat grid stays.
        let house = (library as NSString).appendingPathComponent("house-128.wav")
        let beatsBefore = try XCTUnwrap(try catalog.track(path: house)?.beatTimes)
        XCTAssertGreaterThan(beatsBefore.count, 10)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 100)], ofItemAtPath: house)
        XCTAssertEqual(try scan([library], catalog: catalog).unchanged, 25)
        let touched = try XCTUnwrap(try catalog.track(path: house))
        XCTAssertEqual(touched.beatTimes, beatsBefore)
        XCTAssertEqual(touched.modifiedAt, FileWalker.walk(roots: [house]).files.first?.modifiedAt)

        // Changed content: re-analysed.
        var synth = DrumSynth(sampleRate: 22050, bpm: 100, pattern: .backbeat, seconds: 10)
        try AudioWriter.write(synth.render(), sampleRate: 22050, to: house, as: .wav)
        let changed = try scan([library], catalog: catalog)
        XCTAssertEqual(changed.analysed, 1)
        XCTAssertEqual(try catalog.track(path: house)?.bpm ?? 0, 100, accuracy: 2)

        // --force re-analyses everything.
        let forced = try scan([library], catalog: catalog, force: true)
        XCTAssertEqual(forced.unchanged, 0)
        XCTAssertEqual(forced.analysed + forced.failed + forced.metadataOnly, 25)
    }

    /// A download cut off after its first bytes keeps a header that promises the whole song, and
    /// its BPM tag: catalogued as metadata-only it was offered first by `match`. It fails instead.
    func testAStubCutOffAfterItsHeaderFailsInsteadOfBeingCataloguedFromTags() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        // An ID3 tag holding only a BPM, then the first 400 bytes of an MP3's frames.
        let mp3 = try Data(contentsOf: URL(fileURLWithPath: (library as NSString).appendingPathComponent("hiphop-90.mp3")))
        let frames = 10 + mp3[6..<10].reduce(0) { $0 << 7 | Int($1) }  // the fixture's own ID3 tag's syncsafe size
        let bpm = Data([0]) + Data("172".utf8)
        let frame = Data("TBPM".utf8) + Data([0, 0, 0, UInt8(bpm.count), 0, 0]) + bpm
        let tag = Data("ID3".utf8) + Data([3, 0, 0, 0, 0, 0, UInt8(frame.count)]) + frame
        let mp3Stub = (library as NSString).appendingPathComponent("stub.mp3")
        try (tag + mp3[frames..<(frames + 400)]).write(to: URL(fileURLWithPath: mp3Stub))
        let oggStub = (library as NSString).appendingPathComponent("stub.ogg")
        try Data(contentsOf: URL(fileURLWithPath: (library as NSString).appendingPathComponent("dnb-174.ogg"))).prefix(512)
            .write(to: URL(fileURLWithPath: oggStub))
        let stubs = [mp3Stub, oggStub]
        let summary = try scan(stubs, catalog: catalog)
        XCTAssertEqual(summary.failed, 2)
        XCTAssertEqual(summary.metadataOnly, 0)
        for stub in stubs {
            let row = try XCTUnwrap(try catalog.track(path: stub))
            XCTAssertEqual(row.state, .failed, stub)
            XCTAssertTrue(row.lastError?.hasSuffix("(cut short or damaged)") ?? false, row.lastError ?? "nil")
        }
        // The DRM-protected fixture stays metadata-only: whole, only locked.
        let drm = (library as NSString).appendingPathComponent("odd/drm-protected.m4a")
        XCTAssertEqual(try scan([drm], catalog: catalog).metadataOnly, 1)
    }

    /// A download cut off too soon to analyse fails, but its tags give a BPM and a length: `match`
    /// offered it, `playlist` wrote it and `stats` counted it (decode hunt H1), for a player to stop
    /// a few seconds in. A file beattag cannot decode is offered nowhere, nor tagged by hand.
    func testAFileThatFailsToDecodeIsNeverOffered() throws {
        let dir = try temporaryDirectory(self)
        let tagged = (dir as NSString).appendingPathComponent("tagged.flac")
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-i", TestPaths.fixture("rock-150.flac"),
                                                                     "-c", "copy", "-metadata", "BPM=150", tagged])
        XCTAssertEqual(status, 0, log)
        let whole = try Data(contentsOf: URL(fileURLWithPath: tagged))
        let cut = (dir as NSString).appendingPathComponent("cut.flac")
        try whole.prefix(whole.count * 3 / 10).write(to: URL(fileURLWithPath: cut))
        let catalog = try newCatalog()
        XCTAssertEqual(try scan([cut], catalog: catalog).failed, 1)
        let row = try XCTUnwrap(try catalog.track(path: cut))
        XCTAssertEqual(row.bpm, 150, "the tag's BPM is kept, as information")
        XCTAssertNotNil(row.durationSeconds, "TagLib reads the header's length")
        let matched = try catalog.cadenceMatches(CadenceRules(spm: 150), filter: MatchFilter())
        XCTAssertTrue(matched.matches.isEmpty, "\(matched.matches.map(\.track.path))")
        XCTAssertEqual(matched.rejected[.unplayable], 1)
        XCTAssertEqual(try LibraryStats(catalog: catalog).cadences.map(\.usable).reduce(0, +), 0)
        XCTAssertThrowsError(try ManualBPM.apply(.set(150), to: cut, in: catalog))
    }

    func testCutShortFileIsAnalysedWithAWarning() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        let cut = (library as NSString).appendingPathComponent("cut.flac")
        let whole = try Data(contentsOf: URL(fileURLWithPath: (library as NSString).appendingPathComponent("rock-150.flac")))
        try whole.prefix(whole.count * 9 / 10).write(to: URL(fileURLWithPath: cut))
        let summary = try scan([(library as NSString).appendingPathComponent("cut.flac")], catalog: catalog)
        XCTAssertEqual(summary.analysed, 1)
        let row = try XCTUnwrap(try catalog.track(path: cut))
        XCTAssertEqual(row.state, .analysed)
        XCTAssertNil(row.lastError)
        XCTAssertTrue(row.decodeWarning?.contains("analysed what decoded") ?? false)
        XCTAssertEqual(row.bpm ?? 0, 150, accuracy: 3)
        XCTAssertEqual(summary.decodeWarnings.map(\.path), [cut])
        // The command says so (it said nothing: the warning was only in the catalog), and succeeds.
        let cli = try runBeattag(["scan", cut, "--catalog", (library as NSString).appendingPathComponent("cli.sqlite")])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertTrue(cli.stderr.contains("cut.flac: catalogued, but decoding broke off at"), cli.stderr)
        XCTAssertTrue(cli.stdout.contains("failed 0, decode warnings 1 in"), cli.stdout)
    }

    func testAnalysisVersionBumpReanalyses() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        _ = try scan([library], catalog: catalog)
        try catalog.pool.write { try $0.execute(sql: "UPDATE track SET analysisVersion = 0 WHERE path LIKE '%rock-150.flac'") }
        let summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.analysed, 1)
        XCTAssertEqual(summary.unchanged, 24)
    }

    /// A grid holds only for audio decoded the same way: a track decoded by another version of
    /// its decoder is analysed again; the others stay unchanged.
    func testNewDecoderVersionReanalysesItsTracks() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        _ = try scan([library], catalog: catalog)
        try catalog.pool.write { try $0.execute(sql: "UPDATE track SET decoder = 'ffmpeg 58.134.100' WHERE path LIKE '%house-128-alac.m4a'") }
        let summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.analysed, 1)
        XCTAssertEqual(summary.unchanged, 24)
        XCTAssertEqual(try catalog.track(path: (library as NSString).appendingPathComponent("encoded/house-128-alac.m4a"))?.decoder,
                       DecoderLibrary.ffmpeg.identity)
    }

    /// Opus is FFmpeg's to decode where it is installed (libsndfile 1.2.0 drops packets of many
    /// Opus files): in a catalog from before (v15), Opus tracks libsndfile decoded are analysed
    /// again, once, and so are tracks analysed from a decode cut short ("decoding stopped at"),
    /// which FFmpeg may now decode whole.
    func testTracksDecodedTheOldWayAreAnalysedAgainOnce() throws {
        try OptionalLibrary.ffmpeg.require()
        let library = try copyOfFixtures(self)
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("catalog.sqlite")
        var catalog: Catalog? = try Catalog(path: path)
        _ = try scan([library], catalog: catalog!)
        let opus = (library as NSString).appendingPathComponent("house-124.opus")
        XCTAssertEqual(try catalog!.track(path: opus)?.decoder, DecoderLibrary.ffmpeg.identity)
        // As a v15 catalog had them.
        try catalog!.pool.write { db in
            try db.execute(sql: "UPDATE track SET decoder = ? WHERE path = ?", arguments: [DecoderLibrary.libsndfile.identity, opus])
            try db.execute(sql: "UPDATE track SET decodeWarning = 'decoding stopped at 12.0 s (the audio ends at 12.0 s of the 20.0 s its header gives); analysed what decoded' WHERE path LIKE '%rock-150.flac'")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v16:%'")
        }
        var summary = try scan([library], catalog: catalog!)
        XCTAssertEqual(summary.unchanged, 25, "nothing is done again without the migration")
        catalog = nil
        catalog = try Catalog(path: path)
        summary = try scan([library], catalog: catalog!)
        XCTAssertEqual(summary.analysed, 2)
        XCTAssertEqual(summary.unchanged, 23)
        XCTAssertEqual(try catalog!.track(path: opus)?.decoder, DecoderLibrary.ffmpeg.identity)
        XCTAssertNil(try catalog!.track(path: (library as NSString).appendingPathComponent("rock-150.flac"))?.decodeWarning)
        summary = try scan([library], catalog: catalog!)
        XCTAssertEqual(summary.unchanged, 25)
    }

    /// Catalog v17: rows whose warning says an earlier build decoded damage (these words) are
    /// analysed again by the next scan, once; others are not.
    func testDamagedFilesAnalysedByAnEarlierBuildAreAnalysedAgainOnce() throws {
        let library = try copyOfFixtures(self)
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("catalog.sqlite")
        var catalog: Catalog? = try Catalog(path: path)
        _ = try scan([library], catalog: catalog!)
        // As a v16 catalog had them.
        let said = ["rock-150.flac": "only 11.5 s of the 40.0 s its header gives decoded (cut off, or damaged part-way); analysed what decoded",
                    "trance-140.flac": "decoding broke off at 23.8 s (Invalid data found when processing input); analysed what decoded",
                    "hiphop-90.mp3": "26 ms lost to damage at 20.0 s, read as silence"]
        try catalog!.pool.write { db in
            for (name, warning) in said {
                try db.execute(sql: "UPDATE track SET decodeWarning = ? WHERE path LIKE ?", arguments: [warning, "%/" + name])
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v17:%'")
        }
        catalog = nil
        catalog = try Catalog(path: path)
        var summary = try scan([library], catalog: catalog!)
        // And the fixtures' truncated.m4a, cut off, whose warning says so too.
        XCTAssertEqual(summary.analysed, 4)
        XCTAssertEqual(summary.unchanged, 21)
        for name in said.keys {
            XCTAssertNil(try catalog!.track(path: (library as NSString).appendingPathComponent(name))?.decodeWarning, name)
        }
        summary = try scan([library], catalog: catalog!)
        XCTAssertEqual(summary.unchanged, 25)
    }

    /// Catalog v18: rows whose licence or notice says no derivatives in words earlier builds did not
    /// read are never stretched from then on, without a rescan; others are left as they were.
    func testNoDerivativesInNewlyReadWordsForbidsTempoChangeInAnOldCatalog() throws {
        let library = try copyOfFixtures(self)
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("catalog.sqlite")
        var catalog: Catalog? = try Catalog(path: path)
        _ = try scan([library], catalog: catalog!)
        // As a v17 catalog had them after reading such tags.
        let rows: [(String, String, String?, String?)] = [
            ("rock-150.flac", "BY-ND 4.0", nil, "cc-by-nd"),
            ("trance-140.flac", "Free Art License 1.3", "(c) 2020 Foo Records. No Derivative Works.", "other"),
            ("house-128.wav", "Free Art License 1.3", nil, "other"),
            ("metal-168.aiff", "by-sa/4.0", nil, "cc-by-sa"),
        ]
        try catalog!.pool.write { db in
            for (name, license, attribution, _) in rows {
                try db.execute(sql: "UPDATE track SET sourceType = 'other', license = ?, attribution = ?, tempoAdjustAllowed = 1 WHERE path LIKE ?",
                               arguments: [license, attribution, "%/" + name])
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v18:%'")
        }
        catalog = nil
        catalog = try Catalog(path: path)
        for (name, _, _, family) in rows {
            let track = try XCTUnwrap(try catalog!.track(path: (library as NSString).appendingPathComponent(name)))
            XCTAssertEqual(track.sourceType.rawValue, family, name)
            XCTAssertEqual(track.tempoAdjustAllowed, !["rock-150.flac", "trance-140.flac"].contains(name), name)
        }
    }

    /// A folder walk takes WebM/Matroska audio, AC-3 and Sun AU (yt-dlp's .webm was passed over
    /// without a word); a file scanned by name that the walk passes over (a hidden name) is not
    /// called missing by the next folder scan while it is there (its hand BPM was shown "missing"),
    /// and found again by it when put back after it went missing; its folder's rights are read anew.
    func testFolderScansTakeMoreAudioAndNeverCallAFileThatIsThereMissing() throws {
        let dir = try temporaryDirectory(self)
        let library = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let ffmpeg = try requiredTool("ffmpeg")
        for (name, codec) in [("song.webm", "libopus"), ("song.mka", "flac"), ("song.ac3", "ac3"), ("song.au", "pcm_s16be")] {
            let (status, log) = try runTool(ffmpeg, ["-v", "error", "-i", TestPaths.fixture("rock-150.flac"), "-c:a", codec,
                                                     (library as NSString).appendingPathComponent(name)])
            XCTAssertEqual(status, 0, "\(name): \(log)")
        }
        let hidden = (library as NSString).appendingPathComponent(".hidden.flac")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: hidden)
        let catalog = try newCatalog()
        var summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.found, 4)
        XCTAssertEqual(summary.analysed, 4, "\(summary.failures)")
        summary = try scan([hidden], catalog: catalog)
        XCTAssertEqual(summary.analysed, 1)
        summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.missing, 0)
        XCTAssertEqual(try catalog.track(path: hidden)?.state, .analysed)
        try FileManager.default.removeItem(atPath: hidden)
        summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.missing, 1, "gone: missing")
        XCTAssertEqual(try catalog.track(path: hidden)?.state, .missing)
        // Put back: the folder scan finds it again (it stayed missing until scanned by name).
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: hidden)
        summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.found, 5)
        XCTAssertEqual(summary.unchanged, 5)
        XCTAssertEqual(try catalog.track(path: hidden)?.state, .analysed)
        // Its folder's rights are read anew by the folder's scan, like the others' (it kept the old ones,
        // and a render asked for a scan that did not change them).
        try "source = cc-by-nd\n".write(toFile: (library as NSString).appendingPathComponent(".beattag-rights"), atomically: true, encoding: .utf8)
        summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.rightsChanged, 5)
        XCTAssertEqual(try catalog.track(path: hidden)?.sourceType, .ccByNd)
        XCTAssertNil(try catalog.track(path: hidden)?.rightsProblemSinceScan)
    }

    func testVanishedFilesAreMarkedMissingAndKeepManualBPM() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        _ = try scan([library], catalog: catalog)
        let punk = (library as NSString).appendingPathComponent("cc0/punk-180.mp3")
        var row = try catalog.editHandData(path: punk) { $0.bpmManual = 181 }

        let stash = (library as NSString).deletingLastPathComponent + "/punk-180.mp3"
        try FileManager.default.moveItem(atPath: punk, toPath: stash)
        let summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.missing, 1)
        row = try XCTUnwrap(try catalog.track(path: punk))
        XCTAssertEqual(row.state, .missing)
        XCTAssertEqual(row.bpmManual, 181)

        // Back under another name: recognised by fingerprint, keeps its id and the hand-entered BPM.
        let renamed = (library as NSString).appendingPathComponent("cc0/punk renamed.mp3")
        try FileManager.default.moveItem(atPath: stash, toPath: renamed)
        let back = try scan([library], catalog: catalog)
        XCTAssertEqual(back.moved, 1)
        let moved = try XCTUnwrap(try catalog.track(path: renamed))
        XCTAssertEqual(moved.id, row.id)
        XCTAssertEqual(moved.bpm, 181)
        XCTAssertEqual(moved.bpmSource, .manual)
        XCTAssertNil(try catalog.track(path: punk))
    }

    func testRenameBetweenTwoScansKeepsTheRow() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        _ = try scan([library], catalog: catalog)
        let old = (library as NSString).appendingPathComponent("dnb-174.ogg")
        _ = try ManualBPM.apply(.set(173), to: old, in: catalog)
        let id = try XCTUnwrap(try catalog.track(path: old)?.id)
        let new = (library as NSString).appendingPathComponent("odd/dnb renamed.ogg")
        try FileManager.default.moveItem(atPath: old, toPath: new)

        let summary = try scan([library], catalog: catalog)
        XCTAssertEqual(summary.moved, 1)
        XCTAssertEqual(summary.missing, 0, "the old path is not left behind as a missing row")
        let row = try XCTUnwrap(try catalog.track(path: new))
        XCTAssertEqual(row.id, id)
        XCTAssertEqual(row.bpm, 173)
        XCTAssertNil(try catalog.track(path: old))
        XCTAssertEqual(try catalog.allTracks().count, 25)
        // Moved unchanged, it is not decoded again: the analysis, beats and print come along, the
        // search finds the new name, and the new folder's rights apply (a renamed folder of 100
        // files was analysed again, all of it).
        XCTAssertEqual(summary.analysed, 0)
        XCTAssertEqual(summary.unchanged, 25)
        XCTAssertGreaterThan(row.beatTimes.count, 20, "the beats moved with the row")
        let listed = try runBeattag(["list", "--json", "--search", "dnb renamed", "--catalog", catalog.path])
        let tracks = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(tracks.count, 1, listed.stdout)
        XCTAssertGreaterThan((tracks.first?["beats"] as? [Double])?.count ?? 0, 20, "the beats moved with the row")
        XCTAssertEqual(row.libraryRoot, FileWalker.absolutePath(library))
        try "source = cc-by-nd\n".write(toFile: (library as NSString).appendingPathComponent("cc0/.beattag-rights"), atomically: true, encoding: .utf8)
        let intoStrict = (library as NSString).appendingPathComponent("cc0/dnb again.ogg")
        try FileManager.default.moveItem(atPath: new, toPath: intoStrict)
        let again = try scan([library], catalog: catalog)
        XCTAssertEqual(again.moved, 1)
        XCTAssertEqual(again.analysed, 0)
        let strict = try XCTUnwrap(try catalog.track(path: intoStrict))
        XCTAssertEqual(strict.sourceType, .ccByNd)
        XCTAssertFalse(strict.tempoAdjustAllowed, "the new folder's rights")
        XCTAssertEqual(strict.bpm, 173)
    }

    func testInterruptedScanResumes() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        let first = try scan([library], catalog: catalog) { scanner in
            scanner.onProgress = { progress in if progress.done >= 3 { scanner.cancel() } }
        }
        XCTAssertTrue(first.interrupted)
        XCTAssertEqual(first.missing, 0, "an interrupted scan must not call anything missing")
        let done = try catalog.allTracks().count
        XCTAssertGreaterThanOrEqual(done, 3)
        XCTAssertLessThan(done, 25)

        let second = try scan([library], catalog: catalog)
        XCTAssertFalse(second.interrupted)
        XCTAssertEqual(second.unchanged, done)
        XCTAssertEqual(try catalog.allTracks().count, 25)
        let integrity = try catalog.pool.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        XCTAssertEqual(integrity, "ok")
    }

    /// Ctrl-C on a real scan process: it stops after the files in progress (exit 130, the summary
    /// says so), the catalog is whole, and the same scan again finishes the rest.
    func testCtrlCStopsARealScanThatThenResumes() throws {
        try interruptedScanResumes(with: SIGINT)
    }

    /// SIGTERM (a service manager, `timeout`) stops it the same way, with the status shells give a
    /// terminated process, 143 (it was 130, and "Ctrl-C again").
    func testSIGTERMStopsARealScanWithItsOwnStatus() throws {
        try interruptedScanResumes(with: SIGTERM)
    }

    /// A scan waiting for another scan of the catalog stops at the first Ctrl-C (or SIGTERM): it
    /// waited the other one out (the lock's wait restarted after the signal), then scanned.
    func testASignalStopsAScanThatIsWaitingForAnother() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        let held = try XCTUnwrap(try catalog.scanLock(wait: false), "another scan, in this process")
        for signal in [SIGINT, SIGTERM] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.executable)
            process.arguments = ["scan", library, "--catalog", catalog.path]
            let stdout = Pipe(), stderr = Pipe()
            (process.standardOutput, process.standardError) = (stdout, stderr)
            try process.run()
            // It says it waits once it does.
            let waiting = Locked("")
            stderr.fileHandleForReading.readabilityHandler = { waiting.value += String(decoding: $0.availableData, as: UTF8.self) }
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, !waiting.value.contains("another scan is running") { usleep(20_000) }
            XCTAssertTrue(waiting.value.contains("waiting for it to finish"), waiting.value)
            let sent = Date()
            interrupt(process, with: signal, within: 5)
            stderr.fileHandleForReading.readabilityHandler = nil
            XCTAssertLessThan(Date().timeIntervalSince(sent), 5)
            XCTAssertEqual(process.terminationStatus, 128 + signal)
            let printed = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(printed, "stopped while waiting for the other scan: nothing scanned\n")
            // The answer to the signal says so too (it said "stopping after the files in progress").
            let said = waiting.value + String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(said.contains("stopping: nothing is scanned yet"), said)
            XCTAssertFalse(said.contains("files in progress"), said)
        }
        XCTAssertEqual(try catalog.allTracks().count, 0, "nothing scanned")
        withExtendedLifetime(held) {}
    }

    /// `scan --force` re-analyses everything, hours on a large library: interrupted, the same scan
    /// resumed from the first file again, so it never finished unless it ran uninterrupted (and the
    /// message promised a resume). It resumes now; once complete, the next --force starts over. The
    /// same through a link to the library (its files analysed again where they are catalogued: it
    /// started over).
    func testAnInterruptedForcedScanResumes() throws {
        try interruptedForcedScanResumes(throughALink: false)
        try interruptedForcedScanResumes(throughALink: true)
    }

    private func interruptedForcedScanResumes(throughALink: Bool) throws {
        let library = try temporaryDirectory(self)
        for index in 0..<24 {
            let source = ["house-128.wav", "dnb-174.ogg"][index % 2]
            try FileManager.default.copyItem(atPath: TestPaths.fixture(source), toPath: (library as NSString).appendingPathComponent("\(index)-\(source)"))
        }
        let catalogPath = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", library, "--catalog", catalogPath]).status, 0)
        let scanned = throughALink ? (try temporaryDirectory(self) as NSString).appendingPathComponent("link") : library
        if throughALink { try FileManager.default.createSymbolicLink(atPath: scanned, withDestinationPath: library) }
        func scannedSince(_ time: Double) -> Int {
            (try? checkingConnection(catalogPath).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM track WHERE scannedAt >= ?", arguments: [time]) }) ?? 0
        }
        let forcedAt = Date().timeIntervalSince1970
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable)
        process.arguments = ["scan", scanned, "--force", "--jobs", "1", "--catalog", catalogPath]
        let stdout = Pipe()
        (process.standardOutput, process.standardError) = (stdout, Pipe())
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, scannedSince(forcedAt) < 3 { usleep(20_000) }
        XCTAssertTrue(process.isRunning, "still running when interrupted")
        interrupt(process)
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertTrue(String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("run the same scan again to resume"))
        let done = scannedSince(forcedAt)
        XCTAssertLessThan(done, 24)

        let resumed = try runBeattag(["scan", scanned, "--force", "--json", "--catalog", catalogPath])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(resumed.stdout.utf8))
        XCTAssertEqual(summary.forcedAlready, done, "through a link: \(throughALink)")
        XCTAssertEqual(summary.analysed, 24 - done)
        XCTAssertEqual(scannedSince(forcedAt), 24, "every file analysed again once")
        // Complete: the next forced scan is a new one.
        let again = try runBeattag(["scan", scanned, "--force", "--catalog", catalogPath])
        XCTAssertTrue(again.stdout.contains("analysed 24, unchanged 0"), again.stdout)
        XCTAssertFalse(again.stdout.contains("resumed"), again.stdout)
    }

    /// A `tag --write` killed outright leaves a hidden full copy of the file beside it, which
    /// nothing removed (scans skip hidden files): a scan removes those whose process is gone and
    /// that nothing has written for an hour, and says so.
    func testAScanRemovesHiddenCopiesLeftByAKilledTagWrite() throws {
        let dir = try temporaryDirectory(self)
        let music = try folder((dir as NSString).appendingPathComponent("music"), holding: ["house-128.wav"])
        func leftover(_ name: String, age: TimeInterval) throws -> String {
            let path = (music as NSString).appendingPathComponent(name)
            try FileManager.default.copyItem(atPath: (music as NSString).appendingPathComponent("house-128.wav"), toPath: path)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
            return path
        }
        let stale = try leftover(".beattag-99999999-house-128.wav", age: 7200)        // no such process, two hours old
        let fresh = try leftover(".beattag-99999998-house-128.wav", age: 60)          // a minute old: maybe still being written elsewhere
        let live = try leftover(".beattag-\(getpid())-house-128.wav", age: 7200)     // a process that runs
        let other = try leftover(".beattag-notes.wav", age: 7200)                     // not a name tag --write gives
        let alone = try leftover(".beattag-99999997-notes.txt", age: 7200)            // no notes.txt beside it: someone else's
        let scanned = try runBeattag(["scan", music, "--catalog", (dir as NSString).appendingPathComponent("c.sqlite")])
        XCTAssertEqual(scanned.status, 0, scanned.stderr)
        XCTAssertTrue(scanned.stdout.contains("removed 1 hidden copy left by a `beattag tag --write` that was stopped outright (.beattag-99999999-house-128.wav)"),
                      scanned.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        for kept in [fresh, live, other, alone] { XCTAssertTrue(FileManager.default.fileExists(atPath: kept), kept) }
        XCTAssertTrue(scanned.stdout.contains("found 1,") || scanned.stdout.contains("found 1 "), scanned.stdout)
    }

    private func interruptedScanResumes(with signal: Int32) throws {
        let library = try temporaryDirectory(self)
        for index in 0..<40 {
            let source = ["house-128.wav", "dnb-174.ogg"][index % 2]
            try FileManager.default.copyItem(atPath: TestPaths.fixture(source),
                                             toPath: (library as NSString).appendingPathComponent("\(index)-\(source)"))
        }
        let catalogPath = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable)
        process.arguments = ["scan", library, "--jobs", "1", "--catalog", catalogPath]
        let stdout = Pipe()
        process.standardOutput = stdout
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        func rows() -> Int {
            guard FileManager.default.fileExists(atPath: catalogPath), let db = try? checkingConnection(catalogPath) else { return 0 }
            return (try? db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM track") }) ?? 0
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, rows() < 2 { usleep(50_000) }
        XCTAssertTrue(process.isRunning, "the scan must still be running when interrupted for this test to mean anything")
        interrupt(process, with: signal)
        let printed = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 128 + signal, printed)
        XCTAssertTrue(said.contains(signal == SIGTERM ? "(a second SIGTERM to quit now)" : "(Ctrl-C again to quit now)"), said)
        XCTAssertTrue(printed.contains("interrupted; run the same scan again to resume"), printed)
        let done = rows()
        XCTAssertGreaterThanOrEqual(done, 2)
        XCTAssertLessThan(done, 40)

        let again = try runBeattag(["scan", library, "--catalog", catalogPath, "--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(rows(), 40)
        let integrity = try checkingConnection(catalogPath).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        XCTAssertEqual(integrity, "ok")
    }

    func testMissingFolderIsReportedAndTheScanGoesOn() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        let summary = try scan(["/nonexistent/beattag", (library as NSString).appendingPathComponent("cc0")], catalog: catalog)
        XCTAssertEqual(summary.problems.map(\.path), ["/nonexistent/beattag"])
        XCTAssertEqual(summary.analysed, 2)
        XCTAssertFalse(summary.succeeded)
    }

    func testSourceOptionAppliesWhereNothingMoreSpecificDoesAndPersists() throws {
        let library = try copyOfFixtures(self)
        let catalog = try newCatalog()
        _ = try scan([library], catalog: catalog, source: .userOwned)
        let house = (library as NSString).appendingPathComponent("house-128.wav")
        XCTAssertEqual(try catalog.track(path: house)?.sourceType, .userOwned)
        XCTAssertEqual(try catalog.track(path: (library as NSString).appendingPathComponent("cc0/cardio-165.ogg"))?.sourceType, .cc0)
        _ = try scan([library], catalog: catalog, force: true)
        XCTAssertEqual(try catalog.track(path: house)?.sourceType, .userOwned, "a rescan without --source keeps what it was told")
    }
}

/// A grid the analysis moved half a beat is stored as such and queued for its beats until a person
/// places a beat; a rescan keeps it out of the queue, a cleared beat puts it back.
final class MovedGridTests: XCTestCase {
    func testAGridTheAnalysisMovedIsQueuedForItsBeatsUntilABeatIsPlaced() throws {
        let dir = try temporaryDirectory(self)
        let skank = (dir as NSString).appendingPathComponent("skank.wav"), rock = (dir as NSString).appendingPathComponent("rock.wav")
        // The skank's loudest hits are its "and"s: the tracker sits on them and the phase model moves it.
        var offBeats = DrumSynth(sampleRate: 22050, bpm: 150, pattern: .skank, seconds: 20)
        try AudioWriter.write(offBeats.render(), sampleRate: 22050, to: skank, as: .wav)
        var backbeat = DrumSynth(sampleRate: 22050, bpm: 150, pattern: .backbeat, seconds: 20)
        try AudioWriter.write(backbeat.render(), sampleRate: 22050, to: rock, as: .wav)
        let catalog = try Catalog(path: (dir as NSString).appendingPathComponent("c.sqlite"))
        _ = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [dir])).run()
        XCTAssertEqual(try catalog.track(path: skank)?.phaseMoved, true)
        XCTAssertEqual(try catalog.track(path: rock)?.phaseMoved, false)
        func queued() throws -> [String: UntaggedQueue.Reason] {
            Dictionary(uniqueKeysWithValues: try UntaggedQueue.items(in: catalog).items.map { ($0.track.path, $0.reason) })
        }
        XCTAssertEqual(try queued()[skank], .beatsMoved)
        XCTAssertNil(try queued()[rock])
        // `analyze` says so too, in its line and its JSON.
        let line = try runBeattag(["analyze", skank, rock])
        XCTAssertEqual(line.status, 0, line.stderr)
        XCTAssertEqual(line.stdout.split(separator: "\n").map { $0.contains("beats moved half a beat") }, [true, false], line.stdout)
        let json = try runBeattag(["analyze", "--json", skank])
        XCTAssertTrue(json.stdout.contains(#""phase":{"halfBeat":true"#), json.stdout)

        _ = try HandBeat.apply(.shift(0.5), to: skank, in: catalog)
        XCTAssertNil(try queued()[skank], "a beat placed by hand settles the beats")
        _ = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [dir], force: true)).run()
        XCTAssertEqual(try catalog.track(path: skank)?.phaseMoved, true)
        XCTAssertNil(try queued()[skank], "and stays settled through re-analysis")
        _ = try HandBeat.apply(.clear, to: skank, in: catalog)
        XCTAssertEqual(try queued()[skank], .beatsMoved)
    }
}
