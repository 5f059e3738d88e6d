@testable import BeatTagKit
import XCTest

/// The evidence of the step by three on onset curves drawn by hand: each case states a groove in
/// beats of its tempo, band by band, and which level a listener taps. (`SyntheticTempoTests` runs the
/// whole estimator on a drum machine's 6/8.)
final class TripleDecisionTests: XCTestCase {
    /// Probability that the faster level is the beat, both levels on a drawn grid.
    private func probabilityFaster(_ g: DrawnGroove, slowBPM: Double) -> Double {
        let c = g.curves()
        func level(_ bpm: Double) -> OctaveDecision.LevelEvidence {
            let beats = c.grid(bpm: bpm)
            return OctaveDecision.LevelEvidence(bpm: bpm, beats: beats, salience: 1, onBeat: 3)
        }
        return TripleDecision.probabilityFaster(slow: level(slowBPM), fast: level(3 * slowBPM), curves: c)
    }

    func testAWaltzsQuartersAreTheBeatNotItsBar() {
        // Kick on 1, snare on 2 and 3, hats on the eighths: every position of the three carries a drum.
        let waltz = DrawnGroove(bpm: 150, beatsPerBar: 3, kick: [0], snare: [1, 2], hats: [0, 0.5, 1, 1.5, 2, 2.5])
        XCTAssertGreaterThan(probabilityFaster(waltz, slowBPM: 50), 0.5)
    }

    func testOneAccentInThreeFavoursTheSlowerLevel() {
        // 6/8 at 66 dotted quarters a minute, read at the eighth (198): kick on 1, snare on 4, a shaker
        // on eighths 1, 3, 4 and 6. Only one position of three carries the drums.
        let third = 1.0 / 3
        let sixEight = DrawnGroove(bpm: 66, beatsPerBar: 2, kick: [0], snare: [1], hats: [0, 2 * third, 1, 1 + 2 * third])
        let c = sixEight.curves()
        let eighths = c.grid(bpm: 198)
        let profile = TripleDecision.Profile(c.drums, fastBeats: eighths)
        XCTAssertLessThan(profile.mid, 0.05)
        XCTAssertLessThan(profile.low, 0.05)
        XCTAssertLessThan(probabilityFaster(sixEight, slowBPM: 66), 0.5)
    }

    func testTheEvidenceDoesNotDependOnWhichBeatStartsAThree() {
        // Which of the faster level's beats start a group of three is the tracker's accident: the
        // positions are sorted by strength, so dropping the first one or two beats changes nothing.
        let g = DrawnGroove(bpm: 150, beatsPerBar: 3, kick: [0], snare: [1, 2], hats: [0, 0.5, 1, 1.5, 2, 2.5]).curves()
        let fastBeats = g.grid(every: 40)
        let slow = OctaveDecision.LevelEvidence(bpm: 50, beats: [], salience: 0.8, onBeat: 3)
        func features(_ beats: ArraySlice<FramePosition>) -> [Double] {
            TripleDecision.features(slow: slow, fast: .init(bpm: 150, beats: Array(beats), salience: 1, onBeat: 3), curves: g)
        }
        let reference = features(fastBeats[...])
        for dropped in 1...2 {
            for (name, (x, y)) in zip(TripleDecision.featureNames, zip(reference, features(fastBeats.dropFirst(dropped)))) {
                XCTAssertEqual(x, y, accuracy: 0.02, "\(name), first \(dropped) beats dropped")
            }
        }
    }
}
