/// A short-time spectral description over time: one vector of `dimension` values per frame
/// (log band levels, a chromagram). Kept at the analysis frame rate or coarser, so it grows with
/// the analysed window as the onset curves do (12 values at 25 frames per second for a chromagram).
public struct SpectralFrames: Sendable {
    public var frameRate: Double
    /// Time of frame 0 (window centre).
    public var startTime: Seconds
    public var dimension: Int
    /// Frame after frame, `dimension` values each.
    public var values: [Float]

    public init(frameRate: Double, startTime: Seconds, dimension: Int, values: [Float] = []) {
        self.frameRate = frameRate
        self.startTime = startTime
        self.dimension = dimension
        self.values = values
    }

    public var count: Int { dimension > 0 ? values.count / dimension : 0 }

    public mutating func append(_ frame: UnsafeBufferPointer<Float>) {
        precondition(frame.count == dimension)
        values.append(contentsOf: frame)
    }

    /// Index of the first frame centred at or after `time`, for frames from `startTime` at
    /// `frameRate` (negative before the first, beyond the last after it: callers clamp).
    public static func firstFrame(atOrAfter time: Seconds, startTime: Seconds, frameRate: Double) -> Int {
        Int(((time - startTime).value * frameRate).rounded(.up))
    }

    /// Forgets the frames whose centre lies before `time` (a long track's analysis keeps a window).
    public mutating func dropFrames(before time: Seconds) {
        let k = min(count, max(0, Self.firstFrame(atOrAfter: time, startTime: startTime, frameRate: frameRate)))
        guard k > 0 else { return }
        values.removeFirst(k * dimension)
        startTime = startTime + Seconds(Double(k) / frameRate)
    }

    /// How much the sound changes at `time`: the distance between the mean frame of the `window`
    /// before it and the mean frame of the `window` after it; nil when either side holds fewer than
    /// two frames (near the ends, or a window shorter than two frames).
    public func change(at time: Seconds, window: Seconds) -> Double? {
        guard let before = mean(from: time - window, to: time), let after = mean(from: time, to: time + window) else { return nil }
        var sum = 0.0
        for k in 0..<dimension { sum += (after[k] - before[k]) * (after[k] - before[k]) }
        return sum.squareRoot()
    }

    /// Mean of the frames whose centre lies in [from, to).
    func mean(from: Seconds, to: Seconds) -> [Double]? {
        let first = max(0, Self.firstFrame(atOrAfter: from, startTime: startTime, frameRate: frameRate))
        let end = min(count, Self.firstFrame(atOrAfter: to, startTime: startTime, frameRate: frameRate))
        guard end - first >= 2 else { return nil }
        var out = [Double](repeating: 0, count: dimension)
        for frame in first..<end {
            for k in 0..<dimension { out[k] += Double(values[frame * dimension + k]) }
        }
        return out.map { $0 / Double(end - first) }
    }
}
