@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// Hand data belongs to the recording it was entered for, not to the file name: swapped names, or
/// another song saved over a name, must not hand a BPM or a like to the wrong song (a scan audit:
/// they stayed with the path), and nothing entered by hand is lost on the way.
final class HandDataFollowsTheRecordingTests: XCTestCase {
    private var folder = ""
    private var catalog: Catalog!

    override func setUpWithError() throws {
        folder = try temporaryDirectory(self)
        catalog = try Catalog(path: folder + "/catalog.sqlite")
        try FileManager.default.createDirectory(atPath: folder + "/lib", withIntermediateDirectories: true)
    }

    /// Songs of different lengths: files of one size and one mtime are taken as unchanged unread.
    private func song(_ bpm: Double, _ pattern: DrumSynth.Pattern, seconds: Double = 20, gain: Float = 1, to name: String) throws {
        var synth = DrumSynth(sampleRate: 22050, bpm: bpm, pattern: pattern, seconds: seconds)
        try AudioWriter.write(synth.render().map { $0 * gain }, sampleRate: 22050, to: folder + "/lib/" + name, as: .wav)
    }

    @discardableResult
    private func scan() throws -> ScanSummary {
        try LibraryScanner(catalog: catalog, options: ScanOptions(roots: [folder + "/lib"])).run()
    }

    private func track(_ name: String) throws -> TrackRecord { try XCTUnwrap(try catalog.track(path: folder + "/lib/" + name), name) }

    private func swap(_ a: String, _ b: String) throws {
        let fm = FileManager.default, lib = folder + "/lib/"
        try fm.moveItem(atPath: lib + a, toPath: lib + "swap.tmp")
        try fm.moveItem(atPath: lib + b, toPath: lib + a)
        try fm.moveItem(atPath: lib + "swap.tmp", toPath: lib + b)
    }

    func testSwappedNamesTakeTheirHandDataAlong() throws {
        try song(120, .backbeat, to: "a.wav")
        try song(150, .fourOnTheFloor, seconds: 21, to: "b.wav")
        try scan()
        _ = try ManualBPM.apply(.set(121), to: folder + "/lib/a.wav", in: catalog)
        _ = try Rating.set(.liked, for: folder + "/lib/a.wav", in: catalog)
        _ = try Rating.set(.disliked, for: folder + "/lib/b.wav", in: catalog)
        let beatOfB = try XCTUnwrap(try HandBeat.apply(.shift(0.5), to: folder + "/lib/b.wav", in: catalog).beatAnchor)
        let audioOfA = try track("a.wav").audioHash

        try swap("a.wav", "b.wav")
        let summary = try scan()
        let nowB = try track("b.wav"), nowA = try track("a.wav")
        XCTAssertEqual(nowB.audioHash, audioOfA, "b.wav holds what a.wav held")
        XCTAssertEqual(nowB.bpmManual, 121)
        XCTAssertEqual(nowB.bpm, 121)
        XCTAssertEqual(nowB.rating, .liked)
        XCTAssertNil(nowA.bpmManual, "the 150-BPM song is not hand-set to 121")
        XCTAssertEqual(nowA.bpmSource, .analysis)
        XCTAssertEqual(nowA.rating, .disliked)
        XCTAssertEqual(nowA.beatAnchor, beatOfB, "the hand-placed beat went with the 150-BPM song")
        XCTAssertNil(nowB.beatAnchor)
        XCTAssertEqual(summary.handDataMoves.map(\.kind), [.setAside, .setAside, .givenBack, .givenBack])
        XCTAssertEqual(summary.handDataMoves.last?.formerPath, folder + "/lib/a.wav")
        XCTAssertEqual(try catalog.handDataAside(), [], "nothing left waiting")

        // A scan with nothing changed moves nothing.
        XCTAssertEqual(try scan().handDataMoves, [])
    }

    func testAnotherSongSavedOverANameKeepsTheOldOnesHandDataUntilItTurnsUp() throws {
        try song(120, .backbeat, to: "a.wav")
        try scan()
        _ = try ManualBPM.apply(.set(121), to: folder + "/lib/a.wav", in: catalog)
        _ = try Rating.set(.liked, for: folder + "/lib/a.wav", in: catalog)
        _ = try HandBeat.apply(.at(10.1), to: folder + "/lib/a.wav", in: catalog)
        let lib = folder + "/lib/"
        try FileManager.default.moveItem(atPath: lib + "a.wav", toPath: folder + "/kept.wav")
        try song(96, .hiphop, seconds: 22, to: "a.wav")

        let replaced = try scan()
        XCTAssertNil(try track("a.wav").bpmManual)
        XCTAssertNil(try track("a.wav").rating)
        XCTAssertEqual(replaced.handDataMoves.map(\.kind), [.setAside])
        let waiting = try catalog.handDataAside()
        XCTAssertNil(try track("a.wav").beatAnchor)
        XCTAssertEqual(waiting.map(\.hand), [HandData(bpmManual: 121, rating: .liked, beatAnchor: 10.1)])
        XCTAssertEqual(replaced.handDataMoves.first?.what, "hand BPM 121, like and hand-placed beat")

        // The old recording comes back under another name: its hand data with it.
        try FileManager.default.moveItem(atPath: folder + "/kept.wav", toPath: lib + "c.wav")
        let back = try scan()
        XCTAssertEqual(try track("c.wav").bpmManual, 121)
        XCTAssertEqual(try track("c.wav").rating, .liked)
        XCTAssertEqual(try track("c.wav").beatAnchor, 10.1)
        XCTAssertNil(try track("a.wav").bpmManual)
        XCTAssertEqual(back.handDataMoves.map(\.kind), [.givenBack])
        XCTAssertEqual(try catalog.handDataAside(), [])
    }

    /// A file whose bytes did not change is the recording it was, however a newer build decodes it:
    /// a catalog migration (v16, v17) or a new decoder analyses it again, and its decoded audio can
    /// differ (lost audio now put back as silence, another library). Untagged and without a print,
    /// it used to count as another recording, and its hand data was set aside.
    func testAFileWhoseBytesDidNotChangeKeepsItsHandDataWhenItDecodesDifferently() throws {
        try song(120, .backbeat, to: "a.wav")
        try scan()
        _ = try ManualBPM.apply(.set(121), to: folder + "/lib/a.wav", in: catalog)
        _ = try Rating.set(.liked, for: folder + "/lib/a.wav", in: catalog)
        // As an earlier build left it: another decode's audio, no print, marked to be analysed again.
        try catalog.pool.write { db in
            try db.execute(sql: "UPDATE track SET audioHash = 'decoded-the-old-way', analysisVersion = 0, artist = NULL, title = NULL")
            try db.execute(sql: "DELETE FROM trackPrint")
        }
        let summary = try scan()
        XCTAssertEqual(summary.analysed, 1)
        XCTAssertEqual(summary.handDataMoves, [])
        XCTAssertEqual(try track("a.wav").bpmManual, 121)
        XCTAssertEqual(try track("a.wav").rating, .liked)
        XCTAssertEqual(try catalog.handDataAside(), [])
    }

    /// The same recording saved again (here quieter, so its decoded audio differs) keeps its hand
    /// data: Chromaprint says it is the same recording.
    func testTheSameRecordingSavedAgainKeepsItsHandData() throws {
        try XCTSkipUnless(OptionalLibrary.chromaprint.isAvailable, "Chromaprint is not installed")
        try song(120, .backbeat, to: "a.wav")
        try scan()
        _ = try ManualBPM.apply(.set(121), to: folder + "/lib/a.wav", in: catalog)
        let before = try track("a.wav")
        try song(120, .backbeat, gain: 0.7, to: "a.wav")

        let summary = try scan()
        let after = try track("a.wav")
        XCTAssertNotEqual(after.audioHash, before.audioHash, "the audio was changed")
        XCTAssertEqual(after.bpmManual, 121)
        XCTAssertEqual(summary.handDataMoves, [])
    }
}
