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

    /// Folders nested deeper than PATH_MAX can name (made with mkdirat, as a copy tool can): their
    /// files were left out without a word and the scan exited 0.
    func testAPathLongerThanTheSystemAllowsIsSaid() throws {
        let root = try temporaryDirectory(self)
        var fd = open(root, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let name = String(repeating: "d", count: 250)
        for _ in 0..<20 {
            XCTAssertEqual(mkdirat(fd, name, 0o755), 0)
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
            XCTAssertGreaterThanOrEqual(fd, 0)
        }
        let file = openat(fd, "song.wav", O_WRONLY | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(file, 0)
        close(file)
        close(fd)
        let walk = FileWalker.walk(roots: [root])
        XCTAssertTrue(walk.files.isEmpty)
        XCTAssertEqual(walk.problems.count, 1, "\(walk.problems)")
        XCTAssertTrue(walk.problems.first?.message.contains("longer than the system allows") ?? false, "\(walk.problems)")
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", root, "--catalog", catalog]).status, 1, "said, and not a clean scan")
        // Leave nothing the test harness cannot remove by path.
        XCTAssertEqual(try runTool("/bin/rm", ["-rf", (root as NSString).appendingPathComponent(name)]).0, 0)
    }
}
