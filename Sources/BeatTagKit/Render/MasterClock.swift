/// The run's metronome: one beat per step at the runner's cadence, beat 0 at `origin` seconds of
/// the mix (0, or where a workout segment starts). Every beat of every track is placed on it;
/// phrases are 8 beats.
public struct MasterClock: Sendable, Equatable {
    public var spm: Double
    public var sampleRate: Int
    public var origin: Seconds
    public static let beatsPerPhrase = 8

    public init(spm: Double, sampleRate: Int, origin: Seconds = Seconds(0)) {
        self.spm = spm
        self.sampleRate = sampleRate
        self.origin = origin
    }

    public var beatSeconds: Seconds { Seconds(60 / spm) }
    public var phraseSeconds: Seconds { Seconds(60 / spm * Double(MasterClock.beatsPerPhrase)) }

    /// Beat `index` (0 = the first sample of the mix), in seconds and in frames of the mix.
    public func time(ofBeat index: Int) -> Seconds { Seconds(origin.value + Double(index) * 60 / spm) }
    public func frame(ofBeat index: Int) -> FramePosition { FramePosition((time(ofBeat: index).value * Double(sampleRate)).rounded()) }

    /// How many frames `count` beats last: a length, wherever on the clock (`frame(ofBeat:)` is a
    /// position, which a later segment's origin moves).
    public func frames(forBeats count: Int) -> Int { Int((Double(count) * 60 / spm * Double(sampleRate)).rounded()) }

    /// Whole phrases closest to `seconds` (at least one): a mix ends on a phrase.
    public func phrases(closestTo seconds: Double) -> Int { max(1, Int((seconds / phraseSeconds.value).rounded())) }
}
