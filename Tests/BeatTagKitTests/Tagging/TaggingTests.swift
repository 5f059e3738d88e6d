@testable import BeatTagKit
import GRDB
import XCTest
import CXattr

final class ManualBPMTests: XCTestCase {
    func testSetScaleClearAndSurviveRescan() throws {
        let library = try copyOfFixtures(self)
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        _ = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [library])).run()
        let file = (library as NSString).appendingPathComponent("rock-150.flac")
        let analysed = try XCTUnwrap(try catalog.track(path: file)?.bpmAnalysed)

        var r = try ManualBPM.apply(.scale(2), to: file, in: catalog)
        XCTAssertEqual(r.bpm ?? 0, (analysed * 20).rounded() / 10, accuracy: 0.05)
        XCTAssertEqual(r.bpmSource, .manual)
        r = try ManualBPM.apply(.scale(0.5), to: file, in: catalog)
        XCTAssertEqual(r.bpm ?? 0, analysed / 2, accuracy: 0.06)
        r = try ManualBPM.apply(.set(172), to: file, in: catalog)
        XCTAssertEqual(r.bpm, 172)

        _ = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [library], force: true)).run()
        XCTAssertEqual(try catalog.track(path: file)?.bpm, 172, "a hand-set BPM survives re-analysis")

        r = try ManualBPM.apply(.clear, to: file, in: catalog)
        XCTAssertNil(r.bpmManual)
        XCTAssertEqual(r.bpmSource, .analysis)
        XCTAssertThrowsError(try ManualBPM.apply(.set(500), to: file, in: catalog))
        XCTAssertThrowsError(try ManualBPM.apply(.set(120), to: "/not/catalogued.ogg", in: catalog))
    }

    func testTapTempo() {
        var taps = TapTempo()
        for i in 0..<8 { taps.tap(at: Double(i) * 0.35) }
        XCTAssertEqual(taps.bpm ?? 0, 171.4, accuracy: 0.1)
        XCTAssertEqual(taps.spread ?? 1, 0, accuracy: 1e-6)
        // One late tap barely moves the median.
        taps.tap(at: 7 * 0.35 + 0.45)
        XCTAssertEqual(taps.bpm ?? 0, 171.4, accuracy: 0.1)
        XCTAssertGreaterThan(taps.spread ?? 0, 1)
        // A long pause starts over.
        taps.tap(at: 20)
        XCTAssertNil(taps.bpm)
        // One press read twice is one tap: no 600-BPM interval in the median or the spread.
        var bounced = TapTempo()
        for i in 0..<6 {
            XCTAssertTrue(bounced.tap(at: Double(i) * 0.4))
            if i == 2 { XCTAssertFalse(bounced.tap(at: Double(i) * 0.4 + 0.03)) }
        }
        XCTAssertEqual(bounced.times.count, 6)
        XCTAssertEqual(bounced.spread ?? 1, 0, accuracy: 1e-6)
    }

    func testUntaggedQueueOrder() throws {
        func t(_ name: String, state: TrackState = .analysed, bpm: Double?, confidence: Double? = 0.9, alternative: Double? = nil,
               alternativeScore: Double? = nil, manual: Double? = nil, phaseMoved: Bool? = nil, beatAnchor: Double? = nil,
               tag: Double? = nil) -> TrackRecord {
            var r = TrackRecord(path: "/m/\(name)", fileSize: 1, modifiedAt: 0, now: 0)
            r.state = state; r.bpmAnalysed = state == .analysed ? bpm : nil; r.confidence = state == .analysed ? confidence : nil
            r.bpmAlternative = alternative; r.bpmAlternativeScore = alternativeScore; r.bpmManual = manual
            r.phaseMoved = phaseMoved; r.beatAnchor = beatAnchor; r.bpmTag = tag
            r.waveformAnalysed = state == .analysed
            if state == .metadataOnly { r.metadataOnlyReason = "AAC" }
            r.chooseBPM()
            return r
        }
        let tracks = [t("fine", bpm: 170), t("low-slow", bpm: 60, confidence: 0.2), t("octave-runnable", bpm: 87, alternative: 174),
                      t("aac", state: .metadataOnly, bpm: nil), t("hand", bpm: 90, confidence: 0.1, manual: 180),
                      t("low-runnable", bpm: 160, confidence: 0.3),
                      // A runner-up octave with little probability is not a doubt.
                      t("octave-clear", bpm: 170, alternative: 85, alternativeScore: 0.1),
                      // Grids the analysis moved half a beat: listed for their beats until a beat is
                      // placed by hand or the track is settled; a tempo doubt is named first.
                      t("moved-runnable", bpm: 172, phaseMoved: true), t("moved-slow", bpm: 60, phaseMoved: true),
                      t("moved-low", bpm: 60, confidence: 0.2, phaseMoved: true),
                      t("moved-placed", bpm: 165, phaseMoved: true, beatAnchor: 1.25),
                      t("moved-settled", bpm: 165, manual: 165, phaseMoved: true),
                      t("moved-tagged", bpm: 86, confidence: 0.6, phaseMoved: true, tag: 172)]
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        for track in tracks { _ = try catalog.saveScanResult(track) }
        let (items, total) = try UntaggedQueue.items(in: catalog)
        XCTAssertEqual(total, 7)
        XCTAssertEqual(try UntaggedQueue.count(in: catalog), 7)
        XCTAssertEqual(try UntaggedQueue.items(in: catalog, limit: 1).items.count, 1)
        let names = items.map { ($0.track.path as NSString).lastPathComponent }
        XCTAssertEqual(names.first, "octave-runnable")
        let listed: Set<String> = ["octave-runnable", "low-runnable", "aac", "low-slow", "moved-runnable", "moved-slow", "moved-low"]
        XCTAssertEqual(Set(names), listed)
        let reasons = Dictionary(uniqueKeysWithValues: items.map { (($0.track.path as NSString).lastPathComponent, $0.reason) })
        XCTAssertEqual(reasons["moved-runnable"], .beatsMoved)
        XCTAssertNil(reasons["moved-tagged"], "a BPM tag at another octave counts the grid anew: the move means nothing there")
        XCTAssertEqual(reasons["moved-low"], .lowConfidence)
        func position(_ name: String) -> Int { names.firstIndex(of: name) ?? Int.max }
        XCTAssertLessThan(position("low-runnable"), position("low-slow"))
        // A runnable track's beats after its tempo doubts, before a slow track's tempo doubt.
        XCTAssertLessThan(position("low-runnable"), position("moved-runnable"))
        XCTAssertLessThan(position("moved-runnable"), position("low-slow"))
        XCTAssertEqual(names.last, "moved-slow", "beats of a track no runner uses come last")
        // The one-track rule bench scores the queue with lists the same analysed tracks as the SQL.
        let byRule = tracks.filter { t in
            t.bpmSource == .analysis && t.bpmManual == nil && t.beatAnchor == nil
                && UntaggedQueue.reason(analysedConfidence: t.confidence, alternative: t.bpmAlternative,
                                        alternativeScore: t.bpmAlternativeScore, phaseMoved: t.phaseMoved) != nil
        }.map { ($0.path as NSString).lastPathComponent }
        XCTAssertEqual(Set(byRule), Set(names).subtracting(["aac"]))
    }

    /// `match` and `render` judge a copy of a recording by the hand BPM or the placed beat of another
    /// copy, so the queue does not ask a person about it again: a hand BPM settles every copy, a
    /// placed beat settles their beats only. Copies are one recording group or the same decoded audio.
    func testAHandEditOnOneCopyTakesItsOtherCopiesOffTheQueue() throws {
        func t(_ name: String, confidence: Double = 0.9, phaseMoved: Bool? = nil, manual: Double? = nil,
               beatAnchor: Double? = nil) -> TrackRecord {
            var r = TrackRecord(path: "/m/\(name)", fileSize: 1, modifiedAt: 0, now: 0)
            r.state = .analysed; r.bpmAnalysed = 170; r.confidence = confidence; r.waveformAnalysed = true
            r.phaseMoved = phaseMoved; r.bpmManual = manual; r.beatAnchor = beatAnchor
            r.chooseBPM()
            return r
        }
        let tracks = [t("tempo.flac", confidence: 0.3, manual: 172), t("tempo.mp3", confidence: 0.3),
                      t("tempo-moved.ogg", phaseMoved: true),
                      t("beats.flac", phaseMoved: true, beatAnchor: 0.4), t("beats.mp3", phaseMoved: true),
                      // A placed beat says nothing of the tempo: a tempo doubt stays listed on every copy.
                      t("both.flac", confidence: 0.3, beatAnchor: 0.4), t("both.mp3", confidence: 0.3),
                      t("same-audio.wav", confidence: 0.3, manual: 90), t("same-audio copy.wav", confidence: 0.3),
                      // Tracks in no group are nobody's copies.
                      t("alone-settled.wav", confidence: 0.3, manual: 120), t("alone.wav", confidence: 0.3),
                      t("alone-moved.wav", phaseMoved: true)]
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        for track in tracks { _ = try catalog.saveScanResult(track) }
        try catalog.pool.write { db in
            // Statistics read before any copy was grouped (as a large catalog's `ANALYZE` can be)
            // make every track look like one recording's: the plan must not follow them.
            try db.execute(sql: "ANALYZE")
            try db.execute(sql: "DELETE FROM sqlite_stat1 WHERE tbl = 'track'")
            try db.execute(sql: """
                INSERT INTO sqlite_stat1 VALUES ('track', NULL, '100000'), ('track', 'track_on_recording', '100000 100000'),
                                                ('track', 'track_on_audioHash', '100000 1')
                """)
            try db.execute(sql: "ANALYZE sqlite_schema")
            for (names, group) in [(["tempo.flac", "tempo.mp3", "tempo-moved.ogg"], 1), (["beats.flac", "beats.mp3"], 2),
                                   (["both.flac", "both.mp3"], 3)] {
                for name in names { try db.execute(sql: "UPDATE track SET recording = ? WHERE path = ?", arguments: [group, "/m/\(name)"]) }
            }
            try db.execute(sql: "UPDATE track SET audioHash = 'abc' WHERE path IN ('/m/same-audio.wav', '/m/same-audio copy.wav')")
        }
        let (items, total) = try UntaggedQueue.items(in: catalog)
        let names = Set(items.map { ($0.track.path as NSString).lastPathComponent })
        XCTAssertEqual(names, ["both.flac", "both.mp3", "alone.wav", "alone-moved.wav"])
        XCTAssertEqual(total, 4)
        XCTAssertEqual(try UntaggedQueue.count(in: catalog), 4)
        // The hand-edited tracks come from their partial indexes, not a read of every row.
        let plans = try catalog.pool.read { db -> [String] in
            XCTAssertEqual(try UntaggedQueue.settledCopies(db).tempo.count, 3)
            XCTAssertEqual(try UntaggedQueue.settledCopies(db).beats.count, 2)
            return try UntaggedQueue.copyConditions.map { condition in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + UntaggedQueue.copiesSQL(of: condition.column, unless: condition.own))
                    .map { $0["detail"] as String }.joined(separator: "\n")
            }
        }
        XCTAssertTrue(plans[0].contains("SCAN h USING INDEX track_bpmManual_copies"), plans[0])
        XCTAssertTrue(plans[1].contains("SCAN h USING INDEX track_beatAnchor_copies"), plans[1])
        for plan in plans { XCTAssertFalse(plan.contains("SCAN c"), plan) }
    }
}

final class BPMTagWriterTests: XCTestCase {
    func testWritesTagAtomicallyAndLeavesAudioAlone() throws {
        let dir = try temporaryDirectory(self)
        for name in ["hiphop-90.mp3", "dnb-174.ogg", "rock-150.flac", "odd/aac-tagged.m4a"] {
            let file = (dir as NSString).appendingPathComponent((name as NSString).lastPathComponent)
            try FileManager.default.copyItem(atPath: TestPaths.fixture(name), toPath: file)
            let plan = try BPMTagWriter.plan(path: file, bpm: 171.6, decimals: true)
            // MP4's tmpo and ID3's TBPM are whole numbers (ID3v2.4: "an integer represented as a numerical string").
            XCTAssertEqual(plan.newValue, ["MP4", "MPEG"].contains(plan.container) ? "172" : "171.6", name)
            try BPMTagWriter.write(plan)
            XCTAssertEqual(try TagReader.read(path: file).properties["BPM"]?.first, plan.newValue, name)
            XCTAssertTrue(try BPMTagWriter.samplesEqual(file, TestPaths.fixture(name)), name)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".beattag-") }
            XCTAssertEqual(leftovers, [], "no working copy left behind")
        }
        let mp3 = try Data(contentsOf: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("hiphop-90.mp3")))
        XCTAssertNotEqual(Array(mp3.suffix(128).prefix(3)), Array("TAG".utf8), "no ID3v1 trailer added")
        let (_, probed) = try runTool(try requiredTool("ffprobe"), ["-v", "error", "-show_entries", "format_tags=TBPM", "-of", "compact",
                                                                    (dir as NSString).appendingPathComponent("hiphop-90.mp3")])
        XCTAssertTrue(probed.contains("TBPM=172"), probed)
        XCTAssertEqual(try BPMTagWriter.plan(path: TestPaths.fixture("hiphop-90.mp3"), bpm: 171.6, decimals: true, manual: true).mark,
                       "manual 172 (171.6)", "the hand-set decimals stay in the mark")
        XCTAssertEqual(try BPMTagWriter.plan(path: TestPaths.fixture("dnb-174.ogg"), bpm: 171.6, decimals: false).newValue, "172")
    }

    /// Through a symbolic link the file it names is tagged through a copy (a new inode replaces it,
    /// its mode kept) and the link stays a link; a hard-linked file is refused, both names untouched.
    func testLinksAreFollowedOrRefusedNeverWrittenInPlace() throws {
        let dir = try temporaryDirectory(self)
        let fm = FileManager.default
        let real = (dir as NSString).appendingPathComponent("real"), links = (dir as NSString).appendingPathComponent("links")
        try fm.createDirectory(atPath: real, withIntermediateDirectories: false)
        try fm.createDirectory(atPath: links, withIntermediateDirectories: false)
        let file = (real as NSString).appendingPathComponent("t.flac"), link = (links as NSString).appendingPathComponent("l.flac")
        try fm.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: file)
        chmod(file, 0o640)
        try fm.createSymbolicLink(atPath: link, withDestinationPath: "../real/t.flac")
        var before = stat()
        stat(file, &before)
        try BPMTagWriter.write(try BPMTagWriter.plan(path: link, bpm: 151, decimals: false))
        var after = stat(), linkStat = stat()
        stat(file, &after)
        lstat(link, &linkStat)
        XCTAssertEqual(linkStat.st_mode & S_IFMT, S_IFLNK, "the link is still a link")
        XCTAssertEqual(try TagReader.read(path: file).properties["BPM"]?.first, "151")
        XCTAssertNotEqual(after.st_ino, before.st_ino, "written through a verified copy, not in place")
        XCTAssertEqual(after.st_mode & 0o7777, 0o640, "the file's own mode kept")
        XCTAssertTrue(try BPMTagWriter.samplesEqual(file, TestPaths.fixture("rock-150.flac")))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: real), ["t.flac"])
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: links), ["l.flac"])

        let other = (real as NSString).appendingPathComponent("same.flac")
        try fm.linkItem(atPath: file, toPath: other)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try BPMTagWriter.write(try BPMTagWriter.plan(path: file, bpm: 152, decimals: false))) { error in
            XCTAssertTrue("\(error)".contains("2 names (hard links)"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: other)), bytes)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), bytes)
    }

    /// A working copy left by a process that is gone (killed mid-write) and untouched for an hour is
    /// removed by the next write of that file; one of a running process, or a fresh one (a writer on
    /// another machine sharing the folder), is not touched.
    func testWorkingCopiesOfDeadProcessesAreSweptAndLiveOnesKept() throws {
        let dir = try temporaryDirectory(self)
        let file = (dir as NSString).appendingPathComponent("song.flac")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: file)
        let working = WorkingFile.taggedCopy(of: file)
        let deadPID = try deadProcessID()
        let dead = working.path(in: dir, pid: deadPID), live = working.path(in: dir, pid: getppid())
        let fresh = working.path(in: dir, pid: try deadProcessID())
        let unrelated = (dir as NSString).appendingPathComponent(".beattag-rights")
        for path in [dead, live, fresh, unrelated] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        for path in [dead, live, unrelated] { age(path, by: 7200) }
        try BPMTagWriter.write(try BPMTagWriter.plan(path: file, bpm: 150, decimals: false))
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)),
                       Set(["song.flac", (live as NSString).lastPathComponent, (fresh as NSString).lastPathComponent, ".beattag-rights"]))
    }

    /// A name of 250 bytes (the limit is 255) is tagged, and a playlist of such a name written: their
    /// working files are named within the limit (an audit: "File name too long").
    func testNamesNearTheLengthLimitAreTaggedAndWritten() throws {
        let dir = try temporaryDirectory(self)
        let name = String(repeating: "é", count: 120) + "-long.flac"  // 245 bytes
        XCTAssertGreaterThan(name.utf8.count, 240)
        let file = (dir as NSString).appendingPathComponent(name)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: file)
        try BPMTagWriter.write(try BPMTagWriter.plan(path: file, bpm: 150, decimals: false))
        XCTAssertEqual(try TagReader.read(path: file).properties["BPM"]?.first, "150")
        let playlist = (dir as NSString).appendingPathComponent(String(repeating: "ü", count: 122) + ".m3u8")
        try AtomicFile.write("#EXTM3U\n", to: playlist, as: .playlist)
        XCTAssertEqual(try String(contentsOfFile: playlist, encoding: .utf8), "#EXTM3U\n")
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), [name, (playlist as NSString).lastPathComponent])
    }

    /// What desktop tools keep beside a file (KDE and GNOME tags and ratings in `user.xdg.*`) stays
    /// with it through a write, and through a playlist rewrite (scan audit LOW 6: they were dropped).
    func testExtendedAttributesSurviveTheWrite() throws {
        let dir = try temporaryDirectory(self)
        let file = (dir as NSString).appendingPathComponent("song.flac"), playlist = (dir as NSString).appendingPathComponent("run.m3u8")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: file)
        try AtomicFile.write("#EXTM3U\n", to: playlist, as: .playlist)
        let tags = Array("running,favourites".utf8), rating = Array("8".utf8)
        for path in [file, playlist] {
            guard tags.withUnsafeBytes({ setxattr(path, "user.xdg.tags", $0.baseAddress, tags.count, 0) }) == 0 else {
                throw XCTSkip("this file system keeps no user attributes (\(String(cString: strerror(errno))))")
            }
            XCTAssertEqual(rating.withUnsafeBytes { setxattr(path, "user.baloo.rating", $0.baseAddress, rating.count, 0) }, 0)
        }
        var before = stat()
        stat(file, &before)
        try BPMTagWriter.write(try BPMTagWriter.plan(path: file, bpm: 151, decimals: false))
        try AtomicFile.write("#EXTM3U\nsong.flac\n", to: playlist, as: .playlist)
        var after = stat()
        stat(file, &after)
        XCTAssertNotEqual(after.st_ino, before.st_ino, "a new file took the name")
        XCTAssertEqual(try TagReader.read(path: file).properties["BPM"]?.first, "151")
        for path in [file, playlist] {
            XCTAssertEqual(ExtendedAttributes.value("user.xdg.tags", of: path), tags, path)
            XCTAssertEqual(ExtendedAttributes.value("user.baloo.rating", of: path), rating, path)
        }
    }

    /// A FLAC or an Ogg saved under an .mp3 name: TagLib chose its parser by the name, so the scan
    /// read no tags (a no-derivatives licence unread: the track was stretched) and `tag --write`
    /// refused the FLAC (scan audit LOW 3). Tags are now read and written by what the file is.
    func testTagsOfAFileNamedAsAnotherFormatAreReadAndWrittenByItsContent() throws {
        let dir = try temporaryDirectory(self)
        let licence = "Attribution-NoDerivatives 4.0 International"
        var names: [String] = []
        for (fixture, container) in [("rock-150.flac", "FLAC"), ("dnb-174.ogg", "OggVorbis")] {
            let named = (dir as NSString).appendingPathComponent((fixture as NSString).deletingPathExtension + ".mp3")
            let proper = (dir as NSString).appendingPathComponent(fixture)
            try FileManager.default.copyItem(atPath: TestPaths.fixture(fixture), toPath: proper)
            try TagWriter.write(path: proper, properties: [("LICENSE", licence)])
            try FileManager.default.moveItem(atPath: proper, toPath: named)
            let tags = try TagReader.read(path: named)
            XCTAssertEqual(tags.properties["LICENSE"]?.first, licence, fixture)
            XCTAssertNotNil(tags.sampleRate, fixture)
            let plan = try BPMTagWriter.plan(path: named, bpm: 140, decimals: false)
            XCTAssertEqual(plan.container, container)
            try BPMTagWriter.write(plan)
            XCTAssertEqual(try TagReader.read(path: named).properties["BPM"]?.first, "140", fixture)
            XCTAssertTrue(try BPMTagWriter.samplesEqual(named, TestPaths.fixture(fixture)), fixture)
            let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: named)).read(upToCount: 4) ?? Data()
            XCTAssertEqual(String(decoding: head, as: UTF8.self), container == "FLAC" ? "fLaC" : "OggS", "no ID3 tag put in front")
            names.append(named)
        }
        let catalog = try Catalog(path: (dir as NSString).appendingPathComponent("c.sqlite"))
        _ = try LibraryScanner(catalog: catalog, options: ScanOptions(roots: names, source: .userOwned)).run()
        for name in names {
            let track = try XCTUnwrap(try catalog.track(path: name))
            XCTAssertFalse(track.tempoAdjustAllowed, "the file's no-derivatives licence is read: \(name)")
        }
    }

    func testFailureLeavesTheFileUntouched() throws {
        let dir = try temporaryDirectory(self)
        let file = (dir as NSString).appendingPathComponent("notes.mp3")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("odd/notes.mp3"), toPath: file)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try BPMTagWriter.write(BPMTagWriter.Plan(path: file, container: "MPEG", oldValue: nil, newValue: "170")))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["notes.mp3"])
    }
}
