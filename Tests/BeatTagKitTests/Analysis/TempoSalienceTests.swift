@testable import BeatTagKit
import XCTest

final class TempoSalienceTests: XCTestCase {
    private let frameRate = 100.0

    private func salience(_ x: [Float]) -> TempoSalience {
        TempoSalience(acf: Autocorrelation(x, maxLag: Int(60 * frameRate / TempoSalience.minBPM * 4) + 2), frameRate: frameRate)
    }

    func testImpulsesAt120BPMPeakAtItsOctaves() {
        // A pulse every 50 frames is 120 BPM: the two strongest peaks are 120 and an octave of it, and
        // the 3:2 relatives score lower than the pulse itself.
        let x = (0..<3000).map { Float($0 % 50 == 0 ? 1 : 0) }
        let s = salience(x)
        let peaks = s.peaks(limit: 2)
        XCTAssertGreaterThan(s.value(at: 120), s.value(at: 80))
        XCTAssertGreaterThan(s.value(at: 120), s.value(at: 180))
        XCTAssertFalse(peaks.isEmpty)
        for p in peaks {
            let octaves = log2(p.bpm / 120)
            XCTAssertEqual(octaves, octaves.rounded(), accuracy: 0.02, "peak at \(p.bpm)")
        }
        XCTAssertTrue(peaks.contains { abs($0.bpm / 120 - 1) < 0.01 })
    }

    func testSixteenthGrooveDoesNotMakeADottedBeat() {
        // Kick 1 and the "a" of 2, snare 2 and 4 at 100 BPM (60 frames a beat): a ¾-beat period recurs
        // inside the bar but not at the bar, so 133 (4:3) must score below 100.
        var x = [Float](repeating: 0, count: 4800)
        for bar in stride(from: 0, to: 4800, by: 240) {
            for (pos, level) in [(0, 1.0), (60, 0.8), (105, 0.6), (120, 0.9), (180, 0.8)] as [(Int, Float)] where bar + pos < 4800 {
                x[bar + pos] = level
            }
        }
        let s = salience(x)
        XCTAssertGreaterThan(s.value(at: 100), s.value(at: 133.3))
    }

    func testValueToleratesSlightDetuning() {
        let x = (0..<3000).map { Float($0 % 50 == 0 ? 1 : 0) }
        let s = salience(x)
        XCTAssertEqual(s.value(at: 120.8), s.value(at: 120), accuracy: 1e-9, "within 1% finds the same peak")
    }
}
