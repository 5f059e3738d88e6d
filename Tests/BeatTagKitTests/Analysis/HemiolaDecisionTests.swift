@testable import BeatTagKit
import XCTest

/// The evidence of the step by three halves on onset curves drawn by hand: a waltz (its quarter
/// against its dotted quarter) and 12/8 (its dotted quarter against the quarter-equivalent of its
/// eighths), and which level a listener taps.
final class HemiolaDecisionTests: XCTestCase {
    /// Probability that the faster level is the beat, both levels on a drawn grid.
    private func probabilityFaster(_ g: DrawnGroove, slowBPM: Double) -> Double {
        let c = g.curves()
        func level(_ bpm: Double) -> OctaveDecision.LevelEvidence {
            OctaveDecision.LevelEvidence(bpm: bpm, beats: c.grid(bpm: bpm), salience: 1, onBeat: 3)
        }
        return HemiolaDecision.probabilityFaster(slow: level(slowBPM), fast: level(1.5 * slowBPM), curves: c)
    }

    // Kick on 1, snare on 2 and 3: every quarter carries a drum, no "and" does.
    private let waltz = DrawnGroove(bpm: 150, beatsPerBar: 3, kick: [0], snare: [1, 2], hats: [0, 1, 2])
    // 12/8 at 64 dotted quarters a minute: kick on 1 and 3, snare on 2 and 4, hats on every eighth.
    private let twelveEight: DrawnGroove = {
        let third = 1.0 / 3
        return DrawnGroove(bpm: 64, beatsPerBar: 4, kick: [0, 2], snare: [1, 3],
                           hats: (0..<12).map { Double($0) * third })
    }()

    func testAWaltzsQuartersCarryTheDrumsAndItsDottedQuartersDoNot() {
        let c = waltz.curves()
        let profile = HemiolaDecision.Profile(c.drums, fastBeats: c.grid(bpm: 150))
        XCTAssertLessThan(profile.slowOverFast, -0.3, "the dotted quarter's second beat falls between two drums")
        XCTAssertLessThan(profile.and, 0.05)
        XCTAssertGreaterThan(profile.weakest, 0.7)
        XCTAssertGreaterThan(probabilityFaster(waltz, slowBPM: 100), 0.5)
    }

    func testTwelveEightIsTappedAtItsDottedQuarter() {
        // Read at 96 (two eighths), one "and" in three carries a kick or snare and two of the three
        // beats only hats.
        let c = twelveEight.curves()
        let profile = HemiolaDecision.Profile(c.drums, fastBeats: c.grid(bpm: 96))
        XCTAssertGreaterThan(profile.slowOverFast, 0.8, "S at its best phase has an accent on each beat, F on one in three")
        XCTAssertGreaterThan(profile.and, 0.45, "an \"and\" as strong as the strongest beat")
        XCTAssertLessThan(profile.weakest, 0.05)
        XCTAssertLessThan(probabilityFaster(twelveEight, slowBPM: 64), 0.5)
    }

    func testTheEstimatorMovesAWaltzReadAtItsDottedQuarter() throws {
        // Kick on 1, hats on 2 and 3: the decisions before this step read its dotted quarter (93⅓,
        // which repeats at two and four of its beats like a backbeat); this step moves it to the
        // quarter, and the level it left is the runner-up, with what the step did not believe.
        let g = DrawnGroove(bpm: 140, beatsPerBar: 3, kick: [0], snare: [], hats: [1, 2])
        let (tempo, _) = try XCTUnwrap(TempoEstimator(curves: g.curves())?.estimate())
        XCTAssertEqual(tempo.bpm.value / 140, 1, accuracy: 0.02, "read \(tempo.bpm.value)")
        let runnerUp = try XCTUnwrap(tempo.alternative)
        XCTAssertEqual(runnerUp.bpm.value / (140 / 1.5), 1, accuracy: 0.02, "runner-up \(runnerUp.bpm.value)")
        XCTAssertLessThanOrEqual(runnerUp.score, 1 - HemiolaDecision.moveAt)
    }

    func testTheEvidenceDoesNotDependOnWhichBeatStartsAThree() {
        // Which beat of the faster level starts a group of three is the tracker's accident: S's
        // phase is searched and F's beats are summarised without order.
        for g in [waltz, twelveEight] {
            let c = g.curves()
            let fastBPM = g.bpm == 150 ? 150.0 : 96
            let beats = c.grid(bpm: fastBPM)
            let slow = OctaveDecision.LevelEvidence(bpm: fastBPM / 1.5, beats: [], salience: 0.8, onBeat: 3)
            func features(_ beats: ArraySlice<FramePosition>) -> [Double] {
                HemiolaDecision.features(slow: slow, fast: .init(bpm: fastBPM, beats: Array(beats), salience: 1, onBeat: 3), curves: c)
            }
            let reference = features(beats[...])
            for dropped in 1...2 {
                for (name, (x, y)) in zip(HemiolaDecision.featureNames, zip(reference, features(beats.dropFirst(dropped)))) {
                    XCTAssertEqual(x, y, accuracy: 0.02, "\(name) at \(g.bpm), first \(dropped) beats dropped")
                }
            }
        }
    }

    func testAFewBeatsGiveNoEvidence() {
        // Fewer than one full three: no position is read, every feature is finite (the estimator
        // does not ask below `minimumBeats`).
        let c = waltz.curves()
        let beats = Array(c.grid(bpm: 150).prefix(3))
        let profile = HemiolaDecision.Profile(c.drums, fastBeats: beats)
        XCTAssertEqual(profile.positions, [Double](repeating: 0, count: 6))
        XCTAssertEqual(profile.slowOverFast, 0, accuracy: 1e-12)
        let slow = OctaveDecision.LevelEvidence(bpm: 100, beats: [], salience: 0.5, onBeat: 0)
        let features = HemiolaDecision.features(slow: slow, fast: .init(bpm: 150, beats: beats, salience: 1, onBeat: 0), curves: c)
        XCTAssertTrue(features.allSatisfy(\.isFinite), "\(features)")
    }
}
