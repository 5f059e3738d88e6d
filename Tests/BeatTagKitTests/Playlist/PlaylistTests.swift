@testable import BeatTagKit
import XCTest

final class SongIdentityTests: XCTestCase {
    func testVersionsOfOneSongShareAKey() {
        let same = ["Run Boy Run", "Run Boy Run (Radio Edit)", "Run Boy Run - Remastered 2011", "Run Boy Run (feat. MC X)",
                    "run boy run [2011 Remaster]", "Run Boy Run (Single Version)", "Run, Boy, Run!", "Run Boy Run ft. Somebody"]
        XCTAssertEqual(Set(same.map(SongIdentity.normalizedTitle)).count, 1, "\(Set(same.map(SongIdentity.normalizedTitle)))")
        XCTAssertNotEqual(SongIdentity.normalizedTitle("Run Boy Run (Live)"), SongIdentity.normalizedTitle("Run Boy Run"))
        XCTAssertNotEqual(SongIdentity.normalizedTitle("Run Boy Run (Dub Remix)"), SongIdentity.normalizedTitle("Run Boy Run"))
        // Notes that hold a merging word ("edit", "with") but name a distinct version (an audit).
        let versions = ["Highway", "Highway (Live)", "Highway (Live with Orchestra)", "Highway (Skrillex Remix Edit)",
                        "Highway - Live at Wembley", "Highway (Extended Mix)", "Highway (Acoustic Version)"]
        XCTAssertEqual(Set(versions.map(SongIdentity.normalizedTitle)).count, versions.count, "\(versions.map(SongIdentity.normalizedTitle))")
        XCTAssertEqual(SongIdentity.normalizedTitle("Highway (Radio Edit)"), SongIdentity.normalizedTitle("Highway"))
        XCTAssertEqual(SongIdentity.normalizedTitle("Highway (Original Mix)"), SongIdentity.normalizedTitle("Highway"))
        XCTAssertEqual(SongIdentity.normalizedTitle("Highway (with Jane Doe)"), SongIdentity.normalizedTitle("Highway"))
        // Without an artist a track is its own song, whatever its title or file name.
        var a = TrackRecord(path: "/m/A/01.flac", fileSize: 1, modifiedAt: 0, now: 0), b = a
        b.path = "/m/B/01.flac"
        XCTAssertNotEqual(SongIdentity.key(for: a), SongIdentity.key(for: b))
        a.title = "Track 1"; b.title = "Track 1"
        XCTAssertNotEqual(SongIdentity.key(for: a), SongIdentity.key(for: b))
        a.artist = "X"; b.artist = "X"
        XCTAssertEqual(SongIdentity.key(for: a), SongIdentity.key(for: b))
        XCTAssertEqual(SongIdentity.primaryArtist("Woodkid feat. Someone"), SongIdentity.primaryArtist("woodkid"))
        XCTAssertEqual(SongIdentity.primaryArtist("Björk & Friends"), SongIdentity.primaryArtist("Bjork"))
    }
}

final class PlaylistBuilderTests: XCTestCase {
    private func match(_ id: Int64, _ title: String, artist: String, seconds: Double = 200, shift: Double = 0) -> CadenceMatch {
        var r = TrackRecord(path: "/m/\(id).ogg", fileSize: 1, modifiedAt: 0, now: 0)
        r.id = id; r.title = title; r.artist = artist; r.durationSeconds = seconds; r.bpm = 175
        return CadenceMatch(track: r, bpm: 175, stepsPerBeat: 1, ratio: 1 + shift / 100, shiftPercent: shift, adjustedBPM: 175)
    }

    private var library: [CadenceMatch] {
        [match(1, "Song A", artist: "X"), match(2, "Song A (Radio Edit)", artist: "X feat. Y"), match(3, "Song B", artist: "X"),
         match(4, "Song C", artist: "Z"), match(5, "Song D", artist: "W"), match(6, "Song E", artist: "X"), match(7, "Song F", artist: "V"),
         match(8, "Song G", artist: "U"), match(9, "Song H", artist: "T")]
    }

    func testFillsTheTimeWithNoSongTwice() {
        let playlist = PlaylistBuilder(targetSeconds: 1500, seed: 1).build(from: library)
        XCTAssertGreaterThanOrEqual(playlist.seconds, 1500)
        XCTAssertEqual(playlist.entries.count, 8)
        let keys = playlist.entries.map { SongIdentity.key(for: $0.track) }
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertFalse(playlist.entries.contains { $0.track.id == 1 } && playlist.entries.contains { $0.track.id == 2 })
    }

    /// The track that reaches the time is the shortest that does: 21 min from 5-min songs and one
    /// of a minute is 21 min, not 25 (an audit: 20 min came out 23:07).
    func testTheLastTrackOvershootsAsLittleAsTheLibraryAllows() {
        let songs = (1...10).map { match(Int64($0), "Song \($0)", artist: "A\($0)", seconds: 300) } + [match(11, "Short", artist: "S", seconds: 60)]
        for seed in UInt64(1)...20 {
            XCTAssertEqual(PlaylistBuilder(targetSeconds: 1260, seed: seed).build(from: songs).seconds, 1260, "seed \(seed)")
        }
    }

    func testSameSeedSamePlaylist() {
        let a = PlaylistBuilder(targetSeconds: 800, seed: 42).build(from: library).entries.compactMap(\.track.id)
        let b = PlaylistBuilder(targetSeconds: 800, seed: 42).build(from: library).entries.compactMap(\.track.id)
        XCTAssertEqual(a, b)
        let others = (1...20).map { PlaylistBuilder(targetSeconds: 800, seed: UInt64($0)).build(from: library).entries.compactMap(\.track.id) }
        XCTAssertGreaterThan(Set(others).count, 1, "seeds must matter")
    }

    func testArtistsAreSpreadWhenPossible() {
        let entries = PlaylistBuilder(targetSeconds: 1500, seed: 3).build(from: library).entries
        let artists = entries.map { SongIdentity.primaryArtist($0.track.artist ?? "") }
        for (a, b) in zip(artists, artists.dropFirst()) { XCTAssertNotEqual(a, b, "\(artists)") }
    }

    /// One artist with more than half of the tracks goes first, or two of them end up side by side
    /// (an audit: Kw, Golf, Golf where Golf, Kw, Golf exists).
    func testAnArtistWithMostOfTheTracksIsSpreadToo() {
        let tracks = [match(1, "Whitenoise", artist: "Kw Six"), match(2, "Fill 14", artist: "Golf"), match(3, "Fill 02", artist: "Golf")]
        XCTAssertEqual(PlaylistBuilder.spreadArtists(tracks).compactMap(\.track.id), [2, 1, 3])
        let many = (1...4).map { match(Int64($0), "G\($0)", artist: "G") } + (5...7).map { match(Int64($0), "O\($0)", artist: "O\($0)") }
        let artists = PlaylistBuilder.spreadArtists(many).map { $0.track.artist! }
        for (a, b) in zip(artists, artists.dropFirst()) { XCTAssertNotEqual(a, b, "\(artists)") }
        XCTAssertEqual(PlaylistBuilder.spreadArtists(Array(many.prefix(4)) + [many[4]], after: ["g"]).map { $0.track.artist! },
                       ["O5", "G", "G", "G", "G"], "impossible to spread: never starting on the artist just played")
    }

    func testTracksWithoutArtistDoNotCountAsOneArtist() {
        var untagged = (10...13).map { match(Int64($0), "Song \($0)", artist: "") }
        for i in untagged.indices { untagged[i].track.artist = nil }
        let ordered = PlaylistBuilder.spreadArtists(untagged + [match(20, "Other", artist: "K")])
        XCTAssertEqual(ordered.compactMap(\.track.id), [10, 11, 12, 13, 20], "ranked order kept: no artist to spread")
    }

    func testRecentlyExportedTracksOnlyWhenNeeded() {
        var builder = PlaylistBuilder(targetSeconds: 600, seed: 5)
        builder.avoid = [1, 3, 4]
        let fresh = builder.build(from: library)
        XCTAssertTrue(fresh.entries.allSatisfy { ![1, 3, 4].contains($0.track.id!) })
        XCTAssertEqual(fresh.reused, 0)
        builder.targetSeconds = 1600
        XCTAssertGreaterThan(builder.build(from: library).reused, 0)
    }

    /// The best copy of a song gone since the scan gives way to the song's next copy; the song was
    /// dropped with it.
    func testAGoneBestCopyGivesWayToTheNextCopy() {
        var builder = PlaylistBuilder(targetSeconds: 10_000, seed: 2)
        builder.unusableFile = { $0.id == 1 ? "no such file or directory" : nil }
        let playlist = builder.build(from: library)
        XCTAssertTrue(playlist.entries.contains { $0.track.id == 2 }, "Song A's radio edit stands in: \(playlist.entries.compactMap(\.track.id))")
        XCTAssertFalse(playlist.entries.contains { $0.track.id == 1 })
        XCTAssertEqual(playlist.leftOut.map(\.path), ["/m/1.ogg"])
        builder.unusableFile = { [1, 2].contains($0.id) ? "gone" : nil }
        let neither = builder.build(from: library)
        XCTAssertFalse(neither.entries.contains { [1, 2].contains($0.track.id) })
        XCTAssertEqual(Set(neither.leftOut.map(\.path)), ["/m/1.ogg", "/m/2.ogg"])
        XCTAssertEqual(neither.entries.count, 7)
    }

    func testDurationParsing() {
        XCTAssertEqual(DurationText.seconds("40m"), 2400)
        XCTAssertEqual(DurationText.seconds("1h10m"), 4200)
        XCTAssertEqual(DurationText.seconds("90s"), 90)
        XCTAssertEqual(DurationText.seconds("45:00"), 2700)
        XCTAssertEqual(DurationText.seconds("1:00:00"), 3600)
        XCTAssertEqual(DurationText.seconds("2400"), 2400)
        XCTAssertNil(DurationText.seconds("forty"))
        XCTAssertNil(DurationText.seconds("0"))
        XCTAssertEqual(DurationText.seconds("90:00"), 5400, "minutes may pass 59 when they lead")
        XCTAssertNil(DurationText.seconds("1:99"), "a typo, not 2:39")
        XCTAssertNil(DurationText.seconds("1:75:00"))
        XCTAssertNil(DurationText.seconds("0:00"))
        XCTAssertNil(DurationText.seconds("5::"))
    }

    /// A segment 0.5 s short read "0:10 of 0:10 … short by 0:01" (an audit): tenths where whole
    /// seconds show two times alike, and a shortfall under ten seconds in tenths.
    func testTimesThatRoundAlikeAreShownInTenths() {
        XCTAssertTrue(DurationText.clocks(9.7, 10.2) == ("0:09.7", "0:10.2"))
        XCTAssertTrue(DurationText.clocks(3600.4, 3599.8) == ("1:00:00.4", "59:59.8"))
        XCTAssertTrue(DurationText.clocks(95, 300) == ("1:35", "5:00"), "whole seconds where they differ")
        XCTAssertTrue(DurationText.clocks(10.01, 10.02) == ("0:10", "0:10"), "alike to a tenth: alike")
        XCTAssertEqual(DurationText.shortfall(0.5), "0.5 s")
        XCTAssertEqual(DurationText.shortfall(300), "5:00")
    }
}

final class M3U8WriterTests: XCTestCase {
    /// A playlist written into a folder reached through a link: a player walks `..` from the real
    /// folder, so the relative path is counted from there (an audit: `pl-link/../music/a.flac` did not open).
    func testRelativePathsHoldFromALinkedPlaylistFolder() throws {
        let dir = try XCTUnwrap(LexicalPath.resolved(try temporaryDirectory(self)))
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/real/pl", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/music", withIntermediateDirectories: true)
        XCTAssertTrue(fm.createFile(atPath: dir + "/music/a.flac", contents: Data("x".utf8)))
        try fm.createSymbolicLink(atPath: dir + "/pl-link", withDestinationPath: "real/pl")
        var track = TrackRecord(path: dir + "/music/a.flac", fileSize: 1, modifiedAt: 0, now: 0)
        track.title = "A"; track.durationSeconds = 60
        let match = CadenceMatch(track: track, bpm: 170, stepsPerBeat: 1, ratio: 1, shiftPercent: 0, adjustedBPM: 170)
        for folder in ["pl-link", "real/pl", "music"] {
            let text = M3U8Writer.render([match], title: "t", playlistPath: dir + "/" + folder + "/run.m3u8", absolute: false)
            let entry = try XCTUnwrap(text.split(separator: "\n").last.map(String.init))
            XCTAssertFalse(entry.hasPrefix("/"), "relative: \(entry)")
            XCTAssertEqual(LexicalPath.resolved(dir + "/" + folder + "/" + entry), dir + "/music/a.flac", "from \(folder): \(entry)")
        }
    }

    func testExtendedM3UWithRelativeUnicodePaths() throws {
        var r = TrackRecord(path: "/music/Björk/Ünïcødé – ритм.ogg", fileSize: 1, modifiedAt: 0, now: 0)
        r.title = "Ритм"; r.artist = "Björk"; r.durationSeconds = 215.4
        let m = CadenceMatch(track: r, bpm: 170, stepsPerBeat: 1, ratio: 1, shiftPercent: 0, adjustedBPM: 170)
        let text = M3U8Writer.render([m], title: "Run\n175", playlistPath: "/music/playlists/run.m3u8", absolute: false)
        XCTAssertEqual(text, "#EXTM3U\n#PLAYLIST:Run 175\n#EXTINF:215,Björk - Ритм\n../Björk/Ünïcødé – ритм.ogg\n")
        // Creative Commons music asks for credit: a comment before its entry (players skip it).
        var by = r
        (by.sourceType, by.license, by.attribution, by.sourceURL) = (.ccBy, "https://creativecommons.org/licenses/by/4.0/", "Jane\nDoe", "https://x.org/a")
        let credited = M3U8Writer.render([CadenceMatch(track: by, bpm: 170, stepsPerBeat: 1, ratio: 1, shiftPercent: 0, adjustedBPM: 170)],
                                         title: "t", playlistPath: "/music/playlists/run.m3u8", absolute: false)
        XCTAssertEqual(credited.split(separator: "\n").dropFirst(2).first,
                       "# CC BY (https://creativecommons.org/licenses/by/4.0/); credit: Jane Doe; source: https://x.org/a")
        let absolute = M3U8Writer.render([m], title: "t", playlistPath: "/music/playlists/run.m3u8", absolute: true)
        XCTAssertTrue(absolute.hasSuffix("\n/music/Björk/Ünïcødé – ритм.ogg\n"))
        XCTAssertEqual(M3U8Writer.relativePath(from: "/a/b", to: "/a/b/c/d.mp3"), "c/d.mp3")
        XCTAssertEqual(M3U8Writer.relativePath(from: "/a/b", to: "/x/y.mp3"), "../../x/y.mp3")
        // A line break in a file name cannot split the entry: the path goes as an escaped file URI.
        var odd = r
        odd.path = "/music/new\nline 100%.flac"
        let escaped = M3U8Writer.render([CadenceMatch(track: odd, bpm: 170, stepsPerBeat: 1, ratio: 1, shiftPercent: 0, adjustedBPM: 170)],
                                        title: "t", playlistPath: "/music/playlists/run.m3u8", absolute: false)
        let lines = escaped.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 5, escaped)
        XCTAssertEqual(lines[3], "file:///music/new%0Aline%20100%25.flac")
        XCTAssertEqual(URL(string: String(lines[3]))?.path, odd.path)

        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("run.m3u8")
        try AtomicFile.write(text, to: path, as: .playlist)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertFalse(bytes.starts(with: [0xEF, 0xBB, 0xBF]), "no BOM")
        XCTAssertEqual(String(data: bytes, encoding: .utf8), text)
        XCTAssertThrowsError(try AtomicFile.write(text, to: "/nonexistent/folder/run.m3u8", as: .playlist)) { error in
            XCTAssertEqual("\(error)", "cannot write /nonexistent/folder/run.m3u8: folder /nonexistent/folder does not exist")
        }
    }

    /// A link is written through and stays a link; a replaced file keeps its permissions.
    func testAtomicWritesFollowLinksAndKeepPermissions() throws {
        let dir = try temporaryDirectory(self)
        let real = (dir as NSString).appendingPathComponent("real/run.m3u8")
        try FileManager.default.createDirectory(atPath: (real as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try AtomicFile.write("old\n", to: real, as: .playlist)
        XCTAssertEqual(chmod(real, 0o600), 0)
        let link = (dir as NSString).appendingPathComponent("run.m3u8")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/run.m3u8")
        try AtomicFile.write("new\n", to: link, as: .playlist)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "real/run.m3u8", "still a link")
        XCTAssertEqual(try String(contentsOfFile: real, encoding: .utf8), "new\n")
        var st = stat()
        XCTAssertEqual(stat(real, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), ["real", "run.m3u8"], "no temporary left")
    }

    /// `-o` naming the catalog, a song, a FIFO or a folder by mistake: only what is of the kind being
    /// written (or empty) is replaced; a FIFO is written to, not replaced.
    func testAnOutputReplacesOnlyAFileOfItsKind() throws {
        let dir = try temporaryDirectory(self)
        func path(_ name: String) -> String { (dir as NSString).appendingPathComponent(name) }
        _ = try Catalog(path: path("catalog.sqlite"))
        var song = Data("fLaC".utf8); song.append(contentsOf: [0, 0, 0, 34] + [UInt8](repeating: 7, count: 200))
        try song.write(to: URL(fileURLWithPath: path("song.flac")))
        for (name, kind) in [("catalog.sqlite", AtomicFile.Kind.playlist), ("song.flac", .playlist), ("song.flac", .cueSheet), ("song.flac", .svg)] {
            let before = try Data(contentsOf: URL(fileURLWithPath: path(name)))
            XCTAssertThrowsError(try AtomicFile.write("#EXTM3U\n", to: path(name), as: kind)) { error in
                XCTAssertTrue("\(error)".contains("it exists and is not"), "\(error)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path(name))), before, "\(name) untouched")
        }
        XCTAssertNoThrow(try Catalog(path: path("catalog.sqlite")).allTracks(), "the catalog still opens")
        try "notes\n".write(toFile: path("notes.txt"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try AtomicFile.write("#EXTM3U\n", to: path("notes.txt"), as: .playlist))

        // Replaced: an earlier playlist (by its header or its name), an empty file.
        try "#EXTM3U\nold.flac\n".write(toFile: path("old.txt"), atomically: true, encoding: .utf8)
        try AtomicFile.write("#EXTM3U\nnew.flac\n", to: path("old.txt"), as: .playlist)
        XCTAssertEqual(try String(contentsOfFile: path("old.txt"), encoding: .utf8), "#EXTM3U\nnew.flac\n")
        try "a.flac\n".write(toFile: path("plain.m3u"), atomically: true, encoding: .utf8)
        try AtomicFile.write("#EXTM3U\n", to: path("plain.m3u"), as: .playlist)
        XCTAssertTrue(FileManager.default.createFile(atPath: path("empty.svg"), contents: Data()))
        try AtomicFile.write("<svg/>", to: path("empty.svg"), as: .svg)

        // A folder is refused; a FIFO gets the text and stays a FIFO.
        try FileManager.default.createDirectory(atPath: path("folder.m3u8"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try AtomicFile.write("#EXTM3U\n", to: path("folder.m3u8"), as: .playlist)) { error in
            XCTAssertTrue("\(error)".hasSuffix("it is a folder"), "\(error)")
        }
        XCTAssertEqual(mkfifo(path("pipe"), 0o600), 0)
        let received = Locked(Data())
        let pipe = path("pipe")
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: pipe) { received.value = handle.readDataToEndOfFile() }
        }
        reader.start()
        try AtomicFile.write("#EXTM3U\nsong.flac\n", to: path("pipe"), as: .playlist)
        let deadline = Date().addingTimeInterval(5)
        while received.value.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(String(decoding: received.value, as: UTF8.self), "#EXTM3U\nsong.flac\n")
        var st = stat()
        XCTAssertEqual(lstat(path("pipe"), &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
    }
}
