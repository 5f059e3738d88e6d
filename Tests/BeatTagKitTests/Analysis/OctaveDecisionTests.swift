@testable import BeatTagKit
import XCTest

final class OctaveDecisionTests: XCTestCase {
    private func beats(period: Double, frames: Int = 3000) -> [Double] { stride(from: 0.0, to: Double(frames), by: period).map { $0 } }

    /// Drum novelty with a hit of `level` at each of `positions` (in beats of `period` frames) in every four-beat bar.
    private func drums(period: Double, hits: [(position: Double, level: Float)], frames: Int = 3000) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        var bar = 0.0
        while bar < Double(frames) {
            for hit in hits {
                let i = Int((bar + hit.position * period).rounded())
                if i < frames { x[i] = max(x[i], hit.level) }
            }
            bar += 4 * period
        }
        return x
    }

    func testKicksOnEveryHalfBeatPreferTheFasterLevel() {
        // Four on the floor at 120 BPM (50 frames) read at 60: every half-beat of the slow bar has a kick.
        let x = drums(period: 100, hits: (0..<8).map { (Double($0) / 2, 5) })
        let p = OctaveDecision.probabilityFaster(slowBeats: beats(period: 100), fastBPM: 120, drums: x)
        XCTAssertGreaterThan(p, 0.8)
    }

    func testSnareOnTwoAndFourOfTheFastTempoPrefersTheFasterLevel() {
        // Rock at 154 read at 77: kicks on the slow beats, the snare on every half-beat between them.
        let slow = 60 * 100 / 77.0
        let x = drums(period: slow, hits: [(0, 5), (0.5, 4), (1, 5), (1.5, 4), (2, 5), (2.5, 4), (3, 5), (3.5, 4)])
        let p = OctaveDecision.probabilityFaster(slowBeats: beats(period: slow), fastBPM: 154, drums: x)
        XCTAssertGreaterThan(p, 0.7)
    }

    func testTwoStepReadOnItsSnaresPrefersTheFasterLevel() {
        // Two-step at 170 read at 85 with the slow beats on the snares: the kick on the "and" of 3
        // lands a quarter of a slow beat after the half-beat and still fills it.
        let slow = 60 * 100 / 85.0
        let x = drums(period: slow, hits: [(0, 5), (0.75, 5), (1, 5), (1.5, 5), (2, 5), (2.75, 5), (3, 5), (3.5, 5)])
        let p = OctaveDecision.probabilityFaster(slowBeats: beats(period: slow), fastBPM: 170, drums: x)
        XCTAssertGreaterThan(p, 0.7)
    }

    func testBackbeatWithOneSyncopatedKickPrefersTheSlowerLevel() {
        // Hip-hop at 90: kick 1, snare 2, kick 3 and its "and", snare 4; the other half-beats hold only hats (not in `drums`).
        let slow = 60 * 100 / 90.0
        let x = drums(period: slow, hits: [(0, 5), (1, 5), (2, 5), (2.5, 3), (3, 5)])
        let p = OctaveDecision.probabilityFaster(slowBeats: beats(period: slow), fastBPM: 180, drums: x)
        XCTAssertLessThan(p, 0.2)
    }

    func testTempoAloneLeansAwayFromVeryFastReadings() {
        let flat = [Float](repeating: 1, count: 3000)
        let p120 = OctaveDecision.probabilityFaster(slowBeats: beats(period: 100), fastBPM: 120, drums: flat)
        let p230 = OctaveDecision.probabilityFaster(slowBeats: beats(period: 52), fastBPM: 230, drums: flat)
        XCTAssertGreaterThan(p120, p230)
    }
}
