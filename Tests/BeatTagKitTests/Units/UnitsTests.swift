import BeatTagKit
import XCTest

final class UnitsTests: XCTestCase {
    func testTempoAndPeriod() {
        XCTAssertEqual(BPM(period: Seconds(0.5)), BPM(120))
        XCTAssertEqual(BPM(150).period.value, 0.4, accuracy: 1e-12)
        XCTAssertEqual(BPM(174.56).roundedToTenth, BPM(174.6))
        XCTAssertEqual(BPM.roundToTenth(96.04), 96.0)
        XCTAssertEqual(BPM(194) / BPM(97), 2)
    }

    func testUnitsEncodeAsPlainNumbers() throws {
        let data = try JSONEncoder().encode([BPM(128.5)])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "[128.5]")
        XCTAssertEqual(try JSONDecoder().decode(Seconds.self, from: Data("0.25".utf8)), Seconds(0.25))
    }

    func testFramePositionsAndCounts() {
        let a = FramePosition(100), b = FramePosition(143)
        XCTAssertEqual(b - a, FrameCount(43))
        XCTAssertEqual(a + FrameCount(43), b)
        XCTAssertEqual(FramePosition.midpoint(a, b), FramePosition(121.5))
    }

    func testRangesAreOrderedAsTheirUsesNeed() {
        XCTAssertTrue(TempoRanges.salience.contains(TempoRanges.analysed.lowerBound))
        XCTAssertTrue(TempoRanges.salience.contains(TempoRanges.analysed.upperBound))
        XCTAssertTrue(TempoRanges.analysed.contains(TempoRanges.runnable.lowerBound))
        XCTAssertTrue(TempoRanges.analysed.contains(TempoRanges.runnable.upperBound))
        XCTAssertTrue(TempoRanges.handSet.contains(TempoRanges.analysed.lowerBound))
    }
}
