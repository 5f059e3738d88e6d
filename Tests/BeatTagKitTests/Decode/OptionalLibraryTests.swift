@testable import BeatTagKit
import XCTest

/// FFmpeg, Rubber Band, libebur128 and espeak-ng are opened on first use (`OptionalLibrary`,
/// CLibraryLoader). Hidden (their names overridden to files that do not exist: a system library
/// cannot be hidden with LD_LIBRARY_PATH), only the feature that needs one fails, in one line
/// naming the Debian package; everything else works. Real processes: a library is opened once per
/// process.
final class OptionalLibraryTests: XCTestCase {
    private let noFFmpeg = ["BEATTAG_LIBAVFORMAT": "libavformat-hidden.so.59"]

    private func music() throws -> (folder: String, catalog: String) {
        let dir = try temporaryDirectory(self)
        let folder = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for fixture in ["rock-150.flac", "trance-140.flac", "encoded/trance-140-aac.m4a"] {
            try FileManager.default.copyItem(atPath: TestPaths.fixture(fixture),
                                             toPath: (folder as NSString).appendingPathComponent((fixture as NSString).lastPathComponent))
        }
        return (folder, (dir as NSString).appendingPathComponent("c.sqlite"))
    }

    func testWithoutFFmpegFLACScansListsAndMatchesAndAnM4AGetsOneLine() throws {
        let (folder, catalog) = try music()
        let scan = try runBinary(["scan", folder, "--catalog", catalog, "--source", "user-owned"], environment: noFFmpeg)
        XCTAssertEqual(scan.status, 1, "one file failed: \(scan.stderr)")
        let lines = scan.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, scan.stderr)
        XCTAssertTrue(lines.first?.contains("trance-140-aac.m4a") ?? false, scan.stderr)
        XCTAssertTrue(scan.stderr.contains("FFmpeg (libavformat) is not installed") && scan.stderr.contains("libavformat59"), scan.stderr)
        XCTAssertTrue(scan.stdout.contains("analysed 2") && scan.stdout.contains("failed 1"), scan.stdout)

        let list = try runBinary(["list", "--json", "--catalog", catalog], environment: noFFmpeg)
        XCTAssertEqual(list.status, 0, list.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: rows.map { (($0["path"] as? String ?? "") as NSString).lastPathComponent }.enumerated().map { ($1, rows[$0]) })
        XCTAssertEqual(byFile["rock-150.flac"]?["state"] as? String, "analysed")
        XCTAssertEqual(byFile["rock-150.flac"]?["bpm"] as? Double ?? 0, 150, accuracy: 1.5)
        XCTAssertEqual(byFile["trance-140-aac.m4a"]?["state"] as? String, "failed")

        let match = try runBinary(["match", "--spm", "150", "--json", "--catalog", catalog], environment: noFFmpeg)
        XCTAssertEqual(match.status, 0, match.stderr)
        XCTAssertTrue(match.stdout.contains("rock-150.flac") && match.stdout.contains("trance-140.flac"), match.stdout)

        // FFmpeg back: the next plain scan decodes the M4A, and nothing analysed before is redone.
        let again = try runBinary(["scan", folder, "--catalog", catalog])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("analysed 1") && again.stdout.contains("unchanged 2"), again.stdout)
    }

    func testWithoutRubberBandTheRenderFailsInOneLineAndWritesNothing() throws {
        let (folder, catalog) = try music()
        XCTAssertEqual(try runBinary(["scan", folder, "--catalog", catalog, "--source", "user-owned"]).status, 0)
        let output = ((folder as NSString).deletingLastPathComponent as NSString).appendingPathComponent("run.ogg")
        let render = try runBinary(["render", "--spm", "150", "--duration", "30s", "--seed", "1", "--allow-short", "-o", output, "--catalog", catalog],
                                   environment: ["BEATTAG_LIBRUBBERBAND": "librubberband-hidden.so.2"])
        XCTAssertNotEqual(render.status, 0)
        XCTAssertEqual(render.stderr.split(separator: "\n").filter { !$0.hasPrefix("beattag: seed") }.count, 1, render.stderr)
        XCTAssertTrue(render.stderr.contains("Rubber Band is not installed") && render.stderr.contains("librubberband2"), render.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// In this process the libraries are there: each loads, and a name that does not exist is
    /// reported as the reason the loader gives.
    func testEveryOptionalLibraryLoadsHere() {
        for library in OptionalLibrary.allCases {
            XCTAssertNil(library.unavailableReason, library.rawValue)
        }
        XCTAssertTrue(DecoderLibrary.ffmpeg.identity.hasPrefix("ffmpeg 59."), DecoderLibrary.ffmpeg.identity)
    }
}
