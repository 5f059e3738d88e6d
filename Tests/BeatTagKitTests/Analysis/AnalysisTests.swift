@testable import BeatTagKit
import BeatTagTestSupport
import Foundation
import XCTest

final class OnsetEnvelopeTests: XCTestCase {
    /// Clicks at known times must show up as novelty peaks at those times.
    func testOnsetPeaksLandOnTheClicks() {
        let rate = 22050
        let clickTimes = stride(from: 1.0, to: 9.0, by: 0.61).map { $0 }
        var signal = [Float](repeating: 0, count: rate * 10)
        for t in clickTimes {
            let start = Int(t * Double(rate))
            // A struck, decaying tone pair: sharp attack, energy well inside the analysis band.
            for i in 0..<2000 {
                let x = Double(i) / Double(rate)
                signal[start + i] += Float(exp(-x * 40) * (sin(2 * Double.pi * 900 * x) + 0.5 * sin(2 * Double.pi * 2700 * x))) * 0.6
            }
        }
        let analyzer = TrackAnalyzerProbe(sampleRate: rate)
        let envelope = analyzer.envelope(of: signal)
        XCTAssertEqual(envelope.frameRate, 100.2, accuracy: 0.5)
        var errors: [Double] = []
        // The first click is where the audio starts after leading digital silence: by design not an
        // onset (OnsetDetector, OnsetDetectorTests). Every later click, after its own silence, is.
        for t in clickTimes.dropFirst() {
            // The strongest frame within ±100 ms of the click.
            let center = Int((t - envelope.startTime.value) * envelope.frameRate)
            let window = max(0, center - 10)...min(envelope.count - 1, center + 10)
            let best = window.max { envelope.strength[$0] < envelope.strength[$1] }!
            let time = OnsetCurves(envelope).time(of: FramePosition(Double(best))).value
            errors.append(time - t)
            XCTAssertEqual(time, t, accuracy: 0.025, "click at \(t)")
        }
        // From silence the 46 ms window sees an attack before its centre reaches it: a small, steady
        // early bias (dense mixes show less; see the bench's phase offset), well inside a 70 ms beat window.
        let mean = errors.reduce(0, +) / Double(errors.count)
        XCTAssertEqual(mean, -0.012, accuracy: 0.01)
        XCTAssertLessThan(errors.max()! - errors.min()!, 0.015, "jitter beyond frame quantisation")
    }

    func testAutocorrelationPeaksAtThePeriod() {
        let x = (0..<1000).map { Float($0 % 37 == 0 ? 1 : 0) }
        let acf = Autocorrelation(x, maxLag: 100)
        let best = (20...60).max { acf.values[$0] < acf.values[$1] }
        XCTAssertEqual(best, 37)
    }

    /// The FFT's autocorrelation is the unbiased sum Σ x[i]·x[i+lag] / (n − lag), lag by lag.
    func testAutocorrelationIsTheUnbiasedSum() {
        var seed: UInt64 = 7
        let x = (0..<3001).map { _ -> Float in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24)
        }
        let acf = Autocorrelation(x, maxLag: 700)
        XCTAssertEqual(acf.values.count, 701)
        for lag in [0, 1, 2, 37, 350, 699, 700] {
            var sum = 0.0
            for i in 0..<(x.count - lag) { sum += Double(x[i]) * Double(x[i + lag]) }
            XCTAssertEqual(Double(acf.values[lag]), sum / Double(x.count - lag), accuracy: 1e-4, "lag \(lag)")
        }
        XCTAssertEqual(Autocorrelation(Array(x.prefix(10)), maxLag: 50).values.count, 10, "lags stop at n − 1")
        XCTAssertEqual(Autocorrelation([2], maxLag: 5).values, [4])
        XCTAssertEqual(Autocorrelation([], maxLag: 5).values, [0])
    }
}

/// Runs the streaming front end on an in-memory signal.
struct TrackAnalyzerProbe {
    var sampleRate: Int
    func envelope(of signal: [Float]) -> OnsetEnvelope {
        var resampler = AnalysisResampler(inputRate: sampleRate)
        let detector = OnsetDetector(sampleRate: AnalysisResampler.analysisRate, timeOffset: .zero - resampler.delay)
        var out: [Float] = []
        signal.withUnsafeBufferPointer { resampler.process($0, into: &out) }
        detector.process(out)
        return detector.envelope()
    }
}

final class BeatTrackerTests: XCTestCase {
    func testFollowsImpulsesAtThePeriod() {
        var novelty = [Float](repeating: 0, count: 2000)
        for i in stride(from: 50, to: 2000, by: 43) { novelty[i] = 5 }
        let beats = BeatTracker.track(novelty: novelty, period: 43)
        XCTAssertGreaterThan(beats.count, 40)
        for b in beats { XCTAssertEqual((Int(b.value.rounded()) - 50) % 43, 0, "beat at \(b)") }
    }
}

final class BeatGridTests: XCTestCase {
    func testSteadyBeatsGiveAnExactGrid() throws {
        let beats = (0..<64).map { Seconds(0.25 + Double($0) * 60 / 174) }
        let grid = try XCTUnwrap(BeatGrid.fit(beats: beats))
        XCTAssertEqual(grid.bpm.value, 174, accuracy: 0.01)
        XCTAssertEqual(grid.offset.value, 0.25, accuracy: 0.001)
        XCTAssertGreaterThan(grid.steadiness, 0.99)
        XCTAssertFalse(grid.variableTempo)
    }

    func testMissedBeatDoesNotHalveTheTempo() throws {
        var beats = (0..<40).map { Seconds(Double($0) * 0.5) }
        beats.remove(at: 20)
        let grid = try XCTUnwrap(BeatGrid.fit(beats: beats))
        XCTAssertEqual(grid.bpm.value, 120, accuracy: 0.01)
    }

    func testAccelerandoIsFlaggedVariable() throws {
        // 150 → 165 BPM over 80 beats.
        var t = 0.0
        var beats: [Seconds] = []
        for k in 0..<80 {
            beats.append(Seconds(t))
            t += 60 / (150 + 15 * Double(k) / 79)
        }
        let grid = try XCTUnwrap(BeatGrid.fit(beats: beats))
        XCTAssertTrue(grid.variableTempo)
        XCTAssertLessThan(grid.tempoMin.value, 153)
        XCTAssertGreaterThan(grid.tempoMax.value, 161)
    }
}

final class TrackAnalyzerTests: XCTestCase {
    /// Tempo within 2% and beats within 50 ms on the clear fixtures (real decoded audio).
    func testClearFixtures() throws {
        for fixture in try clearFixtures() {
            let (_, result) = try AudioFileAnalysis.analyse(path: fixture.file)
            XCTAssertEqual(result.bpm.value / fixture.bpm, 1, accuracy: 0.02, "\(fixture.file): \(result.bpm)")
            let f = TempoMetrics.fMeasure(estimated: result.beats.map(\.value), reference: fixture.beats, window: 0.05, skip: 0)
            XCTAssertGreaterThan(f, 0.9, "\(fixture.file): beat F-measure at ±50 ms")
            let grid = try XCTUnwrap(result.grid, fixture.file)
            XCTAssertFalse(grid.variableTempo, fixture.file)
            XCTAssert((0...1).contains(result.confidence))
        }
    }

    func testSilenceAndShortAudioAreReportedNotGuessed() throws {
        let silent = TrackAnalyzer(sampleRate: 11025)
        let zeros = [Float](repeating: 0, count: 11025 * 10)
        zeros.withUnsafeBufferPointer { silent.process($0) }
        XCTAssertThrowsError(try silent.finish()) { XCTAssertEqual($0 as? AnalysisError, .silent) }

        let short = TrackAnalyzer(sampleRate: 11025)
        let noise = (0..<11025 * 2).map { Float(sin(Double($0))) }
        noise.withUnsafeBufferPointer { short.process($0) }
        XCTAssertThrowsError(try short.finish()) { error in
            guard case AnalysisError.tooShort = error else { return XCTFail("\(error)") }
        }
    }

    /// Audio without onsets has no tempo to trust: steady tones and noise (white, and brown, which
    /// a lossy encode or a hiss floor is closer to) were read with a pulse at up to 0.98 before
    /// `OnsetHeight`. A groove under loud noise still stands out of it and is trusted.
    func testAudioWithoutOnsetsIsNeverTrusted() throws {
        let rate = 22_050, seconds = 30
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func white() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
        }
        var brownLevel: Float = 0
        let beatless: [(String, (Int) -> Float)] = [
            ("1 kHz tone", { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }),
            ("440 Hz tone with a slow tremolo", { i in
                let t = Double(i) / Double(rate)
                return Float(0.4 * (0.75 + 0.25 * sin(2 * Double.pi * 0.3 * t)) * sin(2 * Double.pi * 440 * t))
            }),
            ("white noise", { _ in 0.3 * white() }),
            ("brown noise", { _ in brownLevel = 0.995 * brownLevel + 0.05 * white(); return brownLevel }),
        ]
        func analyse(_ samples: [Float]) throws -> AnalysisResult {
            let analyzer = TrackAnalyzer(sampleRate: rate)
            samples.withUnsafeBufferPointer { analyzer.process($0) }
            return try analyzer.finish()
        }
        for (name, sample) in beatless {
            let samples = (0..<rate * seconds).map(sample)
            do {
                let result = try analyse(samples)
                let height = try XCTUnwrap(result.evidence?.onsetHeight, name)
                XCTAssertLessThan(height, OnsetHeight.noiseFloor + 0.5, name)
                XCTAssertLessThan(result.confidence, 0.25, "\(name): \(result.bpm) BPM")
            } catch AnalysisError.noPulse {}
        }
        var synth = DrumSynth(sampleRate: rate, bpm: 128, pattern: .fourOnTheFloor, seconds: Double(seconds))
        let groove = synth.render()
        let underNoise = groove.map { $0 + 0.1 * white() }
        let result = try analyse(underNoise)
        XCTAssertEqual(result.bpm.value, 128, accuracy: 1.5)
        XCTAssertGreaterThan(try XCTUnwrap(result.evidence?.onsetHeight), OnsetHeight.clear)
        XCTAssertGreaterThanOrEqual(result.confidence, ConfidenceEvidence.trusted)
    }

    /// A stereo file with one channel inverted is silent as mono: its difference is analysed, and
    /// said; a stereo file that is silent in both stays silent.
    func testChannelsThatCancelOutAreAnalysedFromTheirDifference() throws {
        let dir = try temporaryDirectory(self)
        var synth = DrumSynth(sampleRate: 22_050, bpm: 150, pattern: .backbeat, seconds: 20)
        let mono = synth.render()
        let antiphase = mono.flatMap { [$0, -$0] }
        let path = (dir as NSString).appendingPathComponent("antiphase.flac")
        try AudioWriter.write(antiphase, channels: 2, sampleRate: 22_050, to: path, as: .flac)
        let (_, result) = try AudioFileAnalysis.analyse(path: path)
        XCTAssertEqual(result.bpm.value, 150, accuracy: 1.5)
        XCTAssertEqual(result.decodeWarning, "its channels cancel out (one is inverted): analysed their difference")

        let silent = (dir as NSString).appendingPathComponent("silent.wav")
        try AudioWriter.write([Float](repeating: 0, count: 2 * 22_050 * 20), channels: 2, sampleRate: 22_050, to: silent, as: .wav)
        XCTAssertThrowsError(try AudioFileAnalysis.analyse(path: silent)) { XCTAssertEqual($0 as? AnalysisError, .silent) }
    }
}
