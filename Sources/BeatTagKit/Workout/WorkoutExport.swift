import Foundation

/// A filled workout as M3U8 (segments named in comment lines players skip, each with its cue) and
/// as the JSON `workout --json` prints.
public enum WorkoutExport {
    public struct Document: Codable, Sendable {
        public struct Track: Codable, Sendable {
            public var path: String
            public var bpm: Double
            public var durationSeconds: Double
            public var shiftPercent: Double
        }
        public struct Segment: Codable, Sendable {
            public var name: String
            public var zone: Int?
            /// The zone's heart rates, beats per minute (nil without a zone or a maximum heart rate).
            public var minHR: Int?
            public var maxHR: Int?
            public var spm: Double
            public var plannedSeconds: Double
            public var filledSeconds: Double
            public var short: Bool
            public var cue: String
            public var tracks: [Track]
        }
        public var name: String
        /// Nil for a plan of cadences alone, which needs no heart rates.
        public var maxHR: Int?
        public var maxHREstimated: Bool?
        /// The resting rate the zones were taken from, if any, and how they were taken (as `zones --json` says).
        public var restHR: Int?
        public var heartRateMethod: HeartRateZones.Method?
        public var plannedSeconds: Double
        public var filledSeconds: Double
        public var largestBoundaryErrorSeconds: Double
        /// Filled more than 5% short (a segment or the whole): the command exits 3.
        public var short: Bool
        public var segments: [Segment]
        /// The seed the tracks were picked with (`workout --seed`).
        public var seed: UInt64? = nil
    }

    /// `profile`: nil for a plan of cadences alone.
    public static func document(_ workout: WorkoutBuilder.Workout, profile: RunnerProfile.Resolved?) -> Document {
        func r(_ x: Double, _ places: Double = 10) -> Double { (x * places).rounded() / places }
        let zones = profile.map(HeartRateZones.init)
        return Document(
            name: workout.plan.name, maxHR: profile?.maxHR, maxHREstimated: profile?.maxHREstimated, restHR: profile?.restHR,
            heartRateMethod: zones?.method,
            plannedSeconds: r(workout.plannedSeconds), filledSeconds: r(workout.filledSeconds),
            largestBoundaryErrorSeconds: r(workout.largestBoundaryError), short: workout.isShort,
            segments: workout.segments.map { s in
                let heartRate = zones?.range(of: s.segment.zone)
                return Document.Segment(name: s.segment.name, zone: s.segment.zone, minHR: heartRate?.min, maxHR: heartRate?.max,
                                 spm: s.spm, plannedSeconds: r(s.plannedSeconds),
                                 filledSeconds: r(s.filledSeconds), short: s.isShort, cue: s.cue,
                                 tracks: s.tracks.map { m in
                                     Document.Track(path: FileWalker.absolutePath(m.track.path), bpm: m.bpm,
                                                    durationSeconds: r(m.track.durationSeconds ?? 0, 1000), shiftPercent: r(m.shiftPercent, 100))
                                 })
            })
    }

    /// `zones`: the runner's, to name each zone's heart rates; nil for a plan of cadences alone.
    public static func m3u8(_ workout: WorkoutBuilder.Workout, playlistPath: String, absolute: Bool, zones: HeartRateZones? = nil) -> String {
        let count = workout.segments.count
        let sections = workout.segments.enumerated().map { index, s -> (comments: [String], entries: [CadenceMatch]) in
            let zone = s.segment.zone.map { "zone \($0)\(zones?.range(of: $0).map { " (heart rate \($0.min)–\($0.max))" } ?? ""), " } ?? ""
            var comments = ["segment \(index + 1)/\(count): \(s.segment.name) — \(zone)\(String(format: "%g", s.spm)) SPM, "
                            + "\(DurationText.clock(s.plannedSeconds)) planned, \(DurationText.clock(s.filledSeconds)) filled"
                            + (s.isShort ? " (short)" : "")]
            comments.append("cue: \(s.cue)")
            return (comments, s.tracks)
        }
        let header = ["beattag workout \"\(workout.plan.name)\": \(count) segment\(count == 1 ? "" : "s"), \(DurationText.clock(workout.plannedSeconds)) planned, "
                      + "\(DurationText.clock(workout.filledSeconds)) filled"]
        return M3U8Writer.render(sections: sections, title: "\(workout.plan.name) (beattag workout)", header: header,
                                 playlistPath: playlistPath, absolute: absolute)
    }
}
