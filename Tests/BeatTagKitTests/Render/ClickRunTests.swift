@testable import BeatTagKit
import Foundation
import XCTest

final class MasterClockTests: XCTestCase {
    func testBeatsAndPhrases() {
        let clock = MasterClock(spm: 175, sampleRate: 44100)
        XCTAssertEqual(clock.time(ofBeat: 175).value, 60, accuracy: 1e-9)
        XCTAssertEqual(clock.frame(ofBeat: 1).value, (44100 * 60 / 175.0).rounded())
        XCTAssertEqual(clock.phraseSeconds.value, 480.0 / 175, accuracy: 1e-12)
        XCTAssertEqual(clock.phrases(closestTo: 30), 11, "30 s / 2.743 s per phrase")
        XCTAssertEqual(clock.phrases(closestTo: 0.5), 1)
    }
}

/// `render --click-only`, checked with tools that are not beattag: ffprobe for the length and
/// format, aubio's onset detector for where the clicks are.
final class ClickRunTests: XCTestCase {
    func testEveryFormatHoldsWholePhrasesOfClicksOnTheClock() throws {
        let dir = try temporaryDirectory(self)
        let ffprobe = try requiredTool("ffprobe"), aubioonset = try requiredTool("aubioonset")
        for (ext, codec, rate) in [("flac", "flac", 44100), ("ogg", "vorbis", 44100), ("opus", "opus", 48000), ("wav", "pcm_s16le", 44100)] {
            let out = (dir as NSString).appendingPathComponent("click.\(ext)")
            let result = try runBeattag(["render", "--click-only", "--spm", "172", "--duration", "20s", "-o", out, "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(result.stdout.utf8))
            XCTAssertEqual(timeline.beats % 8, 0, "whole phrases")
            XCTAssertEqual(timeline.durationSeconds, Double(timeline.beats) * 60 / 172, accuracy: 1.0 / Double(rate))
            XCTAssertEqual(timeline.durationSeconds, 20, accuracy: 10)
            XCTAssertEqual(timeline.sampleRate, rate)
            let (_, probe) = try runTool(ffprobe, ["-v", "error", "-show_entries", "format=duration:stream=codec_name,sample_rate,channels",
                                                   "-of", "default=nw=1", out])
            XCTAssertTrue(probe.contains("codec_name=\(codec)") && probe.contains("sample_rate=\(rate)") && probe.contains("channels=2"), probe)
            let duration = try XCTUnwrap(probe.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) })
            XCTAssertEqual(duration, timeline.durationSeconds, accuracy: 0.02, ext)

            let (status, onsetsText) = try runTool(aubioonset, ["-i", out])
            XCTAssertEqual(status, 0, onsetsText)
            let onsets = onsetsText.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            // aubio reports onsets about a hop late (5.8 ms at 44.1 kHz): 12 ms is the allowance.
            let beats = (0..<timeline.beats).map { Double($0) * 60 / 172 }
            let missed = beats.filter { beat in !onsets.contains { abs($0 - beat) < 0.012 } }
            XCTAssertEqual(missed, [], "\(ext): every beat has its click")
            let stray = onsets.filter { onset in !beats.contains { abs(onset - $0) < 0.012 } }
            XCTAssertLessThanOrEqual(stray.count, 1, "\(ext): onsets off the clock: \(stray)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(left, ["click.flac", "click.ogg", "click.opus", "click.wav"], "no partial files left")
    }

    /// A workout to the metronome alone (an audit: `--click-only` refused a plan): each segment's
    /// clicks on its own clock, by aubio's onsets; its cues in the timeline.
    func testAPlanToTheClickAloneKeepsEachSegmentsCadenceAndCues() throws {
        let dir = try temporaryDirectory(self)
        let plan = (dir as NSString).appendingPathComponent("two.toml")
        try "[[segments]]\nname = \"steady\"\nminutes = 0.5\nspm = 150\n\n[[segments]]\nname = \"fast\"\nminutes = 0.5\nspm = 180\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        let out = (dir as NSString).appendingPathComponent("clicks.wav")
        let plain = try runBeattag(["render", plan, "--click-only", "--no-cues", "-o", out, "--json"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(plain.stdout.utf8))
        XCTAssertEqual(timeline.segments.map(\.spm), [150, 180])
        XCTAssertEqual(timeline.segments[1].startSeconds, timeline.segments[0].endSeconds)
        XCTAssertTrue(timeline.tracks.isEmpty && timeline.cues.isEmpty)
        let (status, onsetsText) = try runTool(try requiredTool("aubioonset"), ["-i", out])
        XCTAssertEqual(status, 0, onsetsText)
        let onsets = onsetsText.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        var beats: [Double] = []
        for segment in timeline.segments {
            let count = Int(((segment.endSeconds - segment.startSeconds) * segment.spm / 60).rounded())
            XCTAssertEqual(count % 8, 0, "whole phrases in \(segment.name ?? "")")
            beats += (0..<count).map { segment.startSeconds + Double($0) * 60 / segment.spm }
        }
        XCTAssertEqual(beats.filter { beat in !onsets.contains { abs($0 - beat) < 0.012 } }, [], "every beat of both cadences has its click")
        XCTAssertLessThanOrEqual(onsets.filter { onset in !beats.contains { abs(onset - $0) < 0.012 } }.count, 1)

        let cued = try runBeattag(["render", plan, "--click-only", "-o", (dir as NSString).appendingPathComponent("cued.ogg"), "--json"])
        XCTAssertEqual(cued.status, 0, cued.stderr)
        let spoken = try JSONDecoder().decode(RenderTimeline.self, from: Data(cued.stdout.utf8))
        XCTAssertEqual(spoken.cues.map(\.startSeconds), spoken.segments.map(\.startSeconds), "a cue at each segment start")
    }

    func testPhraseStartsAreAccented() throws {
        let out = (try temporaryDirectory(self) as NSString).appendingPathComponent("accent.wav")
        XCTAssertEqual(try runBeattag(["render", "--click-only", "--spm", "160", "--duration", "15s", "-o", out]).status, 0)
        let samples = try decodeAll(out)
        let clock = MasterClock(spm: 160, sampleRate: 44100)
        func peak(_ beat: Int) -> Float {
            let start = Int(clock.frame(ofBeat: beat).value)
            return samples[start..<min(samples.count, start + 1300)].map(abs).max() ?? 0
        }
        for beat in 0..<16 {
            if beat % 8 == 0 { XCTAssertEqual(Double(peak(beat)), pow(10, -6.0 / 20), accuracy: 0.05, "accent at −6 dBFS") }
            else { XCTAssertEqual(Double(peak(beat)), pow(10, -10.0 / 20), accuracy: 0.05, "plain click 4 dB lower") }
        }
        // Between clicks: silence.
        let gap = Int(clock.frame(ofBeat: 3).value) + 4000
        XCTAssertEqual(samples[gap..<(gap + 2000)].map(abs).max() ?? 1, 0, accuracy: 1e-4)
    }

    func testBadInputWritesNothing() throws {
        let dir = try temporaryDirectory(self)
        let unknown = try runBeattag(["render", "--click-only", "--spm", "170", "--duration", "1m", "-o", (dir as NSString).appendingPathComponent("run.mp3")])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown extension (use flac, ogg, opus, wav)"), unknown.stderr)
        let noFolder = try runBeattag(["render", "--click-only", "--spm", "170", "--duration", "1m", "-o", (dir as NSString).appendingPathComponent("gone/run.flac")])
        XCTAssertEqual(noFolder.status, 1)
        XCTAssertTrue(noFolder.stderr.contains("does not exist"), noFolder.stderr)
        let badQuality = try runBeattag(["render", "--spm", "170", "--duration", "1m", "--quality", "best", "-o", (dir as NSString).appendingPathComponent("run.flac")])
        XCTAssertEqual(badQuality.status, 64)
        XCTAssertTrue(badQuality.stderr.contains("fast, standard or fine"), badQuality.stderr)
        // Accepted by the shared filter options, but render has no half-time: refused, not ignored.
        let halfTime = try runBeattag(["render", "--spm", "170", "--duration", "1m", "--allow-half-time", "-o", (dir as NSString).appendingPathComponent("run.flac")])
        XCTAssertEqual(halfTime.status, 64)
        XCTAssertTrue(halfTime.stderr.contains("--allow-half-time is for match, playlist and workout"), halfTime.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
    }

    /// Real processes interrupted mid-render: exit 128 + the signal, no file under the name, no partial file left.
    /// Ten rounds, since a lost signal used to be a matter of chance (about one in thirty).
    func testCtrlCLeavesNothingBehind() throws {
        for round in 1...10 {
            let dir = try temporaryDirectory(self)
            let process = try longRenderWriting(in: dir)
            let signal = round.isMultiple(of: 2) ? SIGTERM : SIGINT
            interrupt(process, with: signal)
            XCTAssertEqual(process.terminationStatus, 128 + signal, "round \(round): 130 for Ctrl-C, 143 for SIGTERM")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "round \(round)")
        }
    }

    /// A six-hour click render into `dir`, once its partial file is there.
    private func longRenderWriting(in dir: String, line: UInt = #line) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable)
        process.arguments = ["render", "--click-only", "--spm", "170", "--duration", "6h", "-o", (dir as NSString).appendingPathComponent("long.flac")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try FileManager.default.contentsOfDirectory(atPath: dir)).isEmpty { usleep(20_000) }
        XCTAssertTrue(process.isRunning, "the render must still be running when interrupted for this test to mean anything", line: line)
        return process
    }

    /// A second Ctrl-C quits at once (`exit`, no unwinding): the partial file is removed first. It
    /// was left behind (tens of MB, cleared only by a render to that name an hour later), as it was
    /// when `timeout -s INT` sent the signal to the process and again to its group.
    func testASecondCtrlCLeavesNoPartialFile() throws {
        let dir = try temporaryDirectory(self)
        let out = (dir as NSString).appendingPathComponent("run.flac")
        let writer = try MixFileWriter(path: out)
        let partial = try XCTUnwrap(OpenWorkingFiles.current.first { $0.hasPrefix(dir + "/.run.flac.partial-") })
        XCTAssertTrue(FileManager.default.fileExists(atPath: partial))
        OpenWorkingFiles.removeAll()  // what the second signal does before exit(130)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        writer.abandon()
        XCTAssertFalse(OpenWorkingFiles.current.contains(partial))

        // Committed, it is no longer the process's to remove.
        let kept = try MixFileWriter(path: out)
        let second = try XCTUnwrap(OpenWorkingFiles.current.first { $0.hasPrefix(dir + "/.run.flac.partial-") })
        try kept.commit()
        XCTAssertFalse(OpenWorkingFiles.current.contains(second))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["run.flac"])

        // Real processes, two signals a millisecond apart (the kernel may merge them into one).
        for round in 1...6 {
            let dir = try temporaryDirectory(self)
            let process = try longRenderWriting(in: dir)
            kill(process.processIdentifier, SIGINT)
            usleep(1_000)
            interrupt(process, with: SIGINT)
            // 130 from beattag, or death by SIGINT when the second came after the first had been
            // handled and the default action restored (a shell says 130 for both).
            XCTAssertTrue(process.terminationStatus == 130 || (process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT),
                          "round \(round): \(process.terminationReason.rawValue) \(process.terminationStatus)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "round \(round)")
        }
    }
}
