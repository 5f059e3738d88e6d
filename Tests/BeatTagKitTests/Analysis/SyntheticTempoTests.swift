@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// Tempo and beats on synthesized drum patterns of known tempo: the octave traps and awkward
/// cases a runner's library is full of. Real decoding is covered by the fixture tests; these run
/// the same analyzer on in-memory audio so each case states its own tempo and pattern.
final class SyntheticTempoTests: XCTestCase {
    struct Case {
        var name: String
        var bpm: Double
        var pattern: DrumSynth.Pattern
        var swing = 0.5
        var introBars = 0
        var leadIn = 0.0
    }

    private func analyse(_ c: Case, seconds: Double = 24) throws -> (AnalysisResult, [Double]) {
        var synth = DrumSynth(sampleRate: 22050, bpm: c.bpm, pattern: c.pattern, seconds: seconds)
        synth.swing = c.swing
        synth.introBars = c.introBars
        synth.leadIn = c.leadIn
        let audio = synth.render()
        let analyzer = TrackAnalyzer(sampleRate: 22050)
        audio.withUnsafeBufferPointer { analyzer.process($0) }
        return (try analyzer.finish(), synth.beatTimes)
    }

    private func check(_ c: Case, file: StaticString = #filePath, line: UInt = #line) throws {
        let (result, beats) = try analyse(c)
        XCTAssertEqual(result.bpm.value / c.bpm, 1, accuracy: 0.02, "\(c.name): read \(result.bpm)", file: file, line: line)
        let f = TempoMetrics.fMeasure(estimated: result.beats.map(\.value), reference: beats, window: 0.07, skip: 0)
        XCTAssertGreaterThan(f, 0.9, "\(c.name): beat F-measure", file: file, line: line)
    }

    func testDrumAndBassAt175IsNotHalved() throws {
        try check(Case(name: "two-step 175", bpm: 175, pattern: .twoStep))
    }

    /// Straight hip-hop with sixteenth hats is the hardest octave call here: its syncopated kicks and
    /// metronomic sixteenth hats fill the half-beats. Whichever octave is chosen, the other must be
    /// kept as the alternative, their probabilities must add up, and the confidence must not look
    /// certain when it is the wrong one. Known miss (issue 9, analysis versions 8–14): this drum
    /// machine's hip-hop at 70–93 BPM is read double with octave probability ≈ 0.7; the test then
    /// skips, loudly, after every check has run. (Since version 27, 93.3 is read right.)
    private func checkCoinTossOctave(bpm: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let (result, _) = try analyse(Case(name: "hip-hop \(bpm)", bpm: bpm, pattern: .hiphop))
        let octaves = [result.bpm, result.alternative?.bpm].compactMap { $0?.value }
        XCTAssertTrue(octaves.contains { abs($0 / bpm - 1) < 0.02 }, "\(bpm) should be kept: \(octaves)", file: file, line: line)
        XCTAssertTrue(octaves.contains { abs($0 / (2 * bpm) - 1) < 0.02 }, "\(2 * bpm) should be kept: \(octaves)", file: file, line: line)
        let alternative = try XCTUnwrap(result.alternative, file: file, line: line)
        XCTAssertEqual(result.octaveProbability + alternative.score, 1, accuracy: 1e-9, "the two octaves' probabilities add up",
                       file: file, line: line)
        XCTAssertGreaterThanOrEqual(result.octaveProbability, alternative.score, file: file, line: line)
        if abs(result.bpm.value / (2 * bpm) - 1) < 0.02 {
            // Read double: below the level `match` trusts.
            XCTAssertLessThan(result.confidence, ConfidenceEvidence.trusted, "a wrong octave must not look certain (read \(result.bpm))",
                              file: file, line: line)
            throw XCTSkip(String(format: "known miss (issue 9): hip-hop %.1f read at %.1f with confidence %.2f", bpm, result.bpm.value,
                                 result.confidence))
        }
    }

    func testHalfTimeHipHopAt87_5KeepsBothOctaves() throws {
        try checkCoinTossOctave(bpm: 87.5)
    }

    func testTranceAt140IsNotReadAsTwoThirds() throws {
        try check(Case(name: "four-on-the-floor 140", bpm: 140, pattern: .fourOnTheFloor))
    }

    func testBackbeatAt93_3IsNotReadAsThreeHalves() throws {
        // The family is right (no 140 or 62); the octave is the coin toss above.
        try checkCoinTossOctave(bpm: 93.3)
    }

    func testSwungSixteenths() throws {
        try check(Case(name: "swung hip-hop 92", bpm: 92, pattern: .hiphop, swing: 0.62))
    }

    /// The eighths of a 6/8 at 65 dotted quarters a minute run at 195, in the running range; the
    /// octave walk alone (factors of two) stayed there, `TripleDecision` steps down by three.
    func testSixEightIsReadAtTheDottedQuarter() throws {
        try check(Case(name: "6/8 at 65", bpm: 65, pattern: .sixEight))
    }

    func testWaltzInThreeFour() throws {
        try check(Case(name: "waltz 3/4 at 150", bpm: 150, pattern: .waltz))
    }

    func testDrumlessIntroDoesNotPullTheGrid() throws {
        let c = Case(name: "rock 160 with 4-bar drumless intro and 1.5 s of silence", bpm: 160, pattern: .backbeat,
                     introBars: 4, leadIn: 1.5)
        try check(c)
        let (result, beats) = try analyse(c)
        let grid = try XCTUnwrap(result.grid)
        XCTAssertFalse(grid.variableTempo)
        // The grid's phase: the first annotated beat lies on it.
        let k = ((beats[0] - grid.offset.value) / grid.period.value).rounded()
        XCTAssertEqual(grid.offset.value + k * grid.period.value, beats[0], accuracy: 0.05)
        XCTAssertGreaterThanOrEqual(result.beats.first?.value ?? 0, 1.3, "no beats in the leading silence")
    }

    /// Off-beat-heavy music (a skank, a house bass and open hat): the loudest hits are every "and",
    /// the kick only on the downbeat, and the chords change on the bar line. The beats must sit on the
    /// beat, not on the "and"s the onsets favour.
    func testOffBeatStabsAreNotTheBeat() throws {
        for bpm in [96.0, 124, 150] {
            try check(Case(name: "off-beat stabs \(bpm)", bpm: bpm, pattern: .skank))
        }
    }

    func testRunnersRange() throws {
        for bpm in stride(from: 140.0, through: 200.0, by: 10) {
            try check(Case(name: "backbeat \(bpm)", bpm: bpm, pattern: .backbeat))
        }
    }

    /// A plain backbeat, read right, is trusted: drum-only music has no chords, and evidence read
    /// from the sound's changes must not count against it. (Analysis versions 32–33 read the band
    /// spectrum's changes in threes for the step by three: a duple pattern repeats every six beats
    /// and not every three, like a 6/8 read at the eighth, and these fell to confidence 0.2–0.6.)
    func testAPlainBackbeatReadRightIsTrusted() throws {
        for bpm in [145.0, 170, 180] {
            let (result, _) = try analyse(Case(name: "backbeat \(bpm)", bpm: bpm, pattern: .backbeat))
            XCTAssertEqual(result.bpm.value / bpm, 1, accuracy: 0.02, "backbeat \(bpm): read \(result.bpm)")
            XCTAssertGreaterThanOrEqual(result.confidence, ConfidenceEvidence.trusted, "backbeat \(bpm)")
        }
    }

    /// Above `TempoRanges.reported` (202) a tempo is given only where the octave decisions are sure
    /// of it (octave probability at least `ConfidenceEvidence.trusted`); otherwise its half is given,
    /// the double kept as the alternative with its probability. A punk beat (kick and snare on every
    /// beat, hats on the beats) at 204–216 exercises both: where the octave model favoured the double
    /// without being sure, the half is given against the evidence and marked in doubt.
    func testAboveTheCeilingOnlyASureTempoIsGiven() throws {
        let punk = DrumSynth.Pattern(beatsPerBar: 4, events: [(0, .kick), (1, .snare), (2, .kick), (3, .snare)]
            + (0..<4).map { (Double($0), .hat) })
        var given = 0, overruled = 0
        for bpm in stride(from: 204.0, through: 216, by: 2) {
            let (result, _) = try analyse(Case(name: "punk \(bpm)", bpm: bpm, pattern: punk))
            if result.bpm.value > TempoRanges.reported.upperBound {
                given += 1
                XCTAssertEqual(result.bpm.value, bpm, accuracy: bpm * 0.01, "punk \(bpm)")
                XCTAssertGreaterThanOrEqual(result.octaveProbability, ConfidenceEvidence.trusted, "punk \(bpm): given above the ceiling unsure")
                continue
            }
            XCTAssertEqual(result.bpm.value, bpm / 2, accuracy: bpm * 0.01, "punk \(bpm)")
            let alternative = try XCTUnwrap(result.alternative, "punk \(bpm)")
            XCTAssertEqual(alternative.bpm.value, bpm, accuracy: bpm * 0.01, "punk \(bpm)")
            XCTAssertEqual(result.octaveProbability + alternative.score, 1, accuracy: 1e-9)
            if alternative.score > 0.5 {
                overruled += 1
                XCTAssertLessThan(result.confidence, 0.5, "punk \(bpm): given against the evidence, in doubt")
            }
        }
        XCTAssertGreaterThan(given, 0, "no sure reading above the ceiling: the test needs another")
        XCTAssertGreaterThan(overruled, 0, "no case where the ceiling overrules the octave model: the test needs another")
    }

    /// Drum-and-bass two-steps (kick on the "and" of 3) and four-on-the-floor across the tempi
    /// runners use: none may be halved.
    func testRunnersRangeTwoStepAndFourOnTheFloor() throws {
        for bpm in stride(from: 150.0, through: 200.0, by: 10) {
            try check(Case(name: "two-step \(bpm)", bpm: bpm, pattern: .twoStep))
        }
        for bpm in stride(from: 120.0, through: 180.0, by: 10) {
            try check(Case(name: "four-on-the-floor \(bpm)", bpm: bpm, pattern: .fourOnTheFloor))
        }
    }
}
