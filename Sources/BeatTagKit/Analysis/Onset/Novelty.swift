/// Turns onset strength into a zero-floor novelty curve: subtract a moving average (about one
/// second) and keep what rises above it, so steady sustained energy does not look like a pulse.
public enum Novelty {
    public static func detrended(_ x: [Float], frameRate: Double, window seconds: Double = 1.0) -> [Float] {
        let n = x.count
        guard n > 0 else { return [] }
        let half = max(1, Int(seconds * frameRate / 2))
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + Double(x[i]) }
        var out = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let lo = max(0, i - half), hi = min(n, i + half + 1)
            let mean = (prefix[hi] - prefix[lo]) / Double(hi - lo)
            out[i] = max(0, x[i] - Float(mean))
        }
        return out
    }

    /// Detrended and normalised: the curve the tempo and beat stages work on.
    public static func curve(_ x: [Float], frameRate: Double) -> [Float] {
        normalized(detrended(x, frameRate: frameRate))
    }

    /// Largest value within `radius` frames of `position`; nil when that window lies outside the curve.
    public static func peak(_ x: [Float], around position: FramePosition, radius: Int) -> Double? {
        let c = Int(position.value.rounded())
        let lo = max(0, c - radius), hi = min(x.count - 1, c + radius)
        guard lo <= hi else { return nil }
        var best: Float = 0
        for i in lo...hi { best = max(best, x[i]) }
        return Double(best)
    }

    /// Scales to unit standard deviation so that later weights do not depend on the level of the mix.
    public static func normalized(_ x: [Float]) -> [Float] {
        guard !x.isEmpty else { return x }
        let mean = x.reduce(0, +) / Float(x.count)
        let variance = x.reduce(Float(0)) { $0 + ($1 - mean) * ($1 - mean) } / Float(x.count)
        let sd = variance.squareRoot()
        return sd > 1e-9 ? x.map { $0 / sd } : x
    }
}
