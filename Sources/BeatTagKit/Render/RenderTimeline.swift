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
        /// "fresh", or when the catalog had too little new music: "later-part" (a part of a song
        /// the run played before) or "repeat".
        public var fill: RunPlan.Fill = .fresh
    }

    /// A stretch of the run at one cadence (a workout segment).
    public struct Segment: Codable, Sendable, Equatable {
        public var name: String?
        public var spm: Double
        public var startSeconds: Double
        public var endSeconds: Double
        /// Where music stops and the click carries the segment alone (nil: music to the end).
        public var clickFromSeconds: Double?
        public var musicSeconds: Double
        /// Short of music: the click alone carries more than 5% of it (`RunShortfall`).
        public var short: Bool

        public init(name: String?, spm: Double, startSeconds: Double, endSeconds: Double, clickFromSeconds: Double? = nil) {
            (self.name, self.spm, self.startSeconds, self.endSeconds, self.clickFromSeconds) = (name, spm, startSeconds, endSeconds, clickFromSeconds)
            musicSeconds = (clickFromSeconds ?? endSeconds) - startSeconds
            short = RunShortfall.isShort(music: musicSeconds, planned: endSeconds - startSeconds)
        }
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
    /// The seed of the picks (`render --seed`), when a command chose with one.
    public var seed: UInt64? = nil
    /// Seconds carried by music, the rest by the click alone (`measureShortfall`).
    public var musicSeconds: Double = 0
    /// Short of music: a segment, or the whole run, lacks more than 5% (`RunShortfall`).
    public var short = false

    mutating func measureShortfall() {
        musicSeconds = segments.isEmpty ? durationSeconds : segments.map(\.musicSeconds).reduce(0, +)
        short = RunShortfall.isShort(music: musicSeconds, planned: durationSeconds) || segments.contains(where: \.short)
    }
}
