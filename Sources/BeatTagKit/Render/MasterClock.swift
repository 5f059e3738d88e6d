/// The run's metronome: one beat per step at the runner's cadence, from the start of the mix.
/// Every beat of every track is placed on it; phrases are 8 beats.
public struct MasterClock: Sendable, Equatable {
    public var spm: Double
    public var sampleRate: Int
    public static let beatsPerPhrase = 8

    public init(spm: Double, sampleRate: Int) {
        self.spm = spm
        self.sampleRate = sampleRate
    }

    public var beatSeconds: Seconds { Seconds(60 / spm) }
    public var phraseSeconds: Seconds { Seconds(60 / spm * Double(MasterClock.beatsPerPhrase)) }

    /// Beat `index` (0 = the first sample of the mix), in seconds and in frames of the mix.
    public func time(ofBeat index: Int) -> Seconds { Seconds(Double(index) * 60 / spm) }
    public func frame(ofBeat index: Int) -> FramePosition { FramePosition((time(ofBeat: index).value * Double(sampleRate)).rounded()) }

    /// Whole phrases closest to `seconds` (at least one): a mix ends on a phrase.
    public func phrases(closestTo seconds: Double) -> Int { max(1, Int((seconds / phraseSeconds.value).rounded())) }
}
