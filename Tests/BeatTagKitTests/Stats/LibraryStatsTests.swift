@testable import BeatTagKit
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

final class LibraryStatsTests: XCTestCase {
    func testBucketsCadencesAndCounts() throws {
        func t(_ bpm: Double?, state: TrackState = .analysed, adjust: Bool = true) -> TrackRecord {
            var r = TrackRecord(path: "/m/\(UUID().uuidString)", fileSize: 1, modifiedAt: 0, now: 0)
            r.state = state; r.bpm = bpm; r.tempoAdjustAllowed = adjust; r.confidence = 0.9; r.bpmSource = bpm == nil ? nil : .analysis
            if state == .metadataOnly { r.metadataOnlyReason = "AAC" }
            return r
        }
        let tracks = [t(142), t(144.9), t(145), t(200), t(175, adjust: false), t(90), t(nil, state: .metadataOnly),
                      t(nil, state: .failed), t(170, state: .missing)]
        let stats = LibraryStats(tracks: tracks)
        XCTAssertEqual(stats.buckets.count, 12)
        XCTAssertEqual(stats.buckets[0].tracks, 2)
        XCTAssertEqual(stats.buckets[1].tracks, 1)
        XCTAssertEqual(stats.buckets[11].tracks, 1, "200 belongs to the last bucket")
        XCTAssertEqual(stats.buckets[7].tracks, 1)
        XCTAssertEqual(stats.metadataOnlyWithoutBPM, 1)
        XCTAssertEqual(stats.failed, 1)
        XCTAssertEqual(stats.missing, 1)
        let at175 = try XCTUnwrap(stats.cadences.first { $0.spm == 175 })
        XCTAssertEqual(at175.usable, 1, "only the ND track at exactly 175; 200 is -12.5%")
        let at150 = try XCTUnwrap(stats.cadences.first { $0.spm == 150 })
        XCTAssertEqual(at150.usable, 3, "142, 144.9 and 145; the ND 175 and 200 are too far")
        XCTAssertEqual(stats.cadences.first { $0.spm == 160 }?.usable, 0, "145 is +10.3%, the ND 175 may not change")
    }

    func testSVGIsWellFormed() throws {
        var r = TrackRecord(path: "/m/a", fileSize: 1, modifiedAt: 0, now: 0)
        r.state = .analysed; r.bpm = 171
        let svg = LibraryStats(tracks: [r]).svg()
        let parser = XMLParser(data: Data(svg.utf8))
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertEqual(svg.components(separatedBy: "<rect ").count - 1, 13, "background + 12 bars")
    }
}
