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
        // A later whole word after a part of one; letters beyond ASCII on either side; digits are no letters.
        XCTAssertTrue(TextMatch.containsWord("intro", in: "Introspection, then Intro"))
        XCTAssertFalse(TextMatch.containsWord("spa", in: "Ñspa"))
        XCTAssertFalse(TextMatch.containsWord("spa", in: "spaß"))
        XCTAssertFalse(TextMatch.containsWord("rain sounds", in: "brain sounds"))
        XCTAssertTrue(TextMatch.containsWord("skit", in: "«skit»"))
        XCTAssertTrue(TextMatch.containsWord("intro", in: "02intro"))
        XCTAssertTrue(TextMatch.containsWord("yoga nidra", in: "Yoga Nidra"))
        XCTAssertFalse(TextMatch.containsWord("", in: "anything"))
        XCTAssertEqual(TextMatch.collapsingSpaces("White  Noise\tRunner"), "White Noise Runner")
        XCTAssertEqual(TextMatch.collapsingSpaces("one space each"), "one space each")
        XCTAssertEqual(MatchFilter().folded().rejection(of: {
            var track = TrackRecord(path: "/m/x.flac", fileSize: 1, modifiedAt: 0, now: 0)
            track.title = "White  Noise Runner"
            return track
        }()), .keyword, "an audit: a double space hid the default keyword")
    }
}
