@testable import BeatTagKit
import XCTest

final class CadenceMatcherTests: XCTestCase {
    private func track(_ name: String, bpm: Double?, confidence: Double = 0.8, adjust: Bool = true, variable: Bool = false,
                       state: TrackState = .analysed) -> TrackRecord {
        var r = TrackRecord(path: "/m/\(name)", fileSize: 1, modifiedAt: 0, now: 0)
        r.state = state
        r.bpm = bpm
        r.confidence = confidence
        r.tempoAdjustAllowed = adjust
        r.tempoVariable = variable
        return r
    }

    private func names(_ tracks: [TrackRecord], spm: Double) -> [String] {
        CadenceMatcher.match(tracks, rules: CadenceRules(spm: spm)).matches.map { ($0.track.path as NSString).lastPathComponent }
    }

    func testTenPercentEdge() {
        // 175 / 159.1 = +9.99%; 175 / 159.0 = +10.06%; 175 / 194.4 = -9.98%; 175 / 194.5 = -10.03%.
        let tracks = [track("in-slow", bpm: 159.1), track("out-slow", bpm: 159.0), track("in-fast", bpm: 194.4),
                      track("out-fast", bpm: 194.5)]
        XCTAssertEqual(Set(names(tracks, spm: 175)), ["in-slow", "in-fast"])
    }

    func testNoDerivativesOnlyWithinHalfAPercent() {
        // 175 / 174.2 = +0.46%; 175 / 174 = +0.57%: the render would not play it unchanged, so match does not offer it.
        let tracks = [track("nd-close", bpm: 174.2, adjust: false), track("nd-near", bpm: 174, adjust: false),
                      track("nd-far", bpm: 170, adjust: false)]
        let result = CadenceMatcher.match(tracks, rules: CadenceRules(spm: 175))
        XCTAssertEqual(result.matches.map(\.track.path), ["/m/nd-close"])
        XCTAssertEqual(result.rejected[.rightsForbidChange], 2)
    }

    func testNoHalfOrDoubleTime() {
        XCTAssertEqual(names([track("half", bpm: 88), track("double", bpm: 350)], spm: 176), [])
        XCTAssertEqual(names([track("ninety", bpm: 90)], spm: 180), [])
    }

    func testRankingBySizeOfChangeThenConfidenceThenSteadiness() {
        let tracks = [track("far", bpm: 165), track("near-low-conf", bpm: 174, confidence: 0.3),
                      track("near-variable", bpm: 176, confidence: 0.9, variable: true), track("near-steady", bpm: 176, confidence: 0.9)]
        XCTAssertEqual(names(tracks, spm: 175), ["near-steady", "near-variable", "near-low-conf", "far"])
    }

    func testTracksWithoutBPMOrFileAreRejected() {
        let result = CadenceMatcher.match([track("none", bpm: nil), track("gone", bpm: 175, state: .missing)], rules: CadenceRules(spm: 175))
        XCTAssertTrue(result.matches.isEmpty)
        XCTAssertEqual(result.rejected[.noBPM], 1)
        XCTAssertEqual(result.rejected[.missing], 1)
    }

    func testAdjustedTempoAndShift() throws {
        let m = try XCTUnwrap(CadenceMatcher.match([track("a", bpm: 160)], rules: CadenceRules(spm: 170)).matches.first)
        XCTAssertEqual(m.ratio, 1.0625, accuracy: 1e-9)
        XCTAssertEqual(m.shiftPercent, 6.25, accuracy: 1e-9)
        XCTAssertEqual(m.adjustedBPM, 170)
    }
}
