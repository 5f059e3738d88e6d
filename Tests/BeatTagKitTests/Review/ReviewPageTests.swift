import Foundation
import XCTest

/// The review page in Debian's headless Chromium, driven through chromedriver: what a person does
/// with it, checked against the catalog through `beattag list --json`.
final class ReviewPageTests: XCTestCase {
    private var fixture: ReviewFixture!
    private var review: ReviewProcess!
    private var browser: WebDriver!

    override func setUpWithError() throws {
        fixture = try ReviewFixture(self)
        review = try ReviewProcess(catalog: fixture.catalog)
        browser = try WebDriver()
        try browser.open(review.url)
        try browser.wait(for: "window.beattag && window.beattag.ready && window.beattag.current")
    }

    override func tearDown() {
        browser?.quit()
        review?.stop()
    }

    private func queueIDs() throws -> [Int64] {
        (try browser.run("return window.beattag.queue.map(t => t.id)") as? [NSNumber] ?? []).map(\.int64Value)
    }

    /// Saved for a person to look at (and the closing note): `BEATTAG_SCREENSHOTS` or .build/review-screenshots.
    private func saveScreenshot(_ name: String) throws {
        let png = try browser.screenshot()
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        XCTAssertGreaterThan(png.count, 20_000, "a rendered page, not a blank one")
        let folder = ProcessInfo.processInfo.environment["BEATTAG_SCREENSHOTS"]
            ?? TestPaths.repository.appendingPathComponent(".build/review-screenshots").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try png.write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name)))
    }

    private func name(of id: Int64) throws -> String {
        try XCTUnwrap(ReviewFixture.doubtful.first { (try? fixture.id(of: $0)) == id })
    }

    /// Presses D (×2) on the current track, or H (÷2) when ×2 would leave the hand-set range, and
    /// checks what `list --json` then shows: the hand BPM and the beats counted at it.
    private func octaveDecision(on id: Int64, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual((try browser.run("return window.beattag.current.id") as? NSNumber)?.int64Value, id, file: file, line: line)
        let before = try fixture.listed(try name(of: id))
        let analysed = try XCTUnwrap(before["bpmAnalysed"] as? Double)
        let beats = try XCTUnwrap(before["beats"] as? [Double])
        let double = analysed * 2 <= 300
        try browser.press([double ? "d" : "h"])
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(id) && window.beattag.current && window.beattag.current.id !== \(id)",
                         file: file, line: line)
        let after = try fixture.listed(try name(of: id))
        XCTAssertEqual(try XCTUnwrap(after["bpmManual"] as? Double), ((double ? analysed * 2 : analysed / 2) * 10).rounded() / 10, accuracy: 0.001, file: file, line: line)
        XCTAssertEqual(after["bpmSource"] as? String, "manual", file: file, line: line)
        let counted = try XCTUnwrap(after["beats"] as? [Double])
        XCTAssertEqual(counted.count, double ? 2 * beats.count - 1 : (beats.count + 1) / 2, "beats counted at the new tempo", file: file, line: line)
        XCTAssertEqual(counted.first, beats.first, file: file, line: line)
    }

    func testTheQueueListsTheDoubtfulTracksAndKeysDecide() throws {
        // The page's queue is the catalog's doubtful tracks, in the API's (and `untagged`'s) order.
        let (_, api) = try review.http.json("GET", "/api/queue?limit=50", headers: [("X-Beattag-Token", review.token)])
        let apiIDs = ((api as? [String: Any])?["tracks"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
        let doubtful = try Set(ReviewFixture.doubtful.map { try fixture.id(of: $0) })
        XCTAssertEqual(Set(apiIDs), doubtful)
        XCTAssertEqual(try queueIDs(), apiIDs)
        let shown = try XCTUnwrap(try browser.run("return document.querySelector('#upcoming tbody').innerText") as? String)
        XCTAssertTrue(shown.contains("WMA at 140"), shown)
        XCTAssertEqual(try browser.run("return document.getElementById('remaining').textContent") as? String, "4 tracks left")
        try browser.wait(for: "window.beattag.overview && window.beattag.overview.peaks.length > 0")
        try saveScreenshot("review-queue.png")

        // D (×2) or H (÷2), whichever stays in range, on the first track: a hand BPM at that
        // multiple of the analysed one, with its beats counted again at the new tempo.
        let first = apiIDs[0]
        try octaveDecision(on: first)
        XCTAssertEqual(try queueIDs(), Array(apiIDs.dropFirst()), "the decided track left the queue")
        XCTAssertEqual(try browser.run("return document.getElementById('remaining').textContent") as? String, "3 tracks left")

        // S skips, ← comes back, → moves on: nothing is written.
        let second = apiIDs[1]
        try browser.press(["s"])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(apiIDs[2])")
        try browser.press([WebDriver.arrowLeft])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(second)")
        try browser.press([WebDriver.arrowRight])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(apiIDs[2])")
        try browser.press([WebDriver.arrowLeft])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(second)")
        XCTAssertNil(try fixture.listed(try name(of: apiIDs[2]))["bpmManual"] as? Double, "moving on writes nothing")
        // Skipping past what the page holds brings the queue's next tracks (it stopped at the 200th):
        // here a page of one, and the page holding only the track shown.
        _ = try browser.run("const b = window.beattag; b.held = b.queue.slice(); b.queuePage = 1; b.queue.length = 1; b.index = 0; return 0")
        try browser.press(["s"])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(apiIDs[2]) && window.beattag.queue.length === 2")
        _ = try browser.run("const b = window.beattag; b.queuePage = 200; b.queue = b.held; return 0")  // as it was, with index 1
        try browser.press([WebDriver.arrowLeft])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(second)")
        try octaveDecision(on: second)

        // Space × 6, 400 ms apart, and Enter: the tapped tempo (150 BPM).
        let third = try XCTUnwrap(try browser.run("return window.beattag.current.id") as? NSNumber).int64Value
        let thirdName = try name(of: third)
        try browser.press(Array(repeating: WebDriver.space, count: 6), pauseMilliseconds: 400)
        let tapped = try XCTUnwrap(try browser.run("return window.beattag.tappedBPM") as? Double)
        XCTAssertEqual(tapped, 150, accuracy: 12, "six taps 400 ms apart")
        try browser.press([WebDriver.enter])
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(third)")
        XCTAssertEqual(try XCTUnwrap(try fixture.listed(thirdName)["bpmManual"] as? Double), tapped, accuracy: 0.05)

        // R on the last: the BPM it had, now set by hand; the queue is empty.
        let fourth = try XCTUnwrap(try browser.run("return window.beattag.current.id") as? NSNumber).int64Value
        let fourthName = try name(of: fourth)
        let bpm = try XCTUnwrap(try fixture.listed(fourthName)["bpm"] as? Double)
        try browser.press(["r"])
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(fourth) && window.beattag.remaining === 0")
        XCTAssertEqual(try XCTUnwrap(try fixture.listed(fourthName)["bpmManual"] as? Double), bpm, accuracy: 0.05)
        XCTAssertEqual(try browser.run("return document.getElementById('empty').hidden") as? Bool, false)
        let untagged = try runBinary(["untagged", "--json", "--catalog", fixture.catalog])
        XCTAssertEqual(untagged.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[]", "nothing left for `untagged` either")
    }

    /// Keys faster than the saves: one decision per track, on the track shown. R saves the BPM the
    /// card shows even when the catalog changed meanwhile; a tempo tapped on one track is never saved
    /// on the next; deciding the last track shown leaves the one before it on the card.
    func testDecisionsLandOnTheTrackShownOnly() throws {
        let ids = try queueIDs()
        XCTAssertEqual(ids.count, 4)
        // The catalog changes under the page: R still saves what the card shows.
        let firstName = try name(of: ids[0])
        let shown = try XCTUnwrap(try browser.run("return window.beattag.current.bpm") as? Double)
        XCTAssertEqual(try runBinary(["tag", (fixture.library as NSString).appendingPathComponent(firstName), "--bpm", "120", "--catalog", fixture.catalog]).status, 0)
        // R and D at once: R is saved on the first track; D, pressed while R was saved, on none.
        try browser.press(["r", "d"], pauseMilliseconds: 0)
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(ids[0]) && !window.beattag.deciding && window.beattag.current")
        XCTAssertEqual(try XCTUnwrap(try fixture.listed(firstName)["bpmManual"] as? Double), shown, accuracy: 0.01, "R saved the BPM shown, once")
        XCTAssertNil(try fixture.listed(try name(of: ids[1]))["bpmManual"] as? Double, "D pressed during the save decided nothing")
        XCTAssertEqual(try queueIDs(), Array(ids.dropFirst()), "one track left the page, the one decided")

        // Taps on one track, → to the next, Enter: nothing is saved.
        try browser.press(Array(repeating: WebDriver.space, count: 5), pauseMilliseconds: 300)
        XCTAssertNotNil(try browser.run("return window.beattag.tappedBPM") as? Double)
        try browser.press([WebDriver.arrowRight])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(ids[2])")
        try browser.press([WebDriver.enter])
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertNil(try fixture.listed(try name(of: ids[2]))["bpmManual"] as? Double, "a tempo tapped on another track is not saved here")

        // The last track shown, decided: the card shows the one before it, not "nothing to do".
        try browser.press([WebDriver.arrowRight])
        try browser.wait(for: "window.beattag.current && window.beattag.current.id === \(ids[3])")
        try browser.press(["h"])  // ÷2 stays in the hand-set range for every fixture
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(ids[3]) && window.beattag.current")
        XCTAssertEqual((try browser.run("return window.beattag.current.id") as? NSNumber)?.int64Value, ids[2])
        XCTAssertEqual(try browser.run("return document.getElementById('empty').hidden") as? Bool, true)
    }

    /// U takes back the newest decision: the hand-set BPM is gone and the track is on the card
    /// again; a second U the one before. A hand BPM changed since in a terminal is kept, and said.
    func testUndoTakesBackDecisionsButNotAnEditMadeSince() throws {
        let ids = try queueIDs()
        XCTAssertEqual(try browser.run("return document.getElementById('undo-bar').hidden") as? Bool, true, "nothing to undo yet")
        try octaveDecision(on: ids[0])
        try octaveDecision(on: ids[1])
        let bar = try XCTUnwrap(try browser.run("return document.getElementById('undo-bar').innerText") as? String)
        XCTAssertTrue(bar.contains("Undo"), bar)
        try saveScreenshot("review-undo.png")
        XCTAssertEqual(try browser.run("return document.getElementById('remaining').textContent") as? String, "2 tracks left")

        try browser.press(["u"])
        try browser.wait(for: "!window.beattag.deciding && window.beattag.current && window.beattag.current.id === \(ids[1])")
        XCTAssertNil(try fixture.listed(try name(of: ids[1]))["bpmManual"] as? Double, "the hand BPM is gone")
        XCTAssertEqual(try fixture.listed(try name(of: ids[1]))["bpmSource"] as? String, "analysis")
        XCTAssertNotNil(try fixture.listed(try name(of: ids[0]))["bpmManual"] as? Double, "the decision before stays")
        try browser.press(["u"])
        try browser.wait(for: "!window.beattag.deciding && window.beattag.current && window.beattag.current.id === \(ids[0])")
        XCTAssertNil(try fixture.listed(try name(of: ids[0]))["bpmManual"] as? Double)
        XCTAssertEqual(Set(try queueIDs()), Set(ids), "both tracks are back on the page")
        XCTAssertEqual(try browser.run("return document.getElementById('remaining').textContent") as? String, "4 tracks left")
        XCTAssertEqual(try browser.run("return document.getElementById('undo-bar').hidden") as? Bool, true, "nothing left to undo")
        let untagged = try runBinary(["untagged", "--json", "--catalog", fixture.catalog])
        let doubtful = (try JSONSerialization.jsonObject(with: Data(untagged.stdout.utf8)) as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        for id in ids { XCTAssertTrue(doubtful.contains { $0.hasSuffix("/" + (try! name(of: id))) }, "track \(id) is doubtful again: \(doubtful)") }

        // Decided here, changed in a terminal, then U: the terminal's BPM stays and the page says why.
        let firstName = try name(of: ids[0])
        try octaveDecision(on: ids[0])
        XCTAssertEqual(try runBinary(["tag", (fixture.library as NSString).appendingPathComponent(firstName), "--bpm", "99", "--catalog", fixture.catalog]).status, 0)
        try browser.press(["u"])
        try browser.wait(for: "!document.getElementById('error').hidden")
        let error = try XCTUnwrap(try browser.run("return document.getElementById('error').textContent") as? String)
        XCTAssertTrue(error.contains("changed since (now 99 BPM)"), error)
        XCTAssertEqual(try fixture.listed(firstName)["bpmManual"] as? Double, 99, "an edit made since is never lost")
    }

    /// Keyboard users: Enter on a focused button presses it (Play plays), and Space on it is not a tap.
    func testEnterAndSpaceOnAFocusedButtonPressIt() throws {
        _ = try browser.run("document.getElementById('play').focus(); return true")
        try browser.press([WebDriver.enter])
        try browser.wait(for: "window.beattag.playback && window.beattag.playback.playing")
        try browser.press([WebDriver.space])
        XCTAssertEqual(try browser.run("return window.beattag.taps.length") as? Int, 0, "Space pressed the button, no tap")
        XCTAssertNil(try fixture.listed(try name(of: try queueIDs()[0]))["bpmManual"] as? Double)
    }

    /// A decision pressed from the keyboard (Tab to it, Enter): the next card keeps the keyboard's
    /// place. The focus was dropped to the page, and the next Tab started again at its top; a
    /// focused button would take the next Space instead of a tap, so the card holds the focus.
    func testAKeyboardDecisionKeepsTheTabPositionInTheCard() throws {
        let ids = try queueIDs()
        _ = try browser.run("document.querySelector(\"button.decide[data-action='confirm']\").focus(); return true")
        try browser.press([WebDriver.enter])
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(ids[0]) && window.beattag.current && window.beattag.current.id === \(ids[1])")
        XCTAssertEqual(try browser.run("return document.activeElement.id") as? String, "card")
        try browser.press([WebDriver.space])
        XCTAssertEqual(try browser.run("return window.beattag.taps.length") as? Int, 1, "Space tapped, pressed no button")
        try browser.press([WebDriver.tab])
        XCTAssertEqual(try browser.run("return document.activeElement.id") as? String, "play", "Tab goes on in the card")
        XCTAssertEqual(try queueIDs(), Array(ids.dropFirst()), "one track decided")
    }

    /// A decision clicked with the mouse: the next Space taps the next track's tempo (the button
    /// kept the focus, and each Space decided another track: review audit 1). The click starts at
    /// the beat on every card (a ×2 kept from the last card played one tempo while R saved another).
    func testAMouseClickLeavesSpaceAndEnterToTapAndSave() throws {
        let ids = try queueIDs()
        try browser.press(["c"])
        XCTAssertEqual((try browser.run("return window.beattag.clickMode") as? NSNumber)?.doubleValue, 2)
        try browser.click("button.decide[data-action='confirm']")
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(ids[0]) && window.beattag.current && window.beattag.current.id === \(ids[1])")
        XCTAssertEqual((try browser.run("return window.beattag.clickMode") as? NSNumber)?.doubleValue, 1, "the next card starts at the beat")
        XCTAssertTrue((try browser.run("return document.getElementById('click-mode').textContent") as? String ?? "").hasPrefix("Click: beat"))
        try browser.press(Array(repeating: WebDriver.space, count: 5), pauseMilliseconds: 300)
        XCTAssertEqual(try browser.run("return window.beattag.taps.length") as? Int, 5, "Space tapped")
        XCTAssertEqual(try queueIDs(), Array(ids.dropFirst()), "no other track decided")
        for id in ids.dropFirst() { XCTAssertNil(try fixture.listed(try name(of: id))["bpmManual"] as? Double, "track \(id)") }
        // Taps made with the mouse on Tap: Enter saves them.
        for _ in 0..<5 { try browser.click("#tap"); usleep(300_000) }
        let tapped = try XCTUnwrap(try browser.run("return window.beattag.tappedBPM") as? Double)
        try browser.press([WebDriver.enter])
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(ids[1])")
        XCTAssertEqual(try XCTUnwrap(try fixture.listed(try name(of: ids[1]))["bpmManual"] as? Double), tapped, accuracy: 0.05)
    }

    /// In the library the queue's card is hidden: P plays nothing and O moves nothing until a
    /// track is played from the library (P played the hidden card's track and O moved its beats).
    func testPAndOInTheLibraryLeaveTheHiddenCardAlone() throws {
        let card = try XCTUnwrap((try browser.run("return window.beattag.current.id") as? NSNumber)?.int64Value)
        try browser.click("#tab-library")
        try browser.wait(for: "document.querySelectorAll('#tracks tbody tr').length > 0")
        try browser.press(["p"])
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try browser.run("return !!(window.beattag.playback && window.beattag.playback.playing)") as? Bool ?? true, "nothing plays")
        try browser.press(["o"])
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertNil(try fixture.listed(try name(of: card))["beatAnchor"] as? Double, "the hidden card's beats stay")
    }

    /// A 400 px wide window (a phone): the page is no wider than the window, on both tabs.
    func testANarrowWindowDoesNotScrollSideways() throws {
        try browser.resize(width: 400, height: 800)
        try browser.wait(for: "window.innerWidth <= 400")
        let overflow = "return document.documentElement.scrollWidth - window.innerWidth"
        XCTAssertLessThanOrEqual((try browser.run(overflow) as? NSNumber)?.intValue ?? 999, 0, "queue")
        _ = try browser.run("document.getElementById('tab-library').click(); return true")
        try browser.wait(for: "document.querySelector('#tracks tbody').rows.length > 0")
        XCTAssertLessThanOrEqual((try browser.run(overflow) as? NSNumber)?.intValue ?? 999, 0, "library")
    }

    func testPlaySchedulesClicksOnTheStoredBeats() throws {
        let id = try XCTUnwrap(try browser.run("return window.beattag.current.id") as? NSNumber).int64Value
        let name = try XCTUnwrap(ReviewFixture.doubtful.first { (try? fixture.id(of: $0)) == id })
        let beats = try XCTUnwrap(try fixture.listed(name)["beats"] as? [Double])
        try browser.press(["p"])
        try browser.wait(for: "window.beattag.playback && window.beattag.playback.playing && window.beattag.scheduledClicks.length > 0")
        // Audio runs: the audio clock moves on while the source plays.
        let t0 = try XCTUnwrap(try browser.run("return document.readyState && (window.beattag.playback && window.beattag.playback.contextStart)") as? Double)
        try browser.wait(for: "window.beattag.playback.playing && Object.values(window).length && (function(){ const p = window.beattag.playback; return p && p.playing; })()")
        usleep(400_000)
        let state = try XCTUnwrap(try browser.run("""
            const p = window.beattag.playback;
            return { start: p.contextStart, offset: p.trackOffset, clicks: window.beattag.scheduledClicks.map(c => [c.beat, c.at]) };
            """) as? [String: Any])
        let start = try XCTUnwrap(state["start"] as? Double), offset = try XCTUnwrap(state["offset"] as? Double)
        XCTAssertEqual(start, t0)
        let clicks = try XCTUnwrap(state["clicks"] as? [[Double]])
        // Play starts on a stored beat (a bar's first), and that beat clicks too: the beats are
        // stored to 0.1 ms, the start is not rounded.
        let expected = beats.filter { $0 >= offset - 0.001 }
        XCTAssertEqual(try XCTUnwrap(expected.first), offset, accuracy: 0.001, "play starts on a beat")
        XCTAssertEqual(clicks.count, expected.count, "a click on every stored beat from the start of play")
        for (click, beat) in zip(clicks, expected) {
            // Where the click sounds, in the track's own time, against the catalog's beat.
            XCTAssertEqual(click[1] - start + offset, beat, accuracy: 0.005)
        }
        let running = try browser.run("""
            const c = window.beattag.playback && document.querySelector('#play');
            return [window.beattag.playback.playing, c.textContent.trim().startsWith('Stop')];
            """) as? [Bool]
        XCTAssertEqual(running, [true, true])

        // C: the click at twice the rate puts one between each two beats, on the same clock.
        try browser.press(["c"])
        try browser.wait(for: "window.beattag.playback.clickMode === 2")
        let doubled = try XCTUnwrap(try browser.run("return window.beattag.scheduledClicks.map(c => [c.beat, c.at])") as? [[Double]])
        XCTAssertGreaterThan(doubled.count, 4)
        for pair in zip(doubled, doubled.dropFirst()) {
            XCTAssertEqual(pair.1[1] - pair.0[1], pair.1[0] - pair.0[0], accuracy: 0.001, "clicks keep the music's clock")
        }
        let spacing = zip(beats, beats.dropFirst()).map { $1 - $0 }.sorted()[beats.count / 2]
        let doubledSpacing = doubled[1][0] - doubled[0][0]
        XCTAssertEqual(doubledSpacing, spacing / 2, accuracy: 0.01)
        try browser.press(["p"])
        try browser.wait(for: "window.beattag.playback.playing === false")
    }

    /// O: the click falls between the beats. The grid moves half a beat by hand (as `tag
    /// --shift-beats 0.5`), the clicks being played move with it, the track stays to be decided,
    /// and O again puts the analysed grid back.
    func testOMovesTheGridHalfABeatAndTheClicksFollow() throws {
        let id = try XCTUnwrap(try browser.run("return window.beattag.current.id") as? NSNumber).int64Value
        let name = try name(of: id)
        let analysed = try XCTUnwrap(try fixture.listed(name)["beats"] as? [Double])
        let halfways = zip(analysed, analysed.dropFirst()).map { ($0 + $1) / 2 }
        try browser.press(["p"])
        try browser.wait(for: "window.beattag.playback && window.beattag.playback.playing && window.beattag.scheduledClicks.length > 0")
        // Well into the music (it starts 0.2 s after Play): the clicks from here on keep its clock.
        Thread.sleep(forTimeInterval: 0.8)

        try browser.press(["o"])
        try browser.wait(for: "window.beattag.current.beatAnchor != null")
        let moved = try fixture.listed(name)
        XCTAssertNotNil(moved["beatAnchor"] as? Double, "saved in the catalog")
        XCTAssertNil(moved["bpmManual"] as? Double, "the tempo is not decided by it")
        let beats = try XCTUnwrap(moved["beats"] as? [Double])
        for beat in beats.dropFirst().dropLast() {
            XCTAssertEqual(halfways.map { abs($0 - beat) }.min()!, 0, accuracy: 0.001, "every beat half-way between two analysed ones")
        }
        let state = try XCTUnwrap(try browser.run("""
            const p = window.beattag.playback;
            return { start: p.contextStart, offset: p.trackOffset, playing: p.playing, current: window.beattag.current.id,
                     queued: window.beattag.queue.some(t => t.id === \(id)), text: document.querySelector('#t-beat').textContent,
                     clicks: window.beattag.scheduledClicks.map(c => [c.beat, c.at]) };
            """) as? [String: Any])
        XCTAssertEqual(state["playing"] as? Bool, true, "the music plays on")
        XCTAssertEqual((state["current"] as? NSNumber)?.int64Value, id)
        XCTAssertEqual(state["queued"] as? Bool, true, "still in the queue: its tempo is not settled")
        XCTAssertEqual(state["text"] as? String, "beats moved by hand")
        try saveScreenshot("beats-moved-by-hand.png")
        let start = try XCTUnwrap(state["start"] as? Double), offset = try XCTUnwrap(state["offset"] as? Double)
        let clicks = try XCTUnwrap(state["clicks"] as? [[Double]])
        XCTAssertGreaterThan(clicks.count, 4)
        for click in clicks {
            XCTAssertEqual(beats.map { abs($0 - click[0]) }.min()!, 0, accuracy: 0.001, "a click on a moved beat")
            XCTAssertEqual(click[1] - start + offset, click[0], accuracy: 0.005, "on the music's clock")
        }

        try browser.press(["o"])
        try browser.wait(for: "window.beattag.current.beatAnchor == null")
        let back = try fixture.listed(name)
        XCTAssertNil(back["beatAnchor"] as? Double)
        XCTAssertEqual(try XCTUnwrap(back["beats"] as? [Double]), analysed, "the analysed grid again")
        try browser.press(["p"])
        try browser.wait(for: "window.beattag.playback.playing === false")
    }

    /// A copy whose recording was settled on another copy leaves the page's queue when its turn
    /// comes: the page showed it, and a decision on it set only that copy, until a reload.
    func testACopySettledOnAnotherCopyIsNotShownAgain() throws {
        let ids = try queueIDs()
        XCTAssertEqual(ids.count, ReviewFixture.doubtful.count)
        // The next two in the queue become copies of one recording (as a scan finds them by content).
        try checkingConnection(fixture.catalog).write { db in
            try db.execute(sql: "UPDATE track SET recording = 987654 WHERE id IN (?, ?)", arguments: [ids[0], ids[1]])
        }
        XCTAssertEqual(try queueIDs(), ids, "the page holds the queue it loaded")
        try browser.press(["r"])
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(ids[0]) && window.beattag.current && window.beattag.current.id !== \(ids[0])")
        XCTAssertEqual((try browser.run("return window.beattag.current.id") as? NSNumber)?.int64Value, ids[2], "the settled copy is passed over")
        XCTAssertEqual(try queueIDs(), Array(ids[2...]))
        try browser.wait(for: "window.beattag.remaining === \(ids.count - 2)")
        XCTAssertEqual(try browser.run("return document.querySelector('#remaining').textContent") as? String, "\(ids.count - 2) tracks left")
        XCTAssertNil(try fixture.listed(try name(of: ids[1]))["bpmManual"] as? Double, "nothing written for the copy")
    }

    /// A grid the analysis moved half a beat is queued for its beats, after the runnable tempo
    /// doubts; the card says what to listen for, and O settles it: the track leaves the count.
    func testAGridTheAnalysisMovedIsQueuedAndOSettlesIt() throws {
        let rock = "rock-150.flac", rockID = try fixture.id(of: rock)
        try checkingConnection(fixture.catalog).write { db in
            try db.execute(sql: "UPDATE track SET phaseMoved = 1 WHERE id = ?", arguments: [rockID])
        }
        try browser.open(review.url)
        try browser.wait(for: "window.beattag && window.beattag.ready && window.beattag.current")
        let queue = try XCTUnwrap(try browser.run("return window.beattag.queue.map(t => [t.id, t.reason, t.bpm])") as? [[Any]])
        XCTAssertEqual(queue.count, ReviewFixture.doubtful.count + 1)
        let position = try XCTUnwrap(queue.firstIndex { ($0[0] as? NSNumber)?.int64Value == rockID })
        XCTAssertEqual(queue[position][1] as? String, "beats moved half a beat")
        // After the runnable tempo doubts, before the slow ones.
        func runnable(_ row: [Any]) -> Bool { (row[2] as? NSNumber).map { (140...200).contains($0.doubleValue) } ?? false }
        XCTAssertTrue(queue[..<position].allSatisfy { $0[1] as? String == "low confidence" && runnable($0) }, "\(queue)")
        XCTAssertTrue(queue[(position + 1)...].allSatisfy { !runnable($0) }, "\(queue)")
        let remaining = try XCTUnwrap(try browser.run("return window.beattag.remaining") as? NSNumber).intValue
        for row in queue[1...position] {
            try browser.press(["s"])
            try browser.wait(for: "window.beattag.current && window.beattag.current.id === \((row[0] as? NSNumber)?.int64Value ?? -1)")
        }
        let hint = try XCTUnwrap(try browser.run("return document.querySelector('#t-beat').textContent") as? String)
        XCTAssertTrue(hint.contains("the analysis moved these beats half a beat"), hint)

        try browser.press(["o"])
        try browser.wait(for: "window.beattag.current.beatAnchor != null && window.beattag.remaining === \(remaining - 1)")
        XCTAssertEqual(try browser.run("return document.querySelector('#remaining').textContent") as? String,
                       "\(remaining - 1) tracks left")
        XCTAssertNotNil(try fixture.listed(rock)["beatAnchor"] as? Double)
        let untagged = try runBinary(["untagged", "--json", "--catalog", fixture.catalog])
        XCTAssertFalse(untagged.stdout.contains(rock), "settled for its beats")
    }

    func testWMAAndALACPlayInTheBrowser() throws {
        for name in ["encoded/trance-140.wma", "encoded/house-128-alac.m4a", "dnb-174.ogg"] {
            let id = try fixture.id(of: name)
            let script = """
                window.__media = 'loading';
                const a = new Audio('/api/tracks/\(id)/audio');
                a.addEventListener('canplay', () => { window.__media = 'canplay:' + a.duration.toFixed(2); });
                a.addEventListener('error', () => { window.__media = 'error:' + (a.error && a.error.code); });
                return true;
                """
            _ = try browser.run(script)
            let result = try XCTUnwrap(try browser.wait(for: "window.__media !== 'loading' && window.__media") as? String)
            XCTAssertTrue(result.hasPrefix("canplay:"), "\(name): \(result)")
            let duration = Double(result.dropFirst("canplay:".count)) ?? 0
            XCTAssertEqual(duration, try XCTUnwrap(try fixture.listed(name)["durationSeconds"] as? Double), accuracy: 0.2, name)
        }
    }

    func testTheLibrarySearchesFiltersAndRates() throws {
        try browser.run("document.getElementById('tab-library').click(); return true")
        try browser.wait(for: "document.querySelectorAll('#tracks tbody tr').length > 0 && document.querySelector('#histogram svg rect')")
        // The chart counts what its range leaves out, as `beattag stats` does.
        let stats = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try runBinary(["stats", "--json", "--catalog", fixture.catalog]).stdout.utf8)) as? [String: Any])
        let below = try XCTUnwrap(stats["belowRange"] as? Int), above = try XCTUnwrap(stats["aboveRange"] as? Int), without = try XCTUnwrap(stats["withoutBPM"] as? Int)
        XCTAssertGreaterThan(below, 0, "the fixtures have slow songs")
        let chart = try XCTUnwrap(try browser.run("return document.querySelector('#histogram svg').textContent") as? String)
        XCTAssertTrue(chart.contains("outside the chart: \(below) below 140, \(above) above 200, \(without) without a BPM"), chart)
        // Accent-insensitive search: "bjork" finds "Björk-ish Ensemble – Ünïcødé – ритм".
        try browser.run("const q = document.getElementById('f-q'); q.value = 'bjork'; q.dispatchEvent(new Event('input', {bubbles: true})); return true")
        try browser.wait(for: "document.querySelectorAll('#tracks tbody tr').length === 1")
        let row = try XCTUnwrap(try browser.run("return document.querySelector('#tracks tbody tr').innerText") as? String)
        XCTAssertTrue(row.contains("Björk-ish Ensemble") && row.contains("160"), row)
        // A BPM range filter.
        try browser.run("""
            const q = document.getElementById('f-q'); q.value = '';
            document.getElementById('f-min').value = '170'; document.getElementById('f-max').value = '180';
            q.dispatchEvent(new Event('input', {bubbles: true})); return true
            """)
        try browser.wait(for: "window.beattag.library.tracks.length > 0 && window.beattag.library.tracks.every(t => t.bpm >= 170 && t.bpm <= 180)")
        let inRange = try XCTUnwrap(try browser.run("return window.beattag.library.tracks.map(t => t.path)") as? [String])
        let listed = try runBinary(["list", "--json", "--min-bpm", "170", "--max-bpm", "180", "--catalog", fixture.catalog])
        let expected = ((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8))) as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        XCTAssertEqual(Set(inRange), Set(expected))
        // ♥ on the first row: liked in the catalog.
        let path = try XCTUnwrap(inRange.first)
        try browser.run("document.querySelector('#tracks tbody tr button[title=liked]').click(); return true")
        try browser.wait(for: "window.beattag.library.tracks.length && window.beattag.library.tracks[0].rating === 'liked'")
        let rows = (try JSONSerialization.jsonObject(with: Data(try runBinary(["list", "--json", "--catalog", fixture.catalog]).stdout.utf8))) as? [[String: Any]] ?? []
        XCTAssertEqual(rows.first { $0["path"] as? String == path }?["rating"] as? String, "liked")
        // ▶ plays a track with its click; O moves its grid there too (a sure tempo on the "and"s
        // never reaches the queue).
        try browser.run("document.querySelector('#tracks tbody tr button[title=\"play with its click\"]').click(); return true")
        try browser.wait(for: "window.beattag.playback && window.beattag.playback.playing && window.beattag.current")
        try browser.press(["o"])
        try browser.wait(for: "window.beattag.current.beatAnchor != null")
        let moved = (try JSONSerialization.jsonObject(with: Data(try runBinary(["list", "--json", "--catalog", fixture.catalog]).stdout.utf8))) as? [[String: Any]] ?? []
        XCTAssertNotNil(moved.first { $0["path"] as? String == path }?["beatAnchor"] as? Double, "a beat placed by hand from the library")
        try browser.press(["p"])
        try browser.wait(for: "window.beattag.playback.playing === false")
        try saveScreenshot("review-library.png")
    }

    /// A decision made while `scan --force` runs as a separate process is kept.
    func testADecisionDuringAForcedScanIsKept() throws {
        let id = try XCTUnwrap(try browser.run("return window.beattag.current.id") as? NSNumber).int64Value
        let name = try XCTUnwrap(ReviewFixture.doubtful.first { (try? fixture.id(of: $0)) == id })
        let scan = Process()
        scan.executableURL = URL(fileURLWithPath: TestPaths.executable)
        scan.arguments = ["scan", fixture.library, "--force", "--jobs", "1", "--catalog", fixture.catalog]
        scan.standardOutput = FileHandle.nullDevice
        scan.standardError = FileHandle.nullDevice
        try scan.run()
        usleep(300_000)
        XCTAssertTrue(scan.isRunning, "the scan must be running when the decision is made for this test to mean anything")
        try browser.press(["h"])
        try browser.wait(for: "window.beattag.lastDecision && window.beattag.lastDecision.id === \(id)", seconds: 60)
        XCTAssertTrue(scan.isRunning, "and still running after it")
        scan.waitUntilExit()
        XCTAssertEqual(scan.terminationStatus, 1, "the fixtures' odd files fail; the rest is scanned")
        let row = try fixture.listed(name)
        XCTAssertEqual(try XCTUnwrap(row["bpmManual"] as? Double), ((try XCTUnwrap(row["bpmAnalysed"] as? Double)) / 2 * 10).rounded() / 10, accuracy: 0.001)
        XCTAssertEqual(row["bpmSource"] as? String, "manual")
    }
}
