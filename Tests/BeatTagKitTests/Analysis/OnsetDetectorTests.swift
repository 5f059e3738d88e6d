@testable import BeatTagKit
import XCTest

final class OnsetDetectorTests: XCTestCase {
    private let rate = 11025.0

    /// `lead` samples of `before`, then a steady 440 Hz tone for a second, then one click.
    private func envelope(lead: Int, before: (Int) -> Float) -> OnsetEnvelope {
        let detector = OnsetDetector(sampleRate: rate)
        var x = (0..<lead).map(before)
        x += (0..<Int(rate)).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / rate)) }
        var click = [Float](repeating: 0, count: Int(rate / 2))
        for i in 0..<40 { click[i] = i % 2 == 0 ? 0.9 : -0.9 }
        x += zip(x.suffix(click.count), click).map { $0 + $1 }
        detector.process(x)
        return detector.envelope()
    }

    func testMusicStartingAfterLeadingDigitalSilenceIsNotAnOnset() {
        // A decoder's zeros before a codec's first frame (WMA: 46 ms), then the music cut in mid-note.
        let cut = envelope(lead: 502) { _ in 0 }
        let entry = cut.strength.prefix(12).max() ?? 0
        let clickFrame = Int(((502 + rate) / rate * cut.frameRate).rounded())
        let clickStrength = cut.strength[(clickFrame - 3)...(clickFrame + 6)].max() ?? 0
        XCTAssertLessThan(entry, clickStrength / 10, "the cut is not read as a hit")
        XCTAssertGreaterThan(clickStrength, 1, "onsets after the entry still count")
    }

    func testTheSameEntryFromQuietNoiseIsAnOnset() {
        // The control: -60 dBFS of noise is not digital silence, and the tone's entry is a real onset.
        var noise = SplitMix64(seed: 7)
        let quiet = envelope(lead: 502) { _ in Float(noise.unit() * 2 - 1) * 0.001 }
        let silent = envelope(lead: 502) { _ in 0 }
        XCTAssertGreaterThan(quiet.strength.prefix(12).max() ?? 0, 20 * (silent.strength.prefix(12).max() ?? 0))
    }

    func testAfterAShortLeadInTheMusicStartsWhereTheSoundDoes() throws {
        // 22 ms of zeros (a decoder's priming, shorter than a window), a pad 10 dB below the loud
        // part for two seconds, then the loud part: the level never jumps 12 dB.
        let lead = 243
        func tone(_ amplitude: Double, seconds: Double) -> [Float] {
            (0..<Int(seconds * rate)).map { Float(amplitude * sin(2 * Double.pi * 220 * Double($0) / rate)) }
        }
        let detector = OnsetDetector(sampleRate: rate)
        detector.process([Float](repeating: 0, count: lead) + tone(0.1, seconds: 2) + tone(0.3, seconds: 3))
        let envelope = detector.envelope()
        XCTAssertEqual(envelope.soundStart, 2, "the first window whose first hop holds sound")
        let curves = OnsetCurves(envelope)
        let start = try XCTUnwrap(curves.musicStart)
        XCTAssertEqual(curves.time(of: start).value, Double(lead) / rate, accuracy: 0.01)
        // Sound from the first sample: no lead-in.
        let immediate = OnsetDetector(sampleRate: rate)
        immediate.process(tone(0.3, seconds: 2))
        XCTAssertEqual(immediate.envelope().soundStart, 0)
    }
}
