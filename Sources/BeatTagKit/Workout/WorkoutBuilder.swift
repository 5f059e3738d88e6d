import Foundation

/// Fills each segment of a plan with tracks at its cadence under the 1:1 rules: whole tracks whose
/// lengths add up closest to the segment, the scarcest segments choosing first and leaving the
/// tracks other segments need; no song twice in the workout, artists spread, liked tracks first
/// among equals, disliked ones never.
public struct WorkoutBuilder {
    public var rules: CadenceRules
    public var filter: MatchFilter
    /// Only this many of a segment's best-ranked candidates are weighed (enough for hours of music).
    public var candidatesPerSegment = 64
    /// Varies the picks among good candidates (`SeededOrder`); the same seed, the same workout.
    public var seed: UInt64 = 1
    /// Why a candidate's file cannot go into the playlist (`TrackRecord.fileProblemSinceScan` in
    /// the command), nil when it can: such a track is left out and the next considered.
    public var unusableFile: (TrackRecord) -> String? = { _ in nil }

    public init(maxShiftPercent: Double = CadenceRules.defaultMaxShiftPercent, allowHalfTime: Bool = false, filter: MatchFilter = MatchFilter()) {
        rules = CadenceRules(spm: 170, maxShiftPercent: maxShiftPercent, allowHalfTime: allowHalfTime)
        self.filter = filter
    }

    public struct FilledSegment: Sendable {
        public var segment: WorkoutPlan.Segment
        public var spm: Double
        public var cue: String
        public var tracks: [CadenceMatch]
        public var plannedSeconds: Double { segment.seconds }
        public var filledSeconds: Double { WorkoutBuilder.seconds(tracks) }
        /// Tracks in the catalog that fit this cadence at all (before the workout's other segments took theirs).
        public var available: Int
        /// Of those, how many play in the workout's other segments (a recording plays once).
        public var takenElsewhere = 0
        /// Filled more than 5% under its length (`RunShortfall`).
        public var isShort: Bool { RunShortfall.isShort(music: filledSeconds, planned: plannedSeconds) }
    }

    public struct Workout: Sendable {
        public var plan: WorkoutPlan
        public var segments: [FilledSegment]
        /// Candidates whose files could not be used, once each, and why.
        public var leftOut: [RunPlan.LeftOut] = []
        public var plannedSeconds: Double { plan.totalSeconds }
        public var filledSeconds: Double { segments.map(\.filledSeconds).reduce(0, +) }
        /// Largest gap between where a segment was planned to end and where its last track ends.
        public var largestBoundaryError: Double {
            var planned = 0.0, filled = 0.0, worst = 0.0
            for s in segments {
                planned += s.plannedSeconds
                filled += s.filledSeconds
                worst = max(worst, abs(filled - planned))
            }
            return worst
        }
        public var shortSegments: [FilledSegment] { segments.filter(\.isShort) }
        /// A segment, or the whole workout, filled more than 5% short.
        public var isShort: Bool { !shortSegments.isEmpty || RunShortfall.isShort(music: filledSeconds, planned: plannedSeconds) }
    }

    /// How long these tracks play, one after another.
    static func seconds(_ list: [CadenceMatch]) -> Double { list.map { $0.track.durationSeconds ?? 0 }.reduce(0, +) }

    /// What a track costs a segment for each other segment, still to fill, that could use it: a
    /// track only this segment can use is taken before one another segment needs.
    static let contentionCost = 12

    public func build(_ plan: WorkoutPlan, profile: RunnerProfile.Resolved, catalog: Catalog) throws -> Workout {
        try build(plan, zoneSPM: profile.zoneSPM, catalog: catalog)
    }

    /// Each segment's tracks come from `Catalog.cadenceMatches`, the door every command uses. The
    /// music needs only the zones' cadences, not the heart rates.
    public func build(_ plan: WorkoutPlan, zoneSPM: [Int: Double], catalog: Catalog) throws -> Workout {
        let spms = plan.segments.map { plan.spm(of: $0, zoneSPM: zoneSPM) }
        // One read per cadence (a 4x4's nine segments have three), and its recordings as a set.
        var byCadence: [Double: (matches: [CadenceMatch], recordings: Set<String>)] = [:]
        for spm in spms where byCadence[spm] == nil {
            var segmentRules = rules
            segmentRules.spm = spm
            let found = try catalog.cadenceMatches(segmentRules, filter: filter).matches.filter { ($0.track.durationSeconds ?? 0) > 0 }
            byCadence[spm] = (found, Set(found.map(\.track.contentIdentity)))
        }
        let matches = spms.map { byCadence[$0]!.matches }
        // Segments at one cadence (the four work intervals of a 4x4) share its music: when it is too
        // little for all of them, each aims at its share rather than the first taking everything.
        var demand: [Double: Double] = [:]
        for (index, segment) in plan.segments.enumerated() { demand[spms[index], default: 0] += segment.seconds }
        let targets = plan.segments.indices.map { index in
            plan.segments[index].seconds * min(1, Self.seconds(matches[index]) / demand[spms[index]]!)
        }
        // The scarcest segments (least music per minute wanted) choose first.
        let scarcity = plan.segments.indices.map { Self.seconds(matches[$0]) / plan.segments[$0].seconds }
        let order = plan.segments.indices.sorted { (scarcity[$0], $0) < (scarcity[$1], $1) }
        var usedSongs = Set<String>(), usedRecordings = Set<String>()
        var chosen = [[CadenceMatch]](repeating: [], count: plan.segments.count)
        var candidates = [[CadenceMatch]](repeating: [], count: plan.segments.count)
        var open = Set(plan.segments.indices)
        // Each file looked at once, however many segments weigh it.
        var usableByPath: [String: Bool] = [:], leftOut: [RunPlan.LeftOut] = []
        func usable(_ track: TrackRecord) -> Bool {
            if let known = usableByPath[track.path] { return known }
            let problem = unusableFile(track)
            if let problem { leftOut.append(RunPlan.LeftOut(path: track.path, reason: problem, needsRescan: true)) }
            usableByPath[track.path] = problem == nil
            return problem == nil
        }
        for index in order {
            open.remove(index)
            // One version of a song per segment, never one used before in the workout.
            var seen = usedSongs
            var best: [CadenceMatch] = []  // the first `candidatesPerSegment`, read no further
            for ranked in matches[index] where best.count < candidatesPerSegment {
                guard !usedRecordings.contains(ranked.track.contentIdentity), !seen.contains(SongIdentity.key(for: ranked.track)) else { continue }
                // A file gone since the scan is passed over before its song counts as taken: another
                // version of the song may come later in the ranking, and another copy of the
                // recording (the matcher offers one) stands in here.
                var match = ranked
                if !usable(match.track) {
                    var segmentRules = rules
                    segmentRules.spm = spms[index]
                    guard let standIn = ((try? catalog.otherCopies(of: match, rules: segmentRules, filter: filter)) ?? []).first(where: { usable($0.track) })
                    else { continue }
                    match = standIn
                }
                seen.insert(SongIdentity.key(for: match.track))
                best.append(match)
            }
            let choices = SeededOrder.draw(best, seed: seed &+ UInt64(index))
            candidates[index] = choices
            let wantedElsewhere = open.map { byCadence[spms[$0]]!.recordings }
            let costs = choices.enumerated().map { rank, match in
                rank + 1 + WorkoutBuilder.contentionCost * wantedElsewhere.filter { $0.contains(match.track.contentIdentity) }.count
            }
            chosen[index] = SegmentFill.choose(durations: choices.map { $0.track.durationSeconds ?? 0 }, costs: costs,
                                               target: targets[index]).map { choices[$0] }
            for match in chosen[index] {
                usedSongs.insert(SongIdentity.key(for: match.track))
                usedRecordings.insert(match.track.contentIdentity)
            }
        }
        refitToPlannedEnds(&chosen, candidates: candidates, targets: targets)
        // In plan order: artists spread across segment changes too.
        var recentArtists: [String] = []
        let filled = plan.segments.indices.map { index -> FilledSegment in
            let ordered = PlaylistBuilder.spreadArtists(chosen[index], after: recentArtists)
            recentArtists = Array((recentArtists + ordered.map(PlaylistBuilder.artistKey)).suffix(2))
            let elsewhere = Set(plan.segments.indices.filter { $0 != index }.flatMap { chosen[$0].map(\.track.contentIdentity) })
            return FilledSegment(segment: plan.segments[index], spm: spms[index], cue: CueText.text(segmentAt: index, of: plan, spm: spms[index]),
                                 tracks: ordered, available: matches[index].count,
                                 takenElsewhere: matches[index].filter { elsewhere.contains($0.track.contentIdentity) }.count)
        }
        return Workout(plan: plan, segments: filled, leftOut: leftOut)
    }

    /// In plan order, each segment is fitted again to end where the plan ends it, from its own
    /// candidates less what the other segments play: a segment that ran over is made up by the next
    /// one, and the changes stay near the plan. Only the fitting error is carried (at most
    /// `SegmentFill.largestOverrun` either way): a segment short of music is said short, not made up
    /// by stretching the next.
    private func refitToPlannedEnds(_ chosen: inout [[CadenceMatch]], candidates: [[CadenceMatch]], targets: [Double]) {
        var songKeys: [String: String] = [:]  // path → song key, each worked out once
        func song(_ match: CadenceMatch) -> String {
            if let known = songKeys[match.track.path] { return known }
            let key = SongIdentity.key(for: match.track)
            songKeys[match.track.path] = key
            return key
        }
        // What the workout plays, counted: a segment's own tracks are taken out while it is refitted.
        var songs: [String: Int] = [:], recordings: [String: Int] = [:]
        func count(_ list: [CadenceMatch], _ step: Int) {
            for match in list { songs[song(match), default: 0] += step; recordings[match.track.contentIdentity, default: 0] += step }
        }
        chosen.forEach { count($0, 1) }
        let limit = Double(SegmentFill.largestOverrun)
        var carried = 0.0  // how far the segments so far ran over their targets (negative: under)
        for index in chosen.indices {
            defer { carried += Self.seconds(chosen[index]) - targets[index] }
            guard abs(carried) >= 1 else { continue }  // on plan: the first fit, rank and all, stands
            count(chosen[index], -1)
            let free = candidates[index].filter { songs[song($0), default: 0] == 0 && recordings[$0.track.contentIdentity, default: 0] == 0 }
            let wanted = targets[index] - min(max(carried, -limit), limit)
            let refit = SegmentFill.choose(durations: free.map { $0.track.durationSeconds ?? 0 }, target: wanted).map { free[$0] }
            // Kept only when it ends nearer the planned end than the first fit does.
            if abs(Self.seconds(refit) - wanted) < abs(Self.seconds(chosen[index]) - wanted) { chosen[index] = refit }
            count(chosen[index], 1)
        }
    }
}
