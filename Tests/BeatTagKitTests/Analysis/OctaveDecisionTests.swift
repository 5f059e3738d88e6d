@testable import BeatTagKit
import XCTest

/// The octave walk on onset curves drawn by hand: each case states a groove in beats of its tempo,
/// band by band, and the tempo a listener taps.
final class OctaveDecisionTests: XCTestCase {
    typealias Groove = DrawnGroove

    private func curves(_ g: Groove, seconds: Double = 30) -> OnsetCurves { g.curves(seconds: seconds) }

    private func estimate(_ g: Groove, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let (tempo, _) = try XCTUnwrap(TempoEstimator(curves: curves(g))?.estimate(), file: file, line: line)
        return tempo.bpm.value
    }

    private let eighths = stride(from: 0.0, to: 4, by: 0.5).map { $0 }
    private let sixteenths = stride(from: 0.0, to: 4, by: 0.25).map { $0 }

    func testRockBackbeatAt150IsNotHalved() throws {
        let bpm = try estimate(Groove(bpm: 150, kick: [0, 2, 2.5], snare: [1, 3], hats: eighths))
        XCTAssertEqual(bpm / 150, 1, accuracy: 0.02, "read \(bpm)")
    }

    func testSlowJamWithSixteenthHatsAt70IsNotDoubled() throws {
        let bpm = try estimate(Groove(bpm: 70, kick: [0, 2.5], snare: [1, 3], hats: sixteenths))
        XCTAssertEqual(bpm / 70, 1, accuracy: 0.02, "read \(bpm)")
    }

    func testPopWithSixteenthHatsAt96IsNotDoubled() throws {
        let bpm = try estimate(Groove(bpm: 96, kick: [0, 1.75, 2], snare: [1, 3], hats: sixteenths))
        XCTAssertEqual(bpm / 96, 1, accuracy: 0.02, "read \(bpm)")
    }

    func testFourOnTheFloorAt128IsNotHalved() throws {
        let bpm = try estimate(Groove(bpm: 128, kick: [0, 1, 2, 3], snare: [1, 3], hats: [0.5, 1.5, 2.5, 3.5]))
        XCTAssertEqual(bpm / 128, 1, accuracy: 0.02, "read \(bpm)")
    }

    func testKicksOnEveryHalfBeatOfTheSlowBarFavourTheFasterLevel() {
        // The same bar seen from its half tempo: every half-beat of the slow level carries a kick or snare.
        let g = curves(Groove(bpm: 150, kick: [0, 2], snare: [1, 3], hats: eighths))
        let slowBeats = g.grid(every: 80)
        let fastBeats = g.grid(every: 40)
        let slow = OctaveDecision.LevelEvidence(bpm: 75, beats: slowBeats, salience: 1, onBeat: 3)
        let fast = OctaveDecision.LevelEvidence(bpm: 150, beats: fastBeats, salience: 1, onBeat: 3)
        XCTAssertGreaterThan(OctaveDecision.probabilityFaster(slow: slow, fast: fast, curves: g), 0.5)
    }

    func testTheOctaveEvidenceDoesNotDependOnWhichBeatsPairUp() {
        // The slow level is read as pairs of the faster level's beats. Whether the pairs start on
        // the kick (1-2, 3-4) or on the snare (2-3, 4-1), and which pair counts as the first of the
        // bar, is the tracker's accident (a 1 ms shift of the audio could change it) and must not
        // change the answer. Two grooves at 100 BPM: a backbeat (kick 1 and 3, snare 2 and 4), and
        // one whose stronger set alternates (kick on 1, snare on 3: kick, snare, kick, snare).
        // The harmony too: a chord a 2.4 s bar, and a band spectrum whose level steps by 1 and ½ on
        // alternate beats (a contrast below the cap).
        for (kick, snare) in [([0.0, 2], [1.0, 3]), ([0.0], [2.0])] {
            var g = curves(Groove(bpm: 100, kick: kick, snare: snare, hats: eighths))
            g.chroma = .chord(every: 2.4)
            g.spectrum = .levels(every: 0.6, steps: [1, 0.5])
            let fastBeats = g.grid(every: 60)
            let slow = OctaveDecision.LevelEvidence(bpm: 50, beats: [], salience: 0.8, onBeat: 3)
            func features(_ beats: ArraySlice<FramePosition>) -> [Double] {
                OctaveDecision.features(slow: slow, fast: .init(bpm: 100, beats: Array(beats), salience: 1, onBeat: 3), curves: g)
            }
            let reference = features(fastBeats[...])
            for dropped in 1...3 {
                for (name, (x, y)) in zip(OctaveDecision.featureNames, zip(reference, features(fastBeats.dropFirst(dropped)))) {
                    XCTAssertEqual(x, y, accuracy: 0.02, "\(name), kick \(kick), first \(dropped) beats dropped")
                }
            }
        }
    }

    func testTheProfileIsTheSameWithItsTwoSetsSwapped() {
        // Directly: every feature read from a profile is unchanged when beats and half-beats swap,
        // including near a tie between the two sets, where "the stronger set" is a coin toss.
        let x: [Float] = (0..<2000).map { Float(($0 * 7919) % 13) / 13 }
        let beats = stride(from: 5.0, to: 1990, by: 37).map { FramePosition($0) }
        let a = OctaveDecision.Profile(x, fastBeats: beats)
        var b = a
        (b.beat, b.half) = (a.half, a.beat)
        XCTAssertEqual(a.balance, b.balance, accuracy: 1e-12)
        XCTAssertEqual(a.emptiest, b.emptiest, accuracy: 1e-12)
        XCTAssertEqual(a.alternation, b.alternation, accuracy: 1e-12)
        XCTAssertEqual(a.slowClarity, b.slowClarity, accuracy: 1e-12)
        XCTAssertEqual(a.lean, -b.lean, accuracy: 1e-12)
    }

    func testAShortTrackDoesNotReadAsEmpty() {
        // Five fast beats make two pairs: two of the bar's four positions get none, and must not
        // count as empty positions (which read as "slow").
        let g = curves(Groove(bpm: 100, kick: [0, 2], snare: [1, 3], hats: eighths), seconds: 3.2)
        let fastBeats = stride(from: 0.0, to: 300, by: 60).map { FramePosition($0) }
        let profile = OctaveDecision.Profile(g.drums, fastBeats: fastBeats)
        XCTAssertGreaterThan(profile.emptiest, 0.3)
        XCTAssertEqual(profile.alternation, 0, "alternation needs all four positions")
    }
}
