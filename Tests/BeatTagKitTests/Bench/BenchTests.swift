@testable import BeatTagKit
import XCTest

final class TempoMetricsTests: XCTestCase {
    func testAccuracyMeasures() {
        XCTAssertTrue(TempoMetrics.acc1(181, 175))
        XCTAssertFalse(TempoMetrics.acc1(183, 175))
        XCTAssertTrue(TempoMetrics.strict(178, 175))
        XCTAssertFalse(TempoMetrics.strict(179, 175))
        XCTAssertTrue(TempoMetrics.acc2(87.5, 175))
        XCTAssertTrue(TempoMetrics.octaveError(87.5, 175))
        XCTAssertFalse(TempoMetrics.octaveError(175, 175))
        XCTAssertTrue(TempoMetrics.threeTwoError(93.3, 140))
        XCTAssertTrue(TempoMetrics.acc2(58.3, 175))
    }

    func testFMeasure() {
        let reference = (0..<40).map { 5 + Double($0) * 0.5 }
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: reference, reference: reference), 1)
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: reference.map { $0 + 0.06 }, reference: reference), 1)
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: reference.map { $0 + 0.1 }, reference: reference), 0)
        // Double-time estimate: all reference beats found, half the estimates wrong.
        let double = (0..<80).map { 5 + Double($0) * 0.25 }
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: double, reference: reference), 2 * 0.5 * 1 / 1.5, accuracy: 0.02)
        XCTAssertEqual(TempoMetrics.medianPhaseOffset(estimated: reference.map { $0 + 0.02 }, reference: reference) ?? 0, 0.02, accuracy: 1e-9)
    }

    func testCSVWithQuotedFields() {
        let rows = CSV.parse("file,bpm,notes\na.ogg,140,\"8/4, \"\"ambiguous\"\"\"\nb.ogg,87,plain\n")
        XCTAssertEqual(rows, [["file", "bpm", "notes"], ["a.ogg", "140", "8/4, \"ambiguous\""], ["b.ogg", "87", "plain"]])
    }

    func testFixtureCorpusLoads() throws {
        let corpus = try Corpus(folder: TestPaths.fixtures)
        XCTAssertEqual(corpus.clips.count, 10)
        XCTAssertTrue(corpus.clips.allSatisfy { !$0.beats.isEmpty })
    }
}
