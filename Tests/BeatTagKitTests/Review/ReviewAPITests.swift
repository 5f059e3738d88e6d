import BeatTagKit
import Foundation
import XCTest

/// The JSON API and the audio endpoint, as a script sees them, checked with independent tools.
final class ReviewAPITests: XCTestCase {
    func testQueueShapeRangesAndAPlayableCopyOfWMA() throws {
        let fixture = try ReviewFixture(self)
        let review = try ReviewProcess(catalog: fixture.catalog)
        defer { review.stop() }
        let auth = [("X-Beattag-Token", review.token)]

        // GET /api/queue?limit=N: the documented fields, and the count of the whole queue.
        let (status, body) = try review.http.json("GET", "/api/queue?limit=2", headers: auth)
        XCTAssertEqual(status, 200)
        let queue = try XCTUnwrap(body as? [String: Any])
        XCTAssertEqual(queue["remaining"] as? Int, ReviewFixture.doubtful.count)
        let tracks = try XCTUnwrap(queue["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.count, 2)
        for key in ["id", "path", "title", "artist", "bpm", "confidence", "alternativeBPM"] {
            XCTAssertNotNil(tracks[0][key], key)
        }

        // Ranges, as media elements ask for them, on a file sent as it is.
        let ogg = try fixture.id(of: "dnb-174.ogg")
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: (fixture.library as NSString).appendingPathComponent("dnb-174.ogg"))[.size] as? Int)
        let head = try review.http.send("HEAD", "/api/tracks/\(ogg)/audio", headers: auth)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], "\(size)")
        XCTAssertEqual(head.headers["accept-ranges"], "bytes")
        XCTAssertTrue(head.body.isEmpty)
        let part = try review.http.send("GET", "/api/tracks/\(ogg)/audio", headers: auth + [("Range", "bytes=0-99")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.headers["content-range"], "bytes 0-99/\(size)")
        XCTAssertEqual(part.body.count, 100)
        XCTAssertEqual(Array(part.body.prefix(4)), Array("OggS".utf8))
        let tail = try review.http.send("GET", "/api/tracks/\(ogg)/audio", headers: auth + [("Range", "bytes=-10")])
        XCTAssertEqual(tail.status, 206)
        XCTAssertEqual(tail.headers["content-range"], "bytes \(size - 10)-\(size - 1)/\(size)")
        XCTAssertEqual(try review.http.send("GET", "/api/tracks/\(ogg)/audio", headers: auth + [("Range", "bytes=\(size)-")]).status, 416)
        XCTAssertEqual(try review.http.send("GET", "/api/tracks/\(ogg)/audio", headers: auth + [("Range", "bytes=-0")]).status, 416, "no bytes asked")
        let headQueue = try review.http.send("HEAD", "/api/queue", headers: auth)
        XCTAssertEqual(headQueue.status, 200, "HEAD wherever GET is")
        XCTAssertTrue(headQueue.body.isEmpty)

        // WMA, which browsers cannot play, comes as FLAC that ffprobe reads to the catalog's length.
        let wma = try fixture.id(of: "encoded/trance-140.wma")
        let copy = try review.http.send("GET", "/api/tracks/\(wma)/audio", headers: auth)
        XCTAssertEqual(copy.status, 200)
        XCTAssertEqual(copy.headers["content-type"], "audio/flac")
        let file = (fixture.scanned.folder as NSString).appendingPathComponent("served.flac")
        try copy.body.write(to: URL(fileURLWithPath: file))
        let (probed, text) = try runTool(try requiredTool("ffprobe"), ["-v", "error", "-show_entries", "stream=codec_name:format=duration", "-of", "default=nw=1", file])
        XCTAssertEqual(probed, 0, text)
        XCTAssertTrue(text.contains("codec_name=flac"), text)
        let duration = Double(text.components(separatedBy: "duration=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        XCTAssertEqual(duration, try XCTUnwrap(try fixture.listed("encoded/trance-140.wma")["durationSeconds"] as? Double), accuracy: 0.05)

        // A file that stops decoding part-way (the scan analysed what decodes) plays that far.
        let cut = try review.http.send("GET", "/api/tracks/\(try fixture.id(of: "odd/truncated.m4a"))/audio", headers: auth)
        XCTAssertEqual(cut.status, 200, cut.text.prefix(200).description)
        let cutFile = (fixture.scanned.folder as NSString).appendingPathComponent("cut.flac")
        try cut.body.write(to: URL(fileURLWithPath: cutFile))
        let (cutStatus, cutText) = try runTool(try requiredTool("ffprobe"), ["-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", cutFile])
        XCTAssertEqual(cutStatus, 0, cutText)
        XCTAssertGreaterThan(Double(cutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 5, cutText)
    }

    /// Audio and overview come from the file the catalog describes: another song saved over it
    /// played under the old grid, a link to a text file was sent as audio/ogg, and a folder put in
    /// its place answered 200 with its size and no body (review audit 5).
    func testAFileReplacedSinceTheScanIsNotServed() throws {
        let fixture = try ReviewFixture(self)
        let review = try ReviewProcess(catalog: fixture.catalog)
        defer { review.stop() }
        let auth = [("X-Beattag-Token", review.token)]
        let path = (fixture.library as NSString).appendingPathComponent("dnb-174.ogg"), id = try fixture.id(of: "dnb-174.ogg")
        XCTAssertEqual(try review.http.send("HEAD", "/api/tracks/\(id)/audio", headers: auth).status, 200, "as scanned")
        func refused(_ what: String, status: Int = 409) throws {
            for endpoint in ["audio", "overview"] {
                let answer = try review.http.send("GET", "/api/tracks/\(id)/\(endpoint)", headers: auth)
                XCTAssertEqual(answer.status, status, "\(what), \(endpoint): \(answer.text.prefix(200))")
                XCTAssertTrue(answer.text.contains("the file of track \(id)"), answer.text)
            }
        }
        let other = (fixture.library as NSString).appendingPathComponent("house-124.opus")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: other, toPath: path)
        try refused("another song saved over it")
        try FileManager.default.removeItem(atPath: path)
        let text = (fixture.scanned.folder as NSString).appendingPathComponent("notes.txt")
        try Data(repeating: 65, count: 5000).write(to: URL(fileURLWithPath: text))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: text)
        try refused("a link to a text file")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try refused("a folder")
        try FileManager.default.removeItem(atPath: path)
        try refused("gone", status: 404)
        // The overview was asked for while the file was there: once gone it is refused too (it came from the cache).
        let rock = (fixture.library as NSString).appendingPathComponent("rock-150.flac"), rockID = try fixture.id(of: "rock-150.flac")
        XCTAssertEqual(try review.http.send("GET", "/api/tracks/\(rockID)/overview", headers: auth).status, 200)
        try FileManager.default.removeItem(atPath: rock)
        XCTAssertEqual(try review.http.send("GET", "/api/tracks/\(rockID)/overview", headers: auth).status, 404)
        // A file the scan could not decode (a text file with an audio name) is not sent as audio.
        let notes = try review.http.send("GET", "/api/tracks/\(try fixture.id(of: "odd/notes.mp3"))/audio", headers: auth)
        XCTAssertEqual(notes.status, 422, notes.text)
        XCTAssertTrue(notes.text.contains("could not be decoded: not audio"), notes.text)
    }

    /// `GET /api/tracks/{id}` says whether the track is in the queue now: a page that loaded the
    /// queue before a copy of the recording was settled learns it there.
    func testATrackSaysWhetherItIsQueuedNow() throws {
        let fixture = try ReviewFixture(self)
        let review = try ReviewProcess(catalog: fixture.catalog)
        defer { review.stop() }
        // Two doubtful tracks made copies of one recording (as a scan groups them by fingerprint).
        let (metal, wma, dnb) = (try fixture.id(of: "metal-168.aiff"), try fixture.id(of: "encoded/trance-140.wma"), try fixture.id(of: "dnb-174.ogg"))
        try checkingConnection(fixture.catalog).write { db in
            try db.execute(sql: "UPDATE track SET recording = 987654 WHERE id IN (?, ?)", arguments: [metal, wma])
        }
        func track(_ id: Int64) throws -> [String: Any] {
            let (status, body) = try review.http.json("GET", "/api/tracks/\(id)", headers: [("X-Beattag-Token", review.token)])
            XCTAssertEqual(status, 200)
            return try XCTUnwrap(body as? [String: Any])
        }
        XCTAssertEqual(try track(wma)["queued"] as? Bool, true)
        XCTAssertEqual(try track(wma)["reason"] as? String, "low confidence")
        let reply = try review.http.send("POST", "/api/tracks/\(metal)/bpm", headers: review.writeHeaders, body: Data(#"{"action": "confirm"}"#.utf8))
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(try track(metal)["queued"] as? Bool, false)
        XCTAssertEqual(try track(wma)["queued"] as? Bool, false, "settled on its copy")
        XCTAssertNil(try track(wma)["reason"])
        XCTAssertEqual(try track(dnb)["queued"] as? Bool, true, "another recording stays")
        let untagged = try runBinary(["untagged", "--json", "--catalog", fixture.catalog])
        XCTAssertFalse(untagged.stdout.contains("trance-140.wma"), "as `untagged` says")
    }

    /// A server killed before it could remove its FLAC copies leaves a folder behind; the next
    /// server removes it, and leaves a live server's folder alone.
    /// O from a card that is out of date (a second tab, a `beattag tag` meanwhile) is refused: the
    /// shift is relative, and a second tab's O put the first tab's grid back on the "and"s.
    func testAHalfBeatShiftFromAGridMovedSinceIsRefused() throws {
        let fixture = try ReviewFixture(self)
        let review = try ReviewProcess(catalog: fixture.catalog)
        defer { review.stop() }
        let id = try fixture.id(of: "house-128.wav")
        func shift(from: String?) throws -> (Int, [String: Any]?) {
            let body = from.map { #"{"shift": 0.5, "from": \#($0)}"# } ?? #"{"shift": 0.5}"#
            let reply = try review.http.send("POST", "/api/tracks/\(id)/beat", headers: review.writeHeaders, body: Data(body.utf8))
            let track = ((try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any])?["tracks"] as? [[String: Any]]
            return (reply.status, track?.first)
        }
        let (first, moved) = try shift(from: "null")  // tab A: the card shows the analysed grid
        XCTAssertEqual(first, 200)
        let anchor = try XCTUnwrap(moved?["beatAnchor"] as? Double)
        let (stale, _) = try shift(from: "null")  // tab B still shows the analysed grid
        XCTAssertEqual(stale, 409)
        XCTAssertEqual(try fixture.listed("house-128.wav")["beatAnchor"] as? Double ?? -1, anchor, accuracy: 0.001, "tab A's grid stays")
        let (current, back) = try shift(from: "\(anchor)")  // from the grid it has now: back to the analysed one
        XCTAssertEqual(current, 200)
        XCTAssertNil(back?["beatAnchor"] as? Double)
        XCTAssertEqual(try shift(from: nil).0, 200, "without `from` (a script), as `tag --shift-beats`")
    }

    func testTheCopiesOfAKilledServerAreRemovedByTheNext() throws {
        let fixture = try ReviewFixture(self)
        let first = try ReviewProcess(catalog: fixture.catalog)
        let wma = try fixture.id(of: "encoded/trance-140.wma")
        XCTAssertEqual(try first.http.send("GET", "/api/tracks/\(wma)/audio", headers: [("X-Beattag-Token", first.token)]).status, 200)
        let temporary = NSTemporaryDirectory()
        func folders(of process: ReviewProcess) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [])
                .filter { $0.hasPrefix("beattag-review-\(process.process.processIdentifier)-") }
        }
        let left = folders(of: first)
        XCTAssertEqual(left.count, 1, "the first server keeps its copies in one folder")
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        XCTAssertEqual(folders(of: first), left, "SIGKILL leaves the folder")
        // Names like it that are not a server's folder stay: a file, a folder with another kind of id.
        let dead = first.process.processIdentifier
        let others = ["beattag-review-\(dead)-notes.txt", "beattag-review-\(dead)-x"]
        FileManager.default.createFile(atPath: (temporary as NSString).appendingPathComponent(others[0]), contents: Data("keep".utf8))
        try FileManager.default.createDirectory(atPath: (temporary as NSString).appendingPathComponent(others[1]), withIntermediateDirectories: true)
        defer { for name in others { try? FileManager.default.removeItem(atPath: (temporary as NSString).appendingPathComponent(name)) } }

        let live = try ReviewProcess(catalog: fixture.catalog)
        defer { live.stop() }
        XCTAssertEqual(Set(folders(of: first)), Set(others), "the next server removed the killed one's folder, and only that")
        let third = try ReviewProcess(catalog: fixture.catalog)
        third.stop()
        XCTAssertEqual(folders(of: live).count, 1, "a live server's folder stays")
        XCTAssertEqual(folders(of: third), [], "a server stopped by Ctrl-C removes its own")
    }
}

/// The stored search text is the fold of what search looks in, in Swift and in SQL alike.
final class SearchTextTests: XCTestCase {
    /// A search looks below the scanned folder (from its own name down), not in the folders above
    /// it: with the music in /home/rocky/Music, "rock" found every track.
    func testASearchLooksInThePathFromTheScannedFolderDown() throws {
        let dir = try temporaryDirectory(self)
        let music = try folder((dir as NSString).appendingPathComponent("rocky/Music/Dance"), holding: ["house-128.wav", "trance-140.flac"])
        let root = (music as NSString).deletingLastPathComponent
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", root, "--catalog", catalog]).status, 0)
        func found(_ text: String) throws -> Int {
            let listed = try runBeattag(["list", "--search", text, "--json", "--catalog", catalog])
            return (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count ?? -1
        }
        XCTAssertEqual(try found("rock"), 0)
        XCTAssertEqual(try found("music/dance"), 2, "the scanned folder's own name and below")
        XCTAssertEqual(try found("house-128"), 1)
        XCTAssertEqual(TrackRecord.searchedPath("/home/rocky/m/a.flac", root: nil), "m/a.flac", "a file scanned by name")
        XCTAssertEqual(TrackRecord.searchedPath("/home/rocky/m/a.flac", root: "/other"), "m/a.flac")
        XCTAssertEqual(TrackRecord.searchedPath("/a.flac", root: nil), "a.flac")
        XCTAssertEqual(TrackRecord.searchedPath("/home/rocky/Music/a.flac", root: "/home/rocky/Music/"), "Music/a.flac")
    }

    func testEveryScannedRowCarriesItsFoldedSearchTextAndOldRowsAreFilled() throws {
        let fixture = try ScannedFixtures(self)
        let db = try checkingConnection(fixture.catalog)
        XCTAssertEqual(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM track WHERE searchText IS NULL") }, 0)
        let catalog = try Catalog(path: fixture.catalog, create: false)
        for track in try catalog.allTracks() {
            let stored = try db.read { try String.fetchOne($0, sql: "SELECT searchText FROM track WHERE id = ?", arguments: [track.id]) }
            XCTAssertEqual(stored, track.searchText, track.path)
        }
        // A row another tool wrote without it is still found (folded on the spot).
        try db.write { try $0.execute(sql: "UPDATE track SET searchText = NULL") }
        var query = TrackQuery()
        query.search = "BJÖRK-ISH"
        XCTAssertEqual(try catalog.tracks(matching: query).count, 1)
        // And the migration's SQL fold gives the Swift value.
        try db.write { try $0.execute(sql: "UPDATE track SET searchText = NULL; DELETE FROM grdb_migrations WHERE identifier = 'v10: search text'; DROP INDEX track_on_searchText; ALTER TABLE track DROP COLUMN searchText") }
        let upgraded = try Catalog(path: fixture.catalog, create: false)
        for track in try upgraded.allTracks() {
            let stored = try db.read { try String.fetchOne($0, sql: "SELECT searchText FROM track WHERE id = ?", arguments: [track.id]) }
            XCTAssertEqual(stored, track.searchText, track.path)
        }
        XCTAssertEqual(try upgraded.tracks(matching: query).count, 1)
    }
}
