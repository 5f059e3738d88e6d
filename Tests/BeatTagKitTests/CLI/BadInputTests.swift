@testable import BeatTagCLI
@testable import BeatTagKit
import XCTest

/// Input a user gets wrong: one clear line and a usage status, before any work.
final class BadInputTests: XCTestCase {
    func testNumbersThatMeanSomethingElse() throws {
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        let cases: [([String], String)] = [
            (["match", "--spm", "175", "--max-shift", "-5"], "--max-shift must be above 0 and at most 50 percent"),
            (["playlist", "--spm", "175", "--duration", "30", "-o", "x.m3u8"], "--duration 30 would be 30 seconds: write 30m"),
            // Under ten minutes a bare number is more likely minutes (a second audit: 90 gave 1:30).
            (["playlist", "--spm", "175", "--duration", "90", "-o", "x.m3u8"], "--duration 90 would be 90 seconds: write 90m"),
            (["render", "--spm", "175", "--duration", "90", "-o", "x.flac"], "--duration 90 would be 90 seconds: write 90m"),
            // Read, but out of range: not "cannot read" (an audit).
            (["render", "--click-only", "--spm", "175", "--duration", "9s", "-o", "x.flac"], "--duration 9s is shorter than a run can be (10 s)"),
            (["render", "--click-only", "--spm", "175", "--duration", "6h1m", "-o", "x.flac"], "--duration 6h1m is longer than a run can be (6 h)"),
            (["render", "--click-only", "--spm", "175", "--duration", "ten", "-o", "x.flac"], "cannot read --duration \"ten\""),
            (["list", "--limit", "-1"], "--limit must be 0 or more"),
            (["match", "--spm", "175", "--limit", "-3"], "--limit must be 0 or more"),
            (["untagged", "--limit", "-2"], "--limit must be 0 or more"),
            // Negative numbers are values, not options: the range is named, not "missing value".
            (["match", "--spm", "-5"], "cadence -5 SPM is outside 100–240"),
            (["render", "--spm", "-5", "--duration", "5m", "-o", "x.flac"], "cadence -5 SPM is outside 100–240"),
            (["match", "--spm", "175", "--min-confidence", "-1"], "--min-confidence must be between 0 and 1"),
            (["scan", ".", "--jobs", "-1"], "--jobs must be 1 or more"),
            (["scan", ".", "--jobs", "0"], "--jobs must be 1 or more"),
            (["tag", "x.flac", "--times", "-2"], "--times must be positive"),
            (["tag", "x.flac", "--bpm", "0"], "--bpm 0 BPM is outside 30–300"),
            (["tag", "x.flac", "--bpm", "29.96"], "--bpm 29.96 BPM is outside 30–300"),
            (["tag", "x.flac", "--bpm", "12345"], "--bpm 12345 BPM is outside 30–300"),
            (["list", "--min-bpm", "200", "--max-bpm", "100"], "--min-bpm 200 is above --max-bpm 100"),
            // An empty filter matched nothing, silently (an audit).
            (["match", "--spm", "175", "--genre", ""], "--genre needs a name (it was empty)"),
            (["playlist", "--spm", "175", "--duration", "30m", "-o", "x.m3u8", "--artist", " "], "--artist needs a name (it was empty)"),
            // Swift reads 0xAF as 175 and nan as a number (an audit): only decimals are numbers here.
            (["match", "--spm", "0xAF"], "The value '0xAF' is invalid for '--spm <spm>': not a decimal number"),
            (["render", "--spm", "nan", "--duration", "5m", "-o", "x.flac"], "'nan' is invalid for '--spm <spm>': not a decimal number"),
            (["match", "--spm", "175", "--max-shift", "inf"], "'inf' is invalid for '--max-shift <pct>'"),
            (["tag", "x.flac", "--bpm", "0x7f"], "'0x7f' is invalid for '--bpm <bpm>'"),
            (["playlist", "--spm", "175", "--duration", "30m", "-o", "x.m3u8", "--fresh-days", "-1"], "--fresh-days must be more than 0"),
            (["playlist", "--spm", "175", "--duration", "30m", "-o", "x.m3u8", "--fresh-days", "nan"], "'nan' is invalid for '--fresh-days <days>'"),
            (["workout", "4x4", "--max-hr", "-5", "-o", "x.m3u8"], "maximum heart rate -5 is outside 100–230"),
            // Options that did nothing where they were given, silently (a help audit): `render --spm … --save` saved nothing.
            (["render", "--spm", "175", "--duration", "5m", "-o", "x.flac", "--max-hr", "190", "--save"], "--max-hr goes with a workout PLAN"),
            (["render", "--spm", "175", "--duration", "5m", "-o", "x.flac", "--zone-spm", "4=176"], "--zone-spm goes with a workout PLAN"),
            (["render", "--spm", "175", "--duration", "5m", "-o", "x.flac", "--no-cues"], "--no-cues goes with a workout PLAN"),
            (["render", "--spm", "175", "--duration", "5m", "-o", "x.flac", "--profile", "p.toml"], "--profile goes with a workout PLAN"),
            (["tag", "x.flac", "--bpm", "120", "--decimals"], "--decimals goes with --write"),
            (["match", "--spm", "175", "--absolute"], "--absolute goes with --m3u8 FILE"),
            (["workout", "4x4", "--max-hr", "190", "--json", "--absolute"], "--absolute goes with -o FILE.m3u8"),
        ]
        for (arguments, message) in cases {
            let result = try runBeattag(arguments + ["--catalog", catalog])
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), "\(arguments.joined(separator: " ")): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: catalog), "nothing created for bad input")
        }
    }

    func testHalfTimeStaysVisibleWhenALongNameIsCut() {
        var track = TrackRecord(path: "/m/x.flac", fileSize: 1, modifiedAt: 0, now: 0)
        (track.title, track.artist) = (String(repeating: "Very Long Title ", count: 8), "Artist")
        let half = CadenceMatch(track: track, bpm: 88, stepsPerBeat: 2, ratio: 1, shiftPercent: 0, adjustedBPM: 88)
        let table = MatchTable.render([half], width: 100)
        XCTAssertTrue(table.contains("[half-time: 1 beat / 2 steps] Artist"), table)
        XCTAssertTrue(table.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 100 }, table)
    }

    func testWideCharactersLineUp() {
        var table = TextTable(columns: ["title", "BPM"])
        table.add(["東京の夜", "172.0"])
        table.add(["Björk", "96.0"])
        table.add(["plain", "128.0"])
        let lines = table.render().split(separator: "\n").map(String.init)
        let bpmColumn = lines.map { line -> Int in
            let prefix = line[..<line.range(of: line.hasPrefix("title") ? "BPM" : line.split(separator: " ").last!)!.lowerBound]
            return DisplayWidth.of(String(prefix))
        }
        XCTAssertEqual(Set(bpmColumn).count, 1, "\(lines)")
        XCTAssertEqual(DisplayWidth.of("東京"), 4)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "a combining accent takes no column")
    }
}
