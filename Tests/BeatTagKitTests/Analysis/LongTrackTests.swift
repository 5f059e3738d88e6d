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
