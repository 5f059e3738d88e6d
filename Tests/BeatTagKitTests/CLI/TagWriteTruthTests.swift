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
            let dry = try runBeattag(["tag", file, "--bpm", "176.6", "--write", "--dry-run", "--catalog", catalog])
            XCTAssertEqual(dry.status, 0, dry.stderr)
            let result = try runBeattag(["tag", file, "--bpm", "176.6", "--write", "--catalog", catalog])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            // The dry run said exactly what was then written.
            let said = dry.stdout.components(separatedBy: "would write ").last?.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(result.stdout.contains("wrote \(said ?? "?")"), "\(name): \(dry.stdout) / \(result.stdout)")

            let mutagen = try mutagenTags(file)
            let (_, probe) = try runTool(ffprobe, ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", file])
            if name.hasSuffix(".m4a") {
                XCTAssertTrue(mutagen.contains("tmpo = [177]"), mutagen)
                XCTAssertTrue(mutagen.contains("----:com.apple.iTunes:BEATTAG_BPM_SOURCE") && mutagen.contains("manual 177 (176.6)"), mutagen)
                XCTAssertTrue(probe.contains("TAG:BEATTAG_BPM_SOURCE=manual 177 (176.6)"), probe)
            } else {
                XCTAssertTrue(mutagen.contains("WM/BeatsPerMinute = [ASFUnicodeAttribute('177')]"), mutagen)
                XCTAssertTrue(mutagen.contains("BEATTAG_BPM_SOURCE = [ASFUnicodeAttribute('manual 177 (176.6)')]"), mutagen)
                XCTAssertTrue(probe.contains("TAG:WM/BeatsPerMinute=177") && probe.contains("TAG:BEATTAG_BPM_SOURCE=manual 177 (176.6)"), probe)
            }
            let (_, after) = try runTool(ffmpeg, ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
            XCTAssertTrue(after.hasPrefix("MD5="), after)
            XCTAssertEqual(after, before, "\(name): audio packets changed")
        }
        // A scan into a new catalog restores both as hand-set, at the value set by hand (the tags hold it rounded).
        let fresh = (try temporaryDirectory(self) as NSString).appendingPathComponent("fresh.sqlite")
        _ = try runBeattag(["scan", (library as NSString).appendingPathComponent("encoded"), "--catalog", fresh])
        let reopened = try Catalog(path: fresh, create: false, access: .readOnly)
        for name in ["encoded/trance-140-aac.m4a", "encoded/trance-140.wma"] {
            let row = try XCTUnwrap(try reopened.track(path: (library as NSString).appendingPathComponent(name)))
            XCTAssertEqual(row.bpmManual, 176.6, name)
            XCTAssertEqual(row.bpmSource, .manual, name)
        }
        // Cleared in the catalog only, the file still vouches for it: said (a new catalog brought the
        // cleared BPM back without a word), and gone once `--clear --write` takes the mark out.
        // (`--clear --write` left the mark in both: "did not read back (140 instead of 140)".)
        for name in ["encoded/trance-140-aac.m4a", "encoded/trance-140.wma"] {
            let file = (library as NSString).appendingPathComponent(name)
            let cleared = try runBeattag(["tag", file, "--clear", "--catalog", catalog])
            XCTAssertTrue(cleared.stdout.contains("the file's tag still says 176.6 BPM was set by hand"), cleared.stdout)
            let unmarked = try runBeattag(["tag", file, "--clear", "--write", "--catalog", catalog])
            XCTAssertEqual(unmarked.status, 0, unmarked.stderr)
            XCTAssertFalse(try mutagenTags(file).contains("BEATTAG_BPM_SOURCE"), name)
            XCTAssertFalse(try runBeattag(["tag", file, "--clear", "--catalog", catalog]).stdout.contains("still says"))
        }
    }

    /// An ID3v2.4 tag stays v2.4 with every frame (an audit: saved as v2.3, the release date, mood
    /// and RVA2 were gone), checked with mutagen.
    func testAnID3v24TagKeepsItsVersionAndFrames() throws {
        let python = try requiredTool("python3")
        let file = (library as NSString).appendingPathComponent("hiphop-90.mp3")
        let make = """
            import sys
            from mutagen.id3 import ID3, TDRL, TMOO, TSST, RVA2
            t = ID3(sys.argv[1])
            t.add(TDRL(encoding=3, text='1999-05-06')); t.add(TMOO(encoding=3, text='calm')); t.add(TSST(encoding=3, text='side b'))
            t.add(RVA2(desc='track', channel=1, gain=-3.5, peak=0.9))
            t.save(sys.argv[1], v2_version=4)
            """
        let (made, madeOut) = try runTool(python, ["-c", make, file])
        guard made == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("mutagen: \(madeOut)") }
            throw XCTSkip("mutagen not available: \(madeOut)")
        }
        XCTAssertEqual(try runBeattag(["scan", library, "--catalog", catalog]).status, 1, "the fixtures hold broken files")
        let result = try runBeattag(["tag", file, "--bpm", "91", "--write", "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        let read = "import sys\nfrom mutagen.id3 import ID3\nt = ID3(sys.argv[1])\nprint(t.version)\nfor k in sorted(t.keys()): print(k, '=', t[k])"
        let (_, after) = try runTool(python, ["-c", read, file])
        XCTAssertTrue(after.hasPrefix("(2, 4, 0)"), after)
        for frame in ["TBPM = 91", "TDRL = 1999-05-06", "TMOO = calm", "TSST = side b", "RVA2:track"] {
            XCTAssertTrue(after.contains(frame), "\(frame) in \(after)")
        }
    }

    /// An MP3 that also carries an APEv2 tag gets the new BPM in both (an audit: APE kept 90 beside
    /// ID3's 170, and players that prefer APE showed the old one), checked with mutagen.
    func testAnAPETagOnAnMP3GetsTheNewBPMToo() throws {
        let python = try requiredTool("python3")
        let file = (library as NSString).appendingPathComponent("hiphop-90.mp3")
        let make = "import sys\nfrom mutagen.apev2 import APEv2\nt = APEv2()\nt['BPM'] = '90'\nt['Artist'] = 'kept'\nt.save(sys.argv[1])"
        let (made, madeOut) = try runTool(python, ["-c", make, file])
        guard made == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("mutagen: \(madeOut)") }
            throw XCTSkip("mutagen not available: \(madeOut)")
        }
        XCTAssertEqual(try runBeattag(["scan", file, "--catalog", catalog]).status, 0)
        let result = try runBeattag(["tag", file, "--bpm", "170", "--write", "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        let read = "import sys\nfrom mutagen.apev2 import APEv2\nfrom mutagen.id3 import ID3\nprint('APE', dict((k, str(v)) for k, v in APEv2(sys.argv[1]).items()))\nprint('ID3', ID3(sys.argv[1])['TBPM'])"
        let (_, after) = try runTool(python, ["-c", read, file])
        XCTAssertTrue(after.contains("'BPM': '170'") && after.contains("'Artist': 'kept'"), after)
        XCTAssertTrue(after.contains("ID3 170"), after)
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

    /// A format TagLib has no tags for (CAF) is refused in one line that says what still works,
    /// and the catalog is left as it was (a fuzzing pass read only "TagLib cannot read PATH").
    func testAFormatWithoutTagsIsRefusedWithWhatStillWorks() throws {
        let ffmpeg = try requiredTool("ffmpeg")
        let file = (library as NSString).appendingPathComponent("house-128.caf")
        let (status, log) = try runTool(ffmpeg, ["-v", "error", "-y", "-i", (library as NSString).appendingPathComponent("house-128.wav"), file])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(try runBeattag(["scan", file, "--catalog", catalog]).status, 0)
        let refused = try runBeattag(["tag", file, "--bpm", "128", "--write", "--catalog", catalog])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("(.caf it has no tags for, or a damaged file), so no BPM can be written into it; without --write"),
                      refused.stderr)
        XCTAssertNil(try XCTUnwrap(try Catalog(path: catalog, create: false).track(path: file)).bpmManual)
        XCTAssertEqual(try runBeattag(["tag", file, "--bpm", "128", "--catalog", catalog]).status, 0)
        XCTAssertEqual(try XCTUnwrap(try Catalog(path: catalog, create: false).track(path: file)).bpmManual, 128)
    }

    func testAFileThatDoesNotExistIsSaidSoOnce() throws {
        let missing = (library as NSString).appendingPathComponent("nonexistent.flac")
        let result = try runBeattag(["tag", missing, "--bpm", "170", "--catalog", catalog])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no such file"), result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "nonexistent.flac").count - 1, 1, "the path once: \(result.stderr)")
    }
}
