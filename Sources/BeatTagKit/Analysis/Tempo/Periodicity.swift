/// Autocorrelation coefficients of the onset curves at any lag. Each curve is centred and its
/// variance taken once, not on every one of the hundred-odd lookups the family and octave
/// decisions make per track.
struct Periodicity {
    enum Curve: CaseIterable { case all, low, snare, high, pitch }

    private struct Centred {
        var values: [Double]
        var variance: Double
    }

    private let centred: [Centred]

    init(_ curves: OnsetCurves) {
        centred = Curve.allCases.map { curve in
            let x: [Float]
            switch curve {
            case .all: x = curves.all
            case .low: x = curves.low
            case .snare: x = curves.snare
            case .high: x = curves.high
            case .pitch: x = curves.pitch
            }
            var mean = 0.0
            for v in x { mean += Double(v) }
            mean /= Double(max(x.count, 1))
            let values = x.map { Double($0) - mean }
            return Centred(values: values, variance: values.reduce(0) { $0 + $1 * $1 })
        }
    }

    /// Coefficient (1 at lag 0, clamped to ±1) at a fractional lag, the best within ±1 frame: the
    /// subdivisions of a humanised or swung groove sit a frame off the exact fraction. 0 where the
    /// lag leaves too little overlap (under half the curve).
    func coefficient(_ curve: Curve, lag: Double) -> Double {
        let c = centred[Curve.allCases.firstIndex(of: curve)!]
        let n = c.values.count
        guard n > 8, c.variance > 0 else { return 0 }
        let centre = Int(lag.rounded())
        var best: Double?
        for l in max(1, centre - 1)...max(1, centre + 1) where 2 * l <= n {
            var acc = 0.0
            c.values.withUnsafeBufferPointer { p in
                for i in 0..<(n - l) { acc += p[i] * p[i + l] }
            }
            best = max(best ?? -1, acc / c.variance * Double(n) / Double(n - l))
        }
        return min(1, max(-1, best ?? 0))
    }
}
