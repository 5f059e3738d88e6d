@testable import BeatTagKit
import XCTest

/// The chord-change evidence of the octave and triple decisions, on chromagrams drawn by hand with a
/// known bar.
final class HarmonicRhythmTests: XCTestCase {
    /// Beat times every `period` seconds over `duration`.
    private func beats(every period: Double, for duration: Double = 30) -> [Seconds] {
        stride(from: 0.0, to: duration, by: period).map { Seconds($0) }
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

    /// One position of each group carries every change: the contrast is high whichever beat starts a
    /// group; a chord on every beat gives none.
    func testGroupContrastDoesNotDependOnWhichBeatStartsAGroup() {
        let chords = SpectralFrames.chordPerBar()
        let all = beats(every: 0.25)
        let contrasts = (0..<4).map { HarmonicRhythm(beats: Array(all.dropFirst($0)), frames: chords).groupContrast(size: 2) }
        for c in contrasts {
            XCTAssertGreaterThan(c, 2)
            XCTAssertEqual(c, contrasts[0], accuracy: 0.05)
        }
        let everyBeat = HarmonicRhythm(beats: beats(every: 0.5), frames: SpectralFrames.chord(every: 0.5))
        XCTAssertEqual(everyBeat.groupContrast(size: 2), 0, accuracy: 0.05)
    }

    func testNoFramesOrTooFewBeatsGiveNoEvidence() {
        let none = HarmonicRhythm(beats: beats(every: 0.5), frames: nil)
        XCTAssertEqual(none.repeatsAtTwoBars(of: 4), 0)
        XCTAssertEqual(none.groupContrast(size: 2), 0)
        let short = HarmonicRhythm(beats: beats(every: 0.5, for: 3), frames: SpectralFrames.chordPerBar())
        XCTAssertEqual(short.repeatsAtTwoBars(of: 4), 0)
        XCTAssertEqual(short.groupContrast(size: 2), 0)
    }
}
