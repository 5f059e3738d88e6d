@testable import BeatTagKit
import XCTest

final class BeatPhaseTests: XCTestCase {
    /// Rock at 120 BPM (50 frames a beat): kick on 1 and 3, snare on 2 and 4, loud open hats on every "and".
    private func curves() -> OnsetCurves {
        let n = 3000
        var low = [Float](repeating: 0, count: n), snare = low, high = low
        for beat in 0..<(n / 50) {
            let t = beat * 50
            if beat % 2 == 0 { low[t] = 4 } else { snare[t] = 4 }
            if t + 25 < n { high[t + 25] = 6 }
        }
        let all = (0..<n).map { low[$0] + snare[$0] + high[$0] }
        let body = (0..<n).map { low[$0] + snare[$0] }
        return OnsetCurves(frameRate: 100, all: all, body: body, drums: body, low: low, snare: snare, high: high)
    }

    func testBeatsOnTheOffBeatHatsAreMovedToTheBeat() {
        let offBeats = stride(from: 25.0, to: 2975, by: 50).map { FramePosition($0) }
        XCTAssertGreaterThan(BeatPhase.probabilityShifted(beats: offBeats, curves: curves()), 0.5)
    }

    func testBeatsOnTheKicksAndSnaresStay() {
        let beats = stride(from: 0.0, to: 2950, by: 50).map { FramePosition($0) }
        XCTAssertLessThan(BeatPhase.probabilityShifted(beats: beats, curves: curves()), 0.5)
    }

    func testShiftingMovesEveryBeatHalfAnInterval() {
        XCTAssertEqual(BeatPhase.shifted([10, 20, 30, 42]), [5, 15, 25, 36, 48])
        XCTAssertEqual(BeatPhase.shifted([0, 10, 20]), [5, 15, 25], "no beat before frame 0")
    }
}
