/// What `render --json` prints: where everything in the mix comes from, exact to within 5 ms. The
/// moment `s` of a source plays at `startSeconds + (s − sourceStartSeconds) × stretch`, or, where
/// the stretch varies, by linear interpolation between the `[sourceSeconds, mixSeconds]` anchors of
/// `beatMap`.
public struct RenderTimeline: Codable, Sendable, Equatable {
    public struct Track: Codable, Sendable, Equatable {
        public var path: String
        public var startSeconds: Double
        public var endSeconds: Double
        public var sourceStartSeconds: Double
        public var stretch: Double
        public var beatMap: [[Double]]
        public var sourceBPM: Double
        public var targetBPM: Double
        public var tempoAdjustAllowed: Bool
        public var segment: String?
    }

    /// A stretch of the run at one cadence (a workout segment).
    public struct Segment: Codable, Sendable, Equatable {
        public var name: String?
        public var spm: Double
        public var startSeconds: Double
        public var endSeconds: Double
    }

    public struct Cue: Codable, Sendable, Equatable {
        public var text: String
        public var startSeconds: Double
        public var endSeconds: Double
    }

    public var durationSeconds: Double
    /// The cadence (the first segment's in a workout).
    public var spm: Double
    /// Beats of the master clock in the mix (whole 8-beat phrases).
    public var beats: Int
    public var sampleRate: Int
    public var click: Bool
    public var tracks: [Track]
    public var segments: [Segment] = []
    public var cues: [Cue] = []
}
