@testable import BeatTagKit
import XCTest

/// The evidence of the step by three halves on onset curves drawn by hand: a waltz (its quarter
/// against its dotted quarter) and 12/8 (its dotted quarter against the quarter-equivalent of its
/// eighths), and which level a listener taps.
final class HemiolaDecisionTests: XCTestCase {
    private let frameRate = DrawnGroove.frameRate

    private func grid(_ c: OnsetCurves, bpm: Double, from start: Double = 0) -> [FramePosition] {
        stride(from: start, to: Double(c.all.count), by: 60 * frameRate / bpm).map { FramePosition($0) }
    }

    /// Probability that the faster level is the beat, both levels on a drawn grid.
    private func probabilityFaster(_ g: DrawnGroove, slowBPM: Double) -> Double {
        let c = g.curves()
        func level(_ bpm: Double) -> OctaveDecision.LevelEvidence {
            OctaveDecision.LevelEvidence(bpm: bpm, beats: grid(c, bpm: bpm), salience: 1, onBeat: 3)
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
        let profile = HemiolaDecision.Profile(c.drums, fastBeats: grid(c, bpm: 150))
        XCTAssertLessThan(profile.slowOverFast, -0.3, "the dotted quarter's second beat falls between two drums")
        XCTAssertLessThan(profile.and, 0.05)
        XCTAssertGreaterThan(profile.weakest, 0.7)
        XCTAssertGreaterThan(probabilityFaster(waltz, slowBPM: 100), 0.5)
    }

    func testTwelveEightIsTappedAtItsDottedQuarter() {
        // Read at 96 (two eighths), one "and" in three carries a kick or snare and two of the three
        // beats only hats.
        let c = twelveEight.curves()
        let profile = HemiolaDecision.Profile(c.drums, fastBeats: grid(c, bpm: 96))
        XCTAssertGreaterThan(profile.slowOverFast, 0.3)
        XCTAssertGreaterThan(profile.and, 0.45, "an \"and\" as strong as the strongest beat")
        XCTAssertLessThan(profile.weakest, 0.05)
        XCTAssertLessThan(probabilityFaster(twelveEight, slowBPM: 64), 0.5)
    }

    func testTheEvidenceDoesNotDependOnWhichBeatStartsAThree() {
        // Which beat of the faster level starts a group of three is the tracker's accident: S's
        // phase is searched and F's beats are summarised without order.
        for g in [waltz, twelveEight] {
            let c = g.curves()
            let fastBPM = g.bpm == 150 ? 150.0 : 96
            let beats = grid(c, bpm: fastBPM)
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
        // Fewer than one full three: no position is read, nothing is claimed.
        let c = waltz.curves()
        let profile = HemiolaDecision.Profile(c.drums, fastBeats: Array(grid(c, bpm: 150).prefix(3)))
        XCTAssertEqual(profile.positions, [Double](repeating: 0, count: 6))
        XCTAssertEqual(profile.slowOverFast, 0, accuracy: 1e-12)
    }
}
