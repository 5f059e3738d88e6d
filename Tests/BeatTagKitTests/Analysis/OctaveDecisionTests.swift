@testable import BeatTagKit
import XCTest

final class MetricalProfileTests: XCTestCase {
    func testFoldsNoveltyByPhase() {
        // 40-frame beats: strong hits on beats, weaker ones half-way, nothing elsewhere.
        var novelty = [Float](repeating: 0, count: 4000)
        for beat in stride(from: 0, to: 4000, by: 40) {
            novelty[beat] = 4
            if beat + 20 < 4000 { novelty[beat + 20] = 1 }
        }
        let beats = stride(from: 0.0, to: 4000, by: 40).map { $0 }
        let profile = MetricalProfile(novelty: novelty, beats: beats).values
        XCTAssertEqual(profile.count, 16)
        XCTAssertEqual(profile[0], 4, accuracy: 1e-6)
        XCTAssertEqual(profile[8], 4, accuracy: 1e-6)
        XCTAssertEqual(profile[4], 1, accuracy: 1e-6)
        XCTAssertEqual(profile[2], 0, accuracy: 1e-6)
    }
}

final class OctaveDecisionTests: XCTestCase {
    /// Kick novelty at 100 frames/s with a kick every `kickPeriod` frames.
    private func kicks(every kickPeriod: Int, frames: Int = 3000) -> [Float] {
        (0..<frames).map { $0 % kickPeriod == 0 ? 5 : 0 }
    }

    private func beats(period: Double, frames: Int = 3000) -> [Double] { stride(from: 0.0, to: Double(frames), by: period).map { $0 } }

    func testKicksBetweenSlowBeatsPreferTheFasterLevel() {
        // Four on the floor at 120 BPM (50 frames): read at 60, every half-way point has a kick.
        let p = OctaveDecision.probabilityFaster(slowBeats: beats(period: 100), fastBPM: 120, fastBeats: beats(period: 50),
                                                 kick: kicks(every: 50))
        XCTAssertGreaterThan(p, 0.8)
    }

    func testAlternatingKicksPreferTheSlowerLevel() {
        // Kicks at 90 BPM (66.67 frames): read at 180, every other pulse has no kick.
        let p = OctaveDecision.probabilityFaster(slowBeats: beats(period: 200.0 / 3), fastBPM: 180,
                                                 fastBeats: beats(period: 100.0 / 3), kick: (0..<3000).map {
                                                     abs(Double($0).truncatingRemainder(dividingBy: 200.0 / 3)) < 1 ? 5 : 0 })
        XCTAssertLessThan(p, 0.2)
    }

    func testTempoAloneLeansAwayFromVeryFastReadings() {
        let flat = [Float](repeating: 1, count: 3000)
        let p120 = OctaveDecision.probabilityFaster(slowBeats: beats(period: 100), fastBPM: 120, fastBeats: beats(period: 50), kick: flat)
        let p230 = OctaveDecision.probabilityFaster(slowBeats: beats(period: 52), fastBPM: 230, fastBeats: beats(period: 26), kick: flat)
        XCTAssertGreaterThan(p120, p230)
    }
}
