import BeatTagKit
import XCTest

final class TextMatchTests: XCTestCase {
    func testCaseAndAccentsAreIgnored() {
        XCTAssertTrue(TextMatch.contains("Björk", "bjork"))
        XCTAssertTrue(TextMatch.contains("Sigur Rós", "SIGUR ROS"))
        XCTAssertTrue(TextMatch.contains("Beyoncé", "beyonce"))
        XCTAssertTrue(TextMatch.contains("Ünïcødé – ритм", "ритм"))
        XCTAssertFalse(TextMatch.contains("Bjork", "björn"))
        XCTAssertFalse(TextMatch.contains(nil, "a"))
    }

    func testWholeWords() {
        XCTAssertTrue(TextMatch.containsWord("intro", in: "Intro (Live)"))
        XCTAssertTrue(TextMatch.containsWord("christmas", in: "A Chrístmas Song"))
        XCTAssertFalse(TextMatch.containsWord("intro", in: "Introspection"))
        XCTAssertFalse(TextMatch.containsWord("spa", in: "Spanish Caravan"))
    }
}
