@testable import BeatTagKit
import XCTest

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
