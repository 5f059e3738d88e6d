@testable import BeatTagKit
import XCTest

final class SixteenthShiftTests: XCTestCase {
    /// 120 BPM, 50 onset frames a beat: a kick on every beat, `hats` (frame within the beat, level)
    /// in the high band, and chords that change every bar on the downbeat (a one-hot chromagram at
    /// 25 frames a second).
    private func groove(hats: [(frame: Int, level: Float)]) -> OnsetCurves {
        let n = 3000
        var high = [Float](repeating: 0, count: n), low = high
        for beat in 0..<(n / 50) {
            low[beat * 50] = 1
            for hat in hats where beat * 50 + hat.frame < n { high[beat * 50 + hat.frame] = hat.level }
        }
        var curves = OnsetCurves(frameRate: 100, all: (0..<n).map { high[$0] + low[$0] }, body: low, drums: low, low: low, high: high)
        curves.chroma = .chordPerBar()
        return curves
    }

    /// A tamborim on the last sixteenth of every beat (frame 37 of 50), louder than anything on the beat.
    private func samba() -> OnsetCurves { groove(hats: [(37, 6)]) }

    /// Swung at 0.6 on sixteenths: hats on the "e" (0.3), the "and" (0.5) and the "a" (0.8), and a
    /// loud stab on every "a".
    private func swungHipHop() -> OnsetCurves { groove(hats: [(15, 0.5), (25, 0.5), (40, 6)]) }

    private func assertOnTheBeat(_ decided: [FramePosition], count: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(decided.count, count, file: file, line: line)
        XCTAssertTrue(decided.allSatisfy { abs($0.value / 50 - ($0.value / 50).rounded()) < 0.01 }, "on the beat: \(decided.prefix(4))", file: file, line: line)
    }

    func testBeatsOnTheLastSixteenthMoveOntoTheBeat() {
        let early = stride(from: 37.5, to: 2950, by: 50).map { FramePosition($0) }
        assertOnTheBeat(SixteenthShift.decided(beats: early, curves: samba()), count: early.count)
    }

    func testBeatsOnTheBeatStay() {
        let beats = stride(from: 50.0, to: 2950, by: 50).map { FramePosition($0) }
        XCTAssertEqual(SixteenthShift.decided(beats: beats, curves: samba()), beats)
    }

    func testAMoveLandsOnTheSwungSixteenth() {
        let onTheA = stride(from: 40.0, to: 2950, by: 50).map { FramePosition($0) }
        let moves = SixteenthShift.candidateMoves(beats: onTheA, curves: swungHipHop())
        // Within one step of the search (0.01 beats: half a frame here).
        XCTAssertEqual(moves[0], 0.2, accuracy: 0.0101, "the beat is 0.2 beats after a swung \"a\"")
        XCTAssertEqual(moves[1], -0.3, accuracy: 0.0101, "the swung \"and\" is 0.3 beats before it")
        let straight = stride(from: 37.5, to: 2950, by: 50).map { FramePosition($0) }
        XCTAssertEqual(SixteenthShift.candidateMoves(beats: straight, curves: samba())[0], 0.25, accuracy: 0.0101)
    }

    func testWithoutOnsetsNearByAMoveIsAQuarterBeat() {
        let beats = stride(from: 50.0, to: 2950, by: 50).map { FramePosition($0) }
        let flat = OnsetCurves(frameRate: 100, all: [Float](repeating: 0, count: 3000))
        XCTAssertEqual(SixteenthShift.candidateMoves(beats: beats, curves: flat), [0.25, -0.25])
    }

    func testBeatsOnASwungLastSixteenthMoveOntoTheBeat() {
        let onTheA = stride(from: 40.0, to: 2950, by: 50).map { FramePosition($0) }
        assertOnTheBeat(SixteenthShift.decided(beats: onTheA, curves: swungHipHop()), count: onTheA.count)
    }

    func testMovingKeepsEveryIntervalsFraction() {
        XCTAssertEqual(SixteenthShift.moved([0, 40, 100], by: 0.25), [10, 55])
        XCTAssertEqual(SixteenthShift.moved([0, 40, 100], by: -0.25), [-10, 25])
    }
}
