@testable import BeatTagKit
import Foundation
import XCTest

/// The run's schedule, apart from the command: cues never closer than 20 s, a workout's segments at
/// the profile's cadences, a one-cadence run without music refused with the reason.
final class RunScheduleTests: XCTestCase {
    func testCuesAreSpokenAtSegmentStartsButNeverWithin20Seconds() {
        let rate = 8000
        // Segments starting at 0, 10 and 40 s (whole phrases at 120 SPM: 4 s each).
        let starts = [0.0, 12.0, 40.0]
        let plans = starts.map { RunPlan.clickOnly(clock: MasterClock(spm: 120, sampleRate: rate, origin: Seconds($0)), seconds: 8) }
        let segments = starts.indices.map { RunSegment(name: "s\($0)", spm: 120, seconds: 8, cue: "cue \($0)") }
        var spoken: [String] = []
        let cues = RunSchedule.cues(for: segments, plans: plans, sampleRate: rate) { text in spoken.append(text); return [1, 1] }
        XCTAssertEqual(cues.map(\.text), ["cue 0", "cue 2"], "the cue 12 s after the first is dropped")
        XCTAssertEqual(cues.map(\.startFrame), [0, 40 * rate])
        XCTAssertEqual(spoken, ["cue 0", "cue 2"], "a dropped cue is not even synthesised")
        XCTAssertEqual(cues[0].samples, [0.7, 0.7], "cues sit under the music at 0.7")
        // The runner is told of the change of cadence that has no cue.
        XCTAssertEqual(RunSchedule.droppedCueReport(segments: segments, plans: plans, cues: cues),
                       ["no spoken cue for the change to 120 SPM of \"s1\" at 0:12: within 20 s of the cue before"])
        let silent = segments.map { RunSegment(name: $0.name, spm: $0.spm, seconds: $0.seconds) }
        XCTAssertEqual(RunSchedule.droppedCueReport(segments: silent, plans: plans, cues: []), [], "--no-cues drops none")
    }

    func testAWorkoutsSegmentsTakeTheProfilesCadences() throws {
        let zoneSPM = try RunnerProfile(zoneSPM: [5: 184]).validZoneSPM()
        let segments = RunSchedule.segments(of: BuiltInPlans.fourByFour, zoneSPM: zoneSPM, cues: false)
        XCTAssertEqual(segments.count, BuiltInPlans.fourByFour.segments.count)
        XCTAssertTrue(segments.contains { $0.spm == 184 }, "\(segments.map(\.spm))")
        XCTAssertTrue(segments.allSatisfy { $0.cue == nil })
        XCTAssertTrue(RunSchedule.segments(of: BuiltInPlans.fourByFour, zoneSPM: zoneSPM, cues: true).allSatisfy { $0.cue != nil })
    }

    func testAOneCadenceRunWithNoMatchIsRefused() throws {
        let catalog = try Catalog(path: (try temporaryDirectory(self) as NSString).appendingPathComponent("c.sqlite"))
        XCTAssertThrowsError(try RunSchedule.plans(for: [RunSegment(spm: 175, seconds: 60)], catalog: catalog, filter: MatchFilter(),
                                                   maxShiftPercent: 10, seed: 1, sampleRate: 44100)) { error in
            guard case RunSchedule.Failure.noMatch(let rules) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(rules.spm, 175)
        }
    }
}
