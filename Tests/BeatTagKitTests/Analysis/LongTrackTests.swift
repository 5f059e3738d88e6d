@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// A track longer than the analysis window (a DJ mix, a live set) is analysed window by window:
/// the frames held stay bounded whatever the length, and the beats run on across the seams as if
/// the track had been analysed whole. The window is shortened here so that a short render has seams.
final class LongTrackTests: XCTestCase {
    private func analyse(_ audio: [Float], window: Seconds) throws -> (AnalysisResult, TrackAnalyzer) {
        let analyzer = TrackAnalyzer(sampleRate: 22050, window: window)
        audio.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + 4096)
                analyzer.process(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return (try analyzer.finish(), analyzer)
    }

    func testBeatsRunOnAcrossTheWindowsAndMemoryStaysBounded() throws {
        var synth = DrumSynth(sampleRate: 22050, bpm: 128, pattern: .fourOnTheFloor, seconds: 200)
        let audio = synth.render()
        let window = Seconds(80)
        let (windowed, analyzer) = try analyse(audio, window: window)
        let (whole, wholeAnalyzer) = try analyse(audio, window: TrackAnalyzer.defaultWindow)

        // Held: one window of onset frames (~100 a second) and one block, not the 200 s.
        XCTAssertLessThanOrEqual(Double(analyzer.peakHeldFrames), (window.value + 1) * 100)
        XCTAssertGreaterThan(Double(wholeAnalyzer.peakHeldFrames), 199 * 100, "analysed whole, all frames are held")

        XCTAssertEqual(windowed.bpm.value, 128, accuracy: 0.2)
        XCTAssertEqual(windowed.duration.value, 200, accuracy: 0.1)
        let f = TempoMetrics.fMeasure(estimated: windowed.beats.map(\.value), reference: synth.beatTimes, window: 0.07, skip: 0)
        XCTAssertGreaterThan(f, 0.97)
        // No beat doubled or dropped at a seam: every interval is one period.
        let period = 60.0 / 128
        for (a, b) in zip(windowed.beats, windowed.beats.dropFirst()) {
            XCTAssertEqual((b.value - a.value) / period, 1, accuracy: 0.1, "beats at \(a.value) and \(b.value)")
        }
        // The same beats as the whole-track analysis, within 10 ms.
        XCTAssertEqual(windowed.beats.count, whole.beats.count, accuracy: 1)
        let matched = windowed.beats.filter { t in whole.beats.contains { abs($0.value - t.value) <= 0.01 } }.count
        XCTAssertGreaterThan(Double(matched) / Double(windowed.beats.count), 0.98)
    }

    /// Analysed window by window, the track gets one phase decision: the skank's windows each move
    /// the tracker off its "and"s and the move holds for the track; the backbeat is left as tracked.
    /// One window's probability does not speak for the track.
    func testThePhaseDecisionOfAWindowedTrackIsTheOneThatHoldsForMostOfIt() throws {
        var skank = DrumSynth(sampleRate: 22050, bpm: 150, pattern: .skank, seconds: 200)
        let (moved, _) = try analyse(skank.render(), window: Seconds(80))
        XCTAssertTrue(moved.phase.halfBeat)
        XCTAssertNil(moved.phase.halfBeatProbability)
        XCTAssertGreaterThan(TempoMetrics.fMeasure(estimated: moved.beats.map(\.value), reference: skank.beatTimes, window: 0.07, skip: 0), 0.95)
        var backbeat = DrumSynth(sampleRate: 22050, bpm: 150, pattern: .backbeat, seconds: 200)
        let (kept, _) = try analyse(backbeat.render(), window: Seconds(80))
        XCTAssertFalse(kept.phase.halfBeat)
    }

    func testACoinTossOctaveStaysOneLevelAcrossTheWindows() throws {
        // This drum machine's hip-hop at 87.5 is a coin toss between 87.5 and 175 (SyntheticTempoTests):
        // windows read alone may fall either way, the beats of the track must not switch level.
        var synth = DrumSynth(sampleRate: 22050, bpm: 87.5, pattern: .hiphop, seconds: 300)
        let (result, _) = try analyse(synth.render(), window: Seconds(80))
        let period: Double = 60.0 / result.bpm.value
        let odd = zip(result.beats, result.beats.dropFirst()).filter { abs(($1.value - $0.value) / period - 1) > 0.1 }
        XCTAssertTrue(odd.isEmpty, "intervals off the period at \(odd.prefix(5).map { $0.0.value })")
        XCTAssertFalse(result.grid?.variableTempo ?? true)
    }

    func testALaterWindowReadingAnotherOctaveKeepsTheLevelBefore() throws {
        // 120 s of a backbeat at 90, then 120 s of a drum-and-bass two-step at 180 on the same grid
        // (read alone, it is 180: SyntheticTempoTests). The windows of the second part read 180, a
        // metrical relative of 90: they are tracked at 90, so the beats run on at one level.
        var first = DrumSynth(sampleRate: 22050, bpm: 90, pattern: .backbeat, seconds: 120)
        var second = DrumSynth(sampleRate: 22050, bpm: 180, pattern: .twoStep, seconds: 120)
        let (result, _) = try analyse(first.render() + second.render(), window: Seconds(80))
        XCTAssertEqual(result.bpm.value, 90, accuracy: 0.5)
        let period: Double = 60.0 / 90
        let odd = zip(result.beats, result.beats.dropFirst()).filter { abs(($1.value - $0.value) / period - 1) > 0.1 }
        XCTAssertTrue(odd.isEmpty, "intervals off the period at \(odd.prefix(5).map { $0.0.value })")
        XCTAssertGreaterThan(result.beats.last?.value ?? 0, 235, "the second part keeps its beats")
    }

    func testWindowsAreJoinedOnlyAcrossMetricalRelatives() {
        XCTAssertTrue(TrackAnalyzer.isMetricalRelative(BPM(175), of: BPM(87.5)))
        XCTAssertTrue(TrackAnalyzer.isMetricalRelative(BPM(69), of: BPM(207)))
        XCTAssertTrue(TrackAnalyzer.isMetricalRelative(BPM(90), of: BPM(135)))
        XCTAssertFalse(TrackAnalyzer.isMetricalRelative(BPM(140), of: BPM(128)), "a mix moving on is followed")
        XCTAssertFalse(TrackAnalyzer.isMetricalRelative(BPM(128), of: BPM(128)), "the same level needs no forcing")
        // Agreement counts the beats within 70 ms of a reference beat, over the reference's span only.
        let reference = [10.0, 10.5, 11.0, 11.5].map { Seconds($0) }
        let onBeat = [9.0, 10.02, 10.5, 11.03, 11.5, 12.5].map { Seconds($0) }
        let offBeat = [10.25, 10.75, 11.25].map { Seconds($0) }
        XCTAssertEqual(TrackAnalyzer.agreement(onBeat, reference), 4)
        XCTAssertEqual(TrackAnalyzer.agreement(offBeat, reference), 0)
    }

    func testTheSeamReadsWhereTheEarlierBeatsSit() {
        // Frames at 100 a second: beats every half second.
        let beats = (0..<20).map { FramePosition(Double($0) * 50) }
        func phase(_ offset: Double) -> Double? {
            TrackAnalyzer.phase(of: (2..<12).map { FramePosition((Double($0) * 0.5 + offset) * 100) }, within: beats)
        }
        XCTAssertEqual(phase(0.125) ?? -1, 0.25, accuracy: 1e-9, "a sixteenth later")
        XCTAssertEqual(phase(-0.125) ?? -1, 0.75, accuracy: 1e-9, "a sixteenth earlier")
        XCTAssertEqual(phase(0.25) ?? -1, 0.5, accuracy: 1e-9, "on the \"and\"")
        XCTAssertNil(phase(0.02), "on the beats already")
        // Moved by the phase read, the beats land on the earlier window's.
        let reference = (2..<12).map { Double($0) * 0.5 + 0.125 }
        let moved = BeatPhase.moved(beats, by: phase(0.125) ?? 0).map { $0.value / 100 }
        for r in reference { XCTAssertTrue(moved.contains { abs($0 - r) < 0.001 }, "\(r) not reached: \(moved)") }
        let scattered = [0.6, 1.2, 1.85, 2.4, 3.1, 3.55, 4.3].map { FramePosition($0 * 100) }
        XCTAssertNil(TrackAnalyzer.phase(of: scattered, within: beats), "no one phase")
        XCTAssertNil(TrackAnalyzer.phase(of: [110, 160, 210].map { FramePosition($0) }, within: beats), "too few")
    }

    func testTheTempoHeldLongestWins() throws {
        // 130 s at 100 BPM, then 70 s at 140: three 80-second windows, two of them at 100.
        var slowSynth = DrumSynth(sampleRate: 22050, bpm: 100, pattern: .backbeat, seconds: 130)
        var fastSynth = DrumSynth(sampleRate: 22050, bpm: 140, pattern: .backbeat, seconds: 70)
        let slow = slowSynth.render(), fast = fastSynth.render()
        let (result, _) = try analyse(slow + fast, window: Seconds(80))
        XCTAssertEqual(result.bpm.value, 100, accuracy: 0.5)
        XCTAssertTrue(result.beats.contains { $0.value > 140 }, "the faster part keeps its beats")
        XCTAssertTrue(result.grid?.variableTempo ?? false, "two tempi: the grid is variable")
    }
}
