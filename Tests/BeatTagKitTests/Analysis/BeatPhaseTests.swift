@testable import BeatTagKit
import XCTest

final class BeatPhaseTests: XCTestCase {
    /// Rock at 120 BPM (50 frames a beat): kick on 1 and 3, snare on 2 and 4, loud open hats on every "and".
    private func curves(frames n: Int = 3000) -> OnsetCurves {
        var low = [Float](repeating: 0, count: n), snare = low, high = low
        for beat in 0..<(n / 50) {
            let t = beat * 50
            if beat % 2 == 0 { low[t] = 4 } else { snare[t] = 4 }
            if t + 25 < n { high[t + 25] = 6 }
        }
        let all = (0..<n).map { low[$0] + snare[$0] + high[$0] }
        let body = (0..<n).map { low[$0] + snare[$0] }
        return OnsetCurves(frameRate: 100, all: all, body: body, drums: body, low: low, snare: snare, high: high)
    }

    /// 100 tracked beats, 50 frames apart (or as `interval` says for the i-th), that from beat 20
    /// ease half a beat later over 14 beats (each of those intervals 3.6% long) and stay there.
    private static func slidingRun(interval: (Int) -> Double = { _ in 50 }) -> [FramePosition] {
        var t = 0.0
        var beats: [FramePosition] = []
        for i in 0..<100 {
            beats.append(FramePosition(t))
            t += i >= 20 && i < 34 ? 50 * (1 + 0.5 / 14) : interval(i)
        }
        return beats
    }

    func testBeatsOnTheOffBeatHatsAreMovedToTheBeat() {
        let offBeats = stride(from: 25.0, to: 2975, by: 50).map { FramePosition($0) }
        XCTAssertGreaterThan(BeatPhase.probabilityShifted(beats: offBeats, curves: curves()), 0.5)
        // The move is recorded: the catalog keeps it and the review queue lists such grids.
        let (decided, decision) = BeatPhase.decided(beats: offBeats, curves: curves())
        XCTAssertTrue(decision.halfBeat)
        XCTAssertGreaterThan(decision.halfBeatProbability ?? 0, 0.5)
        XCTAssertTrue(decided.allSatisfy { Int($0.value.rounded()) % 50 == 0 }, "on the kicks and snares")
    }

    func testBeatsOnTheKicksAndSnaresStay() {
        let beats = stride(from: 0.0, to: 2950, by: 50).map { FramePosition($0) }
        XCTAssertLessThan(BeatPhase.probabilityShifted(beats: beats, curves: curves()), 0.5)
        let (decided, decision) = BeatPhase.decided(beats: beats, curves: curves())
        XCTAssertEqual(decided, beats)
        XCTAssertFalse(decision.halfBeat)
        XCTAssertLessThan(decision.halfBeatProbability ?? 1, 0.5)
        XCTAssertEqual(BeatPhase.decided(beats: Array(beats.prefix(7)), curves: curves()).decision, .kept, "too few beats to ask")
    }

    /// The rock above, 100 beats long, tracked on its kicks and snares for 20 beats, then easing
    /// onto the open hats over 14 beats and staying there: the phase model reads the two sides at different phases,
    /// and the decided beats are on the beat throughout (the slide's beats filled at the period).
    /// The same run kept on the beat throughout is read alike on both sides.
    func testATrackerEasingOntoTheHatsIsPutBackOnTheBeat() {
        let curves = curves(frames: 5100)
        let tracked = Self.slidingRun()
        let differ = BeatPhase.phasesDiffer(tracked, curves: curves)
        XCTAssertTrue(differ(0..<21, 34..<66))
        XCTAssertFalse(differ(0..<21, 0..<21))
        let onBeat = stride(from: 0.0, to: 5000, by: 50).map { FramePosition($0) }
        XCTAssertFalse(BeatPhase.phasesDiffer(onBeat, curves: curves)(0..<21, 34..<66))
        let decided = BeatPhase.decided(beats: tracked, curves: curves).beats.map(\.value)
        XCTAssertGreaterThan(decided.count, 95)
        XCTAssertTrue(decided.allSatisfy { abs($0 / 50 - ($0 / 50).rounded()) < 0.05 }, "every beat on a kick or snare (the slide's first within 0.04)")
    }

    func testWhereTheMusicStartsOnTheGridIsTheStartCue() {
        var curves = curves()
        let beats = stride(from: 100.0, to: 2950, by: 50).map { FramePosition($0) }
        curves.musicStart = FramePosition(0)    // two beats before the run: on a beat
        XCTAssertEqual(BeatPhase.startHalf(beats: beats, curves: curves), -1, accuracy: 1e-9)
        curves.musicStart = FramePosition(75)   // half-way between two beats
        XCTAssertEqual(BeatPhase.startHalf(beats: beats, curves: curves), 1, accuracy: 1e-9)
        curves.musicStart = FramePosition(112.5)    // on a sixteenth: no evidence either way
        XCTAssertEqual(BeatPhase.startHalf(beats: beats, curves: curves), 0, accuracy: 1e-9)
        curves.musicStart = nil
        XCTAssertEqual(BeatPhase.startHalf(beats: beats, curves: curves), 0)
        let late = stride(from: 500.0, to: 2950, by: 50).map { FramePosition($0) }
        curves.musicStart = FramePosition(25)   // 9.5 beats before the run: too far to count beats
        XCTAssertEqual(BeatPhase.startHalf(beats: late, curves: curves), 0)
    }

    /// The tracker's first beat is its least certain: one placed late must not move the start's
    /// phase (the real blues.00036: first beat 150 ms late, its first interval short, the start
    /// read half-way between beats from them).
    func testAMisplacedFirstBeatDoesNotMoveTheStartCue() {
        var curves = curves()
        let grid = stride(from: 5.0, to: 2950, by: 55).map { FramePosition($0) }
        var beats = grid
        beats[0] = FramePosition(25)    // 20 frames late: its interval to the next is 35, not 55
        curves.musicStart = FramePosition(0)    // 5 frames before the first real beat
        let expected = -cos(2 * Double.pi * (-5.0 / 55))
        XCTAssertEqual(BeatPhase.startHalf(beats: grid, curves: curves), expected, accuracy: 1e-9)
        XCTAssertEqual(BeatPhase.startHalf(beats: beats, curves: curves), expected, accuracy: 0.12,
                       "read on the nine beats nearest the start, not the first and its interval")
        XCTAssertLessThan(BeatPhase.startHalf(beats: beats, curves: curves), -0.7, "still on the beat")
        // A drifting run: the period is the median of the nine, the grid their mean phase.
        let drifting = (0..<40).map { FramePosition(10 + 50 * Double($0) + 0.2 * Double($0 * $0)) }
        curves.musicStart = FramePosition(10)
        XCTAssertLessThan(BeatPhase.startHalf(beats: drifting, curves: curves), -0.9)
        // Beats that share no grid: no cue, rather than whatever angle their scatter points to.
        let scattered = [0.0, 50, 80, 150, 170, 260, 290, 330, 410, 440].map { FramePosition($0 + 5) }
        curves.musicStart = FramePosition(0)
        XCTAssertEqual(BeatPhase.startHalf(beats: scattered, curves: curves), 0)
    }

    func testTheMusicStartsWhereTheLevelJumpsTowardsTheLoudPart() throws {
        let rate = 100.0, start = Seconds(0.05)
        let halfWindow = Double(OnsetDetector.windowSize) / 2 / AnalysisResampler.analysisRate * rate
        // Room tone at −50 dB of the music for 80 frames, then the music.
        let lead = [Float](repeating: 0.001, count: 80) + [Float](repeating: 0.3, count: 400)
        let found = try XCTUnwrap(OnsetCurves.musicStart(energy: lead, frameRate: rate, startTime: start))
        XCTAssertEqual(found.value, 80 + halfWindow, accuracy: 1e-9)
        // Loud from the first frame: the track's first sample, before frame 0's centre.
        let loud = [Float](repeating: 0.3, count: 400)
        XCTAssertEqual(OnsetCurves.musicStart(energy: loud, frameRate: rate, startTime: start)?.value ?? 0, -5, accuracy: 1e-9)
        XCTAssertNil(OnsetCurves.musicStart(energy: [Float](repeating: 0, count: 400), frameRate: rate, startTime: start))
        // Under noise 10 dB below the music, where it starts cannot be told from the level.
        let noisy = [Float](repeating: 0.1, count: 80) + [Float](repeating: 0.3, count: 400)
        XCTAssertNil(OnsetCurves.musicStart(energy: noisy, frameRate: rate, startTime: start))
        // A fade-in: the start is where the level first jumps 12 dB within half a second.
        let fade = [Float](repeating: 0, count: 20) + (1...100).map { 0.3 * Float($0 * $0) / 10000 } + [Float](repeating: 0.3, count: 400)
        let faded = try XCTUnwrap(OnsetCurves.musicStart(energy: fade, frameRate: rate, startTime: start))
        XCTAssertLessThan(faded.value, 40)
        // A lead-in of digital silence shorter than a window, then a pad at a third of the loud
        // level: no frame of silence to jump from and no 12 dB jump later. Where the sound starts
        // (the first window whose first hop holds sound, frame 2) is the start.
        let pad = [Float(0.05)] + [Float](repeating: 0.1, count: 100) + [Float](repeating: 0.3, count: 400)
        XCTAssertNil(OnsetCurves.musicStart(energy: pad, frameRate: rate, startTime: start))
        XCTAssertEqual(OnsetCurves.musicStart(energy: pad, frameRate: rate, startTime: start, soundStart: 2)?.value ?? 0,
                       2.5 - halfWindow, accuracy: 1e-9)
        // Sound from the first sample is no lead-in: under noise, still no start.
        XCTAssertNil(OnsetCurves.musicStart(energy: noisy, frameRate: rate, startTime: start, soundStart: 0))
        // After the zeros, room tone 50 dB down is not the music: the level's jump still is.
        XCTAssertEqual(OnsetCurves.musicStart(energy: lead, frameRate: rate, startTime: start, soundStart: 3)?.value ?? 0,
                       80 + halfWindow, accuracy: 1e-9)
    }

    /// Chords that change every bar on the downbeat, as a one-hot chromagram at 25 frames a second
    /// (120 BPM: a beat is 0.5 s, 50 onset frames at 100 per second).
    func testChordChangesOnTheBeatsPointToTheBeats() {
        var curves = OnsetCurves(frameRate: 100, all: [Float](repeating: 0, count: 3000))
        curves.chroma = .chordPerBar()
        let beats = stride(from: 0.0, to: 2950, by: 50).map { FramePosition($0) }
        let offBeats = stride(from: 25.0, to: 2950, by: 50).map { FramePosition($0) }
        let onGrid = BeatPhase.changeFeatures(beats: beats, curves: curves, frames: curves.chroma)
        let offGrid = BeatPhase.changeFeatures(beats: offBeats, curves: curves, frames: curves.chroma)
        XCTAssertGreaterThan(onGrid[1], 1, "the top quarter of the beats holds the bar lines")
        XCTAssertLessThan(offGrid[1], -1)
        XCTAssertEqual(BeatPhase.changeFeatures(beats: beats, curves: curves, frames: nil), [0, 0])
    }

    /// A steady run at 50 frames a beat that slides half a beat over four beats and stays there,
    /// as the tracker does when off-beat hats enter: two stretches, and after aligning them one
    /// phase throughout, a beat every 50 frames.
    func testAHalfBeatJumpIsFoundAndAligned() throws {
        let before = stride(from: 0.0, through: 1000, by: 50).map { $0 }
        let slide = [1062.5, 1125, 1187.5]
        let after = stride(from: 1250.0 + 25, through: 2500, by: 50).map { $0 }
        let beats = (before + slide + after).map { FramePosition($0) }
        let stretches = BeatPhase.halfBeatJumps(beats)
        XCTAssertEqual(stretches.count, 2)
        XCTAssertEqual(BeatPhase.halfBeatJumps(beats, phasesDiffer: { _, _ in true }), stretches,
                       "a sharp jump is the five-beat window's, whatever the phase model says")
        let aligned = BeatPhase.aligned(beats).map(\.value)
        let intervals = zip(aligned, aligned.dropFirst()).map { $1 - $0 }
        XCTAssertEqual(intervals.min() ?? 0, 50, accuracy: 1.5)
        XCTAssertEqual(intervals.max() ?? 0, 50, accuracy: 1.5)
        XCTAssertTrue(aligned.allSatisfy { abs($0 / 50 - ($0 / 50).rounded()) < 0.03 }, "every beat on the first stretch's phase")
    }

    /// The tracker easing half a beat over fourteen beats (each interval 3.6% long) and staying
    /// there, in a song of 100 beats whose tempo holds (the slide is a seventh of it). Where the
    /// phase model reads the two sides at different phases: two stretches, and after aligning them a beat every 50 frames on the first
    /// stretch's phase (the gap is filled at the period after the slide, not at its long first
    /// interval). Where it reads them alike (a live drift moves the phase as much) or is not
    /// asked: one stretch, nothing moved.
    func testAGradualSlideIsFoundAndAligned() {
        let beats = Self.slidingRun()
        var asked: [(Range<Int>, Range<Int>)] = []
        XCTAssertEqual(BeatPhase.halfBeatJumps(beats, phasesDiffer: { asked.append(($0, $1)); return true }).count, 2)
        // Its first beat (0.04 off) stays with the run before, its last with the run after.
        XCTAssertEqual(asked.first?.0.upperBound, 22, "the first stretch ends where the slide starts")
        XCTAssertEqual(asked.first?.1.lowerBound, 33, "the second starts where it ends")
        XCTAssertEqual(BeatPhase.halfBeatJumps(beats, phasesDiffer: { _, _ in false }).count, 1)
        XCTAssertEqual(BeatPhase.halfBeatJumps(beats).count, 1)
        XCTAssertEqual(BeatPhase.aligned(beats), beats)
        let aligned = BeatPhase.aligned(beats, phasesDiffer: { _, _ in true }).map(\.value)
        let intervals = zip(aligned, aligned.dropFirst()).map { $1 - $0 }
        XCTAssertEqual(intervals.min() ?? 0, 50, accuracy: 2.5)
        XCTAssertEqual(intervals.max() ?? 0, 50, accuracy: 2.5)
        XCTAssertTrue(aligned.allSatisfy { abs($0 / 50 - ($0 / 50).rounded()) < 0.05 }, "every beat on the first stretch's phase")
    }

    /// The same slide in a loosely played song (the other intervals 49 and 51 frames by turns, 2%
    /// off): the slide's bounds are read on the grids either side, not interval by interval, so
    /// they stay where the slide is and the aligned beats stay on the grid.
    func testAGradualSlideInALooselyPlayedSongKeepsItsBounds() {
        let beats = Self.slidingRun { $0 % 2 == 0 ? 49 : 51 }
        var asked: [(Range<Int>, Range<Int>)] = []
        XCTAssertEqual(BeatPhase.halfBeatJumps(beats, phasesDiffer: { asked.append(($0, $1)); return true }).count, 2)
        XCTAssertEqual(Double(asked.first?.0.upperBound ?? 0), 22, accuracy: 1)
        XCTAssertEqual(Double(asked.first?.1.lowerBound ?? 0), 33, accuracy: 1)
        let aligned = BeatPhase.aligned(beats, phasesDiffer: { _, _ in true }).map(\.value)
        XCTAssertGreaterThan(aligned.count, 95)
        XCTAssertTrue(aligned.allSatisfy { abs($0 / 50 - ($0 / 50).rounded()) < 0.07 }, "every beat on the first stretch's phase")
    }

    /// A loose drummer (intervals ±5%) at one tempo throughout, sliding half a beat: in a song whose
    /// tempo holds, the wider limits apply and the slide is found.
    func testASlideInALooselyPlayedSteadySongIsFound() {
        let wobble = [1.05, 0.95, 1.03, 0.97]
        var t = 0.0
        var beats: [FramePosition] = []
        for i in 0..<60 {
            beats.append(FramePosition(t))
            t += 50 * (i >= 25 && i < 29 ? 1.125 : wobble[i % wobble.count])
        }
        XCTAssertEqual(BeatPhase.halfBeatJumps(beats).count, 2)
    }

    /// Rubato: the tempo eases 6% slower over eight beats and stays there. The phase moves, but the
    /// period changed: not a jump.
    func testATempoChangeIsNotAJump() {
        var t = 0.0, period = 50.0
        var beats: [FramePosition] = []
        for i in 0..<48 {
            beats.append(FramePosition(t))
            if i >= 20 && i < 28 { period *= pow(1.06, 1.0 / 8) }
            t += period
        }
        XCTAssertEqual(BeatPhase.halfBeatJumps(beats).count, 1)
        XCTAssertEqual(BeatPhase.aligned(beats), beats)
    }

    func testMovingShiftsEveryBeatTheSameFractionOfItsInterval() {
        XCTAssertEqual(BeatPhase.shifted([10, 20, 30, 42]), [5, 15, 25, 36, 48])
        XCTAssertEqual(BeatPhase.shifted([0, 10, 20]), [5, 15, 25], "no beat before frame 0")
        XCTAssertEqual(BeatPhase.moved([10, 20, 30, 42], by: 0.25), [2.5, 12.5, 22.5, 33, 45], "a sixteenth on")
        XCTAssertEqual(BeatPhase.moved([10, 20, 30, 42], by: 0.75), [7.5, 17.5, 27.5, 39, 51], "a sixteenth back, from the beat before")
    }
}
