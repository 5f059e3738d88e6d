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

    func testADrumlessSixEightBelowTheAnalysedRangeIsReadAtItsDottedQuarterByItsChords() throws {
        // 6/8 at 45 dotted quarters a minute, no drums: an arpeggio on every eighth (135 a minute),
        // a bass note on each dotted quarter. Its onsets alone say "eighths"; a chord that changes
        // once a bar (every six eighths) says the eighths are grouped in threes. 45 is below the
        // 50 BPM the octave walk reaches; the step by three reaches it from the eighths.
        let third = 1.0 / 3
        let eighths = (0..<6).map { Double($0) * third }
        let arpeggio = DrawnGroove(bpm: 45, beatsPerBar: 2, kick: [0, 1], snare: eighths, hats: eighths)
        var curves = arpeggio.curves()
        let onsetsOnly = try XCTUnwrap(TempoEstimator(curves: curves)?.estimate()).0
        XCTAssertEqual(onsetsOnly.bpm.value / 135, 1, accuracy: 0.02, "onsets alone read \(onsetsOnly.bpm.value)")
        let bar = 2 * 60 / 45.0
        curves.chroma = .chord(every: bar)
        curves.spectrum = .chord(every: bar)
        let withChords = try XCTUnwrap(TempoEstimator(curves: curves)?.estimate()).0
        XCTAssertLessThan(TempoRanges.compoundBeat.lowerBound, TempoRanges.analysed.lowerBound)
        XCTAssertEqual(withChords.bpm.value / 45, 1, accuracy: 0.02, "with its chords read \(withChords.bpm.value)")
    }

    func testFourFourIsNotReadAtAThirdBelowTheAnalysedRange() throws {
        // A backbeat at 135 (kick on 1 and 3, snare on 2 and 4, eighth hats): its third, 45, is now
        // asked about, and four beats read in threes fill every position.
        let backbeat = DrawnGroove(bpm: 135, kick: [0, 2], snare: [1, 3], hats: (0..<8).map { Double($0) / 2 })
        let (tempo, _) = try XCTUnwrap(TempoEstimator(curves: backbeat.curves(seconds: 40))?.estimate())
        XCTAssertEqual(tempo.bpm.value / 135, 1, accuracy: 0.02, "read \(tempo.bpm.value)")
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
