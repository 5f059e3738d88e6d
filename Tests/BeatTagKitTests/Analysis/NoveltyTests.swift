@testable import BeatTagKit
import XCTest

final class NoveltyTests: XCTestCase {
    func testSteadyLevelIsNotNovelty() {
        // A constant and a slow ramp hold no onsets: nothing survives detrending.
        let constant = [Float](repeating: 3, count: 500)
        XCTAssertEqual(Novelty.detrended(constant, frameRate: 100).max(), 0)
        let ramp = (0..<500).map { Float($0) * 0.001 }
        XCTAssertLessThan(Novelty.detrended(ramp, frameRate: 100)[100..<400].max()!, 0.001)
    }

    func testImpulsesStandOutOverTheirSurroundings() {
        var x = [Float](repeating: 1, count: 400)
        for i in stride(from: 20, to: 400, by: 50) { x[i] = 5 }
        let d = Novelty.detrended(x, frameRate: 100)
        for i in stride(from: 20, to: 400, by: 50) { XCTAssertGreaterThan(d[i], 3.5, "impulse at \(i)") }
        XCTAssertEqual(d[45], 0, "between impulses the curve is floored at zero")
    }

    func testNormalisedHasUnitStandardDeviation() {
        let x = (0..<1000).map { Float(($0 * 7919) % 13) * 0.37 }
        let n = Novelty.normalized(x)
        let mean = n.reduce(0, +) / Float(n.count)
        let sd = (n.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(n.count)).squareRoot()
        XCTAssertEqual(sd, 1, accuracy: 1e-4)
        // Scaling the input does not change the curve: weights downstream are level-free.
        XCTAssertEqual(Novelty.normalized(x.map { $0 * 40 })[17], n[17], accuracy: 1e-4)
    }

    func testPeakLooksOnlyWithinTheRadius() {
        var x = [Float](repeating: 0, count: 100)
        x[50] = 2
        x[60] = 9
        XCTAssertEqual(Novelty.peak(x, around: 51, radius: 3), 2)
        XCTAssertEqual(Novelty.peak(x, around: 56, radius: 4), 9)
        XCTAssertNil(Novelty.peak(x, around: 200, radius: 3))
    }
}
