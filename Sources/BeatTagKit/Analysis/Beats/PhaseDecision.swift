/// What the phase decisions did to the tracker's beats. Kept because on real recordings a grid the
/// analysis moved half a beat is more often off the beat than one it left where the tracker put it
/// (docs/benchmark.md, "Grids the analysis moved"): the review queue asks a person to listen.
public struct PhaseDecision: Codable, Equatable, Sendable {
    /// The whole grid moved half a beat (`BeatPhase`): the phase model read the "and"s as the beat.
    public var halfBeat: Bool
    /// The phase model's probability that the "and"s are the beat; nil where it was not asked (too
    /// few beats, or no onsets on them).
    public var halfBeatProbability: Double?
    /// The move by about a sixteenth (`SixteenthShift`), as a fraction of a beat; 0 where none.
    public var sixteenth: Double

    public init(halfBeat: Bool = false, halfBeatProbability: Double? = nil, sixteenth: Double = 0) {
        self.halfBeat = halfBeat
        self.halfBeatProbability = halfBeatProbability
        self.sixteenth = sixteenth
    }

    /// The tracker's beats kept as they were.
    public static let kept = PhaseDecision()
}
