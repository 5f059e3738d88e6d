@testable import BeatTagKit
import Foundation
import XCTest

/// `tag --write` on MP4 (AAC) and ASF (WMA), checked by readers that are not TagLib: mutagen reads
/// `tmpo` and the freeform atom, ffprobe the freeform and ASF fields, ffmpeg hashes the audio
/// packets before and after; a fresh scan takes the BPM back as hand-set. A write that fails leaves
/// the catalog as it was.
final class TagWriteTruthTests: XCTestCase {
    private var library = ""
    private var catalog = ""

    override func setUpWithError() throws {
        let fixtures = try ScannedFixtures(self)
        (library, catalog) = (fixtures.library, fixtures.catalog)
    }

    /// Debian's python3 with python3-mutagen (scripts/test.sh installs it).
    private func mutagenTags(_ file: String) throws -> String {
        let python = try requiredTool("python3")
        let script = "import mutagen,sys\nm=mutagen.File(sys.argv[1])\nfor k,v in m.tags.items(): print(k, '=', v)"
        let (status, out) = try runTool(python, ["-c", script, file])
        guard status == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("mutagen: \(out)") }
            throw XCTSkip("mutagen not available: \(out)")
        }
        return out
    }

    func testMP4AndWMABPMWrittenReadBackByOtherReadersAndAFreshScan() throws {
        let ffprobe = try requiredTool("ffprobe"), ffmpeg = try requiredTool("ffmpeg")
        for name in ["encoded/trance-140-aac.m4a", "encoded/trance-140.wma"] {
            let file = (library as NSString).appendingPathComponent(name)
            let (_, before) = try runTool(ffmpeg, ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
            let dry = try runBeattag(["tag", file, "--bpm", "177", "--write", "--dry-run", "--catalog", catalog])
            XCTAssertEqual(dry.status, 0, dry.stderr)
            let result = try runBeattag(["tag", file, "--bpm", "177", "--write", "--catalog", catalog])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            // The dry run said exactly what was then written.
            let said = dry.stdout.components(separatedBy: "would write ").last?.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(result.stdout.contains("wrote \(said ?? "?")"), "\(name): \(dry.stdout) / \(result.stdout)")

            let mutagen = try mutagenTags(file)
            let (_, probe) = try runTool(ffprobe, ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", file])
            if name.hasSuffix(".m4a") {
                XCTAssertTrue(mutagen.contains("tmpo = [177]"), mutagen)
                XCTAssertTrue(mutagen.contains("----:com.apple.iTunes:BEATTAG_BPM_SOURCE") && mutagen.contains("manual 177"), mutagen)
                XCTAssertTrue(probe.contains("TAG:BEATTAG_BPM_SOURCE=manual 177"), probe)
            } else {
                XCTAssertTrue(mutagen.contains("WM/BeatsPerMinute = [ASFUnicodeAttribute('177')]"), mutagen)
                XCTAssertTrue(mutagen.contains("BEATTAG_BPM_SOURCE = [ASFUnicodeAttribute('manual 177')]"), mutagen)
                XCTAssertTrue(probe.contains("TAG:WM/BeatsPerMinute=177") && probe.contains("TAG:BEATTAG_BPM_SOURCE=manual 177"), probe)
            }
            let (_, after) = try runTool(ffmpeg, ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
            XCTAssertTrue(after.hasPrefix("MD5="), after)
            XCTAssertEqual(after, before, "\(name): audio packets changed")
        }
        // A scan into a new catalog restores both as hand-set.
        let fresh = (try temporaryDirectory(self) as NSString).appendingPathComponent("fresh.sqlite")
        _ = try runBeattag(["scan", (library as NSString).appendingPathComponent("encoded"), "--catalog", fresh])
        let reopened = try Catalog(path: fresh, create: false, access: .readOnly)
        for name in ["encoded/trance-140-aac.m4a", "encoded/trance-140.wma"] {
            let row = try XCTUnwrap(try reopened.track(path: (library as NSString).appendingPathComponent(name)))
            XCTAssertEqual(row.bpmManual, 177, name)
            XCTAssertEqual(row.bpmSource, .manual, name)
        }
    }

    func testAWriteThatFailsLeavesTheCatalogAsItWas() throws {
        let file = (library as NSString).appendingPathComponent("encoded/trance-140-aac.m4a")
        let before = try XCTUnwrap(try Catalog(path: catalog, create: false).track(path: file))
        // The file changed since the scan into something TagLib cannot tag.
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: file))
        let result = try runBeattag(["tag", file, "--bpm", "177", "--write", "--catalog", catalog])
        XCTAssertEqual(result.status, 1)
        let after = try XCTUnwrap(try Catalog(path: catalog, create: false).track(path: file))
        XCTAssertEqual(after.bpmManual, before.bpmManual, result.stderr)
        XCTAssertEqual(after.bpm, before.bpm)
        XCTAssertNil(after.bpmManual)
    }

    func testAFileThatDoesNotExistIsSaidSoOnce() throws {
        let missing = (library as NSString).appendingPathComponent("nonexistent.flac")
        let result = try runBeattag(["tag", missing, "--bpm", "170", "--catalog", catalog])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no such file"), result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "nonexistent.flac").count - 1, 1, "the path once: \(result.stderr)")
    }
}
