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

    /// Linear interpolation between integer lags; 0 outside the computed range.
    public func at(_ lag: Double) -> Float {
        guard lag >= 0 else { return 0 }
        let i = Int(lag)
        guard i + 1 < values.count else { return 0 }
        let f = Float(lag - Double(i))
        return values[i] * (1 - f) + values[i + 1] * f
    }
}
