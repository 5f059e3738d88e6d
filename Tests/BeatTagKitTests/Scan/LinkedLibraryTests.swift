@testable import BeatTagKit
import Foundation
import XCTest

/// A library with a symbolically linked file and a linked folder: each file is one track under the
/// path the user scanned, and `tag`, `rate` and playlists work with that path (or the target's).
final class LinkedLibraryTests: XCTestCase {
    func testLinkedFilesKeepTheirLibraryPaths() throws {
        let dir = try temporaryDirectory(self)
        let fm = FileManager.default
        let elsewhere = (dir as NSString).appendingPathComponent("elsewhere")
        let library = (dir as NSString).appendingPathComponent("lib")
        try fm.createDirectory(atPath: (elsewhere as NSString).appendingPathComponent("folder"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: (library as NSString).appendingPathComponent("a"), withIntermediateDirectories: true)
        let clip = (elsewhere as NSString).appendingPathComponent("clip.ogg")
        try fm.copyItem(atPath: TestPaths.fixture("dnb-174.ogg"), toPath: clip)
        try fm.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: (elsewhere as NSString).appendingPathComponent("folder/rock.flac"))
        let linkedFile = (library as NSString).appendingPathComponent("a/linked.ogg")
        try fm.createSymbolicLink(atPath: linkedFile, withDestinationPath: clip)
        try fm.createSymbolicLink(atPath: (library as NSString).appendingPathComponent("b"),
                                  withDestinationPath: (elsewhere as NSString).appendingPathComponent("folder"))
        // A second link to the same file: still one track.
        try fm.createSymbolicLink(atPath: (library as NSString).appendingPathComponent("a/again.ogg"), withDestinationPath: clip)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")

        XCTAssertEqual(try runBeattag(["scan", library, "--catalog", catalog]).status, 0)
        let paths = Set(try Catalog(path: catalog, create: false).allTracks().map(\.path))
        XCTAssertEqual(paths.count, 2, "\(paths)")
        XCTAssertTrue(paths.allSatisfy { $0.hasPrefix(library + "/") }, "library paths, not the links' targets: \(paths)")
        let linkedPath = try XCTUnwrap(paths.first { $0.hasSuffix(".ogg") })

        // By the library path, relative to the working directory as the user types it.
        let tag = try runBeattag(["tag", linkedFile, "--bpm", "100", "--catalog", catalog])
        XCTAssertEqual(tag.status, 0, tag.stderr)
        XCTAssertEqual(try Catalog(path: catalog, create: false).track(path: linkedPath)?.bpmManual, 100)
        // By the target's path: the same track.
        let rock = (library as NSString).appendingPathComponent("b/rock.flac")
        XCTAssertEqual(try runBeattag(["rate", (elsewhere as NSString).appendingPathComponent("folder/rock.flac"), "--like",
                                       "--catalog", catalog]).status, 0)
        XCTAssertEqual(try Catalog(path: catalog, create: false).track(path: rock)?.rating, .liked)
        XCTAssertEqual(try runBeattag(["tag", rock, "--bpm", "151", "--catalog", catalog]).status, 0)

        // The playlist names the library path, relative to the playlist.
        let list = (dir as NSString).appendingPathComponent("p.m3u8")
        let playlist = try runBeattag(["playlist", "--spm", "150", "--duration", "2m", "--allow-short", "-o", list, "--catalog", catalog])
        XCTAssertEqual(playlist.status, 0, playlist.stderr)
        let text = try String(contentsOfFile: list, encoding: .utf8)
        XCTAssertTrue(text.contains("\nlib/b/rock.flac\n"), text)
        XCTAssertFalse(text.contains("elsewhere"), text)
    }

    /// An empty file failed before it was fingerprinted, so a scan through a link to its folder did
    /// not know it was catalogued and gave it a second row.
    func testAnEmptyFileReachedThroughALinkIsOneRow() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music"), link = (dir as NSString).appendingPathComponent("link")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: (music as NSString).appendingPathComponent("rock.flac"))
        XCTAssertTrue(FileManager.default.createFile(atPath: (music as NSString).appendingPathComponent("empty.wav"), contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: music)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 1, "the empty file fails")
        XCTAssertEqual(try runBeattag(["scan", link, "--catalog", catalog]).status, 1)
        let rows = try Catalog(path: catalog, create: false).allTracks()
        XCTAssertEqual(rows.map { ($0.path as NSString).lastPathComponent }.sorted(), ["empty.wav", "rock.flac"], "\(rows.map(\.path))")
    }

    /// One file under two folders of different rights (a hard link, a link to a file) is taken
    /// under the folder that forbids a tempo change, in one walk and when the second path comes
    /// later: the first path found won, so a no-derivatives file was stretched (hand-data hunt 1, 2).
    func testAFileInTwoFoldersTakesTheStricterRights() throws {
        let dir = try temporaryDirectory(self)
        let library = (dir as NSString).appendingPathComponent("lib")
        let open = (library as NSString).appendingPathComponent("A"), strict = (library as NSString).appendingPathComponent("B")
        for (folder, source) in [(open, "cc-by"), (strict, "cc-by-nd")] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "source = \(source)\n".write(toFile: (folder as NSString).appendingPathComponent(".beattag-rights"), atomically: true, encoding: .utf8)
        }
        let strictFile = (strict as NSString).appendingPathComponent("clip.ogg"), openFile = (open as NSString).appendingPathComponent("rock.flac")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("dnb-174.ogg"), toPath: strictFile)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: openFile)
        func addLinks() throws {
            try FileManager.default.linkItem(atPath: strictFile, toPath: (open as NSString).appendingPathComponent("hard.ogg"))
            try FileManager.default.createSymbolicLink(atPath: (strict as NSString).appendingPathComponent("link.flac"), withDestinationPath: "../A/rock.flac")
        }
        func rows(_ catalog: String) throws -> [String: (Bool, Double?)] {
            Dictionary(uniqueKeysWithValues: try Catalog(path: catalog, create: false).allTracks().map {
                (String($0.path.dropFirst(library.count + 1)), ($0.tempoAdjustAllowed, $0.bpmManual))
            })
        }
        let expected = ["B/clip.ogg", "B/link.flac"]
        // Both paths in one walk.
        try addLinks()
        let fresh = (dir as NSString).appendingPathComponent("fresh.sqlite")
        let first = try runBeattag(["scan", library, "--json", "--catalog", fresh])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try rows(fresh).keys.sorted(), expected)
        XCTAssertTrue(try rows(fresh).values.allSatisfy { !$0.0 }, "never stretched")
        let summary = try JSONDecoder().decode(ScanSummary.self, from: Data(first.stdout.utf8))
        XCTAssertEqual(summary.sameFiles.map(\.cataloguedAs).map { String($0.dropFirst(library.count + 1)) }.sorted(), expected)
        // The second path added after the first was catalogued with a hand BPM: the row moves, the BPM with it.
        for link in ["A/hard.ogg", "B/link.flac"] { try FileManager.default.removeItem(atPath: (library as NSString).appendingPathComponent(link)) }
        let older = (dir as NSString).appendingPathComponent("older.sqlite")
        XCTAssertEqual(try runBeattag(["scan", library, "--catalog", older]).status, 0)
        XCTAssertEqual(try runBeattag(["tag", openFile, "--bpm", "151", "--catalog", older]).status, 0)
        try addLinks()
        for _ in 0..<2 { XCTAssertEqual(try runBeattag(["scan", library, "--catalog", older]).status, 0) }
        XCTAssertEqual(try rows(older).keys.sorted(), expected)
        XCTAssertTrue(try rows(older).values.allSatisfy { !$0.0 }, "never stretched")
        XCTAssertEqual(try rows(older)["B/link.flac"]?.1, 151, "the hand BPM moved with the row")
    }

    /// A file with two hard links is one track under one of its names; `tag` and `rate` by the other
    /// name reach that track (scan audit LOW 4: "not in the catalog").
    func testAHardLinkedNameReachesItsTrack() throws {
        let dir = try temporaryDirectory(self)
        let library = (dir as NSString).appendingPathComponent("lib")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: false)
        let first = (library as NSString).appendingPathComponent("a.flac"), second = (library as NSString).appendingPathComponent("b.flac")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: first)
        try FileManager.default.linkItem(atPath: first, toPath: second)
        let outside = (dir as NSString).appendingPathComponent("same-size.flac")  // same bytes, another file: never it
        try FileManager.default.copyItem(atPath: first, toPath: outside)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", library, "--catalog", catalog]).status, 0)
        let paths = try Catalog(path: catalog, create: false).allTracks().map(\.path)
        XCTAssertEqual(paths.count, 1, "\(paths)")
        let other = paths[0] == first ? second : first
        let tag = try runBeattag(["tag", other, "--bpm", "151", "--catalog", catalog])
        XCTAssertEqual(tag.status, 0, tag.stderr)
        let rate = try runBeattag(["rate", other, "--like", "--catalog", catalog])
        XCTAssertEqual(rate.status, 0, rate.stderr)
        let track = try XCTUnwrap(try Catalog(path: catalog, create: false).track(path: paths[0]))
        XCTAssertEqual(track.bpmManual, 151)
        XCTAssertEqual(track.rating, .liked)
        let copy = try runBeattag(["tag", outside, "--bpm", "152", "--catalog", catalog])
        XCTAssertEqual(copy.status, 1, "a copy with the same size is another file: \(copy.stderr)")
        XCTAssertTrue(copy.stderr.contains("not in the catalog"), copy.stderr)
    }

    func testLexicalPathsDoNotFollowLinks() throws {
        XCTAssertEqual(LexicalPath.clean("/a/./b//c/../d/"), "/a/b/d")
        XCTAssertEqual(LexicalPath.clean("/../x"), "/x")
        XCTAssertEqual(LexicalPath.absolute("x/../y", workingDirectory: "/w"), "/w/y")
        XCTAssertEqual(M3U8Writer.relativePath(from: "/m/lists", to: "/m/lib/b/rock.flac"), "../lib/b/rock.flac")
    }
}
