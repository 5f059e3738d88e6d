@testable import BeatTagKit
import Foundation
import XCTest

/// match / playlist / tag / tap / untagged / stats, run in process, checked with
/// independent tools: mpv must play every playlist entry, ffprobe must read the written tag and
/// ffmpeg must see the same audio packets before and after.
final class RunnerCLITests: XCTestCase {
    private var library = ""
    private var catalog = ""

    override func setUpWithError() throws {
        let fixtures = try ScannedFixtures(self)
        (library, catalog) = (fixtures.library, fixtures.catalog)
    }

    private func tool(_ name: String) throws -> String { try requiredTool(name) }

    /// A new folder holding copies of `fixtures` in its `music`, scanned into its own catalog.
    private func scannedMusic(_ fixtures: [String]) throws -> (dir: String, music: String, catalog: String) {
        let dir = try temporaryDirectory(self)
        let music = try folder((dir as NSString).appendingPathComponent("music"), holding: fixtures)
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", catalog]).status, 0)
        return (dir, music, catalog)
    }

    /// A plan file in `dir` of one segment at a cadence.
    private func cadencePlan(_ name: String, minutes: Double, spm: Double, in dir: String) throws -> String {
        let plan = (dir as NSString).appendingPathComponent("\(name).toml")
        try "[[segments]]\nname = \"\(name)\"\nminutes = \(minutes)\nspm = \(spm)\n".write(toFile: plan, atomically: true, encoding: .utf8)
        return plan
    }
    private func run(_ executable: String, _ arguments: [String], cwd: String? = nil) throws -> (Int32, String) {
        try runTool(executable, arguments, cwd: cwd)
    }

    func testPlaylistIsRelativeUTF8AndMpvPlaysEveryEntry() throws {
        let out = (try temporaryDirectory(self) as NSString).appendingPathComponent("lists/run 175.m3u8")
        try FileManager.default.createDirectory(atPath: (out as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Two minutes is more than the fixtures hold at 170 SPM: every match goes in.
        let result = try runBeattag(["playlist", "--spm", "170", "--duration", "2m", "-o", out, "--seed", "9", "--catalog", catalog])
        XCTAssertEqual(result.status, 3, "written, but more than 5% short: \(result.stderr)")
        XCTAssertTrue(result.stdout.contains("(seed 9); not enough matching music"), result.stdout)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "#EXTM3U")
        XCTAssertEqual(lines[1], "#PLAYLIST:beattag 170 SPM")
        let entries = lines.filter { !$0.hasPrefix("#") }
        XCTAssertEqual(Set(entries.map { ($0 as NSString).lastPathComponent }),
                       ["dnb-174.ogg", "punk-180.mp3", "cardio-165.ogg", "Ünïcødé – ритм 160.ogg", "metal-168.aiff"])
        XCTAssertTrue(entries.allSatisfy { $0.hasPrefix("../../") && !$0.contains("\\") })
        XCTAssertEqual(lines.filter { $0.hasPrefix("#EXTINF:") }.count, entries.count)
        XCTAssertTrue(lines.contains("#EXTINF:10,Opus & AIFF Band - Double-time at 168"))

        let again = try runBeattag(["playlist", "--spm", "170", "--duration", "2m", "-o", out + ".2", "--seed", "9", "--allow-short",
                                    "--catalog", catalog])
        XCTAssertEqual(again.status, 0, "a short playlist accepted with --allow-short")
        XCTAssertEqual(try String(contentsOfFile: out + ".2", encoding: .utf8), text, "same seed, same playlist")

        let mpv = try tool("mpv")
        let (status, log) = try run(mpv, ["--no-config", "--ao=null", "--vo=null", "--end=0.2", "--term-playing-msg=LOADED ${path}",
                                          "--playlist=\(out)"], cwd: "/")
        XCTAssertEqual(status, 0, log)
        // mpv redraws its status line with a carriage return, so a LOADED message can follow one on the same "\n" line.
        let loaded = log.components(separatedBy: .newlines).filter { $0.hasPrefix("LOADED ") }
        XCTAssertEqual(loaded.count, entries.count, log)
    }

    /// A file deleted, or replaced by another song, since the scan is not written into a playlist
    /// (`playlist`, `match --m3u8`, `workout`): it is left out and said, as `render` does. They
    /// were written, silently: a dead entry, and another song under "Double-time at 168".
    func testFilesGoneOrReplacedSinceTheScanAreLeftOutOfPlaylists() throws {
        let gone = try XCTUnwrap(FileManager.default.subpaths(atPath: library)?.first { $0.hasSuffix("punk-180.mp3") })
        let replaced = try XCTUnwrap(FileManager.default.subpaths(atPath: library)?.first { $0.hasSuffix("metal-168.aiff") })
        try FileManager.default.removeItem(atPath: library + "/" + gone)
        let other = try XCTUnwrap(FileManager.default.subpaths(atPath: library)?.first { $0.hasSuffix("house-128.wav") })
        try FileManager.default.removeItem(atPath: library + "/" + replaced)
        try FileManager.default.copyItem(atPath: library + "/" + other, toPath: library + "/" + replaced)
        let dir = try temporaryDirectory(self)
        let plan = (dir as NSString).appendingPathComponent("fast.toml")
        try "name = \"fast\"\n[[segments]]\nname = \"fast\"\nminutes = 2\nspm = 170\n".write(toFile: plan, atomically: true, encoding: .utf8)
        let commands: [(String, [String])] = [
            ("playlist.m3u8", ["playlist", "--spm", "170", "--duration", "2m", "--allow-short", "-o"]),
            ("match.m3u8", ["match", "--spm", "170", "--m3u8"]),
            ("workout.m3u8", ["workout", plan, "--max-hr", "190", "--allow-short", "-o"]),
        ]
        for (name, arguments) in commands {
            let out = (dir as NSString).appendingPathComponent(name)
            let result = try runBeattag(arguments + [out, "--catalog", catalog])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let entries = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            XCTAssertEqual(Set(entries.map { ($0 as NSString).lastPathComponent }), ["dnb-174.ogg", "cardio-165.ogg", "Ünïcødé – ритм 160.ogg"], name)
            XCTAssertTrue(result.stderr.contains("left out \(library)/\(gone): no such file or directory (moved or deleted since the last scan? scan again)"),
                          "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("left out \(library)/\(replaced): changed since the last scan (scan it again)"), "\(name): \(result.stderr)")
            if name == "match.m3u8" {
                // All shown: no "best of" that promises more (it said "7 best of 9" with two copies hidden).
                XCTAssertTrue(result.stdout.contains("5 matching tracks at 170 SPM"), result.stdout)
                XCTAssertFalse(result.stdout.contains("best of"), result.stdout)
            }
        }
    }

    /// Copies of one recording (a WAV and its ALAC, one decoded audio): the matcher offers one; when
    /// that file is gone since the scan, the playlist plays the other (it wrote nothing).
    func testPlaylistRenderAndWorkoutPlayAnotherCopyOfARecordingWhoseOfferedCopyIsGone() throws {
        let (dir, music, catalog) = try scannedMusic(["house-128.wav", "encoded/house-128-alac.m4a"])
        func playlist() throws -> (CommandResult, [String]) {
            let out = (dir as NSString).appendingPathComponent("run.m3u8")
            try? FileManager.default.removeItem(atPath: out)
            let result = try runBeattag(["playlist", "--spm", "128", "--duration", "1m", "--allow-short", "--allow-half-time", "-o", out, "--catalog", catalog])
            let entries = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
            return (result, entries)
        }
        let (first, offered) = try playlist()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(offered.count, 1, "one recording, offered once: \(offered)")
        try FileManager.default.removeItem(atPath: (music as NSString).appendingPathComponent((offered[0] as NSString).lastPathComponent))
        let (second, fallback) = try playlist()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(fallback.count, 1)
        XCTAssertNotEqual((try XCTUnwrap(fallback.first) as NSString).lastPathComponent, (offered[0] as NSString).lastPathComponent, "the other copy")
        XCTAssertTrue(second.stderr.contains("left out"), second.stderr)
        // `render` and `workout` too (they found no track to use).
        let render = try runBeattag(["render", "--spm", "128", "--duration", "20s", "--allow-short", "--json", "-o", (dir as NSString).appendingPathComponent("run.wav"), "--catalog", catalog])
        XCTAssertEqual(render.status, 0, render.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(render.stdout.utf8))
        XCTAssertEqual(timeline.tracks.map { ($0.path as NSString).lastPathComponent }, [(try XCTUnwrap(fallback.first) as NSString).lastPathComponent])
        let plan = try cadencePlan("steady", minutes: 1, spm: 128, in: dir)
        let workout = try runBeattag(["workout", plan, "--max-hr", "190", "--allow-short", "--json", "--catalog", catalog])
        XCTAssertEqual(workout.status, 0, workout.stderr)
        XCTAssertTrue(workout.stdout.contains((try XCTUnwrap(fallback.first) as NSString).lastPathComponent), workout.stdout)
    }

    /// The music of a workout needs only cadences: a plan of cadences alone runs without a heart
    /// rate (it asked for --max-hr), and a plan by zone names each zone's heart rates wherever it
    /// names the zone (the maximum was asked for and then used nowhere but the JSON header).
    func testAPlanOfCadencesNeedsNoHeartRateAndZonesShowTheirs() throws {
        let dir = try temporaryDirectory(self)
        let profile = (dir as NSString).appendingPathComponent("profile.toml")
        let plan = try cadencePlan("strides", minutes: 2, spm: 170, in: dir)
        let common = ["--allow-short", "--catalog", catalog, "--profile", profile]
        let cadences = try runBeattag(["workout", plan, "--json"] + common)
        XCTAssertEqual(cadences.status, 0, cadences.stderr)
        let document = try JSONSerialization.jsonObject(with: Data(cadences.stdout.utf8)) as? [String: Any]
        XCTAssertNil(document?["maxHR"], cadences.stdout)
        XCTAssertFalse(cadences.stderr.contains("heart rate"), cadences.stderr)

        let noHeartRate = try runBeattag(["workout", "easy", "--json"] + common)
        XCTAssertEqual(noHeartRate.status, 64, noHeartRate.stderr)
        XCTAssertTrue(noHeartRate.stderr.contains("no maximum heart rate"), noHeartRate.stderr)

        // Zone 2 is 60–70% of the maximum.
        let json = try runBeattag(["workout", "easy", "--max-hr", "200", "--json"] + common)
        XCTAssertEqual(json.status, 0, json.stderr)
        let easy = try JSONDecoder().decode(WorkoutExport.Document.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(easy.maxHR, 200)
        XCTAssertEqual(easy.segments.map(\.minHR), [120])
        XCTAssertEqual(easy.segments.map(\.maxHR), [140])
        let playlist = try runBeattag(["workout", "easy", "--max-hr", "200", "-o", "-"] + common)
        XCTAssertTrue(playlist.stdout.contains("zone 2 (heart rate 120–140), 166 SPM"), playlist.stdout)
        let table = try runBeattag(["workout", "easy", "--max-hr", "200", "-o", (dir as NSString).appendingPathComponent("easy.m3u8")] + common)
        XCTAssertTrue(table.stdout.contains("120–140"), table.stdout)
    }

    /// A workout short because the files are gone (a disk not mounted) says so; it told the runner
    /// to fix tempi with `untagged` and `tap`.
    func testAWorkoutShortOfGoneFilesSaysTheyAreGone() throws {
        let (dir, music, catalog) = try scannedMusic(["house-128.wav", "trance-140.flac"])
        try FileManager.default.removeItem(atPath: music)
        let plan = try cadencePlan("steady", minutes: 2, spm: 134, in: dir)
        let workout = try runBeattag(["workout", plan, "-o", (dir as NSString).appendingPathComponent("w.m3u8"), "--catalog", catalog])
        XCTAssertEqual(workout.status, 3, workout.stderr)
        XCTAssertTrue(workout.stderr.contains("tracks were left out because their files are gone or changed since the scan (listed above"), workout.stderr)
        XCTAssertFalse(workout.stderr.contains("beattag untagged"), workout.stderr)
    }

    /// Names a player reads differently from a plain line, in a playlist written beside them: mpv
    /// skips a leading `#` (a comment) and trims spaces at either end (" lead.ogg" could not be
    /// opened). Every entry must load.
    func testMpvPlaysNamesThatStartOrEndWithASpaceOrAHash() throws {
        let dir = try temporaryDirectory(self)
        // Four different songs that match 170 SPM (copies of one would be taken for one recording).
        let names = ["dnb-174.ogg": " lead space.ogg", "cardio-165.ogg": "trailing space.ogg ", "punk-180.mp3": "#hash.mp3", "metal-168.aiff": "\ttab.aiff"]
        for (fixture, name) in names {
            let source = try XCTUnwrap(FileManager.default.subpaths(atPath: library)?.first { $0.hasSuffix(fixture) })
            try FileManager.default.copyItem(atPath: library + "/" + source, toPath: (dir as NSString).appendingPathComponent(name))
        }
        let catalog = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", dir, "--catalog", catalog]).status, 0)
        let out = (dir as NSString).appendingPathComponent("here.m3u8")
        let result = try runBeattag(["match", "--spm", "170", "--m3u8", out, "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        let entries = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(entries.count, names.count, "\(entries)")
        let (status, log) = try run(try tool("mpv"), ["--no-config", "--ao=null", "--vo=null", "--end=0.2", "--term-playing-msg=LOADED ${path}",
                                                      "--playlist=\(out)"], cwd: dir)
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(log.components(separatedBy: .newlines).filter { $0.hasPrefix("LOADED ") }.count, names.count, log)
    }

    /// `-o -` pipes the playlist into a player: stdout holds the playlist alone, with absolute paths
    /// (it has no folder to be relative to), the same tracks as the file for that seed; the summary
    /// goes to stderr, and no file named "-" appears.
    func testDashWritesThePlaylistToStdoutAlone() throws {
        let dir = try temporaryDirectory(self)
        let file = (dir as NSString).appendingPathComponent("run.m3u8")
        let common = ["--spm", "170", "--duration", "2m", "--seed", "9", "--allow-short", "--catalog", catalog]
        XCTAssertEqual(try runBeattag(["playlist", "-o", file] + common).status, 0)
        let piped = try runBeattag(["playlist", "-o", "-"] + common)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        let lines = piped.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.prefix(2), ["#EXTM3U", "#PLAYLIST:beattag 170 SPM"], piped.stdout)
        let entries = lines.filter { !$0.hasPrefix("#") }
        XCTAssertEqual(entries.count, 5, piped.stdout)
        XCTAssertTrue(entries.allSatisfy { $0.hasPrefix("/") && FileManager.default.fileExists(atPath: $0) }, piped.stdout)
        let fileEntries = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(entries.map { ($0 as NSString).lastPathComponent }, fileEntries.map { ($0 as NSString).lastPathComponent })
        XCTAssertTrue(piped.stderr.contains("→ stdout (seed 9)"), piped.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "-"))

        let matched = try runBeattag(["match", "--spm", "170", "--m3u8", "-", "--catalog", catalog])
        XCTAssertEqual(matched.status, 0, matched.stderr)
        XCTAssertTrue(matched.stdout.hasPrefix("#EXTM3U\n") && !matched.stdout.contains("SPM; playlist"), matched.stdout)
        XCTAssertTrue(matched.stderr.contains("playlist written to stdout"), matched.stderr)
        // Nothing at the cadence: said as `playlist` says it, and no empty playlist left behind.
        let nothing = (dir as NSString).appendingPathComponent("nothing.m3u8")
        let none = try runBeattag(["match", "--spm", "235", "--m3u8", nothing, "--catalog", catalog])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no tracks match 235 SPM") && none.stderr.contains("no playlist written"), none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: nothing))

        let profile = (dir as NSString).appendingPathComponent("profile.toml")
        let workout = try runBeattag(["workout", "easy", "--max-hr", "190", "-o", "-", "--allow-short", "--catalog", catalog, "--profile", profile])
        XCTAssertTrue(workout.stdout.hasPrefix("#EXTM3U\n") && workout.stdout.contains("\n# segment 1/"), workout.stdout + workout.stderr)
        XCTAssertFalse(workout.stdout.contains("segment changes at most"), workout.stdout)

        for arguments in [["match", "--spm", "170", "--json", "--m3u8", "-"], ["workout", "easy", "--max-hr", "190", "--json", "-o", "-", "--profile", profile]] {
            let both = try runBeattag(arguments + ["--catalog", catalog])
            XCTAssertEqual(both.status, 64, both.stderr)
            XCTAssertTrue(both.stderr.contains("both write to stdout"), both.stderr)
        }
    }

    /// A playlist that cannot reach stdout (a full disk: /dev/full; a closed stdout) fails with a
    /// one-line error and is not recorded as exported: `--fresh` must not avoid what nobody got.
    func testAPlaylistThatCannotReachStdoutFailsAndIsNotRecorded() throws {
        for target in ["/dev/full", nil] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.executable)
            process.arguments = ["playlist", "--spm", "170", "--duration", "2m", "--allow-short", "-o", "-", "--catalog", catalog]
            let err = Pipe()
            process.standardError = err
            if let target {
                process.standardOutput = FileHandle(forWritingAtPath: target)
            } else {
                let closed = Pipe()
                try closed.fileHandleForReading.close()  // the reader is gone before anything is written
                process.standardOutput = closed
            }
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if target != nil {
                XCTAssertEqual(process.terminationStatus, 1, message)
                XCTAssertTrue(message.contains("beattag: cannot write to stdout: no space left on device"), message)
            } else {
                // A closed pipe: SIGPIPE ends the process, as for any tool in a pipe (141 in a shell).
                XCTAssertNotEqual(process.terminationStatus, 0, message)
            }
            XCTAssertEqual(try Catalog(path: catalog, create: false).exportedTracks(since: 0), [], target ?? "closed pipe")
        }
    }

    /// Every command's output, not only a playlist's: a table or JSON that did not reach stdout (a
    /// full disk) is exit 1 and said, not 0 with a cut-off file.
    func testReadCommandsFailWhenTheirOutputCannotBeWritten() throws {
        let music = try XCTUnwrap(FileManager.default.subpaths(atPath: library)?.first { $0.hasSuffix("dnb-174.ogg") })
        for arguments in [["list", "--catalog", catalog], ["list", "--json", "--catalog", catalog], ["match", "--spm", "170", "--catalog", catalog],
                          ["stats", "--json", "--catalog", catalog], ["analyze", library + "/" + music]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.executable)
            process.arguments = arguments
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 1, "\(arguments): \(message)")
            XCTAssertTrue(message.hasSuffix("beattag: cannot write to stdout: no space left on device\n"), "\(arguments): \(message)")
        }
    }

    func testFreshAvoidsWhatTheLastPlaylistExported() throws {
        let dir = try temporaryDirectory(self)
        func entries(_ name: String, _ extra: [String]) throws -> Set<String> {
            let out = (dir as NSString).appendingPathComponent(name)
            let r = try runBeattag(["playlist", "--spm", "170", "--duration", "20s", "-o", out, "--seed", "1", "--catalog", catalog] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return Set(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        }
        // A list of everything that fits is no run: it is not counted as exported.
        let listed = try runBeattag(["match", "--spm", "170", "--m3u8", (dir as NSString).appendingPathComponent("all.m3u8"), "--catalog", catalog])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let db = try checkingConnection(catalog)
        XCTAssertEqual(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM playlistExport") }, 0)
        let first = try entries("a.m3u8", [])
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM playlistExport") }, 2)
        let second = try entries("b.m3u8", ["--fresh"])
        XCTAssertEqual(second.count, 2)
        XCTAssertTrue(first.isDisjoint(with: second), "\(first) vs \(second)")
    }

    func testTagWriteIsSeenByAnIndependentReaderAndKeepsTheAudioBytes() throws {
        let ffprobe = try tool("ffprobe"), ffmpeg = try tool("ffmpeg")
        for name in ["cc0/punk-180.mp3", "dnb-174.ogg", "rock-150.flac"] {
            let file = (library as NSString).appendingPathComponent(name)
            let (_, before) = try run(ffmpeg, ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
            let dry = try runBeattag(["tag", file, "--bpm", "171.4", "--write", "--dry-run", "--catalog", catalog])
            XCTAssertEqual(dry.status, 0, dry.stderr)
            XCTAssertTrue(dry.stdout.contains("would write"), dry.stdout)
            let result = try runBeattag(["tag", file, "--bpm", "171.4", "--write", "--catalog", catalog])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("→ \"171\""), result.stdout)
            let (_, probe) = try run(ffprobe, ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "default=nw=1", file])
            XCTAssertTrue(probe.lowercased().contains("bpm=171") || probe.contains("TBPM=171"), "\(name): \(probe)")
            let (_, after) = try run(ffmpeg, ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-f", "md5", "-"])
            XCTAssertEqual(after, before, "\(name): audio packets changed")
            XCTAssertTrue(after.hasPrefix("MD5="), after)
        }
        // The hand-set BPM is in the catalog too.
        let list = try runBeattag(["list", "--catalog", catalog, "--search", "punk", "--json"])
        XCTAssertTrue(list.stdout.contains("\"bpmManual\":171.4"), list.stdout)
    }

    func testTagOctaveFixesAndClear() throws {
        let file = (library as NSString).appendingPathComponent("rock-150.flac")
        let half = try runBeattag(["tag", file, "--half", "--catalog", catalog])
        XCTAssertEqual(half.status, 0, half.stderr)
        XCTAssertTrue(half.stdout.contains("BPM 75."), half.stdout)
        XCTAssertTrue(try runBeattag(["tag", file, "--clear", "--catalog", catalog]).stdout.contains("BPM 150."))
        let both = try runBeattag(["tag", file, "--half", "--double", "--catalog", catalog])
        XCTAssertNotEqual(both.status, 0)
        let unknown = try runBeattag(["tag", "/no/such.ogg", "--bpm", "170", "--catalog", catalog])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("/no/such.ogg: no such file"), unknown.stderr)
    }

    /// In a real terminal (`script`): taps too fast for any tempo are said while tapping, and `s`
    /// then saves nothing and goes on (it exited 1 and the taps were lost); steady taps are saved.
    func testTapInATerminalSaysATempoOutOfRangeAndKeepsTapping() throws {
        let file = try XCTUnwrap(FileManager.default.subpaths(atPath: library)?.first { $0.hasSuffix("rock-150.flac") })
        let path = library + "/" + file
        func session(interval: Double, then keys: String) throws -> (Int32, String) {
            let feed = "sleep 1; for i in 1 2 3 4 5 6 7 8; do printf ' '; sleep \(interval); done; printf '\(keys)'; sleep 0.5"
            return try run("/bin/sh", ["-c", "(\(feed)) | script -qec \"'\(TestPaths.executable)' tap '\(path)' --catalog '\(catalog)'\" /dev/null"])
        }
        let (fastStatus, fast) = try session(interval: 0.15, then: "sq")
        XCTAssertEqual(fastStatus, 0, fast)
        XCTAssertTrue(fast.contains("(outside 30–300: tap every beat, or pause 2 s to start again)"), fast)
        XCTAssertTrue(fast.contains("BPM is outside 30–300: nothing saved; tap again"), fast)
        XCTAssertTrue(fast.contains("quit, nothing saved"), fast)
        XCTAssertNil(try Catalog(path: catalog, create: false).track(path: path)?.bpmManual)

        let (steadyStatus, steady) = try session(interval: 0.4, then: "s")
        XCTAssertEqual(steadyStatus, 0, steady)
        XCTAssertTrue(steady.contains("saved "), steady)
        let saved = try XCTUnwrap(try Catalog(path: catalog, create: false).track(path: path)?.bpmManual, steady)
        XCTAssertEqual(saved, 150, accuracy: 30, "taps every 0.4 s, as a loaded machine sleeps")
    }

    func testTapRefusesWithoutATerminal() throws {
        let result = try runBeattag(["tap", (library as NSString).appendingPathComponent("rock-150.flac"), "--catalog", catalog])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("tap needs a terminal"), result.stderr)
        // A wrong name is said first, terminal or not.
        let missing = (library as NSString).appendingPathComponent("nonexistent.flac")
        let wrong = try runBeattag(["tap", missing, "--catalog", catalog])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("nonexistent.flac: no such file"), wrong.stderr)
        // analyze reads files; a folder is said to be one.
        let folder = try runBeattag(["analyze", library])
        XCTAssertEqual(folder.status, 1)
        XCTAssertTrue(folder.stderr.contains("\(library): a folder: analyze reads files"), folder.stderr)
    }

    func testUntaggedStatsAndNoMatchExplanation() throws {
        let untagged = try runBeattag(["untagged", "--catalog", catalog, "--json"])
        XCTAssertEqual(untagged.status, 0)
        let queued = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(untagged.stdout.utf8)) as? [[String: Any]])
        // `--limit 0`: the count alone (it said "nothing needs a human" with tracks queued).
        let counted = try runBeattag(["untagged", "--limit", "0", "--catalog", catalog])
        XCTAssertEqual(counted.status, 0)
        XCTAssertEqual(counted.stdout, queued.isEmpty ? "nothing needs a human: every track has a BPM you can trust\n"
                                                      : "\(queued.count) track\(queued.count == 1 ? "" : "s") to check (--limit N lists them)\n")

        let svg = (try temporaryDirectory(self) as NSString).appendingPathComponent("stats.svg")
        let stats = try runBeattag(["stats", "--catalog", catalog, "--svg", svg])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        XCTAssertTrue(stats.stdout.contains("170–175 │"), stats.stdout)
        let rows = stats.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let spm = try XCTUnwrap(rows.first { $0.first == "SPM" }), usable = try XCTUnwrap(rows.first { $0.first == "tracks" })
        XCTAssertEqual(usable[try XCTUnwrap(spm.firstIndex(of: "175"))], "5", stats.stdout)
        XCTAssertTrue(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg"))

        let none = try runBeattag(["match", "--spm", "230", "--catalog", catalog])
        XCTAssertEqual(none.status, 0)
        XCTAssertTrue(none.stdout.contains("Nearest tempos in the library: 180.0"), none.stdout)
        // The filters' counts go with "filtered out" (an audit: "… filtered out, (filters: …)").
        let filtered = try runBeattag(["match", "--spm", "230", "--genre", "no such genre", "--catalog", catalog])
        XCTAssertTrue(filtered.stdout.range(of: #"\d+ filtered out \(\d+ genre filter\)"#, options: .regularExpression) != nil, filtered.stdout)
        XCTAssertFalse(filtered.stdout.contains(", ("), filtered.stdout)
        let half = try runBeattag(["match", "--spm", "180", "--allow-half-time", "--catalog", catalog, "--source", "user-owned", "--source", "unknown"])
        XCTAssertTrue(half.stdout.contains("Two-step at 174"), half.stdout)
    }
}
