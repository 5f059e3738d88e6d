@testable import BeatTagKit
import Foundation
import XCTest

/// A run longer than the catalog's music at its cadence: music the run played fills first (never a
/// track right after itself), then the click alone, each said on stderr, in the timeline and in the
/// CUE sheet; the file is written and the exit status is 3 unless `--allow-short`.
final class ShortRunTests: XCTestCase {
    func testARunShortOfMusicRepeatsThenClicksAndExits3() throws {
        let fixtures = try ScannedFixtures(self)
        let out = (fixtures.folder as NSString).appendingPathComponent("short.ogg")
        let arguments = ["render", "--spm", "175", "--duration", "3m", "--click", "-o", out, "--json", "--seed", "5", "--catalog", fixtures.catalog]
        let result = try runBeattag(arguments)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out), "a short run is still written")
        let timeline = try JSONDecoder().decode(RenderTimeline.self, from: Data(result.stdout.utf8))
        XCTAssertTrue(timeline.short)
        XCTAssertEqual(timeline.seed, 5)
        XCTAssertLessThan(timeline.musicSeconds, 0.95 * timeline.durationSeconds)
        let segment = try XCTUnwrap(timeline.segments.first)
        let clickFrom = try XCTUnwrap(segment.clickFromSeconds)
        XCTAssertEqual(timeline.musicSeconds, clickFrom, accuracy: 1e-6)
        XCTAssertTrue(timeline.tracks.contains { $0.fill == .repeated }, "repeats come before the click")
        XCTAssertEqual(timeline.tracks.filter { $0.fill == .fresh }.count, Set(timeline.tracks.map(\.path)).count,
                       "each track fresh once before any repeat")
        for (a, b) in zip(timeline.tracks, timeline.tracks.dropFirst()) {
            XCTAssertNotEqual(a.path, b.path, "never a track right after itself")
        }
        XCTAssertLessThanOrEqual(try XCTUnwrap(timeline.tracks.map(\.endSeconds).max()), clickFrom + 1e-6)
        XCTAssertTrue(result.stderr.contains("repeat"), result.stderr)
        XCTAssertTrue(result.stderr.contains("the click alone carries it from"), result.stderr)
        XCTAssertTrue(result.stderr.contains("seed 5"), result.stderr)
        let cue = try String(contentsOfFile: CueSheet.path(besides: out), encoding: .utf8)
        XCTAssertTrue(cue.contains("click alone at 175 SPM") && cue.contains("(repeat)"), cue)

        // The music's share, measured on the file by ffmpeg: where the click carries the run alone,
        // its loudness drops far below the music's.
        let ffmpeg = try requiredTool("ffmpeg")
        func meanVolume(from start: Double, for seconds: Double) throws -> Double {
            let (_, log) = try runTool(ffmpeg, ["-v", "info", "-ss", "\(start)", "-t", "\(seconds)", "-i", out, "-af", "volumedetect", "-f", "null", "-"])
            let line = try XCTUnwrap(log.components(separatedBy: "mean_volume:").last)
            return try XCTUnwrap(Double(line.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? ""))
        }
        XCTAssertGreaterThan(try meanVolume(from: 5, for: clickFrom - 10) - meanVolume(from: clickFrom + 2, for: 20), 10)

        // Accepted on request: the same run, exit 0.
        XCTAssertTrue(result.stderr.contains("--allow-short accepts it"), result.stderr)
        let allowed = try runBeattag(arguments + ["--allow-short"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertFalse(allowed.stderr.contains("--allow-short accepts it"), "not suggested once given: \(allowed.stderr)")
        XCTAssertEqual(try JSONDecoder().decode(RenderTimeline.self, from: Data(allowed.stdout.utf8)).tracks.map(\.path),
                       timeline.tracks.map(\.path), "the same seed, the same run")
    }

    func testALaterPartOfALongTrackComesBeforeARepeat() throws {
        // A 400-beat track plays 16 phrases in one segment; in the next, after a short new track, its
        // unplayed beats come first, then the short one again (not the long one right after itself).
        let beats = (0..<400).map { Double($0) * 60 / 175 }
        var track = TrackRecord(path: "/music/long.flac", fileSize: 1, modifiedAt: 0, now: 0)
        track.title = "Long"; track.bpm = 175; track.tempoAdjustAllowed = true; track.durationSeconds = 140
        let match = CadenceMatch(track: track, bpm: 175, stepsPerBeat: 1, ratio: 1, shiftPercent: 0, adjustedBPM: 175)
        var usage = RunUsage()
        let clock = MasterClock(spm: 175, sampleRate: 44_100)
        let first = try RunPlan.plan(clock: clock, seconds: 16 * 8 * 60 / 175, candidates: [match], usage: &usage,
                                     beatsOf: { _ in beats }, loudnessOfBeats: { _, _ in nil })
        XCTAssertEqual(first.entries.map(\.fill), [.fresh])
        XCTAssertEqual(first.entries[0].phrases, 16)
        var other = track
        other.path = "/music/other.flac"; other.title = "Other"
        let otherMatch = CadenceMatch(track: other, bpm: 175, stepsPerBeat: 1, ratio: 1, shiftPercent: 0, adjustedBPM: 175)
        let second = try RunPlan.plan(clock: clock, seconds: 50 * 8 * 60 / 175, candidates: [match, otherMatch], usage: &usage,
                                      beatsOf: { $0.path == "/music/other.flac" ? Array(beats.prefix(100)) : beats },
                                      loudnessOfBeats: { _, _ in nil })
        XCTAssertEqual(second.entries.map(\.fill), [.fresh, .laterPart, .repeated], "\(second.entries.map(\.track.path))")
        XCTAssertEqual(second.entries.map(\.track.title), ["Other", "Long", "Other"])
        XCTAssertEqual(second.entries[1].firstBeatIndex, 8 * 17, "the later part starts on the phrase after what was played")
        XCTAssertEqual(second.entries.map(\.phrases), [11, 32, 7])
        XCTAssertNil(second.clickCarriesFrom)
    }
    /// A no-derivatives track long enough but too far from the cadence to hold two phrases within
    /// 25 ms of the clock is left out for that, in those words (it was called "too short").
    func testAnUnstretchedTrackLeftOutForItsDriftSaysSo() throws {
        let clock = MasterClock(spm: 180, sampleRate: 44_100)
        var track = TrackRecord(path: "/music/nd.flac", fileSize: 1, modifiedAt: 0, now: 0)
        track.title = "ND"; track.bpm = 180.85; track.tempoAdjustAllowed = false; track.durationSeconds = 100
        let match = CadenceMatch(track: track, bpm: 180.85, stepsPerBeat: 1, ratio: 180 / 180.85, shiftPercent: (180 / 180.85 - 1) * 100, adjustedBPM: 180)
        let beats = (0..<300).map { Double($0) * 60 / 180.85 }
        var usage = RunUsage()
        let run = try RunPlan.plan(clock: clock, seconds: 60, candidates: [match], usage: &usage,
                                   beatsOf: { _ in beats }, loudnessOfBeats: { _, _ in nil })
        XCTAssertTrue(run.entries.isEmpty)
        XCTAssertEqual(run.leftOut.map(\.reason), ["its rights forbid a tempo change, and at its own tempo (+0.5% from the cadence) it drifts more than 25 ms from the beat within two phrases"])
    }

    func testARunDoesNotEndOnAOnePhraseFragment() throws {
        // Five phrases to fill; the first track holds four. The second would come in for one phrase
        // (under 3 s) and the run end: instead the first gives one up and the second plays two.
        let clock = MasterClock(spm: 175, sampleRate: 44_100)
        func match(_ name: String) -> CadenceMatch {
            var track = TrackRecord(path: "/music/\(name).flac", fileSize: 1, modifiedAt: 0, now: 0)
            track.title = name; track.bpm = 175; track.tempoAdjustAllowed = true; track.durationSeconds = 100
            return CadenceMatch(track: track, bpm: 175, stepsPerBeat: 1, ratio: 1, shiftPercent: 0, adjustedBPM: 175)
        }
        let beats = (0..<300).map { Double($0) * 60 / 175 }
        let short = match("four-phrases"), long = match("long")
        func plan(phrases: Int, shortBeats: Int, usage: inout RunUsage) throws -> RunPlan {
            try RunPlan.plan(clock: clock, seconds: Double(phrases * 8) * 60 / 175, candidates: [short, long], usage: &usage,
                             beatsOf: { $0.path == short.track.path ? Array(beats.prefix(shortBeats)) : beats },
                             loudnessOfBeats: { _, _ in nil })
        }
        var usage = RunUsage()
        let run = try plan(phrases: 5, shortBeats: 41, usage: &usage)
        XCTAssertEqual(run.entries.map(\.track.title), ["four-phrases", "long"])
        XCTAssertEqual(run.entries.map(\.phrases), [3, 2])
        XCTAssertEqual(run.entries.map(\.mixStartBeat), [0, 24])
        XCTAssertEqual(run.entries.map(\.sourceBeats.count), [3 * 8 + RunPlan.crossfadeBeats + 1, 2 * 8 + 1])
        XCTAssertEqual(run.entries[1].sourceBeats, Array(beats[0...16]))
        XCTAssertNil(run.clickCarriesFrom)
        XCTAssertEqual(usage.playedThrough(short.track), 3 * 8 + RunPlan.crossfadeBeats, "usage follows the phrase moved")
        XCTAssertEqual(usage.playedThrough(long.track), 16)

        // A first track of two phrases has none to spare: the fragment stays (better than the click).
        var other = RunUsage()
        let tight = try plan(phrases: 3, shortBeats: 25, usage: &other)
        XCTAssertEqual(tight.entries.map(\.phrases), [2, 1])
        XCTAssertEqual(tight.entries.map(\.mixStartBeat), [0, 16])
    }
}
