/// The novelty curves the tempo stages read, all built once from one `OnsetEnvelope`:
/// every band for periodicity and beat placement, and band groups for the metrical evidence
/// (kicks and bass below 200 Hz, snare bodies to 1 kHz, hats above 2 kHz).
public struct OnsetCurves: Sendable {
    public var frameRate: Double
    /// Time of frame 0.
    public var startTime = Seconds.zero
    /// All bands.
    public var all: [Float]
    /// Below 2 kHz: pulse clarity without hats.
    public var body: [Float]
    /// Kick and snare (below 1 kHz).
    public var drums: [Float]
    public var low: [Float]
    public var snare: [Float]
    /// 1–2 kHz (the body curve for curves given directly).
    public var mid: [Float]
    public var high: [Float]
    /// What the final grid is tracked on: the body curve and the learned probability of a beat
    /// (`BeatActivation`), averaged; the body curve alone for curves given directly. Made once, by
    /// the initialisers: a curve changed afterwards does not change it.
    public private(set) var beat: [Float] = []
    /// Note changes (`ChromaDetector`'s pitch flux, brought to this frame rate): the pulse of music
    /// where nothing is struck. The all-band curve when unknown (curves given directly).
    public var pitch: [Float]
    /// Where the music starts (frames): nil when unknown (curves given directly).
    public var musicStart: FramePosition?
    /// Log band levels (`OnsetEnvelope.spectrum`) and the chromagram (`ChromaDetector`): where the
    /// sound and the notes change. Nil when unknown (curves given directly).
    public var spectrum: SpectralFrames?
    public var chroma: SpectralFrames?
    /// How far the strongest onsets rise above the flux around them (`OnsetHeight`); nil when
    /// unknown (curves given directly).
    public var onsetHeight: Double?

    /// `startsTrack`: the envelope begins where the track begins (false for a later window of a
    /// long track, which has no start of its own to read).
    public init(_ envelope: OnsetEnvelope, chroma: SpectralFrames? = nil, pitchFlux: SpectralFrames? = nil, startsTrack: Bool = true) {
        let rate = envelope.frameRate
        let low = envelope.flux(.low), snare = envelope.flux(.snare), mid = envelope.flux(.mid), high = envelope.flux(.high)
        frameRate = rate
        startTime = envelope.startTime
        all = Novelty.curve(envelope.strength, frameRate: rate)
        body = Novelty.curve((0..<low.count).map { low[$0] + snare[$0] + mid[$0] }, frameRate: rate)
        drums = Novelty.curve(zip(low, snare).map { $0 + $1 }, frameRate: rate)
        self.low = Novelty.curve(low, frameRate: rate)
        self.snare = Novelty.curve(snare, frameRate: rate)
        self.mid = Novelty.curve(mid, frameRate: rate)
        self.high = Novelty.curve(high, frameRate: rate)
        pitch = pitchFlux.map { Novelty.curve(Self.resample($0, frames: low.count, frameRate: rate, startTime: envelope.startTime), frameRate: rate) } ?? all
        musicStart = startsTrack ? Self.musicStart(energy: envelope.energy, frameRate: rate, startTime: envelope.startTime,
                                                     soundStart: envelope.soundStart) : nil
        spectrum = envelope.spectrum
        self.chroma = chroma
        onsetHeight = OnsetHeight.measure(envelope.strength.dropFirst(envelope.soundStart ?? 0), frameRate: rate)
        beat = BeatActivation.trackingCurve(self, soundStart: envelope.soundStart)
    }

    /// Where the music starts. After a lead-in of digital silence (`soundStart` > 0: a rendered
    /// lead-in, a decoder's priming zeros), where the sound starts, if it comes in within 30 dB of
    /// the track's loud level (its 90th percentile); a lead-in shorter than a window leaves no frame
    /// of silence to jump from, and a pad or a piano that comes in at a quarter of the loud level
    /// never jumps 12 dB later (version 43 found no start on 17% of such songs). Otherwise where the
    /// level first jumps: a frame within 30 dB of the loud level and four times (12 dB) the median of
    /// the half second before it. A lead-in of silence, room tone or tape hiss ends there; under
    /// noise the music barely lifts (hidden: nil); a track within 6 dB of its loud level from the
    /// first frame starts with its first sample.
    /// Read from the level, not the flux, which gives no onset where sound starts after silence
    /// (`OnsetDetector`). The window reaches the level about when its leading edge passes the
    /// onset: half a window later. Only the first 30 s are searched.
    static func musicStart(energy: [Float], frameRate: Double, startTime: Seconds, soundStart: Int? = nil) -> FramePosition? {
        guard energy.count > 8 else { return nil }
        let loud = energy.sorted()[Int(Double(energy.count - 1) * 0.9)]
        guard loud >= OnsetDetector.silenceRMS else { return nil }
        let halfWindow = Double(OnsetDetector.windowSize) / 2 / AnalysisResampler.analysisRate * frameRate
        let within30dB = loud * 0.0316
        if let first = soundStart, first > 0, first < energy.count, energy[first] >= within30dB {
            // Frame `first` is the first whose window's first hop holds sound: the sound starts in
            // that hop, half a window before the frame's centre.
            return FramePosition(Double(first) + 0.5 - halfWindow)
        }
        if energy[0] >= loud * 0.5 { return FramePosition(-startTime.value * frameRate) }
        let halfSecond = max(1, Int(frameRate / 2))
        for i in 1..<min(energy.count, Int(30 * frameRate)) where energy[i] >= within30dB {
            let before = energy[max(0, i - halfSecond)..<i].sorted()
            if energy[i] >= 4 * before[before.count / 2] {
                return FramePosition(Double(i) + halfWindow)
            }
        }
        return nil
    }

    /// A one-value-per-frame series read at `frames` frames from `startTime` at `frameRate`, linearly
    /// between its own frames; 0 outside them.
    static func resample(_ series: SpectralFrames, frames: Int, frameRate: Double, startTime: Seconds) -> [Float] {
        precondition(series.dimension == 1, "one value per frame")
        let values = series.values
        return (0..<frames).map { i in
            let position = ((startTime - series.startTime).value + Double(i) / frameRate) * series.frameRate
            let j = Int(position.rounded(.down))
            guard j >= 0, j < values.count else { return 0 }
            guard j + 1 < values.count else { return position == Double(j) ? values[j] : 0 }
            let f = Float(position - Double(j))
            return values[j] * (1 - f) + values[j + 1] * f
        }
    }

    /// Curves given directly (tests).
    public init(frameRate: Double, all: [Float], body: [Float]? = nil, drums: [Float]? = nil,
                low: [Float]? = nil, snare: [Float]? = nil, high: [Float]? = nil) {
        self.frameRate = frameRate
        self.all = all
        self.body = body ?? all
        self.drums = drums ?? all
        self.low = low ?? self.drums
        self.snare = snare ?? self.drums
        self.mid = self.body
        self.high = high ?? [Float](repeating: 0, count: all.count)
        self.pitch = all
        beat = self.body
    }

    /// When a frame (or a refined position between frames) happens in the track.
    public func time(of frame: FramePosition) -> Seconds { startTime + Seconds(frame.value / frameRate) }
    /// The frame position of a time: the inverse of `time(of:)`.
    public func frame(at time: Seconds) -> FramePosition { FramePosition((time - startTime).value * frameRate) }
}
