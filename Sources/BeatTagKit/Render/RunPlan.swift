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
    }

    public struct LeftOut: Codable, Sendable {
        public var path: String
        public var reason: String
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
    /// A no-derivatives track is never stretched: it plays only if this close to the cadence…
    public static let unstretchedTolerance = 0.005
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
    /// beat lists from the catalog, their quiet intros and outros measured on the audio.
    public static func plan(clock: MasterClock, seconds: Double, candidates: [CadenceMatch], catalog: Catalog,
                            usedSongs: inout Set<String>) throws -> RunPlan {
        try plan(clock: clock, seconds: seconds, candidates: candidates, usedSongs: &usedSongs,
                 beatsOf: { try catalog.track(path: $0.path)?.beatTimes ?? [] },
                 loudnessOfBeats: { BeatLevels.measure(path: $0.path, beats: $1) })
    }

    /// Plans a run of about `seconds` at the clock's cadence from `candidates` (ranked matches).
    /// `beatsOf` gives a track's beat list (the catalog's), `loudnessOfBeats` the level of each beat
    /// (decoded) to skip quiet intros and outros.
    /// `usedSongs`: songs already in the run (earlier segments), never repeated; this plan's are added.
    public static func plan(clock: MasterClock, seconds: Double, candidates: [CadenceMatch], usedSongs: inout Set<String>,
                            beatsOf: (TrackRecord) throws -> [Double],
                            loudnessOfBeats: (TrackRecord, [Double]) -> [Double]?) rethrows -> RunPlan {
        let totalPhrases = clock.phrases(closestTo: seconds)
        var plan = RunPlan(clock: clock, totalBeats: totalPhrases * MasterClock.beatsPerPhrase, entries: [], leftOut: [])
        var remaining = totalPhrases
        for match in candidates where remaining > 0 {
            let track = match.track
            guard !usedSongs.contains(SongIdentity.key(for: track)) else { continue }
            let ratio = match.ratio
            if !track.tempoAdjustAllowed, abs(ratio - 1) > unstretchedTolerance {
                plan.leftOut.append(LeftOut(path: track.path, reason: String(
                    format: "its licence forbids changing it and it is %.1f%% off the cadence (at most %.1f%% unstretched)",
                    abs(ratio - 1) * 100, unstretchedTolerance * 100)))
                continue
            }
            let beats = try beatsOf(track)
            guard let (first, last) = musicalBeats(beats, levels: loudnessOfBeats(track, beats)) else {
                plan.leftOut.append(LeftOut(path: track.path, reason: "no beat grid long enough for two phrases"))
                continue
            }
            let beatsAvailable = last - first
            var phrases = min(remaining, (beatsAvailable - crossfadeBeats) / MasterClock.beatsPerPhrase)
            if !track.tempoAdjustAllowed, abs(ratio - 1) > 1e-6 {
                // Unstretched, its beats drift from the clock by |1 − ratio| per beat.
                let driftPerPhrase = abs(1 - ratio) * clock.phraseSeconds.value
                phrases = min(phrases, Int(unstretchedDrift / driftPerPhrase))
            }
            guard phrases >= 2 || (phrases >= 1 && phrases == remaining) else {
                plan.leftOut.append(LeftOut(path: track.path, reason: "too short for two phrases once quiet intro and outro are skipped"))
                continue
            }
            usedSongs.insert(SongIdentity.key(for: track))
            remaining -= phrases
            let tail = remaining > 0 ? crossfadeBeats : 0
            let used = Array(beats[first...(first + phrases * MasterClock.beatsPerPhrase + tail)])
            plan.entries.append(Entry(track: track, sourceBeats: used, mixStartBeat: plan.totalBeats - (remaining + phrases) * MasterClock.beatsPerPhrase,
                                      phrases: phrases, tailBeats: tail, stretchAllowed: track.tempoAdjustAllowed))
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
        return plan
    }

    /// The first and last beat indices worth running to: a beat list with steady spacing, quiet
    /// beats at either end left out. nil when fewer than two phrases and a crossfade remain.
    static func musicalBeats(_ beats: [Double], levels: [Double]?) -> (first: Int, last: Int)? {
        guard beats.count > 2 * MasterClock.beatsPerPhrase + crossfadeBeats else { return nil }
        var first = 0, last = beats.count - 1
        if let levels, levels.count == beats.count {
            let median = levels.sorted()[levels.count / 2]
            let floor = median + quietBeatDB
            while first < last, levels[first] < floor { first += 1 }
            while last > first, levels[last] < floor { last -= 1 }
        }
        guard last - first >= 2 * MasterClock.beatsPerPhrase + crossfadeBeats else { return nil }
        return (first, last)
    }
}
