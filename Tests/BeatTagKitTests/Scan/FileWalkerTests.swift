@testable import BeatTagKit
import XCTest

final class FileWalkerTests: XCTestCase {
    func testSnifferAndWalker() throws {
        XCTAssertEqual(AudioSniffer.kind(ofFile: TestPaths.fixture("odd/disguised.mp3")), .wav)
        XCTAssertEqual(AudioSniffer.kind(ofFile: TestPaths.fixture("odd/aac-tagged.m4a")), .mp4)
        XCTAssertEqual(AudioSniffer.kind(ofFile: TestPaths.fixture("hiphop-90.mp3")), .mp3)
        XCTAssertNil(AudioSniffer.kind(ofFile: TestPaths.fixture("odd/notes.mp3")))
        XCTAssertTrue(AudioSniffer.looksLikeText(path: TestPaths.fixture("odd/notes.mp3")))
        XCTAssertFalse(AudioSniffer.looksLikeText(path: TestPaths.fixture("rock-150.flac")))

        let library = try copyOfFixtures(self)
        // An audio file with a non-audio name is found by content; a text file with a non-audio name is not.
        try FileManager.default.copyItem(atPath: (library as NSString).appendingPathComponent("house-128.wav"),
                                         toPath: (library as NSString).appendingPathComponent("odd/house.dat"))
        try "hello".write(toFile: (library as NSString).appendingPathComponent("odd/readme.txt"), atomically: true, encoding: .utf8)
        let walk = FileWalker.walk(roots: [library])
        let names = Set(walk.files.map { ($0.path as NSString).lastPathComponent })
        XCTAssertTrue(names.contains("house.dat"))
        XCTAssertFalse(names.contains("readme.txt"))
        XCTAssertFalse(names.contains("skip-me.wav"))
        XCTAssertEqual(walk.files.count, Set(walk.files.map(\.path)).count, "no file twice through the symlink loop")
    }
}
