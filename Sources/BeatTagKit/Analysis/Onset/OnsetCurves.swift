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
    public var high: [Float]

    public init(_ envelope: OnsetEnvelope) {
        let rate = envelope.frameRate
        let low = envelope.flux(.low), snare = envelope.flux(.snare), mid = envelope.flux(.mid), high = envelope.flux(.high)
        frameRate = rate
        startTime = envelope.startTime
        all = Novelty.curve(envelope.strength, frameRate: rate)
        body = Novelty.curve((0..<low.count).map { low[$0] + snare[$0] + mid[$0] }, frameRate: rate)
        drums = Novelty.curve(zip(low, snare).map { $0 + $1 }, frameRate: rate)
        self.low = Novelty.curve(low, frameRate: rate)
        self.snare = Novelty.curve(snare, frameRate: rate)
        self.high = Novelty.curve(high, frameRate: rate)
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
        self.high = high ?? [Float](repeating: 0, count: all.count)
    }

    /// When a frame (or a refined position between frames) happens in the track.
    public func time(of frame: FramePosition) -> Seconds { startTime + Seconds(frame.value / frameRate) }
}
