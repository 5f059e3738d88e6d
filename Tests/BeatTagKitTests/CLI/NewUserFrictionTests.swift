@testable import BeatTagCLI
@testable import BeatTagKit
import Foundation
import XCTest

/// What a new user hit on a first afternoon with beattag (issue 35's friction list), each case as
/// they typed it. The binary runs where the terminal matters (what a decoder library prints).
final class NewUserFrictionTests: XCTestCase {
    func testACatalogPathThatIsAFolderIsSaidInWords() throws {
        let dir = try temporaryDirectory(self)
        let result = try runBeattag(["scan", TestPaths.fixture("cc0"), "--catalog", dir])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("it is a folder; name the catalog file"), result.stderr)
        XCTAssertFalse(result.stderr.contains("I/O"), result.stderr)
    }

    /// `beattag --help` lists `list, show`: `show` was refused as an unknown command.
    func testEveryAliasTheHelpListsIsACommand() throws {
        let catalog = (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", TestPaths.fixture("cc0"), "--catalog", catalog]).status, 0)
        let listed = try runBeattag(["list", "--catalog", catalog])
        let shown = try runBeattag(["show", "--catalog", catalog])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(shown.stdout, listed.stdout)
        for command in BeatTagCommand.configuration.subcommands {
            for alias in command.configuration.aliases {
                XCTAssertTrue(CommandLineShape.commandNames.contains(alias), alias)
                XCTAssertEqual(try runBeattag([alias, "--help"]).status, 0, alias)
                XCTAssertEqual(try runBeattag(["help", alias]).status, 0, alias)
            }
        }
    }

    /// `beattag help nosuch` printed the overview and exited 0.
    func testHelpForACommandThatDoesNotExistIsAUsageError() throws {
        let result = try runBeattag(["help", "sacn"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "beattag: unknown command 'sacn'; did you mean 'scan'? (`beattag --help` lists the commands)\n")
        XCTAssertEqual(try runBeattag(["help", "scan", "nosuch"]).status, 64)
        let found = try runBeattag(["help", "scan"])
        XCTAssertEqual(found.status, 0)
        XCTAssertTrue(found.stdout.contains("USAGE: beattag scan"), found.stdout)
    }

    func testAnalyzeOfAMissingFileOrATextFileSaysSoAndNothingElse() throws {
        let dir = try temporaryDirectory(self)
        let missing = try runBinary(["analyze", (dir as NSString).appendingPathComponent("nope.flac")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasSuffix("nope.flac: no such file\n"), missing.stderr)
        XCTAssertFalse(missing.stderr.contains("libsndfile"), missing.stderr)
        // libmpg123 prints "Note: Illegal Audio-MPEG-Header" itself when handed text: it never is.
        let text = try runBinary(["analyze", TestPaths.fixture("odd/notes.mp3")])
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.stderr.split(separator: "\n").count, 1, text.stderr)
        XCTAssertTrue(text.stderr.contains("not audio: a text file"), text.stderr)
        XCTAssertFalse(text.stderr.contains("Illegal"), text.stderr)
        // Nor an image saved with an audio name (scan audit LOW 1: "Note: Hit end of (available) data").
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += [UInt8](repeating: 0, count: 400)
        let image = (dir as NSString).appendingPathComponent("cover.mp3")
        try Data(png).write(to: URL(fileURLWithPath: image))
        let scan = try runBinary(["scan", image, "--catalog", (dir as NSString).appendingPathComponent("c.sqlite")])
        XCTAssertEqual(scan.status, 1)
        XCTAssertTrue(scan.stderr.contains("cover.mp3: not audio: a PNG image"), scan.stderr)
        XCTAssertFalse(scan.stderr.contains("Note:"), scan.stderr)
    }

    func testHeartRateMistakesAreUsageErrors() throws {
        let profile = (try temporaryDirectory(self) as NSString).appendingPathComponent("p.toml")
        let none = try runBeattag(["zones", "--profile", profile])
        XCTAssertEqual(none.status, 64, none.stderr)
        let backwards = try runBeattag(["zones", "--rest-hr", "120", "--max-hr", "100", "--profile", profile])
        XCTAssertEqual(backwards.status, 64, backwards.stderr)
        XCTAssertEqual(backwards.stderr.split(separator: "\n").count, 1, backwards.stderr)
    }

    /// A file named like a bundle of short options (`-dash.flac`) was read as -d -a -s -h: help,
    /// exit 0, nothing done (scan audit LOW 12). Now a usage error that says how to name it.
    func testAFileNamedLikeOptionsIsAUsageErrorNotHelp() throws {
        let fixtures = try ScannedFixtures(self)
        let dir = try temporaryDirectory(self)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("rock-150.flac"), toPath: (dir as NSString).appendingPathComponent("-dash.flac"))
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(dir))
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        let dashed = try runBeattag(["tag", "-dash.flac", "--bpm", "140", "--catalog", fixtures.catalog])
        XCTAssertEqual(dashed.status, 64, dashed.stdout + dashed.stderr)
        XCTAssertTrue(dashed.stderr.contains("name the file ./-dash.flac"), dashed.stderr)
        XCTAssertFalse(dashed.stdout.contains("USAGE"), dashed.stdout)
        // After `--` it is a file name (here one the catalog does not hold), and a negative value is a value.
        let afterDashes = try runBeattag(["tag", "--bpm", "140", "--catalog", fixtures.catalog, "--", "-dash.flac"])
        XCTAssertTrue(afterDashes.stderr.contains("not in the catalog"), afterDashes.stderr)
        XCTAssertEqual(try runBeattag(["help", "tag"]).status, 0)
    }

    /// A like or a hand BPM set for a file deleted or moved since its scan is kept, and the user is
    /// told the file is gone (scan audit LOW 9: both succeeded silently).
    func testAnEditForAGoneFileSaysSo() throws {
        let fixtures = try ScannedFixtures(self)
        let file = (fixtures.library as NSString).appendingPathComponent("rock-150.flac")
        let moved = (fixtures.library as NSString).appendingPathComponent("moved.flac")
        try FileManager.default.moveItem(atPath: file, toPath: moved)
        for arguments in [["rate", file, "--like"], ["tag", file, "--bpm", "151"]] {
            let result = try runBeattag(arguments + ["--catalog", fixtures.catalog])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("is no longer there"), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try runBeattag(["scan", fixtures.library, "--catalog", fixtures.catalog]).status, 1, "the fixtures' corrupt file")
        let track = try XCTUnwrap(try Catalog(path: fixtures.catalog, create: false).track(path: moved))
        XCTAssertEqual(track.bpmManual, 151, "the edit followed the move")
        XCTAssertEqual(track.rating, .liked)
        let present = try runBeattag(["rate", moved, "--dislike", "--catalog", fixtures.catalog])
        XCTAssertEqual(present.status, 0, present.stderr)
        XCTAssertEqual(present.stderr, "", "no note for a file that is there")
    }

    func testAMisspeltCommandGetsASuggestionAndTheCatalogMayComeFirst() throws {
        let typo = try runBeattag(["lst"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertTrue(typo.stderr.contains("did you mean 'list'?"), typo.stderr)
        let fixtures = try ScannedFixtures(self)
        let first = try runBeattag(["--catalog", fixtures.catalog, "list", "--limit", "3"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("3 of 25 tracks"), first.stdout)
        XCTAssertEqual(try runBeattag(["--catalog=\(fixtures.catalog)", "stats"]).status, 0)
    }

    func testConfidenceIsPrintedOneWayAndHandSetShowsHand() throws {
        let fixtures = try ScannedFixtures(self)
        let catalog = try Catalog(path: fixtures.catalog, create: false)
        let dnb = (fixtures.library as NSString).appendingPathComponent("dnb-174.ogg")
        var row = try XCTUnwrap(try catalog.track(path: dnb))
        // 0.927 everywhere as 0.92 (truncated: never rounded up over a threshold).
        row.confidence = 0.927
        _ = try catalog.saveScanResult(row)
        let list = try runBeattag(["list", "--search", "two-step", "--catalog", fixtures.catalog])
        let match = try runBeattag(["match", "--spm", "174", "--catalog", fixtures.catalog])
        func line(_ text: String) -> String { text.split(separator: "\n").first { $0.contains("Two-step") }.map(String.init) ?? "" }
        XCTAssertTrue(line(list.stdout).contains(" 0.92 "), list.stdout)
        XCTAssertTrue(line(match.stdout).contains(" 0.92 "), match.stdout)
        XCTAssertEqual(try runBeattag(["tag", dnb, "--bpm", "173", "--catalog", fixtures.catalog]).status, 0)
        let after = try runBeattag(["list", "--search", "two-step", "--catalog", fixtures.catalog])
        XCTAssertTrue(after.stdout.contains(" hand ") && !after.stdout.contains("0.92"), after.stdout)
    }

    func testLikesShowAndFilter() throws {
        let fixtures = try ScannedFixtures(self)
        let punk = (fixtures.library as NSString).appendingPathComponent("cc0/punk-180.mp3")
        XCTAssertEqual(try runBeattag(["rate", punk, "--like", "--catalog", fixtures.catalog]).status, 0)
        let liked = try runBeattag(["list", "--liked", "--catalog", fixtures.catalog])
        XCTAssertTrue(liked.stdout.contains("♥") && liked.stdout.contains("Punk at 180") && liked.stdout.contains("1 track"), liked.stdout)
        let match = try runBeattag(["match", "--spm", "178", "--liked", "--catalog", fixtures.catalog])
        XCTAssertEqual(match.status, 0, match.stderr)
        XCTAssertTrue(match.stdout.contains("♥") && match.stdout.contains("Punk at 180"), match.stdout)
        XCTAssertFalse(match.stdout.contains("Two-step"), "only liked tracks with --liked")
    }

    func testStatsCountWhatTheChartLeavesOut() throws {
        let fixtures = try ScannedFixtures(self)
        let stats = try runBeattag(["stats", "--catalog", fixtures.catalog])
        let counts = try LibraryStats(catalog: Catalog(path: fixtures.catalog, create: false, access: .readOnly))
        XCTAssertGreaterThan(counts.belowRange, 0, "hip-hop at 90, house at 124–128")
        XCTAssertTrue(stats.stdout.contains("outside the chart: \(counts.belowRange) below 140 BPM"), stats.stdout)
    }

    func testTablesFitTheTerminalAndSubfolderScansNameTheFolder() throws {
        var table = TextTable(columns: ["#", "track", "folder"], flexible: [1, 2])
        table.add(["1", String(repeating: "Very long title ", count: 10), "Artist/Album"])
        let text = table.render(width: 80)
        XCTAssertTrue(text.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 80 }, text)
        XCTAssertTrue(text.contains("…"), text)
        XCTAssertEqual(DisplayWidth.truncated("日本語のタイトル", to: 7), "日本語…")
        // The commands, in an 80-column terminal.
        let fixtures = try ScannedFixtures(self)
        for command in [["list"], ["match", "--spm", "170"], ["untagged"]] {
            let result = try runBinary(command + ["--catalog", fixtures.catalog], environment: ["COLUMNS": "80"])
            let widest = result.stdout.split(separator: "\n").map { DisplayWidth.of(String($0)) }.max() ?? 0
            XCTAssertLessThanOrEqual(widest, 80, "\(command): \(result.stdout)")
        }

        let scanned = try ScannedSong(self, fixture: "rock-150.flac", as: "rock.flac", in: "Artist/Album")
        let (dir, catalog) = (scanned.folder, scanned.catalog)
        let list = try runBeattag(["list", "--catalog", catalog])
        XCTAssertTrue(list.stdout.contains("  Album  "), list.stdout)
        let untagged = try runBeattag(["untagged", "--catalog", catalog])
        XCTAssertFalse(untagged.stdout.contains(dir), "no full paths repeated: \(untagged.stdout)")
    }

    /// After the last file the scan looks for copies of each recording, which can take a while:
    /// the bar says so instead of sitting at N/N (an audit: 77 s of a 100 s scan without a sign).
    func testTheCopiesStageHasItsOwnProgress() {
        final class Lines: @unchecked Sendable { var text = "" }
        let lines = Lines()
        let console = Console(writeOut: { _ in }, writeErr: { lines.text += $0 }, stderrIsTerminal: true)
        let bar = ProgressLine(console: console, enabled: true)
        bar.update(ScanProgress(done: 10, total: 10, elapsed: 30, currentPath: "/m/last.flac"))
        bar.update(ScanProgress(done: 1, total: 400, elapsed: 0.5, currentPath: "", stage: .copies))
        XCTAssertTrue(lines.text.contains("1/400  finding copies of recordings  ETA"), lines.text)
    }

    /// A line wider than the terminal wraps, and the erase before each redraw reaches only the
    /// row the cursor is on: an 80-column terminal filled with the wrapped heads of old lines.
    func testTheProgressLineFitsTheTerminal() {
        final class Lines: @unchecked Sendable { var text = "" }
        let lines = Lines()
        let console = Console(writeOut: { _ in }, writeErr: { lines.text += $0 }, stderrIsTerminal: true)
        let saved = ProcessInfo.processInfo.environment["COLUMNS"]
        setenv("COLUMNS", "50", 1)
        defer { if let saved { setenv("COLUMNS", saved, 1) } else { unsetenv("COLUMNS") } }
        let bar = ProgressLine(console: console, enabled: true)
        bar.update(ScanProgress(done: 1234, total: 56789, elapsed: 30, currentPath: "/m/日本語のとても長いアルバム名 – 01 A very long track title indeed.flac"))
        ProgressLine(console: console, enabled: true).update(fraction: 0.5, started: Date().addingTimeInterval(-10))
        let drawn = lines.text.components(separatedBy: "\r\u{1B}[2K").filter { !$0.isEmpty }
        XCTAssertEqual(drawn.count, 2, lines.text)
        for line in drawn { XCTAssertLessThan(DisplayWidth.of(line), 50, line) }
        XCTAssertTrue(drawn[0].hasPrefix("[") && drawn[0].contains("1234/56789") && drawn[0].hasSuffix("…"), drawn[0])
    }

    func testARenderEstimatesItsTimeFromItsOwnProgressNotItsPlanning() {
        final class Lines: @unchecked Sendable { var text = "" }
        let lines = Lines()
        let console = Console(writeOut: { _ in }, writeErr: { lines.text += $0 }, stderrIsTerminal: true)
        let bar = ProgressLine(console: console, enabled: true)
        // 4.5 s of planning, then the first 1% of a 5-second job.
        bar.update(fraction: 0.01, started: Date().addingTimeInterval(-4.5))
        XCTAssertTrue(lines.text.contains("ETA --:--"), lines.text)
        XCTAssertFalse(lines.text.contains("7:"), lines.text)
    }
}
