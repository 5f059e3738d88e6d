@testable import BeatTagKit
import XCTest

/// An excerpt starts and ends where the track's beats run steadily: an intro the tracker read half a
/// beat off, sliding back onto the beat, is left out (the shape of corpus-dev clip_002's analysed
/// beats: eight beats half a beat early, seven each 7% long, then steady).
final class SteadyEndsTests: XCTestCase {
    let spacing = 0.318

    private func steady(_ count: Int, from start: Double) -> [Double] { (0..<count).map { start + Double($0) * spacing } }

    func testAnIntroReadHalfABeatOffIsLeftOut() {
        var beats = steady(8, from: 0.16)
        for _ in 0..<7 { beats.append(beats.last! + spacing * 1.07) }
        beats += steady(80, from: beats.last! + spacing)
        let (first, last) = RunPlan.steadyEnds(beats, first: 0, last: beats.count - 1)
        // Beat 11 sits 0.21 of a beat off the steady grid, beat 12 0.14: the excerpt starts at 12.
        XCTAssertEqual(first, 12, "after the last beat more than 0.15 beat off the steady grid")
        XCTAssertEqual(last, beats.count - 1)
        XCTAssertEqual(RunPlan.musicalBeats(beats, levels: nil)?.first, 12)
    }

    func testAnOutroThatSlidesIsLeftOut() {
        var beats = steady(80, from: 0.5)
        for _ in 0..<6 { beats.append(beats.last! + spacing * 0.9) }
        let (first, last) = RunPlan.steadyEnds(beats, first: 0, last: beats.count - 1)
        XCTAssertEqual(first, 0)
        // Beat 80 sits 0.1 of a beat early, beat 81 0.2: the excerpt ends at 80.
        XCTAssertEqual(last, 80, "the beats up to the first one more than 0.15 beat off")
    }

    /// Steady music, and music that drifts like a live band (1% faster over the track), keep every beat.
    func testSteadyAndGentlyDriftingTracksKeepTheirEnds() {
        let beats = steady(100, from: 0.2)
        XCTAssertTrue(RunPlan.steadyEnds(beats, first: 0, last: 99) == (0, 99))
        var drifting = [0.2]
        for k in 1..<100 { drifting.append(drifting.last! + spacing * (1 - 0.01 * Double(k) / 100)) }
        XCTAssertTrue(RunPlan.steadyEnds(drifting, first: 0, last: 99) == (0, 99))
    }

    /// A track too short to spare its opening plays from where it did (two phrases and a crossfade).
    func testAShortTrackKeepsItsOpening() {
        var beats = steady(8, from: 0.16)
        for _ in 0..<7 { beats.append(beats.last! + spacing * 1.07) }
        beats += steady(12, from: beats.last! + spacing)
        XCTAssertEqual(RunPlan.musicalBeats(beats, levels: nil)?.first, 0)
    }
}
