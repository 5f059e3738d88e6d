import BeatTagKit
import BeatTagTestSupport
import Foundation
import XCTest

/// File names are the user's, or a download's: an escape sequence or a newline in one is shown, not
/// sent to the terminal (an audit: a name could retitle and clear the terminal, and split a one-line error).
final class ControlCharacterTests: XCTestCase {
    func testNamesWithEscapesAndNewlinesArePrintedVisibly() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let evil = "evil\u{1B}]0;PWNED\u{07}\u{1B}[2J"
        XCTAssertTrue(FileManager.default.createFile(atPath: music + "/" + evil + ".mp3", contents: Data()))
        XCTAssertTrue(FileManager.default.createFile(atPath: music + "/two\nlines.mp3", contents: Data()))
        // A right-to-left override shows the rest of the line backwards: "song\u{202E}3pm.exe" reads "songexe.mp3".
        XCTAssertTrue(FileManager.default.createFile(atPath: music + "/song\u{202E}3pm.flac", contents: Data()))
        var synth = DrumSynth(sampleRate: 22_050, bpm: 150, pattern: .backbeat, seconds: 8)
        try AudioWriter.write(synth.render(), sampleRate: 22_050, to: music + "/" + evil + ".wav", as: .wav)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")

        let scan = try runBeattag(["scan", music, "--catalog", catalog])
        XCTAssertEqual(scan.status, 1, "three empty files failed")
        for stream in [scan.stderr, scan.stdout] {
            XCTAssertFalse(stream.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, stream)
        }
        XCTAssertTrue(scan.stderr.contains("song<U+202E>3pm.flac"), scan.stderr)
        XCTAssertTrue(scan.stderr.contains("evil^[]0;PWNED^G^[[2J.mp3"), scan.stderr)
        XCTAssertTrue(scan.stderr.contains("two^Jlines.mp3"), scan.stderr)
        XCTAssertEqual(scan.stderr.split(separator: "\n").filter { $0.contains("empty file") }.count, 3, "one line each")

        let list = try runBeattag(["list", "--catalog", catalog])
        XCTAssertFalse(list.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, list.stdout)
        XCTAssertTrue(list.stdout.contains("evil^[]0;PWNED^G"), list.stdout)
        // JSON keeps the name exactly (escaped by JSON itself): scripts get the real path.
        let json = try runBeattag(["list", "--json", "--catalog", catalog])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertTrue(rows.contains { ($0["path"] as? String)?.hasSuffix("/" + evil + ".wav") == true }, json.stdout)
    }

    /// What prints one line per file prints one line, and the render's credits and CUE sheet keep
    /// one line per entry, when a name holds a newline (a fuzzing pass found `analyze` and the
    /// credits split).
    func testANewlineInANameSplitsNoLineOfOutputCreditsOrCueSheet() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let name = "two\nlines\u{1B}[2J.wav"
        var synth = DrumSynth(sampleRate: 22_050, bpm: 150, pattern: .backbeat, seconds: 12)
        try AudioWriter.write(synth.render(), sampleRate: 22_050, to: music + "/" + name, as: .wav)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--source", "cc0", "--catalog", catalog]).status, 0)

        let analyze = try runBeattag(["analyze", music + "/" + name])
        XCTAssertEqual(analyze.status, 0, analyze.stderr)
        XCTAssertEqual(analyze.stdout.split(separator: "\n").count, 1, analyze.stdout)
        XCTAssertTrue(analyze.stdout.contains("two^Jlines^[[2J.wav"), analyze.stdout)
        let tag = try runBeattag(["tag", music + "/" + name, "--bpm", "150", "--catalog", catalog])
        XCTAssertEqual(tag.status, 0, tag.stderr)
        XCTAssertEqual(tag.stdout.split(separator: "\n").count, 1, tag.stdout)

        let out = (dir as NSString).appendingPathComponent("run.wav")
        let render = try runBeattag(["render", "--spm", "150", "--duration", "30s", "-o", out, "--seed", "1", "--allow-short", "--catalog", catalog])
        XCTAssertEqual(render.status, 0, render.stderr)
        for file in [RunCredits.path(besides: out), CueSheet.path(besides: out)] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            XCTAssertTrue(text.contains("two^Jlines^[[2J"), text)
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, text)
            XCTAssertFalse(text.split(separator: "\n").contains { $0.hasPrefix("lines") }, "no line starts inside the name: \(text)")
        }
    }
}
