import Foundation

/// One stretch of a run at one cadence: the whole run, or a workout's segment.
public struct RunSegment: Sendable, Equatable {
    public var name: String?
    public var spm: Double
    public var seconds: Double
    /// Spoken as the segment starts (workouts), nil for none.
    public var cue: String?

    public init(name: String? = nil, spm: Double, seconds: Double, cue: String? = nil) {
        (self.name, self.spm, self.seconds, self.cue) = (name, spm, seconds, cue)
    }
}

/// Turns a run's segments into what `RunRenderer` plays: one `RunPlan` per segment, each on its
/// own clock from where the one before ends, the songs carried across segments (`RunUsage`), and
/// the cues at segment starts.
public enum RunSchedule {
    /// No two cues closer than this: a cue cut short by the next says nothing.
    public static let cueSpacingSeconds = 20.0

    public enum Failure: Error, Sendable {
        /// A one-cadence run with no track that fits at all.
        case noMatch(CadenceRules)
        /// A one-cadence run whose fitting tracks all had to be left out (why, for the first few).
        case nothingUsable(spm: Double, leftOut: [RunPlan.LeftOut])
    }

    /// A workout's segments at the runner's zone cadences (`zoneSPM`, else the defaults), with their cues.
    public static func segments(of workout: WorkoutPlan, zoneSPM: [Int: Double], cues: Bool) -> [RunSegment] {
        workout.segments.enumerated().map { index, segment in
            let spm = workout.spm(of: segment, zoneSPM: zoneSPM)
            return RunSegment(name: segment.name, spm: spm, seconds: segment.seconds,
                              cue: cues ? CueText.text(segmentAt: index, of: workout, spm: spm) : nil)
        }
    }

    /// One plan per segment: the tracks `match` offers at its cadence (never half-time: the clock
    /// puts a beat on every step), drawn in an order seeded by `seed` and the segment's index.
    /// `progress`: the share of the run's length planned so far.
    public static func plans(for segments: [RunSegment], catalog: Catalog, filter: MatchFilter, maxShiftPercent: Double,
                             seed: UInt64, sampleRate: Int, progress: (Double) -> Void = { _ in }) throws -> [RunPlan] {
        var usage = RunUsage()
        let total = max(1, segments.map(\.seconds).reduce(0, +))
        var before = 0.0
        let plans = try endToEnd(segments, sampleRate: sampleRate) { index, segment, clock in
            let rules = CadenceRules(spm: segment.spm, maxShiftPercent: maxShiftPercent, allowHalfTime: false)
            let ranked = try catalog.cadenceMatches(rules, filter: filter).matches
            if ranked.isEmpty && segments.count == 1 { throw Failure.noMatch(rules) }
            let plan = try RunPlan.plan(clock: clock, seconds: segment.seconds, candidates: SeededOrder.draw(ranked, seed: seed &+ UInt64(index)),
                                        catalog: catalog, rules: rules, filter: filter, usage: &usage,
                                        progress: { progress((before + $0 * segment.seconds) / total) })
            before += segment.seconds
            return plan
        }
        if segments.count == 1, plans[0].entries.isEmpty { throw Failure.nothingUsable(spm: segments[0].spm, leftOut: plans[0].leftOut) }
        return plans
    }

    /// The segments as the metronome alone (`render PLAN --click-only`), laid out as `plans` lays
    /// them out with music.
    public static func clickPlans(for segments: [RunSegment], sampleRate: Int) -> [RunPlan] {
        endToEnd(segments, sampleRate: sampleRate) { _, segment, clock in RunPlan.clickOnly(clock: clock, seconds: segment.seconds) }
    }

    /// One plan per segment, each made by `plan` on the segment's own clock, which starts where the
    /// plan before ends (whole phrases, so the cadence changes on a phrase), and named after it.
    private static func endToEnd(_ segments: [RunSegment], sampleRate: Int,
                                 _ plan: (_ index: Int, _ segment: RunSegment, _ clock: MasterClock) throws -> RunPlan) rethrows -> [RunPlan] {
        var origin = 0.0
        return try segments.enumerated().map { index, segment in
            let clock = MasterClock(spm: segment.spm, sampleRate: sampleRate, origin: Seconds(origin))
            var made = try plan(index, segment, clock)
            made.segment = segment.name
            origin = clock.time(ofBeat: made.totalBeats).value
            return made
        }
    }

    /// The cues of the segments that have one, each where its segment starts, none within
    /// `cueSpacingSeconds` of the one before; `speak` turns words into samples at `sampleRate`.
    public static func cues(for segments: [RunSegment], plans: [RunPlan], sampleRate: Int,
                            speak: (String) throws -> [Float]) rethrows -> [RunRenderer.Cue] {
        var cues: [RunRenderer.Cue] = []
        for (segment, plan) in zip(segments, plans) {
            guard let text = segment.cue else { continue }
            let start = Int(plan.clock.frame(ofBeat: 0).value)
            if let last = cues.last, Double(start - last.startFrame) < cueSpacingSeconds * Double(sampleRate) { continue }
            cues.append(RunRenderer.Cue(text: text, samples: try speak(text).map { $0 * 0.7 }, startFrame: start))
        }
        return cues
    }

    /// Segments whose cue `cues(for:plans:sampleRate:speak:)` left out (too near the one before), a
    /// line each: the runner is not told of that change of cadence, so the command says so.
    public static func droppedCueReport(segments: [RunSegment], plans: [RunPlan], cues: [RunRenderer.Cue]) -> [String] {
        let starts = Set(cues.map(\.startFrame))
        return zip(segments, plans).compactMap { segment, plan in
            guard segment.cue != nil, !starts.contains(Int(plan.clock.frame(ofBeat: 0).value)) else { return nil }
            let name = segment.name.map { " of \"\($0)\"" } ?? ""
            return String(format: "no spoken cue for the change to %g SPM%@ at %@: within %g s of the cue before",
                          plan.clock.spm, name, DurationText.clock(plan.clock.origin.value), cueSpacingSeconds)
        }
    }

    /// What a runner needs told about a run short of new music, known from its plans before any audio
    /// is made, a line each per segment: the music played again, and from when the click is alone.
    public static func fillReport(plans: [RunPlan]) -> [String] {
        var lines: [String] = []
        for plan in plans {
            let name = plan.segment.map { " for \"\($0)\"" } ?? ""
            let later = plan.entries.filter { $0.fill == .laterPart }.count, repeats = plan.entries.filter { $0.fill == .repeated }.count
            if later + repeats > 0 {
                let what = [later > 0 ? "\(later) later part\(later == 1 ? "" : "s") of long tracks" : nil,
                            repeats > 0 ? "\(repeats) repeat\(repeats == 1 ? "" : "s")" : nil].compactMap { $0 }
                lines.append(String(format: "too little new music at %g SPM%@: filled with music the run played before (%@)",
                                    plan.clock.spm, name, what.joined(separator: ", ")))
            }
            if let from = plan.clickCarriesFrom {
                lines.append(String(format: "not enough music at %g SPM%@: the click alone carries it from %@ to %@", plan.clock.spm, name,
                                    DurationText.clock(plan.clock.time(ofBeat: from).value),
                                    DurationText.clock(plan.clock.time(ofBeat: plan.totalBeats).value)))
            }
        }
        return lines
    }

    /// How much of the rendered run is music, when it falls short, with what to do about it.
    /// `allowed`: `--allow-short` was given (not suggested again).
    public static func shortfallReport(plans: [RunPlan], timeline: RenderTimeline, allowed: Bool = false) -> [String] {
        var lines: [String] = []
        if timeline.short {
            // Matching tracks whose files moved or changed come back with a scan: said first, as the fix.
            let rescan = Set(plans.flatMap(\.leftOut).filter(\.needsRescan).map(\.path)).count
            let advice = rescan > 0
                ? "\(rescan) matching track\(rescan == 1 ? " was" : "s were") left out as moved or changed since the scan (`beattag scan` them again); "
                    + "`beattag untagged` and `beattag tap` fix doubtful tempi"
                : "`beattag untagged` and `beattag tap` fix doubtful tempi, or scan more music"
            lines.append(String(format: "music for %@ of %@ (%.0f%%): %@%@", DurationText.clock(timeline.musicSeconds),
                                DurationText.clock(timeline.durationSeconds), 100 * timeline.musicSeconds / max(1, timeline.durationSeconds), advice,
                                allowed ? "" : "; --allow-short accepts it"))
        }
        return lines
    }
}
