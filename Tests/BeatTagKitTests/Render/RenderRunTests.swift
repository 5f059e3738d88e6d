@testable import BeatTagKit
import Foundation
import XCTest

/// `render` on the fixtures, checked with tools that are not beattag: ffmpeg decodes the mix and
/// the sources and measures loudness and true peak, ffprobe the length; the timeline is tested
/// against the audio (energy onsets of each source, mapped through it, against the mix's) and the
/// fixtures' annotated beats, mapped through it, against the clock.
final class RenderRunTests: XCTestCase {
    private var library = ""
    private var catalog = ""

    override func setUpWithError() throws {
        let fixtures = try ScannedFixtures(self)
        (library, catalog) = (fixtures.library, fixtures.catalog)
        XCTAssertEqual(fixtures.scan.status, 1, "the odd fixtures fail, the rest is catalogued")
    }

    /// Mono 11,025 Hz samples of a file, decoded by ffmpeg.
    private func ffmpegDecode(_ path: String, start: Double = 0, duration: Double? = nil) throws -> [Float] {
        let ffmpeg = try requiredTool("ffmpeg")
        let raw = (try temporaryDirectory(self) as NSString).appendingPathComponent("pcm.raw")
        var args = ["-v", "error", "-y", "-ss", String(format: "%.6f", start)]
        if let duration { args += ["-t", String(format: "%.6f", duration)] }
        args += ["-i", path, "-ac", "1", "-ar", "11025", "-f", "f32le", raw]
        let (status, log) = try runTool(ffmpeg, args)
        XCTAssertEqual(status, 0, log)
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Rise of energy per 64-sample hop (5.8 ms): where onsets are.
    private func energyRise(_ x: [Float]) -> [Float] {
        let hop = 64
        var energy: [Float] = []
        var i = 0
        while i + hop <= x.count { energy.append(log(1e-6 + x[i..<(i + hop)].reduce(0) { $0 + $1 * $1 })); i += hop }
        return zip(energy.dropFirst(), energy).map { max(0, $0 - $1) }
    }

    /// Where source time `s` plays in the mix, through a track's beat map (nil outside it).
    private static func mixTime(of s: Double, on beatMap: [[Double]]) -> Double? {
        guard let k = beatMap.indices.dropLast().first(where: { beatMap[$0][0] <= s && s <= beatMap[$0 + 1][0] }) else { return nil }
        let (a, b) = (beatMap[k], beatMap[k + 1])
        return a[1] + (s - a[0]) / (b[0] - a[0]) * (b[1] - a[1])
    }

    /// The fixtures' annotated beats, mapped through the timeline: how far each lies from the
    /// clock's beats moved by `offset` of a period.
    private static func annotatedDistances(_ timeline: RenderTimeline, period: Double, offset: Double = 0) -> [Double] {
        timeline.tracks.flatMap { track -> [Double] in
            guard let text = try? String(contentsOfFile: track.path + ".beats", encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { Double($0.split(separator: "\t")[0]) }.compactMap { beat in
                mixTime(of: beat, on: track.beatMap).map { t in abs(t - ((t / period - offset).rounded() + offset) * period) }
            }
        }
    }

    /// A grid moved half a beat by hand (`tag --shift-beats 0.5`) is the one the render puts on the
    /// clock: each source beat it maps is a beat of `list --json`, and the fixtures' annotated beats
    /// fall half-way between the clock's beats.
    func testAHandPlacedBeatIsTheGridTheClockCarries() throws {
        let rows = (try JSONSerialization.jsonObject(with: Data(try runBeattag(["list", "--json", "--catalog", catalog]).stdout.utf8))) as? [[String: Any]] ?? []
        for row in rows where ((row["beats"] as? [Double]) ?? []).count > 8 {
            let path = try XCTUnwrap(row["path"] as? String)
            XCTAssertEqual(try runBeattag(["tag", path, "--shift-beats", "0.5", "--catalog", catalog]).status, 0, path)
        }
        let moved = (try JSONSerialization.jsonObject(with: Data(try runBeattag(["list", "--json", "--catalog", catalog]).stdout.utf8))) as? [[String: Any]] ?? []
        let beatsOf = Dictionary(uniqueKeysWithValues: moved.compactMap { row in (row["path"] as? String).map { ($0, (row["beats"] as? [Double]) ?? []) } })

        let out = (try temporaryDirectory(self) as NSString).appendingPathComponent("run.flac")
        let result = try runBeattag(["render", "--spm", "170", "--duration", "40s", "-o", out, "--json", "--seed", "1", "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(result.stdout.utf8))
        XCTAssertGreaterThanOrEqual(timeline.tracks.count, 3)
        for track in timeline.tracks {
            let beats = try XCTUnwrap(beatsOf[track.path])
            for pair in track.beatMap {
                XCTAssertEqual(beats.map { abs($0 - pair[0]) }.min() ?? 1, 0, accuracy: 0.001, "a moved beat on the clock")
            }
        }
        let period = 60.0 / 170
        let halfway = Self.annotatedDistances(timeline, period: period, offset: 0.5)
        XCTAssertGreaterThan(halfway.count, 20)
        XCTAssertGreaterThanOrEqual(Double(halfway.filter { $0 <= 0.035 }.count) / Double(halfway.count), 0.9,
                                    "annotated beats half-way between the clock's: the grid in use is the hand-moved one")
    }

    func testRunAtOneCadenceIsOnTheClockAtOneLoudness() throws {
        let dir = try temporaryDirectory(self)
        let out = (dir as NSString).appendingPathComponent("run.flac")
        let result = try runBeattag(["render", "--spm", "170", "--duration", "40s", "-o", out, "--json", "--seed", "1", "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(result.stdout.utf8))
        let period: Double = 60.0 / 170
        XCTAssertEqual(timeline.beats % 8, 0)
        XCTAssertEqual(timeline.durationSeconds, 40, accuracy: 10)
        XCTAssertGreaterThanOrEqual(timeline.tracks.count, 3)

        // Length, by ffprobe.
        let (_, probe) = try runTool(try requiredTool("ffprobe"), ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
        XCTAssertEqual(Double(probe.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, timeline.durationSeconds, accuracy: 0.01)

        let mixRise = energyRise(try ffmpegDecode(out))
        let hop: Double = 64.0 / 11025
        for (i, track) in timeline.tracks.enumerated() {
            XCTAssertEqual(track.targetBPM, 170)
            XCTAssertTrue(track.path.hasPrefix("/"))
            // Every beat of the map sits on the clock.
            for pair in track.beatMap {
                let beats: Double = pair[1] / period
                XCTAssertEqual(beats, beats.rounded(), accuracy: 1e-6)
            }
            func toMix(_ s: Double) -> Double? { Self.mixTime(of: s, on: track.beatMap) }
            // The timeline is true: the source's onsets, mapped into the mix, fall where the mix's are.
            let aloneFrom: Double = track.startSeconds + (i > 0 ? 4 * period : 0)
            let aloneTo: Double = i + 1 < timeline.tracks.count ? timeline.tracks[i + 1].startSeconds : track.endSeconds - 4 * period
            guard aloneTo - aloneFrom > 2 else { continue }
            let sourceFrom = track.beatMap.first![0]
            let sourceRise = energyRise(try ffmpegDecode(track.path, start: sourceFrom, duration: track.beatMap.last![0] - sourceFrom))
            var best = (lag: 0, score: -Float.infinity)
            for lag in -8...8 {
                var score: Float = 0
                for (n, rise) in sourceRise.enumerated() where rise > 0 {
                    guard let mixTime = toMix(sourceFrom + Double(n) * hop), mixTime >= aloneFrom, mixTime < aloneTo else { continue }
                    let index: Double = (mixTime / hop).rounded()
                    let m = Int(index) + lag
                    if mixRise.indices.contains(m) { score += rise * mixRise[m] }
                }
                if score > best.score { best = (lag, score) }
            }
            let lagSeconds: Double = Double(best.lag) * hop
            XCTAssertLessThanOrEqual(abs(lagSeconds), 0.020, "\((track.path as NSString).lastPathComponent): onsets \(lagSeconds * 1000) ms off")
        }
        // The fixtures' own annotated beats, mapped through the timeline.
        let annotated = Self.annotatedDistances(timeline, period: period)
        XCTAssertGreaterThan(annotated.count, 20)
        XCTAssertGreaterThanOrEqual(Double(annotated.filter { $0 <= 0.035 }.count) / Double(annotated.count), 0.9, "annotated beats on the clock")

        // Loudness per track (its solo part) within 3 LU; true peak at most −1 dBTP.
        var lufs: [Double] = []
        for (i, track) in timeline.tracks.enumerated() {
            let from: Double = track.startSeconds + (i > 0 ? 4 * period : 0)
            let to: Double = i + 1 < timeline.tracks.count ? timeline.tracks[i + 1].startSeconds : track.endSeconds - 4 * period
            if to - from >= 3, let value = try ebur128(out, start: from, duration: to - from).lufs { lufs.append(value) }
        }
        XCTAssertGreaterThanOrEqual(lufs.count, 2)
        XCTAssertLessThanOrEqual((lufs.max() ?? 0) - (lufs.min() ?? 0), 3, "\(lufs)")
        let whole = try ebur128(out)
        XCTAssertLessThanOrEqual(try XCTUnwrap(whole.peak), -1.0, "the true-peak target")

        // A CUE sheet names the tracks at their entries.
        let cue = try String(contentsOfFile: (dir as NSString).appendingPathComponent("run.cue"), encoding: .utf8)
        XCTAssertTrue(cue.contains("FILE \"run.flac\" WAVE"))
        XCTAssertEqual(cue.components(separatedBy: "  TRACK ").count - 1, timeline.tracks.count + (result.stderr.contains("click carries") ? 1 : 0))
        // Credits: each track once, with its licence and what was done to it.
        let credits = try String(contentsOfFile: (dir as NSString).appendingPathComponent("run.credits.txt"), encoding: .utf8)
        let distinct = Set(timeline.tracks.map(\.path))
        XCTAssertEqual(credits.components(separatedBy: "   Licence: ").count - 1, distinct.count, credits)
        for path in distinct { XCTAssertTrue(credits.contains("(\((path as NSString).lastPathComponent))"), credits) }
        XCTAssertEqual(credits.components(separatedBy: "   In this run: ").count - 1, distinct.count)
    }

    func testNoDerivativesTracksPlayOnlyUnstretchedNearTheCadence() throws {
        let nd = (try temporaryDirectory(self) as NSString).appendingPathComponent("nd.sqlite")
        XCTAssertEqual(try runBeattag(["scan", library, "--source", "cc-by-nd", "--catalog", nd]).status, 1)
        let out = (try temporaryDirectory(self) as NSString).appendingPathComponent("nd.wav")
        let result = try runBeattag(["render", "--spm", "174", "--duration", "30s", "-o", out, "--json", "--seed", "1", "--catalog", nd])
        XCTAssertEqual(result.status, 0, result.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(result.stdout.utf8))
        let fixed = timeline.tracks.filter { !$0.tempoAdjustAllowed }
        XCTAssertFalse(fixed.isEmpty, "dnb-174 is within 0.5% of 174 and may play")
        for track in fixed {
            XCTAssertEqual(track.stretch, 1, (track.path as NSString).lastPathComponent)
            XCTAssertLessThanOrEqual(abs(track.sourceBPM / 174 - 1), CadenceRules.unstretchedTolerance, (track.path as NSString).lastPathComponent)
            // Played at its own pace: the map says where its beats really are (it said the clock),
            // and it keeps its own tempo in the timeline (and the credits).
            for pair in track.beatMap {
                XCTAssertEqual(pair[1] - track.startSeconds, pair[0] - track.sourceStartSeconds, accuracy: 1.0 / 44_100)
            }
            XCTAssertEqual(track.targetBPM, track.sourceBPM)
        }
        let credits = try String(contentsOfFile: RunCredits.path(besides: out), encoding: .utf8)
        for track in fixed { XCTAssertFalse(credits.contains(String(format: "(%.1f → 174.0 BPM)", track.sourceBPM)), credits) }
        XCTAssertFalse(timeline.tracks.contains { ($0.path as NSString).lastPathComponent == "metal-168.aiff" }, "3.5% off and no-derivatives")
    }

    /// `--seed` promises the same run again: the same audio, sample for sample, at every quality
    /// (R2 split stereo over two threads and then differed from run to run).
    func testTheSameSeedRendersTheSameAudioTwice() throws {
        let folder = try temporaryDirectory(self)
        var files: [Data] = []
        for run in 0..<2 {
            // The second under a 245-byte name: the staged excerpts' names must still fit.
            let out = (folder as NSString).appendingPathComponent(run == 0 ? "run.wav" : String(repeating: "é", count: 120) + "1.wav")
            let result = try runBeattag(["render", "--spm", "170", "--duration", "30s", "--quality", "fast", "-o", out, "--seed", "4",
                                         "--catalog", catalog])
            XCTAssertEqual(result.status, 0, result.stderr)
            files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        XCTAssertGreaterThan(files[0].count, 44 + 4 * 44100 * 25, "most of 30 s of stereo audio")
        XCTAssertTrue(files[0] == files[1], "the same seed, the same audio")
    }

    /// A real render process interrupted while it mixes (Ctrl-C, or a terminal closed: SIGHUP): exit
    /// 128 + the signal, nothing left under either name.
    func testCtrlCDuringAMusicRenderLeavesNothing() throws {
        try interruptedRender(with: SIGINT)
    }

    /// A closed terminal sends SIGHUP twice (the shell, then the kernel): still a clean stop.
    func testAClosedTerminalDuringAMusicRenderLeavesNothing() throws {
        try interruptedRender(with: SIGHUP, twice: true)
    }

    /// Under nohup the hangup is ignored, as the user asked: the render goes on.
    func testNohupKeepsARenderRunningThroughAHangup() throws {
        try interruptedRender(with: SIGINT, nohupFirst: true)
    }

    /// A partial file that a render killed outright left behind goes with the next render to that name.
    func testAPartialFileOfADeadRenderIsRemoved() throws {
        let dir = try temporaryDirectory(self)
        let out = (dir as NSString).appendingPathComponent("run.flac")
        let stale = WorkingFile.partial(of: out).path(in: dir, pid: try deadProcessID())
        try Data("x".utf8).write(to: URL(fileURLWithPath: stale))
        age(stale, by: 7200)
        let result = try runBeattag(["render", "--spm", "170", "--duration", "30s", "-o", out, "--seed", "1", "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), ["run.flac", "run.cue", "run.credits.txt"])
    }

    /// A matching track whose file went away or changed after the scan is left out and named, with
    /// what to do, and the run is made of the others; with none left, the render says why.
    func testATrackGoneOrChangedSinceTheScanIsLeftOutAndNamed() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: false)
        let gone = (music as NSString).appendingPathComponent("dnb.ogg"), kept = (music as NSString).appendingPathComponent("punk.mp3")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("dnb-174.ogg"), toPath: gone)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("cc0/punk-180.mp3"), toPath: kept)
        let own = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--catalog", own]).status, 0)
        try FileManager.default.removeItem(atPath: gone)
        let out = (dir as NSString).appendingPathComponent("run.flac")
        let render = ["render", "--spm", "174", "--duration", "30s", "-o", out, "--allow-short", "--seed", "1", "--catalog", own]
        let result = try runBeattag(render)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("left out \(gone): no such file or directory (moved or deleted since the last scan? scan again)"),
                      result.stderr)
        let cue = try String(contentsOfFile: (dir as NSString).appendingPathComponent("run.cue"), encoding: .utf8)
        XCTAssertTrue(cue.contains("Punk") && !cue.contains("Two-step"), cue)

        // The other one rewritten with other music: nothing the catalog describes is left.
        try FileManager.default.removeItem(atPath: kept)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("cc0/cardio-165.ogg"), toPath: kept)
        try FileManager.default.removeItem(atPath: out)
        let none = try runBeattag(render)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("dnb.ogg: no such file or directory") && none.stderr.contains("punk.mp3: changed since the last scan (scan it again)"),
                      none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        // A plan's segments with nothing usable are carried by the click; the advice is the rescan.
        let plan = (dir as NSString).appendingPathComponent("plan.toml")
        try "name = \"two\"\n[[segments]]\nname = \"a\"\nminutes = 0.5\nspm = 174\n[[segments]]\nname = \"b\"\nminutes = 0.5\nspm = 178\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        // No heart rate given or saved: a render plays the zone cadences and shows no heart rates.
        let planned = try runBeattag(["render", plan, "-o", out, "--no-cues", "--profile", plan + ".profile", "--seed", "1", "--catalog", own])
        XCTAssertEqual(planned.status, 3, planned.stderr)
        XCTAssertTrue(planned.stderr.contains("2 matching tracks were left out as moved or changed since the scan (`beattag scan` them again)"),
                      planned.stderr)
        XCTAssertEqual(planned.stderr.components(separatedBy: "left out \(kept)").count, 2, "said once, not per segment: \(planned.stderr)")
        let badHeartRate = try runBeattag(["render", plan, "-o", out, "--max-hr", "500", "--profile", plan + ".profile", "--catalog", own])
        XCTAssertEqual(badHeartRate.status, 64, "a heart rate given is still checked: \(badHeartRate.stderr)")
    }

    /// No-derivatives music plays at its own tempo, so it fits by the tempo its beats run at: a hand
    /// BPM 0.6% off them kept it out at the beats' cadence and offered it at the hand BPM's, where the
    /// render could not play it (it fitted neither).
    func testUnstretchedMusicFitsByItsBeatsWhateverATapSays() throws {
        let scanned = try ScannedSong(self, fixture: "dnb-174.ogg", as: "dnb.ogg", in: "nd", rights: "source = cc-by-nd\n")
        let (dir, song, own) = (scanned.folder, scanned.song, scanned.catalog)
        let analysed = try XCTUnwrap(try Catalog(path: own).track(path: song)?.bpmAnalysed)
        let tapped = (analysed * 1.006 * 10).rounded() / 10
        XCTAssertEqual(try runBeattag(["tag", song, "--bpm", String(tapped), "--catalog", own]).status, 0)
        let atBeats = String(format: "%.2f", analysed)
        XCTAssertTrue(try runBeattag(["match", "--spm", atBeats, "--catalog", own]).stdout.contains("Two-step"))
        XCTAssertFalse(try runBeattag(["match", "--spm", String(tapped), "--catalog", own]).stdout.contains("Two-step"))
        let render = try runBeattag(["render", "--spm", atBeats, "--duration", "20s", "-o", (dir as NSString).appendingPathComponent("run.flac"),
                                     "--allow-short", "--seed", "1", "--json", "--catalog", own])
        XCTAssertEqual(render.status, 0, render.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(render.stdout.utf8))
        XCTAssertEqual(try XCTUnwrap(timeline.tracks.first).stretch, 1, accuracy: 0.005, "played at its own tempo")
    }

    /// A run saved among the music (`-o ~/Music/run.flac`) came back with the next scan as a track of
    /// unknown rights: offered, stretched in the next run, and credited without the licences of what
    /// it holds. A scan leaves renders out and says so; a render catalogued before that is never played.
    func testARenderSavedAmongTheMusicIsNeverATrack() throws {
        let scanned = try ScannedSong(self, fixture: "dnb-174.ogg", as: "dnb.ogg")
        let (dir, music, own) = (scanned.folder, scanned.music, scanned.catalog)
        let run = (music as NSString).appendingPathComponent("run.flac")
        let first = try runBeattag(["render", "--spm", "174", "--duration", "30s", "-o", run, "--allow-short", "--seed", "1", "--catalog", own])
        XCTAssertEqual(first.status, 0, first.stderr)
        let scan = try runBeattag(["scan", music, "--catalog", own, "--json"])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(scan.stdout.utf8)).renders, [run])
        XCTAssertNil(try Catalog(path: own).track(path: run))
        XCTAssertTrue(try runBeattag(["scan", music, "--catalog", own]).stdout.contains("1 run beattag rendered left out"))

        // Catalogued by an earlier build: left out of the next run, said, and not taken for a file to scan again.
        var st = stat()
        XCTAssertEqual(stat(run, &st), 0)
        let file = FoundFile(path: run, size: Int64(st.st_size), modifiedAt: Double(st.st_mtim.tv_sec), sidecar: nil)
        var timing = AudioFileAnalysis.Timing()
        let (record, _) = TrackProcessor.process(file, existing: nil, sourceOption: nil, now: 0,
                                                 fingerprint: Fingerprint.of(path: run, size: file.size), timing: &timing)
        _ = try Catalog(path: own).saveScanResult(record, settingAsideHandDataOf: nil)
        let again = try runBeattag(["render", "--spm", "174", "--duration", "30s", "-o", (dir as NSString).appendingPathComponent("again.flac"),
                                    "--allow-short", "--seed", "1", "--catalog", own])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("left out \(run): a run beattag rendered"), again.stderr)
        XCTAssertFalse(again.stderr.contains("scan` them again"), again.stderr)
        let credits = try String(contentsOfFile: (dir as NSString).appendingPathComponent("again.credits.txt"), encoding: .utf8)
        XCTAssertFalse(credits.contains("run.flac"), credits)
        // Nor in a playlist; and the next scan removes the row (it has no hand data), said.
        let playlist = (dir as NSString).appendingPathComponent("p.m3u8")
        _ = try runBeattag(["playlist", "--spm", "174", "--duration", "10m", "-o", playlist, "--catalog", own])
        XCTAssertFalse(try String(contentsOfFile: playlist, encoding: .utf8).contains("run.flac"))
        let cleaned = try runBeattag(["scan", music, "--catalog", own, "--json"])
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(cleaned.stdout.utf8)).renders, [run])
        XCTAssertNil(try Catalog(path: own).track(path: run))

        // Converted by ffmpeg (render writes no MP3): its mark is the MP3's TXXX:software, read through TagLib.
        let mp3 = (music as NSString).appendingPathComponent("run.mp3")
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-i", run, "-b:a", "128k", mp3])
        XCTAssertEqual(status, 0, log)
        let converted = try runBeattag(["scan", music, "--catalog", own, "--json"])
        XCTAssertEqual(try JSONDecoder().decode(ScanSummary.self, from: Data(converted.stdout.utf8)).renders, [run, mp3], "each scan says them")
        XCTAssertNil(try Catalog(path: own).track(path: mp3))
    }

    /// A hand BPM 2% off the analysed one (a tap) counts the same pulse, and the render stretches
    /// the analysed beats: the credits name the change made to them (they said "own tempo" for a
    /// track stretched 2%, which its licence asks to be noted), and `--max-shift` limits it (a 2.6%
    /// change passed a 2% limit).
    func testATappedBPMALittleOffTheBeatsIsRenderedAndCreditedFromTheBeats() throws {
        let scanned = try ScannedSong(self, fixture: "dnb-174.ogg", as: "dnb.ogg", scanOptions: ["--source", "user-owned"])
        let (dir, song, own) = (scanned.folder, scanned.song, scanned.catalog)
        let analysed = try XCTUnwrap(try Catalog(path: own).track(path: song)?.bpmAnalysed)
        let tapped = (analysed * 1.02 * 10).rounded() / 10
        let tag = try runBeattag(["tag", song, "--bpm", String(tapped), "--catalog", own])
        XCTAssertEqual(tag.status, 0)
        // `tag` says what the tap means for match and render, on either side of the 4% line.
        XCTAssertTrue(tag.stdout.contains(String(format: "its beats run at %.1f BPM", analysed)) && tag.stdout.contains("match and render go by them"), tag.stdout)
        let across = (analysed * 1.041 * 10).rounded() / 10
        let far = try runBeattag(["tag", song, "--bpm", String(across), "--catalog", own])
        XCTAssertTrue(far.stdout.contains("no beat grid at this BPM") && far.stdout.contains("render leaves the track out"), far.stdout)
        XCTAssertEqual(try runBeattag(["tag", song, "--bpm", String(tapped), "--catalog", own]).status, 0)
        let out = (dir as NSString).appendingPathComponent("run.flac")
        let render = try runBeattag(["render", "--spm", String(tapped), "--duration", "30s", "-o", out, "--allow-short", "--seed", "1",
                                     "--json", "--catalog", own])
        XCTAssertEqual(render.status, 0, render.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(render.stdout.utf8))
        let track = try XCTUnwrap(timeline.tracks.first)
        XCTAssertEqual(track.sourceBPM, analysed, accuracy: 1e-6)
        XCTAssertEqual(track.stretch, analysed / tapped, accuracy: 0.002)
        let credits = try String(contentsOfFile: (dir as NSString).appendingPathComponent("run.credits.txt"), encoding: .utf8)
        XCTAssertTrue(credits.contains(String(format: "tempo %+.1f%% (%.1f → %.1f BPM)", (tapped / analysed - 1) * 100, analysed, tapped)), credits)
        // Its change is 2%: at a 1% limit neither `match` nor the render offers it (match offered it as set
        // by hand, no change, and the render then left it out).
        let matched = try runBeattag(["match", "--spm", String(tapped), "--max-shift", "1", "--catalog", own])
        XCTAssertFalse(matched.stdout.contains("Two-step"), matched.stdout)
        let wider = try runBeattag(["match", "--spm", String(tapped), "--max-shift", "3", "--catalog", own]).stdout
        XCTAssertTrue(wider.contains("+2.0%") && wider.contains("1 track has a BPM set by hand or tagged a little off them"), wider)
        try FileManager.default.removeItem(atPath: out)
        let limited = try runBeattag(["render", "--spm", String(tapped), "--max-shift", "1", "--duration", "30s", "-o", out,
                                      "--allow-short", "--catalog", own])
        XCTAssertEqual(limited.status, 1, limited.stderr)
        XCTAssertTrue(limited.stderr.contains(String(format: "Nearest tempos in the library: %.1f BPM", analysed)), limited.stderr)
        // A hand BPM the analysed beats cannot count: said as such (it was "no beat grid long enough").
        let other = (analysed * 1.1 * 10).rounded() / 10
        XCTAssertEqual(try runBeattag(["tag", song, "--bpm", String(other), "--catalog", own]).status, 0)
        let uncounted = try runBeattag(["render", "--spm", String(other), "--duration", "30s", "-o", out, "--allow-short", "--catalog", own])
        XCTAssertTrue(uncounted.stderr.contains(String(format: "its BPM in use (%.1f, set by hand) is no simple multiple of the analysed %.1f",
                                                       other, analysed)), uncounted.stderr)
    }

    /// A folder's `.beattag-rights` changed to no-derivatives after the scan: the render stretched
    /// its track under the old CC BY and credited it so. Now it is left out until a scan reads them.
    func testRightsChangedSinceTheScanKeepATrackOutOfTheRun() throws {
        let dir = try temporaryDirectory(self)
        let music = (dir as NSString).appendingPathComponent("music/cc")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("dnb-174.ogg"), toPath: (music as NSString).appendingPathComponent("dnb.ogg"))
        let sidecar = (music as NSString).appendingPathComponent(".beattag-rights")
        try "source = cc-by\nattribution = Jane Doe\n".write(toFile: sidecar, atomically: true, encoding: .utf8)
        let own = (dir as NSString).appendingPathComponent("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", (dir as NSString).appendingPathComponent("music"), "--catalog", own]).status, 0)
        let out = (dir as NSString).appendingPathComponent("run.flac")
        let render = ["render", "--spm", "178", "--duration", "30s", "-o", out, "--allow-short", "--seed", "1", "--catalog", own]
        XCTAssertEqual(try runBeattag(render).status, 0, "CC BY: stretched to 178")
        try FileManager.default.removeItem(atPath: out)
        try "source = cc-by-nd\nattribution = Jane Doe\n".write(toFile: sidecar, atomically: true, encoding: .utf8)
        let changed = try runBeattag(render)
        XCTAssertEqual(changed.status, 1, changed.stderr)
        XCTAssertTrue(changed.stderr.contains("dnb.ogg: the rights of its folder (.beattag-rights) changed since the last scan (scan it again)"),
                      changed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // Scanned again: no-derivatives, 2% off the cadence, never stretched.
        XCTAssertEqual(try runBeattag(["scan", (dir as NSString).appendingPathComponent("music"), "--catalog", own]).status, 0)
        let scanned = try runBeattag(render)
        XCTAssertEqual(scanned.status, 1, scanned.stderr)
        XCTAssertFalse(scanned.stderr.contains("changed since the last scan"), scanned.stderr)
    }

    /// `--loudness -8` was taken without a word and delivered 3–5 LU under: the limiter holds the
    /// peaks, and at that level it takes the rest. The run's measured loudness is said (as ffmpeg's
    /// ebur128 reads the file); at the default target nothing is.
    func testALoudnessTheLimiterCannotReachIsSaid() throws {
        let dir = try temporaryDirectory(self)
        let out = (dir as NSString).appendingPathComponent("loud.flac")
        let loud = try runBeattag(["render", "--spm", "150", "--duration", "20s", "--loudness", "-8", "-o", out, "--seed", "1", "--catalog", catalog])
        XCTAssertEqual(loud.status, 0, loud.stderr)
        let said = try XCTUnwrap(loud.stderr.split(separator: "\n").first { $0.contains("the run measures") }, loud.stderr)
        XCTAssertTrue(said.contains("LU under the −8 LUFS asked: the limiter holds its peaks under −1.5 dBTP"), String(said))
        let stated = try XCTUnwrap(Double(said.components(separatedBy: "measures ")[1].split(separator: " ")[0].replacingOccurrences(of: "−", with: "-")))
        XCTAssertEqual(stated, try XCTUnwrap(try ebur128(out).lufs), accuracy: 0.3)
        let usual = try runBeattag(["render", "--spm", "150", "--duration", "20s", "-o", (dir as NSString).appendingPathComponent("usual.flac"),
                                    "--seed", "1", "--catalog", catalog])
        XCTAssertEqual(usual.status, 0, usual.stderr)
        XCTAssertFalse(usual.stderr.contains("the run measures"), usual.stderr)
        // Too quiet to raise so far: said as such (the limiter was blamed, and −14 advised when −14 was asked).
        let music = (dir as NSString).appendingPathComponent("quiet")
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: false)
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-stream_loop", "4", "-i", TestPaths.fixture("rock-150.flac"), "-af", "volume=-40dB",
                                                                   (music as NSString).appendingPathComponent("quiet.wav")])
        XCTAssertEqual(status, 0, log)
        let own = (dir as NSString).appendingPathComponent("q.sqlite")
        XCTAssertEqual(try runBeattag(["scan", music, "--source", "user-owned", "--catalog", own]).status, 0)
        let quiet = try runBeattag(["render", "--spm", "150", "--duration", "20s", "-o", (dir as NSString).appendingPathComponent("quiet.flac"),
                                    "--seed", "1", "--allow-short", "--catalog", own])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertTrue(quiet.stderr.contains("LU under the −14 LUFS asked: 1 of its tracks is too quiet for it (raised 12 dB at most)"), quiet.stderr)
        // …and the track is named, with how far under the run it plays: the run is that one track, so
        // as far as ffmpeg measures the run under −14 LUFS.
        let named = try XCTUnwrap(quiet.stderr.split(separator: "\n").first { $0.contains("a track plays under the run's −14 LUFS") }, quiet.stderr)
        let short = try XCTUnwrap(Double(named.components(separatedBy: "quiet.wav (")[1].split(separator: " ")[0]), String(named))
        XCTAssertEqual(short, -14 - (try XCTUnwrap(try ebur128((dir as NSString).appendingPathComponent("quiet.flac")).lufs)), accuracy: 1, String(named))
        XCTAssertFalse(usual.stderr.contains("too quiet to raise"), usual.stderr)
        XCTAssertFalse(quiet.stderr.contains("limiter"), quiet.stderr)
    }

    /// A lossy encoder adds peaks after the limiter: Ogg and Opus runs went over −1 dBTP (−0.6 and
    /// −0.1 on broadband songs). Each keeps its own headroom now; checked with ffmpeg's ebur128 on a
    /// run the limiter works hard on.
    func testLossyRunsStayUnderTheTruePeakTarget() throws {
        let dir = try temporaryDirectory(self)
        for name in ["run.ogg", "run-opus.opus"] {
            let out = (dir as NSString).appendingPathComponent(name)
            let result = try runBeattag(["render", "--spm", "150", "--duration", "20s", "--loudness", "-10", "-o", out, "--seed", "1",
                                         "--catalog", catalog])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertLessThanOrEqual(try XCTUnwrap(try ebur128(out).peak), -1.0, name)
        }
    }

    private func interruptedRender(with signal: Int32, twice: Bool = false, nohupFirst: Bool = false) throws {
        let dir = try temporaryDirectory(self)
        let out = (dir as NSString).appendingPathComponent("long.wav")
        let process = Process()
        let arguments = ["render", "--spm", "170", "--duration", "6h", "-o", out, "--catalog", catalog]
        if nohupFirst {
            process.executableURL = URL(fileURLWithPath: try requiredTool("nohup"))
            process.arguments = [TestPaths.executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: TestPaths.executable)
            process.arguments = arguments
        }
        process.standardOutput = FileHandle.nullDevice
        let log = (try temporaryDirectory(self) as NSString).appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (try FileManager.default.contentsOfDirectory(atPath: dir)).isEmpty { usleep(20_000) }
        usleep(300_000)
        XCTAssertTrue(process.isRunning, "the render must still be running when interrupted for this test to mean anything")
        if nohupFirst {
            kill(process.processIdentifier, SIGHUP)
            usleep(500_000)
            XCTAssertTrue(process.isRunning, "a hangup under nohup must not stop the render")
        }
        if twice {
            kill(process.processIdentifier, signal)
            usleep(50_000)
        }
        interrupt(process, with: signal)
        XCTAssertEqual(process.terminationStatus, 128 + signal, "as shells give it: 130 for Ctrl-C, 129 for a hangup")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "no output, no partial file, no CUE sheet")
        // The seed is said once the music is chosen, before the audio: a runner who stops the render learns it.
        let said = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(said.contains("(--seed "), said)
    }

    /// A file libsndfile cannot create (here a folder sits where this process's partial file goes)
    /// is said in its words, without its "System error :" prefix.
    func testAnOutputThatCannotBeCreatedIsSaidPlainly() throws {
        let dir = try temporaryDirectory(self)
        let out = (dir as NSString).appendingPathComponent("run.flac")
        try FileManager.default.createDirectory(atPath: WorkingFile.partial(of: out).path(in: dir), withIntermediateDirectories: false)
        XCTAssertThrowsError(try MixFileWriter(path: out)) { error in
            XCTAssertEqual("\(error)", "cannot write \(out): Is a directory")
        }
        XCTAssertEqual(DecodeError.tidy("System error : No such file or directory."), "No such file or directory")
        XCTAssertEqual(DecodeError.tidy("Error : flac decoder lost sync."), "flac decoder lost sync")
    }

    /// An output in a folder that is not there is said of the file asked for (it named the .cue);
    /// a name with a double quote, which the CUE sheet cannot name (it named another file), is refused.
    func testAnOutputTheRunCannotHaveIsRefusedByItsOwnName() throws {
        let dir = try temporaryDirectory(self)
        let nowhere = (dir as NSString).appendingPathComponent("nodir/run.flac")
        let missing = try runBeattag(["render", "--spm", "174", "--duration", "30s", "-o", nowhere, "--catalog", catalog])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "beattag: cannot write \(nowhere): folder \(dir)/nodir does not exist\n")
        let quoted = (dir as NSString).appendingPathComponent("my \"best\" run.flac")
        let refused = try runBeattag(["render", "--spm", "174", "--duration", "30s", "-o", quoted, "--catalog", catalog])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("its CUE sheet could not name a file with a double quote"), refused.stderr)
        let broken = try runBeattag(["render", "--spm", "174", "--duration", "30s", "-o", (dir as NSString).appendingPathComponent("new\nline.flac"),
                                     "--catalog", catalog])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("new^Jline.flac: its CUE sheet could not name"), broken.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
        let clicks = (dir as NSString).appendingPathComponent("my \"click\".wav")
        XCTAssertEqual(try runBeattag(["render", "--click-only", "--spm", "174", "--duration", "10s", "-o", clicks, "--catalog", catalog]).status, 0,
                       "a click alone has no CUE sheet")
    }

    /// `-o` naming a song of the catalog (or a FIFO) by mistake: refused before anything is rendered,
    /// the song untouched. An earlier run at the same name is replaced as before.
    func testARenderNeverReplacesASongOfTheCatalog() throws {
        let song = (library as NSString).appendingPathComponent("rock-150.flac")
        let before = try Data(contentsOf: URL(fileURLWithPath: song))
        let result = try runBeattag(["render", "--spm", "150", "--duration", "1m", "-o", song, "--catalog", catalog])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("it is a track in the catalog"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: song)), before, "the song is untouched")
        let dir = try temporaryDirectory(self)
        let fifo = (dir as NSString).appendingPathComponent("run.wav")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let clicks = try runBeattag(["render", "--click-only", "--spm", "170", "--duration", "10s", "-o", fifo, "--catalog", catalog])
        XCTAssertEqual(clicks.status, 1)
        XCTAssertTrue(clicks.stderr.contains("it is not a regular file"), clicks.stderr)
    }

    /// An audio file beattag did not render (a download not scanned yet), a CD's cue sheet or a
    /// text of one's own where the render's companions go: refused before the render, untouched
    /// (the song and the cue sheet were replaced without a word). A render replaces a render, its
    /// own marked or an earlier build's known by its credits.
    func testARenderReplacesOnlyARenderAndItsOwnCompanions() throws {
        let dir = try temporaryDirectory(self)
        func path(_ name: String) -> String { (dir as NSString).appendingPathComponent(name) }
        func render(_ output: String, clickOnly: Bool = false) throws -> CommandResult {
            try runBeattag(["render", "--spm", "150", "--duration", "20s", "--seed", "1", "-o", path(output), "--catalog", catalog]
                           + (clickOnly ? ["--click-only"] : []))
        }
        try FileManager.default.copyItem(atPath: TestPaths.fixture("trance-140.flac"), toPath: path("download.flac"))
        let song = try Data(contentsOf: URL(fileURLWithPath: path("download.flac")))
        for clickOnly in [false, true] {
            let refused = try render("download.flac", clickOnly: clickOnly)
            XCTAssertEqual(refused.status, 1)
            XCTAssertTrue(refused.stderr.contains("it exists and is not a run beattag rendered"), refused.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("download.flac"))), song)
        }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir)), ["download.flac"], "no companion written either")

        let cd = "REM GENRE Rock\nFILE \"album.flac\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n"
        try cd.write(toFile: path("album.cue"), atomically: true, encoding: .utf8)
        let sheet = try render("album.ogg")
        XCTAssertEqual(sheet.status, 1)
        XCTAssertTrue(sheet.stderr.contains("album.cue: it exists and is not a CUE sheet beattag wrote"), sheet.stderr)
        XCTAssertEqual(try String(contentsOfFile: path("album.cue"), encoding: .utf8), cd)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("album.ogg")), "refused before the render")

        // A render, again and again: its own mark (ffprobe reads it), or an earlier build's credits.
        XCTAssertEqual(try render("run.flac").status, 0)
        let (probed, tags) = try runTool(try requiredTool("ffprobe"), ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path("run.flac")])
        XCTAssertEqual(probed, 0, tags)
        XCTAssertTrue(tags.contains("beattag run"), tags)
        XCTAssertEqual(try render("run.flac").status, 0, "a render replaces a render")
        XCTAssertEqual(try render("clicks.wav", clickOnly: true).status, 0)
        XCTAssertEqual(try render("clicks.wav", clickOnly: true).status, 0)
        let (encoded, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-i", path("run.flac"), "-map_metadata", "-1", path("old.flac")])
        XCTAssertEqual(encoded, 0, log)
        XCTAssertFalse(MixFileWriter.isRender(path: path("old.flac")), "no mark, as an earlier build's")
        XCTAssertEqual(try render("old.flac").status, 1)
        try FileManager.default.copyItem(atPath: path("run.credits.txt"), toPath: path("old.credits.txt"))
        try String(contentsOfFile: path("old.credits.txt"), encoding: .utf8).replacingOccurrences(of: "Credits for run.flac", with: "Credits for old.flac")
            .write(toFile: path("old.credits.txt"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try render("old.flac").status, 0, "known by its credits")

        // Another format of the same stem: run.flac's sheet and credits are its own, not replaced.
        let flacSheet = try String(contentsOfFile: path("run.cue"), encoding: .utf8)
        let flacCredits = try String(contentsOfFile: path("run.credits.txt"), encoding: .utf8)
        let ogg = try render("run.ogg")
        XCTAssertEqual(ogg.status, 1)
        XCTAssertTrue(ogg.stderr.contains("would replace those of run.flac, another render beside it") && ogg.stderr.contains("run-ogg.ogg"), ogg.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("run.ogg")), "refused before the render")
        XCTAssertEqual(try String(contentsOfFile: path("run.cue"), encoding: .utf8), flacSheet)
        XCTAssertEqual(try String(contentsOfFile: path("run.credits.txt"), encoding: .utf8), flacCredits)
        XCTAssertEqual(try render("run-ogg.ogg").status, 0)
        // Once run.flac is gone, its companions are free to take.
        try FileManager.default.removeItem(atPath: path("run.flac"))
        XCTAssertEqual(try render("run.ogg").status, 0)
        XCTAssertTrue(try String(contentsOfFile: path("run.cue"), encoding: .utf8).contains("FILE \"run.ogg\" WAVE"))
        XCTAssertTrue(try String(contentsOfFile: path("run.credits.txt"), encoding: .utf8).hasPrefix("Credits for run.ogg ("))
    }

    /// A source with a DC offset leaves none in the mix (ffmpeg's astats measures both): it passed
    /// through (about −21 dBFS of a corpus clip's excerpt), spending headroom and stepping at cuts.
    func testADCOffsetInASourceDoesNotReachTheMix() throws {
        let dir = try temporaryDirectory(self)
        func path(_ name: String) -> String { (dir as NSString).appendingPathComponent(name) }
        try FileManager.default.createDirectory(atPath: path("music"), withIntermediateDirectories: false)
        let ffmpeg = try requiredTool("ffmpeg")
        let (made, log) = try runTool(ffmpeg, ["-v", "error", "-stream_loop", "2", "-i", TestPaths.fixture("rock-150.flac"),
                                               "-af", "volume=0.5,dcshift=0.2", path("music/offset.flac")])
        XCTAssertEqual(made, 0, log)
        func dcOffset(_ file: String) throws -> Double {
            let (status, text) = try runTool(ffmpeg, ["-v", "info", "-i", file, "-af", "astats=measure_perchannel=0:measure_overall=DC_offset", "-f", "null", "-"])
            XCTAssertEqual(status, 0, text)
            let line = try XCTUnwrap(text.components(separatedBy: "\n").last { $0.contains("DC offset") }, text)
            return try XCTUnwrap(Double(line.components(separatedBy: ":").last!.trimmingCharacters(in: .whitespaces)))
        }
        XCTAssertGreaterThan(try dcOffset(path("music/offset.flac")), 0.15, "the source carries the offset")
        let catalog = path("c.sqlite")
        XCTAssertEqual(try runBeattag(["scan", path("music"), "--source", "cc0", "--catalog", catalog]).status, 0)
        let result = try runBeattag(["render", "--spm", "150", "--duration", "30s", "--seed", "1", "-o", path("run.wav"), "--catalog", catalog])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertLessThan(abs(try dcOffset(path("run.wav"))), 0.005)
    }

    /// Progress follows the work, most of which is preparing (decoding, stretching) the next
    /// tracks: each prepared track moves it on at once, and it never goes back. It moved only as the
    /// mix was written, so a long run's bar stood still while the next tracks were stretched.
    func testRenderProgressMovesAsTracksArePreparedAndNeverBack() throws {
        // Choosing the music reads each track's beats (decoding it): it reports as the run fills,
        // segment after segment (a long workout showed nothing for its first half minute).
        let planned = Locked([Double]())
        let segments = [RunSegment(spm: 150, seconds: 30), RunSegment(spm: 174, seconds: 30)]
        let two = try RunSchedule.plans(for: segments, catalog: try Catalog(path: catalog), filter: MatchFilter(),
                                        maxShiftPercent: 10, seed: 1, sampleRate: 44_100, progress: { f in planned.update { $0.append(f) } })
        XCTAssertEqual(planned.value, planned.value.sorted(), "never back")
        XCTAssertGreaterThanOrEqual(planned.value.count, two.map(\.entries.count).reduce(0, +))
        XCTAssertTrue(planned.value.contains { $0 > 0 && $0 <= 0.5 } && planned.value.contains { $0 > 0.5 }, "each segment its half: \(planned.value)")
        let plans = try RunSchedule.plans(for: [RunSegment(spm: 150, seconds: 60)], catalog: try Catalog(path: catalog), filter: MatchFilter(),
                                          maxShiftPercent: 10, seed: 1, sampleRate: 44_100)
        XCTAssertGreaterThan(plans[0].entries.count, 1)
        let out = (try temporaryDirectory(self) as NSString).appendingPathComponent("run.wav")
        let fractions = Locked([Double]())
        var options = RunRenderer.Options()
        options.workers = 1
        _ = try RunRenderer(options: options).render(plans, to: out, progress: { f in fractions.update { $0.append(f) } })
        let seen = fractions.value
        XCTAssertEqual(seen, seen.sorted(), "never back")
        XCTAssertEqual(seen.last, 1)
        let firstTrackEnds = Double(plans[0].clock.frame(ofBeat: plans[0].entries[0].mixStartBeat + plans[0].entries[0].phrases * MasterClock.beatsPerPhrase).value)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(seen.first), firstTrackEnds / Double(plans[0].clock.frame(ofBeat: plans[0].totalBeats).value) * 0.99,
                                    "the first prepared track counts before its audio is mixed")
    }

    func testEmptyCatalogSaysSoAndWritesNothing() throws {
        let dir = try temporaryDirectory(self)
        let empty = (dir as NSString).appendingPathComponent("empty.sqlite")
        _ = try Catalog(path: empty)
        let result = try runBeattag(["render", "--spm", "170", "--duration", "5m", "-o", (dir as NSString).appendingPathComponent("run.flac"), "--catalog", empty])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("the catalog is empty"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix("empty.sqlite") }, [])
    }

    func testNoTrackNearTheCadenceWritesNothing() throws {
        let dir = try temporaryDirectory(self)
        let result = try runBeattag(["render", "--spm", "235", "--duration", "1m", "-o", (dir as NSString).appendingPathComponent("x.ogg"), "--catalog", catalog])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("--click-only"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
    }
}

/// Integrated loudness (LUFS) and true peak (dBFS) of a file or a span of it, by ffmpeg's ebur128.
private func ebur128(_ path: String, start: Double? = nil, duration: Double? = nil) throws -> (lufs: Double?, peak: Double?) {
    var args = ["-nostats", "-v", "info"]
    if let start, let duration { args += ["-ss", "\(start)", "-t", "\(duration)"] }
    args += ["-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"]
    let (_, log) = try runTool(try requiredTool("ffmpeg"), args)
    let summary = log.components(separatedBy: "Summary:").last ?? ""
    func value(after label: String) -> Double? {
        guard let range = summary.range(of: label) else { return nil }
        return Double(summary[range.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }
    return (value(after: "I:"), value(after: "Peak:"))
}

/// A workout rendered: each segment on its own clock at its cadence, cues spoken at segment starts.
final class RenderWorkoutTests: XCTestCase {
    func testSegmentsChangeCadenceOnThePhraseAndCuesStartThem() throws {
        let fixtures = try ScannedFixtures(self)
        let (dir, catalog) = (fixtures.folder, fixtures.catalog)
        let plan = (dir as NSString).appendingPathComponent("two.toml")
        try "name = \"Two speeds\"\n\n[[segments]]\nname = \"house\"\nminutes = 0.5\nspm = 128\n\n[[segments]]\nname = \"fast\"\nminutes = 0.5\nzone = 3\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        let out = (dir as NSString).appendingPathComponent("two.wav")
        // A fixed pick: aubio's tracker misreads (at 139) the 25 s it measures when they open on the
        // drum-and-bass break, which some other orders do.
        let result = try runBeattag(["render", plan, "--max-hr", "190", "--zone-spm", "3=170", "--click", "-o", out, "--json", "--seed", "1",
                                     "--catalog", catalog, "--profile", (dir as NSString).appendingPathComponent("p.toml")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(timeline.segments.map(\.spm), [128, 170])
        // The CUE sheet is titled with the plan's name, not its file's path.
        let cue = try String(contentsOfFile: CueSheet.path(besides: out), encoding: .utf8)
        XCTAssertTrue(cue.contains("Two speeds") && !cue.contains("two.toml"), cue)
        XCTAssertEqual(timeline.segments[0].startSeconds, 0)
        XCTAssertEqual(timeline.segments[1].startSeconds, timeline.segments[0].endSeconds)
        for segment in timeline.segments {
            let beats = (segment.endSeconds - segment.startSeconds) * segment.spm / 60
            XCTAssertEqual(beats / 8, (beats / 8).rounded(), accuracy: 1e-6, "whole phrases in \(segment.name ?? "")")
        }
        XCTAssertEqual(timeline.cues.map(\.startSeconds), timeline.segments.map(\.startSeconds), "a cue at each segment start")
        XCTAssertEqual(timeline.cues.first?.text, "House: thirty seconds at 128 steps per minute.")
        XCTAssertTrue(timeline.cues[1].text.hasSuffix("in zone 3, 170 steps per minute."))
        XCTAssertTrue(timeline.cues.allSatisfy { $0.endSeconds - $0.startSeconds > 1 }, "the words take time")
        for track in timeline.tracks {
            let segment = try XCTUnwrap(timeline.segments.first { $0.name == track.segment })
            XCTAssertEqual(track.targetBPM, segment.spm)
            XCTAssertGreaterThanOrEqual(track.startSeconds, segment.startSeconds - 1e-6)
            XCTAssertLessThanOrEqual(track.endSeconds, segment.endSeconds + 1e-6, "no crossfade across a change of cadence")
        }
        // Without espeak-ng's voice data: one clear line, nothing written (a process of its own:
        // espeak-ng initialises once per process).
        let mute = (dir as NSString).appendingPathComponent("no-voices")
        try FileManager.default.createDirectory(atPath: mute, withIntermediateDirectories: true)
        let noVoice = try runBinary(["render", plan, "--max-hr", "190", "-o", (dir as NSString).appendingPathComponent("mute.ogg"),
                                     "--catalog", catalog, "--profile", (dir as NSString).appendingPathComponent("p.toml")],
                                    environment: ["ESPEAK_DATA_PATH": mute])
        XCTAssertEqual(noVoice.status, 1)
        XCTAssertEqual(noVoice.stderr.split(separator: "\n").count, 1, noVoice.stderr)
        XCTAssertTrue(noVoice.stderr.contains("voice data is missing"), noVoice.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent("mute.ogg")))

        // The cadence of each segment, by aubio's beat tracker (not beattag's).
        let (status, log) = try runTool(try requiredTool("aubio"), ["beat", out])
        XCTAssertEqual(status, 0, log)
        let beats = log.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        for segment in timeline.segments {
            let inside = beats.filter { $0 > segment.startSeconds + 5 && $0 < segment.endSeconds - 1 }
            let intervals = zip(inside.dropFirst(), inside).map { $0 - $1 }.sorted()
            let median: Double = try XCTUnwrap(intervals.isEmpty ? nil : intervals[intervals.count / 2])
            let measured: Double = 60 / median
            XCTAssertEqual(measured, segment.spm, accuracy: segment.spm * 0.04, "\(segment.name ?? "")")
        }

        // Every segment at the run's loudness (ffmpeg's ebur128), without click or cues to level
        // them out: a later segment's fades once spanned its whole tracks, 5–6 LU too quiet.
        let plain = (dir as NSString).appendingPathComponent("plain.flac")
        let again = try runBeattag(["render", plan, "--zone-spm", "3=170", "--no-cues", "-o", plain, "--json", "--seed", "1",
                                    "--catalog", catalog, "--profile", (dir as NSString).appendingPathComponent("p.toml")])
        XCTAssertEqual(again.status, 0, again.stderr)
        let segments = try JSONDecoder().decode(RenderTimeline.self, from: Data(again.stdout.utf8)).segments
        let loudness = try segments.map { segment in
            try XCTUnwrap(try ebur128(plain, start: segment.startSeconds + 1, duration: segment.endSeconds - segment.startSeconds - 2).lufs)
        }
        XCTAssertEqual(loudness.count, 2)
        XCTAssertLessThanOrEqual((loudness.max() ?? 0) - (loudness.min() ?? 0), 2, "\(loudness)")
    }

    /// No network, ever: espeak-ng 1.51 opened a sound device when it started, whatever it was
    /// asked, and libpcaudio connected to the PulseAudio server, over TCP where PULSE_SERVER names
    /// one. Here it names a port this test listens on, and no connection may arrive.
    func testSpokenCuesConnectToNoSoundServer() throws {
        let fixtures = try ScannedFixtures(self)
        let (dir, catalog) = (fixtures.folder, fixtures.catalog)
        let plan = (dir as NSString).appendingPathComponent("cued.toml")
        try "[[segments]]\nname = \"fast\"\nminutes = 0.5\nspm = 170\n".write(toFile: plan, atomically: true, encoding: .utf8)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(listener, raw, length) == 0, listen(listener, 8) == 0, getsockname(listener, raw, &length) == 0 else {
                    throw XCTSkip("cannot listen on loopback: \(String(cString: strerror(errno)))")
                }
            }
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        let port = UInt16(bigEndian: address.sin_port)
        let result = try runBinary(["render", plan, "--max-hr", "190", "--allow-short", "--json", "--seed", "1",
                                    "-o", (dir as NSString).appendingPathComponent("cued.wav"), "--catalog", catalog,
                                    "--profile", (dir as NSString).appendingPathComponent("p.toml")],
                                   environment: ["PULSE_SERVER": "tcp:127.0.0.1:\(port)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(timeline.cues.count, 1, "the cue was spoken")
        let connection = accept(listener, nil, nil)
        if connection >= 0 { close(connection) }
        XCTAssertLessThan(connection, 0, "the render connected to the sound server named by PULSE_SERVER")
    }
}
