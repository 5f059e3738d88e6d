/// A run in segments, each with a length and a target: a heart-rate zone (its cadence comes from
/// the runner's profile) or a cadence.
public struct WorkoutPlan: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case zone(Int)
        case spm(Double)
    }

    public enum Kind: String, Sendable {
        case warmUp, work, recovery, coolDown, steady
    }

    public struct Segment: Sendable, Equatable {
        public var name: String
        public var minutes: Double
        public var target: Target
        /// What the segment is for (the cue's words); `steady` for plan files.
        public var kind: Kind = .steady

        public init(name: String, minutes: Double, target: Target, kind: Kind = .steady) {
            self.name = name
            self.minutes = minutes
            self.target = target
            self.kind = kind
        }

        public var seconds: Double { minutes * 60 }
        public var zone: Int? { if case .zone(let z) = target { return z } else { return nil } }
    }

    public var name: String
    public var segments: [Segment]

    public init(name: String, segments: [Segment]) {
        self.name = name
        self.segments = segments
    }

    public var totalSeconds: Double { segments.map(\.seconds).reduce(0, +) }

    /// The cadence a segment runs at for this runner.
    public func spm(of segment: Segment, profile: RunnerProfile.Resolved) -> Double { spm(of: segment, zoneSPM: profile.zoneSPM) }

    /// A segment's cadence: its own, or its zone's (the runner's `zoneSPM`, else the default).
    public func spm(of segment: Segment, zoneSPM: [Int: Double]) -> Double {
        switch segment.target {
        case .zone(let zone): return RunnerProfile.spm(zone: zone, in: zoneSPM)
        case .spm(let spm): return spm
        }
    }
}
