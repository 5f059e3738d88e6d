@testable import BeatTagKit
import XCTest

final class SixteenthShiftTests: XCTestCase {
    /// 120 BPM, 50 onset frames a beat: a tamborim on the last sixteenth of every beat (frame
    /// 37.5 of 50) louder than anything on the beat, and chords that change every bar on the
    /// downbeat (a one-hot chromagram at 25 frames a second).
    private func samba() -> OnsetCurves {
        let n = 3000
        var high = [Float](repeating: 0, count: n), low = high
        for beat in 0..<(n / 50) {
            if beat * 50 + 37 < n { high[beat * 50 + 37] = 6 }
            low[beat * 50] = 1
        }
        var curves = OnsetCurves(frameRate: 100, all: (0..<n).map { high[$0] + low[$0] }, body: low, drums: low, low: low, high: high)
        curves.chroma = .chordPerBar()
        return curves
    }

    func testBeatsOnTheLastSixteenthMoveOntoTheBeat() {
        let early = stride(from: 37.5, to: 2950, by: 50).map { FramePosition($0) }
        let decided = SixteenthShift.decided(beats: early, curves: samba())
        XCTAssertEqual(decided.count, early.count)
        XCTAssertTrue(decided.allSatisfy { abs($0.value / 50 - ($0.value / 50).rounded()) < 0.01 }, "on the beat: \(decided.prefix(4))")
    }

    func testBeatsOnTheBeatStay() {
        let beats = stride(from: 50.0, to: 2950, by: 50).map { FramePosition($0) }
        XCTAssertEqual(SixteenthShift.decided(beats: beats, curves: samba()), beats)
    }

    func testMovingKeepsEveryIntervalsFraction() {
        XCTAssertEqual(SixteenthShift.moved([0, 40, 100], by: 0.25), [10, 55])
        XCTAssertEqual(SixteenthShift.moved([0, 40, 100], by: -0.25), [-10, 25])
    }
}
