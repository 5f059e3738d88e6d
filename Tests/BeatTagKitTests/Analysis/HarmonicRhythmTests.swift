@testable import BeatTagKit
import XCTest

/// The chord-change evidence of the octave and triple decisions, on chromagrams and levels drawn by
/// hand with a known bar.
final class HarmonicRhythmTests: XCTestCase {
    /// Beat times every `period` seconds from `start` over `duration`.
    private func beats(every period: Double, from start: Double = 0, for duration: Double = 30) -> [Seconds] {
        stride(from: start, to: duration, by: period).map { Seconds($0) }
    }

    /// One chord a 2 s bar (120 BPM): read at 120 the changes repeat every four beats; read at 240
    /// (twice too fast) only every eight.
    func testChordsOnceABarRepeatEveryTwoBarsOnlyAtTheDoubleLevel() {
        let chords = SpectralFrames.chordPerBar()
        let right = HarmonicRhythm(beats: beats(every: 0.5), frames: chords)
        let double = HarmonicRhythm(beats: beats(every: 0.25), frames: chords)
        XCTAssertGreaterThan(right.correlation(lag: 4), 0.9)
        XCTAssertLessThan(right.repeatsAtTwoBars(of: 4), 0.1)
        XCTAssertLessThan(double.correlation(lag: 4), 0)
        XCTAssertGreaterThan(double.repeatsAtTwoBars(of: 4), 1)
    }

    /// A 6/8 piece with one chord a bar of two dotted quarters (1.5 s): read at the eighth (three
    /// times the beat) the changes come every six, a waltz's chord every three of its quarters.
    func testSixEightReadAtTheEighthRepeatsEverySixAndAWaltzEveryThree() {
        let bar = 1.5
        let chords = SpectralFrames.chord(every: bar)
        let eighths = HarmonicRhythm(beats: beats(every: bar / 6), frames: chords)
        let waltz = HarmonicRhythm(beats: beats(every: bar / 3), frames: chords)
        XCTAssertGreaterThan(eighths.repeatsAtTwoBars(of: 3), 1)
        XCTAssertLessThan(waltz.repeatsAtTwoBars(of: 3), 0.1)
    }

    /// Which beat the tracker started on moves the series, not what it says.
    func testTheBarPeriodicityDoesNotDependOnTheFirstBeat() {
        let fourFour = beats(every: 0.25)
        let readings = (0..<8).map { HarmonicRhythm(beats: Array(fourFour.dropFirst($0)), frames: .chordPerBar()).repeatsAtTwoBars(of: 4) }
        for r in readings { XCTAssertEqual(r, readings[0], accuracy: 0.03) }
        let sixEight = (0..<6).map {
            HarmonicRhythm(beats: Array(fourFour.dropFirst($0)), frames: .chord(every: 1.5)).repeatsAtTwoBars(of: 3)
        }
        for r in sixEight { XCTAssertEqual(r, sixEight[0], accuracy: 0.03) }
    }

    /// Steps of 1 on even beats and ½ on odd ones: the contrast is log 2 whichever beat comes first;
    /// steps 1, ½, ¼ in threes: log(1 / ⅜). Not at the cap, so the top-quarter means are what is read.
    func testGroupContrastIsTheLogRatioOfTheStrongestPositionToTheOthers() {
        for dropped in 0...3 {
            let r = HarmonicRhythm(beats: Array(beats(every: 0.5).dropFirst(dropped)), frames: .levels(every: 0.5, steps: [1, 0.5]))
            XCTAssertEqual(r.groupContrast(size: 2), log(2), accuracy: 0.02, "first \(dropped) beats dropped")
        }
        for dropped in 0...2 {
            let r = HarmonicRhythm(beats: Array(beats(every: 0.5).dropFirst(dropped)), frames: .levels(every: 0.5, steps: [1, 0.5, 0.25]))
            XCTAssertEqual(r.groupContrast(size: 3), log(1 / 0.375), accuracy: 0.02, "first \(dropped) beats dropped")
        }
        // A few strong changes on one parity against many weak ones on the other: the top quarters,
        // not the means, are compared (the means would favour the weak parity).
        let sparse = HarmonicRhythm(beats: beats(every: 0.5), frames: .levels(every: 0.5, steps: [0, 0.3, 0, 0.3, 0, 0.3, 0, 0.3, 2, 0.3, 0, 0.3]))
        XCTAssertGreaterThan(sparse.groupContrast(size: 2), log(2))
        let everyBeat = HarmonicRhythm(beats: beats(every: 0.5), frames: .chord(every: 0.5))
        XCTAssertEqual(everyBeat.groupContrast(size: 2), 0, accuracy: 0.05)
    }

    /// The change is read over one beat either side: a chord that changes a quarter of a second
    /// after a beat shows on that beat and the next (a half-beat window would see neither).
    func testTheChangeIsReadOverOneBeatEitherSide() {
        let r = HarmonicRhythm(beats: beats(every: 0.5), frames: .chord(every: 2, from: 0.25))
        // Inner beats from 0.5 s: the beats at 2.0 and 2.5 s are entries 3 and 4. Their windows hold
        // 6 of 13 frames of the new chord and 7 of 13 of the old one.
        XCTAssertEqual(r.changes[3], 2.squareRoot() * 6 / 13, accuracy: 0.01)
        XCTAssertEqual(r.changes[4], 2.squareRoot() * 7 / 13, accuracy: 0.01)
        XCTAssertEqual(r.changes[2], 0, accuracy: 1e-9)
    }

    /// Beats the frames do not cover (a later window of a long track holds only its own frames) are
    /// left out, not read as "no change".
    func testBeatsBeyondTheFramesAreLeftOut() {
        let frames = SpectralFrames(frameRate: 25, startTime: Seconds(5), dimension: 12,
                                    values: Array(SpectralFrames.chordPerBar().values.prefix(12 * 25 * 20)))
        let early = HarmonicRhythm(beats: beats(every: 0.5), frames: frames)
        let covered = HarmonicRhythm(beats: beats(every: 0.5, from: 5), frames: frames)
        XCTAssertEqual(early.changes, covered.changes)
        XCTAssertGreaterThan(covered.changes.count, 30)
    }

    func testNoFramesOrTooFewBeatsGiveNoEvidence() {
        let none = HarmonicRhythm(beats: beats(every: 0.5), frames: nil)
        XCTAssertEqual(none.repeatsAtTwoBars(of: 4), 0)
        XCTAssertEqual(none.groupContrast(size: 2), 0)
        // Both lags need eight beats of overlap: 17 beats (15 changes) say nothing, 24 do.
        for count in 14...17 {
            let short = HarmonicRhythm(beats: Array(beats(every: 0.25).prefix(count)), frames: .chordPerBar())
            XCTAssertEqual(short.repeatsAtTwoBars(of: 4), 0, "\(count) beats")
        }
        XCTAssertNotEqual(HarmonicRhythm(beats: Array(beats(every: 0.25).prefix(24)), frames: .chordPerBar()).repeatsAtTwoBars(of: 4), 0)
        XCTAssertEqual(HarmonicRhythm(beats: beats(every: 0.5), frames: .chordPerBar()).groupContrast(size: 1), 0)
    }
}
