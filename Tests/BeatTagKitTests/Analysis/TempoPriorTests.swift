@testable import BeatTagKit
import XCTest

final class TempoPriorTests: XCTestCase {
    func testPeaksAtTheCentreAndIsSymmetricInOctaves() {
        let prior = TempoPrior(centre: 110, width: 0.5)
        XCTAssertEqual(prior.weight(110), 1, accuracy: 1e-12)
        XCTAssertEqual(prior.weight(55), prior.weight(220), accuracy: 1e-12)
        // One width away: exp(-½).
        XCTAssertEqual(prior.weight(110 * pow(2, 0.5)), exp(-0.5), accuracy: 1e-12)
    }

    func testFallsAwayFromTheCentre() {
        let prior = TempoPrior.family
        let tempi = [120.0, 140, 170, 200, 230]
        for (a, b) in zip(tempi, tempi.dropFirst()) { XCTAssertGreaterThan(prior.weight(a), prior.weight(b)) }
    }
}

final class FamilyDecisionTests: XCTestCase {
    func testEveryTempoFoldsIntoTheReferenceOctave() {
        for bpm in [42.5, 60, 84, 85, 120, 167.9, 168, 174, 230] {
            let f = FamilyDecision.folded(bpm)
            XCTAssertTrue(FamilyDecision.octave.contains(f), "\(bpm) folded to \(f)")
            XCTAssertTrue(FamilyDecision.sameFamily(f, bpm, tolerance: 1e-9))
        }
        XCTAssertEqual(FamilyDecision.folded(174), 87, accuracy: 1e-9)
    }

    func testThreeTwoAndFourThreeAreOtherFamilies() {
        XCTAssertTrue(FamilyDecision.sameFamily(87, 176))
        XCTAssertFalse(FamilyDecision.sameFamily(120, 180))
        XCTAssertFalse(FamilyDecision.sameFamily(104, 138.7))
    }
}
