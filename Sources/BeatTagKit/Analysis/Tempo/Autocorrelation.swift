/// Unbiased autocorrelation of a novelty curve up to `maxLag`, with fractional-lag lookup.
public struct Autocorrelation: Sendable {
    public let values: [Float]

    public init(_ x: [Float], maxLag: Int) {
        let n = x.count
        let lags = min(maxLag, max(0, n - 1))
        var r = [Float](repeating: 0, count: lags + 1)
        x.withUnsafeBufferPointer { p in
            for lag in 0...lags {
                var acc: Float = 0
                let count = n - lag
                for i in 0..<count { acc += p[i] * p[i + lag] }
                r[lag] = count > 0 ? acc / Float(count) : 0
            }
        }
        values = r
    }

    /// Autocorrelation coefficient of `x` (mean removed, 1 at lag 0, clamped to ±1) at a fractional
    /// lag, the best within ±1 frame: the subdivisions of a humanised or swung groove sit a frame off
    /// the exact fraction. 0 where the lag leaves too little overlap (under half the curve).
    public static func coefficient(_ x: [Float], lag: Double) -> Double {
        let n = x.count
        guard n > 8 else { return 0 }
        var mean = 0.0
        for v in x { mean += Double(v) }
        mean /= Double(n)
        var variance = 0.0
        for v in x { variance += (Double(v) - mean) * (Double(v) - mean) }
        guard variance > 0 else { return 0 }
        let centre = Int(lag.rounded())
        var best: Double?
        for l in max(1, centre - 1)...max(1, centre + 1) where 2 * l <= n {
            var acc = 0.0
            x.withUnsafeBufferPointer { p in
                for i in 0..<(n - l) { acc += (Double(p[i]) - mean) * (Double(p[i + l]) - mean) }
            }
            best = max(best ?? -1, acc / variance * Double(n) / Double(n - l))
        }
        return min(1, max(-1, best ?? 0))
    }

    /// Linear interpolation between integer lags; 0 outside the computed range.
    public func at(_ lag: Double) -> Float {
        guard lag >= 0 else { return 0 }
        let i = Int(lag)
        guard i + 1 < values.count else { return 0 }
        let f = Float(lag - Double(i))
        return values[i] * (1 - f) + values[i + 1] * f
    }
}
