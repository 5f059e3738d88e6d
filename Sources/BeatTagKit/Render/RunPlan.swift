import Foundation

/// What plays when: tracks at the cadence, each an excerpt of whole 8-beat phrases of its own beat
/// list, entering on a phrase start of the clock; the outgoing track plays 4 beats past its last
/// phrase under the incoming one's first (the crossfade), and the run ends on a phrase.
public struct RunPlan: Sendable {
    public struct Entry: Sendable {
        public var track: TrackRecord
        /// Source beat times (seconds of the decoded file) that land on clock beats `mixStartBeat…`.
        public var sourceBeats: [Double]
        public var mixStartBeat: Int
        /// Whole phrases the track carries alone (its crossfade tail comes on top).
        public var phrases: Int
        /// Beats past the last phrase that fade out under the next track (0 for the last one).
        public var tailBeats: Int
        public var stretchAllowed: Bool
        /// New to the run, a part of a song the run played before, or a repeat.
        public var fill: Fill = .fresh
        /// Index in the track's beat list of `sourceBeats[0]`.
        public var firstBeatIndex = 0
        /// The tempo its beats run at (`TrackRecord.beatsBPM`, as the match judged it): what the credits say it was changed from.
        public var sourceBPM: Double
    }

    /// Where an entry's music comes from when the catalog has too little new music for the run.
    public enum Fill: String, Codable, Sendable {
        case fresh
        /// A part of a long track the run has not played yet.
        case laterPart = "later-part"
        /// Music the run played before, again (never right after itself).
        case repeated = "repeat"
    }

    public struct LeftOut: Codable, Sendable {
        public var path: String
        public var reason: String
        /// Gone or changed since its scan: a new scan brings it back.
        public var needsRescan = false

        public init(path: String, reason: String, needsRescan: Bool = false) {
            (self.path, self.reason, self.needsRescan) = (path, reason, needsRescan)
        }
    }

    public var clock: MasterClock
    public var totalBeats: Int
    /// The workout segment this plan fills, if any.
    public var segment: String?
    public var entries: [Entry]
    public var leftOut: [LeftOut]
    /// From this beat on no music fits: the click carries the run.
    public var clickCarriesFrom: Int?

    /// Beats of crossfade at each change of track.
    public static let crossfadeBeats = 4
    /// A no-derivatives track is never stretched: it plays only if `CadenceRules.unstretchedTolerance`
    /// close to the cadence…
    /// …and only for as many phrases as keep its beats this close to the clock.
    public static let unstretchedDrift = 0.025
    /// A beat this much quieter than the track's median beat is intro or outro, not music to run to.
    static let quietBeatDB = -20.0

    /// A run with no music: the click carries all of it (whole phrases closest to `seconds`).
    public static func clickOnly(clock: MasterClock, seconds: Double) -> RunPlan {
        RunPlan(clock: clock, totalBeats: clock.phrases(closestTo: seconds) * MasterClock.beatsPerPhrase, entries: [], leftOut: [],
                clickCarriesFrom: 0)
    }

    /// Plans a run from the catalog: the tracks `match` would offer at the clock's cadence, their
    /// beat lists from the catalog, their quiet intros and outros measured on the audio. A beat list
    /// is counted at the BPM the match judged the track at and moved onto its hand-placed beat, both
    /// of which can come from another copy of the recording (`withRecordingsHandWord`).
    /// `rules` and `filter` the candidates were matched by: another copy of a recording whose copy
    /// is gone since the scan is judged by them (`Catalog.otherCopies`) and plays in its place.
    public static func plan(clock: MasterClock, seconds: Double, candidates: [CadenceMatch], catalog: Catalog,
                            rules: CadenceRules, filter: MatchFilter, usage: inout RunUsage,
                            progress: (Double) -> Void = { _ in }) throws -> RunPlan {
        try plan(clock: clock, seconds: seconds, candidates: candidates, usage: &usage,
                 beatsOf: { judged in
                     guard var row = try catalog.track(path: judged.path) else { return [] }
                     (row.bpmManual, row.bpm, row.beatAnchor) = (judged.bpmManual, judged.bpm, judged.beatAnchor)
                     return row.beatsInUse
                 },
                 loudnessOfBeats: { BeatLevels.measure($0, beats: $1) },
                 // Moved, deleted or changed since its scan: its beats would fall in the wrong
                 // places. Such a track is left out and said, and the run goes on with the others.
                 // Rights changed since the scan: a stretch may no longer be allowed. A run beattag
                 // rendered, catalogued before scans left renders out: never played again.
                 unusableFile: { $0.fileProblemSinceScan ?? $0.rightsProblemSinceScan ?? $0.renderedRunProblem },
                 otherCopies: { (try? catalog.otherCopies(of: $0, rules: rules, filter: filter)) ?? [] },
                 maxShiftPercent: rules.maxShiftPercent, progress: progress)
    }

    /// Why a track has no grid to play: a BPM in use that its analysed beats cannot count (a hand
    /// BPM no simple multiple of the analysed one) is said as such, since `match` still offers it.
    static func noGridReason(_ track: TrackRecord, beats: [Double]) -> String {
        if beats.isEmpty, let bpm = track.bpm, let analysed = track.bpmAnalysed, BeatListScaling.level(from: analysed, to: bpm) == nil {
            let source = track.bpmSource == .tag ? "from its tag" : "set by hand"
            return String(format: "its BPM in use (%.1f, %@) is no simple multiple of the analysed %.1f, so the analysis's beats do not fit it "
                          + "and it has no beat grid to play", bpm, source, analysed)
        }
        return "no beat grid long enough for two phrases"
    }

    /// Why a catalogued render is left out.
    public static let renderReason = "a run beattag rendered (a mix of other tracks, under their rights): not played in another run"

    /// Plans a run of about `seconds` at the clock's cadence from `candidates` (ranked matches).
    /// `beatsOf` gives a track's beat list (the catalog's), `loudnessOfBeats` the level of each beat
    /// (decoded) to skip quiet intros and outros, `unusableFile` why a track's file cannot be used.
    /// Songs new to the run come first. When they are too few, music the run already used fills
    /// the rest: first a part of a long track not played yet, then a repeat, never a song right
    /// after itself; only then the click (`clickCarriesFrom`). `usage` carries what the run played
    /// across segments. Each match is judged at the tempo its beats run at, within `maxShiftPercent`.
    /// `progress`: the share of the run filled so far, as each track is placed (reading the tracks'
    /// beats decodes them: a long workout planned for half a minute with nothing shown).
    public static func plan(clock: MasterClock, seconds: Double, candidates: [CadenceMatch], usage: inout RunUsage,
                            beatsOf: (TrackRecord) throws -> [Double],
                            loudnessOfBeats: (TrackRecord, [Double]) -> [Double]?,
                            unusableFile: (TrackRecord) -> String? = { _ in nil },
                            otherCopies: (CadenceMatch) -> [CadenceMatch] = { _ in [] },
                            maxShiftPercent: Double = CadenceRules.defaultMaxShiftPercent,
                            progress: (Double) -> Void = { _ in }) throws -> RunPlan {
        let totalPhrases = clock.phrases(closestTo: seconds)
        var plan = RunPlan(clock: clock, totalBeats: totalPhrases * MasterClock.beatsPerPhrase, entries: [], leftOut: [])
        var remaining = totalPhrases
        let usageBefore = usage
        // The match behind each entry of `plan.entries`, in the same order.
        var placedMatches: [CadenceMatch] = []
        // Each candidate's musical beats, read once (reading them decodes the track).
        var musical: [String: (beats: [Double], first: Int, last: Int)?] = [:]
        func beatsWorthRunningTo(_ track: TrackRecord) throws -> (beats: [Double], first: Int, last: Int)? {
            if let known = musical[track.path] { return known }
            let beats = try beatsOf(track)
            let range = musicalBeats(beats, levels: loudnessOfBeats(track, beats)).map { (beats, $0.first, $0.last) }
            if range == nil { plan.leftOut.append(LeftOut(path: track.path, reason: noGridReason(track, beats: beats))) }
            musical[track.path] = range
            return range
        }
        var playable: [CadenceMatch] = []
        func tooFarUnstretched(_ match: CadenceMatch) -> Bool {
            !match.track.tempoAdjustAllowed && abs(match.ratio - 1) > CadenceRules.unstretchedTolerance
        }
        func reportProgress() { progress(Double(totalPhrases - remaining) / Double(max(1, totalPhrases))) }
        // The matcher judged each at the tempo its beats run at (a tap a little off them counts the
        // same pulse), the tempo the render stretches from: its change is the run's.
        for var match in candidates where remaining > 0 {
            if tooFarUnstretched(match) {
                plan.leftOut.append(LeftOut(path: match.track.path, reason: String(
                    format: "its licence forbids changing it and it is %.1f%% off the cadence (at most %.1f%% unstretched)",
                    abs(match.ratio - 1) * 100, CadenceRules.unstretchedTolerance * 100)))
                continue
            }
            if let reason = unusableFile(match.track) {
                plan.leftOut.append(LeftOut(path: match.track.path, reason: reason, needsRescan: reason != renderReason))
                // The matcher offers one copy of a recording: another copy, there as scanned, stands in.
                guard let standIn = otherCopies(match)
                    .first(where: { abs($0.shiftPercent) <= maxShiftPercent + 1e-9 && !tooFarUnstretched($0) && unusableFile($0.track) == nil })
                else { continue }
                match = standIn
            }
            let track = match.track
            playable.append(match)
            // A song the run played before waits until the new ones run out.
            guard !usage.hasPlayed(track), let music = try beatsWorthRunningTo(track) else { continue }
            if let entry = place(match, beats: music.beats, from: music.first, to: music.last, fill: .fresh, remaining: remaining, plan: &plan) {
                remaining -= entry.phrases
                reportProgress()
                usage.record(entry)
                plan.entries.append(entry)
                placedMatches.append(match)
            }
        }
        // Short of new music: what the run already played, unplayed parts before repeats. A song
        // repeats once in a segment at most: beyond that the click says the music ran out.
        var repeatedHere = Set<String>()
        for fill in [Fill.laterPart, .repeated] {
            var placedOne = true
            while remaining > 0, placedOne {
                placedOne = false
                for match in playable where remaining > 0 && usage.lastSong != SongIdentity.key(for: match.track) {
                    if fill == .repeated, repeatedHere.contains(SongIdentity.key(for: match.track)) { continue }
                    guard let played = usage.playedThrough(match.track), let music = try beatsWorthRunningTo(match.track) else { continue }
                    // A later part starts on the song's next phrase after what was played.
                    let next = music.first + ((played + 1 - music.first + MasterClock.beatsPerPhrase - 1) / MasterClock.beatsPerPhrase)
                        * MasterClock.beatsPerPhrase
                    let from = fill == .laterPart ? max(music.first, next) : music.first
                    guard let entry = place(match, beats: music.beats, from: from, to: music.last, fill: fill,
                                            remaining: remaining, plan: &plan) else { continue }
                    remaining -= entry.phrases
                    reportProgress()
                    usage.record(entry)
                    plan.entries.append(entry)
                    placedMatches.append(match)
                    if fill == .repeated { repeatedHere.insert(SongIdentity.key(for: match.track)) }
                    placedOne = true
                }
            }
        }
        if remaining > 0 {
            plan.clickCarriesFrom = plan.totalBeats - remaining * MasterClock.beatsPerPhrase
            // The last track ends where the click takes over: no tail into nothing.
            if var last = plan.entries.popLast(), last.tailBeats > 0 {
                last.sourceBeats.removeLast(last.tailBeats)
                last.tailBeats = 0
                plan.entries.append(last)
            }
        }
        if let last = placedMatches.last, let music = musical[last.track.path] ?? nil {
            plan.endWithoutAFragment(lastMatch: last, beats: music.beats, to: music.last)
        }
        // What the run played, as the plan now stands (tails cut and phrases moved above).
        usage = usageBefore
        for entry in plan.entries { usage.record(entry) }
        let played = Set(plan.entries.map(\.track.path))
        plan.leftOut.removeAll { played.contains($0.path) }
        return plan
    }

    /// An entry for `match` from its beat `first` on, as many whole phrases as its beats (and, when
    /// it may not be stretched, its drift from the clock) allow, at most `remaining`; nil when
    /// fewer than two phrases fit (one, when one is all the run needs).
    private static func place(_ match: CadenceMatch, beats: [Double], from first: Int, to last: Int, fill: Fill, remaining: Int,
                              plan: inout RunPlan) -> Entry? {
        let track = match.track
        let phrases = min(remaining, phrasesFitting(match, from: first, to: last, clock: plan.clock))
        guard phrases >= 2 || (phrases >= 1 && phrases == remaining) else {
            if fill == .fresh {
                // Long enough, but kept from drifting off the clock: say that, not "too short".
                let byLength = (last - first - crossfadeBeats) / MasterClock.beatsPerPhrase
                let reason = byLength >= 2
                    ? String(format: "its rights forbid a tempo change, and at its own tempo (%+.1f%% from the cadence) it drifts more than %.0f ms from the beat within two phrases",
                             (1 / match.ratio - 1) * 100, unstretchedDrift * 1000)
                    : "too short for two phrases once quiet intro and outro are skipped"
                plan.leftOut.append(LeftOut(path: track.path, reason: reason))
            }
            return nil
        }
        let tail = remaining - phrases > 0 ? crossfadeBeats : 0
        let used = Array(beats[first...(first + phrases * MasterClock.beatsPerPhrase + tail)])
        return Entry(track: track, sourceBeats: used, mixStartBeat: plan.totalBeats - remaining * MasterClock.beatsPerPhrase,
                     phrases: phrases, tailBeats: tail, stretchAllowed: track.tempoAdjustAllowed, fill: fill,
                     firstBeatIndex: first, sourceBPM: match.bpm)
    }

    /// How many whole phrases `match` can play from its beat `first`, keeping `last` and a crossfade
    /// in reach and, when it may not be stretched, its drift from the clock within bounds.
    private static func phrasesFitting(_ match: CadenceMatch, from first: Int, to last: Int, clock: MasterClock) -> Int {
        var phrases = (last - first - crossfadeBeats) / MasterClock.beatsPerPhrase
        if !match.track.tempoAdjustAllowed, abs(match.ratio - 1) > 1e-6 {
            // Unstretched, its beats drift from the clock by |1 − ratio| per beat.
            let driftPerPhrase = abs(1 - match.ratio) * clock.phraseSeconds.value
            phrases = min(phrases, Int(unstretchedDrift / driftPerPhrase))
        }
        return phrases
    }

    /// One phrase of a song (about 3 s) is a fragment: a run or segment that would end on one takes
    /// a phrase from the track before it, when that one keeps two and the last can play two.
    /// `lastMatch` is the last entry's match, `beats` and `last` its beat list and last usable beat.
    private mutating func endWithoutAFragment(lastMatch: CadenceMatch, beats: [Double], to last: Int) {
        let n = entries.count
        guard n >= 2, entries[n - 1].phrases == 1, entries[n - 2].phrases >= 3 else { return }
        let first = entries[n - 1].firstBeatIndex
        guard Self.phrasesFitting(lastMatch, from: first, to: last, clock: clock) >= 2 else { return }
        entries[n - 2].phrases -= 1
        entries[n - 2].sourceBeats.removeLast(MasterClock.beatsPerPhrase)
        entries[n - 1].phrases = 2
        entries[n - 1].mixStartBeat -= MasterClock.beatsPerPhrase
        entries[n - 1].sourceBeats = Array(beats[first...(first + 2 * MasterClock.beatsPerPhrase + entries[n - 1].tailBeats)])
    }

    /// Beats of the clock the music carries (the rest is click).
    public var musicBeats: Int { clickCarriesFrom ?? totalBeats }

    /// The first and last beat indices worth running to: quiet beats at either end left out, then
    /// beats the steady part of the track does not continue (`steadyEnds`). nil when fewer than two
    /// phrases and a crossfade remain.
    static func musicalBeats(_ beats: [Double], levels: [Double]?) -> (first: Int, last: Int)? {
        let least = 2 * MasterClock.beatsPerPhrase + crossfadeBeats
        guard beats.count > least else { return nil }
        var first = 0, last = beats.count - 1
        if let levels, levels.count == beats.count {
            let median = levels.sorted()[levels.count / 2]
            let floor = median + quietBeatDB
            while first < last, levels[first] < floor { first += 1 }
            while last > first, levels[last] < floor { last -= 1 }
        }
        guard last - first >= least else { return nil }
        // Kept only while the rest is still long enough: a short track plays whole, as before.
        let steady = steadyEnds(beats, first: first, last: last)
        return steady.last - steady.first >= least ? steady : (first, last)
    }

    /// How far into the track, and back from its end, the beats can be read (`steadyReach`).
    static let steadyReach = 4 * MasterClock.beatsPerPhrase
    /// A beat further than this share of a beat from where the steady part puts it is off.
    static let steadyTolerance = 0.15

    /// `first` and `last` moved past beats at either end that the steady part of the track does not
    /// continue. A tracker that read a drumless intro half a beat off slides back onto the beat over
    /// a few beats, each a little long; an excerpt started there plays the music half a beat off the
    /// clock, a flam under the crossfade. Each beat of the first `steadyReach` is compared with where
    /// the beat `steadyReach` in, counted back at the spacing around it, puts it (and the same at the
    /// end); the excerpt starts after the last beat more than `steadyTolerance` of a beat off.
    static func steadyEnds(_ beats: [Double], first: Int, last: Int) -> (first: Int, last: Int) {
        let reach = steadyReach, span = MasterClock.beatsPerPhrase
        guard last - first >= 2 * reach + 2 * span else { return (first, last) }
        func spacing(around r: Int) -> Double {
            let intervals = (r - span..<r + span).map { beats[$0 + 1] - beats[$0] }.sorted()
            return intervals[intervals.count / 2]
        }
        func off(_ i: Int, from r: Int, spacing: Double) -> Bool {
            abs(beats[i] - (beats[r] + Double(i - r) * spacing)) > steadyTolerance * spacing
        }
        let start = first + reach, startSpacing = spacing(around: start)
        let newFirst = ((first..<start).last { off($0, from: start, spacing: startSpacing) }).map { $0 + 1 } ?? first
        let end = last - reach, endSpacing = spacing(around: end)
        let newLast = ((end + 1...last).first { off($0, from: end, spacing: endSpacing) }).map { $0 - 1 } ?? last
        return (newFirst, newLast)
    }
}
