@testable import BeatTagKit
import XCTest

final class SpectralFramesTests: XCTestCase {
    /// A (440 Hz) for two seconds, then C (523.25 Hz): the chromagram names the notes and changes
    /// most where they change.
    func testChromagramFollowsTheNotes() {
        let rate = AnalysisResampler.analysisRate
        let samples = (0..<Int(4 * rate)).map { i -> Float in
            let t = Double(i) / rate
            return Float(0.3 * sin(2 * Double.pi * (t < 2 ? 440 : 523.25) * t))
        }
        let detector = ChromaDetector(sampleRate: rate)
        detector.process(samples)
        let chroma = detector.held
        XCTAssertEqual(chroma.dimension, 12)
        XCTAssertEqual(chroma.frameRate, 25, accuracy: 0.1)
        func loudest(at seconds: Double) -> Int {
            let frame = Int(((seconds - chroma.startTime.value) * chroma.frameRate).rounded())
            let values = chroma.values[(frame * 12)..<(frame * 12 + 12)]
            return values.indices.max { values[$0] < values[$1] }! - frame * 12
        }
        XCTAssertEqual(loudest(at: 1), 0, "A is pitch class 0")
        XCTAssertEqual(loudest(at: 3), 3, "C is three semitones above A")
        let times = stride(from: 0.6, through: 3.4, by: 0.04).map { Seconds($0) }
        let changes = times.map { chroma.change(at: $0, window: Seconds(0.25)) ?? 0 }
        let peak = times[changes.indices.max { changes[$0] < changes[$1] }!]
        XCTAssertEqual(peak.value, 2, accuracy: 0.1)
        XCTAssertLessThan(chroma.change(at: Seconds(1), window: Seconds(0.25)) ?? 1, 0.1 * changes.max()!, "a held note does not change")
    }

    /// A legato line (no attack, no level change: each note fades into the next over 80 ms) at 90
    /// BPM after a second of silence. The pitch flux rises at every note change and stays low on
    /// the held notes, with no spike where the sound starts.
    func testPitchFluxHearsLegatoNoteChanges() {
        let rate = AnalysisResampler.analysisRate
        let beat = 60.0 / 90, lead = 1.0
        let notes = [220.0, 261.63, 329.63, 293.66, 246.94, 349.23, 196.0, 392.0]
        var phase = 0.0
        let samples = (0..<Int(9 * rate)).map { i -> Float in
            let t = Double(i) / rate
            guard t >= lead else { return 0 }
            let position = (t - lead) / beat
            let k = Int(position), into = (position - Double(k)) * beat
            // Crossfade in frequency over the first 80 ms of each note: a slur, not a new attack.
            let previous = notes[(k + notes.count - 1) % notes.count], current = notes[k % notes.count]
            let f = k == 0 || into >= 0.08 ? current : previous + (current - previous) * into / 0.08
            phase += 2 * Double.pi * f / rate
            return Float(0.2 * (sin(phase) + 0.5 * sin(2 * phase) + 0.25 * sin(3 * phase)))
        }
        let detector = ChromaDetector(sampleRate: rate)
        detector.process(samples)
        let flux = detector.heldPitchFlux
        XCTAssertEqual(flux.dimension, 1)
        XCTAssertEqual(flux.count, detector.held.count)
        func value(at seconds: Double) -> Float {
            let frame = Int(((seconds - flux.startTime.value) * flux.frameRate).rounded())
            return flux.values[max(0, min(flux.count - 1, frame))]
        }
        func peak(near seconds: Double) -> Float { stride(from: -0.12, through: 0.12, by: 0.04).map { value(at: seconds + $0) }.max()! }
        let changes = (1...10).map { peak(near: lead + Double($0) * beat) }
        let held = (1...10).map { value(at: lead + (Double($0) + 0.5) * beat) }
        XCTAssertGreaterThan(changes.min()!, 5 * held.max()!, "changes \(changes), held \(held)")
        XCTAssertLessThan(peak(near: lead), 0.5 * changes.min()!, "the sound starting after silence is no note change")
    }

    func testAOneValueSeriesIsReadAtAnotherFrameRate() {
        let series = SpectralFrames(frameRate: 25, startTime: Seconds(0.1), dimension: 1, values: [0, 1, 2, 3])
        let read = OnsetCurves.resample(series, frames: 14, frameRate: 100, startTime: .zero)
        XCTAssertEqual(read[0], 0, "before the first frame")
        XCTAssertEqual(read[10], 0, accuracy: 1e-6)
        XCTAssertEqual(read[12], 0.5, accuracy: 1e-6)
        XCTAssertEqual(read[13], 0.75, accuracy: 1e-6)
        let after = OnsetCurves.resample(series, frames: 30, frameRate: 100, startTime: .zero)
        XCTAssertEqual(after[22], 3, accuracy: 1e-6, "on the last frame")
        XCTAssertEqual(after[29], 0, "after the last frame")
        let empty = SpectralFrames(frameRate: 25, startTime: Seconds(0.04), dimension: 1)
        XCTAssertEqual(OnsetCurves.resample(empty, frames: 5, frameRate: 100, startTime: .zero), [0, 0, 0, 0, 0])
    }

    /// Dithered digital silence (±1 LSB of 16-bit noise, about −98 dBFS) has no notes either, while a
    /// quiet note (−60 dBFS) is still named.
    func testDitheredSilenceHasNoNotesButAQuietNoteHas() {
        let rate = AnalysisResampler.analysisRate
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func lsbNoise() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Float(seed >> 40) / Float(1 << 24) - 0.5) * 2 / 32768
        }
        let dither = ChromaDetector(sampleRate: rate)
        dither.process((0..<Int(rate)).map { _ in lsbNoise() })
        XCTAssertTrue(dither.held.values.allSatisfy { $0 == 0 })
        let quiet = ChromaDetector(sampleRate: rate)
        quiet.process((0..<Int(rate)).map { i in Float(0.0014 * sin(2 * Double.pi * 440 * Double(i) / rate)) + lsbNoise() })
        let frames = quiet.held
        let middle = frames.count / 2
        let values = Array(frames.values[(middle * 12)..<(middle * 12 + 12)])
        XCTAssertEqual(values.indices.max { values[$0] < values[$1] }, 0, "A at −60 dBFS is pitch class 0")
    }

    func testSilenceHasNoNotesAndNoChange() {
        let detector = ChromaDetector(sampleRate: AnalysisResampler.analysisRate)
        detector.process([Float](repeating: 0, count: 22050))
        let chroma = detector.held
        XCTAssertGreaterThan(chroma.count, 10)
        XCTAssertTrue(chroma.values.allSatisfy { $0 == 0 })
        XCTAssertEqual(chroma.change(at: Seconds(1), window: Seconds(0.3)), 0)
    }

    func testChangeNeedsTwoFramesEachSide() {
        let frames = SpectralFrames(frameRate: 10, startTime: .zero, dimension: 1, values: (0..<20).map { $0 < 10 ? 0 : 1 })
        XCTAssertEqual(frames.change(at: Seconds(1), window: Seconds(0.5)) ?? -1, 1, accuracy: 1e-9)
        XCTAssertEqual(frames.change(at: Seconds(1.5), window: Seconds(0.3)) ?? -1, 0, accuracy: 1e-9)
        XCTAssertNil(frames.change(at: Seconds(1), window: Seconds(0.1)), "one frame a side")
        XCTAssertNil(frames.change(at: Seconds(0.05), window: Seconds(0.5)), "nothing before the start")
    }

    /// Windows start every `hop` samples of the stream however it arrives in blocks, also when the
    /// hop is longer than the window.
    func testSlidingWindowsFollowTheStreamAcrossBlocks() {
        for (size, hop) in [(4, 2), (4, 6)] {
            var windows = SlidingWindow(size: size, hop: hop)
            var starts: [Float] = []
            let stream = (0..<40).map { Float($0) }
            for block in [Array(stream[0..<3]), Array(stream[3..<17]), Array(stream[17..<18]), Array(stream[18..<40])] {
                windows.push(block) { starts.append($0[0]) }
            }
            let expected = stride(from: 0, through: 40 - size, by: hop).map { Float($0) }
            XCTAssertEqual(starts, expected, "size \(size), hop \(hop)")
        }
    }
}

extension SpectralFrames {
    /// A one-hot chromagram at 25 frames a second whose chord changes every 2 s bar on the downbeat
    /// (120 BPM: four 0.5 s beats a bar), 30 s long.
    static func chordPerBar() -> SpectralFrames { chord(every: 2) }

    /// A one-hot chromagram at 25 frames a second whose chord changes every `period` seconds from
    /// `start` on, `seconds` long.
    static func chord(every period: Double, from start: Double = 0, seconds: Double = 30) -> SpectralFrames {
        let values = (0..<Int(seconds * 25)).flatMap { frame -> [Float] in
            let chord = Int(((Double(frame) / 25 - start) / period).rounded(.down)) + 1
            return (0..<12).map { $0 == (chord * 5) % 12 ? 1 : 0 }
        }
        return SpectralFrames(frameRate: 25, startTime: .zero, dimension: 12, values: values)
    }

    /// One value at 25 frames a second that rises by `steps[k % steps.count]` at the k-th beat of
    /// `period` seconds (beat 0 at 0 s), 30 s: the change across beat k is that step.
    static func levels(every period: Double, steps: [Double]) -> SpectralFrames {
        let values = (0..<750).map { frame -> Float in
            let beats = Int((Double(frame) / 25 / period).rounded(.down))
            return Float((1..<(beats + 1)).reduce(0.0) { $0 + steps[$1 % steps.count] })
        }
        return SpectralFrames(frameRate: 25, startTime: .zero, dimension: 1, values: values)
    }
}
