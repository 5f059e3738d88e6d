@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// A beat placed by hand moves the grid in use onto the beat a person heard (the analysis can lock
/// on the "and"), keeps the analysed spacing, and is kept like every other hand edit.
final class HandBeatTests: XCTestCase {
    // MARK: - The grid moved onto a hand-placed beat

    func testThePhaseOfATimeOnTheGrid() throws {
        let beats = [1.0, 1.5, 2.0, 2.5]
        XCTAssertEqual(try XCTUnwrap(BeatAnchor.phase(of: 1.75, on: beats)), 0.5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(BeatAnchor.phase(of: 2.125, on: beats)), 0.25, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(BeatAnchor.phase(of: 2.375, on: beats)), -0.25, accuracy: 1e-12, "nearer the next beat: earlier")
        XCTAssertEqual(try XCTUnwrap(BeatAnchor.phase(of: 0.625, on: beats)), 0.25, accuracy: 1e-12, "before the first: its interval extended")
        XCTAssertEqual(try XCTUnwrap(BeatAnchor.phase(of: 3.25, on: beats)), 0.5, accuracy: 1e-12, "after the last")
        XCTAssertNil(BeatAnchor.phase(of: 1, on: [1]))
    }

    func testHalfABeatLaterFollowsADriftingGrid() {
        // Intervals 0.5, 0.52, 0.54, …: each beat moves half of the interval it moves into.
        var beats = [2.0]
        for i in 0..<10 { beats.append(beats.last! + 0.5 + 0.02 * Double(i)) }
        let moved = BeatAnchor.moved(beats, toBeatAt: (beats[4] + beats[5]) / 2, duration: 30)
        XCTAssertEqual(moved.count, beats.count + 1, "one beat more before the first")
        XCTAssertEqual(moved[0], beats[0] - 0.25, accuracy: 1e-9)
        for i in 0..<(beats.count - 1) {
            XCTAssertEqual(moved[i + 1], (beats[i] + beats[i + 1]) / 2, accuracy: 1e-9, "beat \(i)")
        }
        XCTAssertEqual(moved.last!, beats.last! + 0.5 * (beats[10] - beats[9]), accuracy: 1e-9)
    }

    func testASixteenthEarlierAndTheEnds() {
        let beats = stride(from: 0.1, through: 5.1, by: 0.5).map { $0 }
        let earlier = BeatAnchor.moved(beats, toBeatAt: 2.6 - 0.125, duration: 5.3)
        XCTAssertEqual(earlier.first!, 0.1 + 0.5 - 0.125, accuracy: 1e-9, "the first beat moved before 0 is dropped")
        XCTAssertEqual(earlier.last!, 5.1 - 0.125, accuracy: 1e-9, "the beat added after the last lies past the end: dropped")
        XCTAssertEqual(earlier.count, beats.count - 1)
    }

    /// Only a metrical phase is taken: a hand beat a tenth of a beat off an analysed one is that
    /// beat (a tap's error, or one rushed beat), one a fifth of a beat off moves the grid a quarter.
    func testTheGridMovesByAQuarterAThirdOrAHalf() {
        let beats = stride(from: 0.0, through: 10, by: 0.5).map { $0 }
        XCTAssertEqual(BeatAnchor.moved(beats, toBeatAt: 4.0 + 0.05, duration: nil), beats)
        XCTAssertEqual(BeatAnchor.moved(beats, toBeatAt: 4.0 - 0.05, duration: nil), beats)
        for (off, by) in [(0.1, 0.25), (-0.1, -0.25), (0.19, 1.0 / 3), (0.23, 0.5), (0.27, 0.5), (0.35, -1.0 / 3)] {
            let moved = BeatAnchor.moved(beats, toBeatAt: 4.0 + off, duration: nil)
            let expected = BeatAnchor.moved(beats, by: by, duration: nil)
            XCTAssertEqual(moved, expected, "\(off) s off")
        }
        XCTAssertEqual(BeatAnchor.snapped(0.75), -0.25)
        XCTAssertEqual(BeatAnchor.snapped(-0.5), 0.5)
        XCTAssertEqual(BeatAnchor.snapped(-0.45), 0.5, "around the circle")
        XCTAssertEqual(BeatAnchor.snapped(2.05), 0)
    }

    // MARK: - On real decoded audio, through the catalog

    private var folder = ""
    private var catalog: Catalog!
    private var truth: [Double] = []

    override func setUpWithError() throws {
        folder = try temporaryDirectory(self)
        catalog = try Catalog(path: folder + "/catalog.sqlite")
        try FileManager.default.createDirectory(atPath: folder + "/lib", withIntermediateDirectories: true)
        var synth = DrumSynth(sampleRate: 22050, bpm: 120, pattern: .backbeat, seconds: 20)
        try AudioWriter.write(synth.render(), sampleRate: 22050, to: folder + "/lib/song.wav", as: .wav)
        truth = synth.beatTimes
    }

    private var song: String { folder + "/lib/song.wav" }

    private func scan(force: Bool = false) throws {
        try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [folder + "/lib"], force: force)).run()
    }

    /// The largest distance from a beat of `beats` (after the first second) to the nearest of `targets`.
    private func worstDistance(_ beats: [Double], to targets: [Double]) -> Double {
        beats.filter { $0 > 1 && $0 < truth.last! }.map { b in targets.map { abs($0 - b) }.min()! }.max() ?? .infinity
    }

    private var offBeats: [Double] { zip(truth, truth.dropFirst()).map { ($0 + $1) / 2 } }

    func testHalfABeatByHandIsKeptThroughAForcedRescanAndTakenBackBySecondShift() throws {
        try scan()
        let analysed = try XCTUnwrap(try catalog.track(path: song))
        XCTAssertLessThan(worstDistance(analysed.beatsInUse, to: truth), 0.02, "the analysis finds this beat")

        let shifted = try HandBeat.apply(.shift(0.5), to: song, in: catalog)
        XCTAssertNotNil(shifted.beatAnchor)
        XCTAssertLessThan(worstDistance(shifted.beatsInUse, to: offBeats), 0.02, "every beat in use on an \"and\"")
        XCTAssertEqual(shifted.bpm, analysed.bpm, "the tempo is untouched")

        try scan(force: true)
        let rescanned = try XCTUnwrap(try catalog.track(path: song))
        XCTAssertEqual(rescanned.beatAnchor, shifted.beatAnchor, "hand data survives re-analysis")
        XCTAssertLessThan(worstDistance(rescanned.beatsInUse, to: offBeats), 0.02)

        let back = try HandBeat.apply(.shift(0.5), to: song, in: catalog)
        XCTAssertNil(back.beatAnchor, "back on the analysed grid: nothing held by hand")
        XCTAssertEqual(back.beatsInUse, rescanned.beatsAtBPMInUse)
    }

    func testABeatNamedByItsTimeAndAHandBPMAtAnotherLevel() throws {
        try scan()
        let placed = try HandBeat.apply(.at(offBeats[20]), to: song, in: catalog)
        XCTAssertLessThan(worstDistance(placed.beatsInUse, to: offBeats), 0.02)

        // ÷2 by hand keeps every other beat; the hand beat stays a beat of the grid in use.
        let halved = try ManualBPM.apply(.scale(0.5), to: song, in: catalog)
        let beats = try XCTUnwrap(try catalog.track(path: song)).beatsInUse
        XCTAssertEqual(halved.bpm ?? 0, 60, accuracy: 1)
        XCTAssertLessThan(beats.map { abs($0 - offBeats[20]) }.min()!, 0.02, "a beat on the hand-placed one")
        XCTAssertEqual(try XCTUnwrap(beats.last) - beats[beats.count - 2], 1.0, accuracy: 0.02, "at 60 BPM")

        XCTAssertThrowsError(try HandBeat.apply(.at(25), to: song, in: catalog)) {
            XCTAssertEqual("\($0)", "25 s is outside the track (0–20 s)")
        }
        XCTAssertNil(try HandBeat.apply(.clear, to: song, in: catalog).beatAnchor)
    }

    /// A copy of the recording without a hand beat of its own is judged with the one set on
    /// another copy (as `match` and `render` see it); its own row keeps none.
    func testAHandBeatHoldsForTheRecordingsOtherCopies() throws {
        try FileManager.default.copyItem(atPath: song, toPath: folder + "/lib/copy.wav")
        try scan()
        let anchor = try XCTUnwrap(try HandBeat.apply(.shift(0.5), to: song, in: catalog).beatAnchor)
        let copy = try XCTUnwrap(try catalog.track(path: folder + "/lib/copy.wav"))
        XCTAssertNil(copy.beatAnchor)
        XCTAssertEqual(try catalog.withRecordingsHandWord([copy]).first?.beatAnchor, anchor)
    }

    /// A beat change goes with `--write` into the catalog first: a write refused (a read-only file)
    /// leaves it made, and says both.
    func testABeatChangeIsMadeEvenWhenTheTagWriteIsRefused() throws {
        try scan()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: song)
        let result = try runBeattag(["tag", song, "--write", "--shift-beats", "0.5", "--catalog", folder + "/catalog.sqlite"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains(": beats moved +0.50 of a beat"), result.stdout)
        XCTAssertTrue(result.stderr.contains("read-only"), result.stderr)
        XCTAssertNotNil(try catalog.track(path: song)?.beatAnchor)
    }

    /// A BPM and a beat change in one command are made together or not at all: the BPM was saved,
    /// then the beat change found no grid at that BPM and failed (exit 1, half the command made).
    func testABPMAndABeatChangeAreMadeTogetherOrNotAtAll() throws {
        try scan()
        let catalogPath = folder + "/catalog.sqlite"
        let refused = try runBeattag(["tag", song, "--bpm", "100", "--shift-beats", "0.5", "--catalog", catalogPath])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("no beat grid"), refused.stderr)
        let untouched = try XCTUnwrap(try catalog.track(path: song))
        XCTAssertNil(untouched.bpmManual, "the BPM is not made alone")
        XCTAssertNil(untouched.beatAnchor)

        let both = try runBeattag(["tag", song, "--half", "--shift-beats", "0.5", "--catalog", catalogPath])
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertTrue(both.stdout.contains(": BPM 60.0") && both.stdout.contains(": beats moved +0.50 of a beat"), both.stdout)
        let made = try XCTUnwrap(try catalog.track(path: song))
        XCTAssertEqual(made.bpmManual ?? 0, 60, accuracy: 1)
        XCTAssertNotNil(made.beatAnchor)
        XCTAssertEqual(try XCTUnwrap(made.beatsInUse.last) - made.beatsInUse[made.beatsInUse.count - 2], 1.0, accuracy: 0.02, "moved on the 60 BPM grid")
    }

    func testTheCommandMovesTheBeatsThatListShows() throws {
        try scan()
        let catalogPath = folder + "/catalog.sqlite"
        let moved = try runBeattag(["tag", song, "--shift-beats", "0.5", "--catalog", catalogPath])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertTrue(moved.stdout.hasPrefix(song + ": beats moved +0.50 of a beat, onto a hand-placed beat at "), moved.stdout)

        let listed = try runBeattag(["list", "--json", "--catalog", catalogPath])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let beats = try XCTUnwrap(rows.first?["beats"] as? [Double])
        XCTAssertLessThan(worstDistance(beats, to: offBeats), 0.02, "list --json gives the moved beats")

        for (arguments, message) in [(["--shift-beats", "0"], "a quarter, a third or half"), (["--shift-beats", "0.1"], "a quarter"),
                                     (["--shift-beats", "1.5"], "-1 to 1"),
                                     (["--shift-beats", "0.5", "--beat-at", "3"], "give one of --shift-beats, --beat-at, --clear-beat"),
                                     (["--beat-at", "-1"], "0 or more")] {
            let refused = try runBeattag(["tag", song] + arguments + ["--catalog", catalogPath])
            XCTAssertEqual(refused.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(refused.stderr.contains(message), refused.stderr)
        }
        let cleared = try runBeattag(["tag", song, "--clear-beat", "--catalog", catalogPath])
        XCTAssertEqual(cleared.stdout, song + ": beats as analysed (no hand-placed beat)\n")
        let third = try runBeattag(["tag", song, "--shift-beats", "-0.3", "--catalog", catalogPath])
        XCTAssertTrue(third.stdout.contains(": beats moved -0.33 of a beat, onto a hand-placed beat at "), third.stdout)
        let kept = try runBeattag(["tag", song, "--beat-at", String(truth[10] + 0.01), "--catalog", catalogPath])
        XCTAssertTrue(kept.stdout.contains(": beats as analysed, kept there by a hand-placed beat at "), kept.stdout)
    }
}
