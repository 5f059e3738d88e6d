import Foundation

/// How strongly each tempo is supported by the periodicity of the novelty curve.
/// A beat period is credible when the curve also repeats at two beats and at the bar, so the
/// salience of a period sums the autocorrelation at its multiples. The bar counts as much as two
/// beats: in sixteenth-note grooves a dotted (¾-beat) period repeats too, but not at the bar, and
/// weighing the bar fully is what rules out 4:3 readings.
public struct TempoSalience: Sendable {
    public static let minBPM = TempoRanges.salience.lowerBound
    public static let maxBPM = TempoRanges.salience.upperBound
    public static let step = 0.25

    public let bpms: [Double]
    public let values: [Double]

    public init(acf: Autocorrelation, frameRate: Double) {
        var bpms: [Double] = []
        var values: [Double] = []
        var bpm = TempoSalience.minBPM
        while bpm <= TempoSalience.maxBPM + 1e-9 {
            let lag = 60 * frameRate / bpm
            // Beat, two beats, four beats (the bar); the half-beat adds a little (subdivisions support the beat).
            let s = Double(acf.at(lag)) + 0.5 * Double(acf.at(2 * lag)) + 0.5 * Double(acf.at(4 * lag))
                + 0.25 * Double(acf.at(lag / 2))
            bpms.append(bpm)
            values.append(max(0, s))
            bpm += TempoSalience.step
        }
        self.bpms = bpms
        self.values = values
    }

    public func value(at bpm: Double) -> Double {
        let position = (bpm - TempoSalience.minBPM) / TempoSalience.step
        let i = Int(position.rounded())
        guard i >= 0, i < values.count else { return 0 }
        // Best within ±1% so that slightly detuned relatives still find their peak.
        let radius = max(1, Int(bpm * 0.01 / TempoSalience.step))
        var best = 0.0
        for j in max(0, i - radius)...min(values.count - 1, i + radius) { best = max(best, values[j]) }
        return best
    }

    /// Local maxima, strongest first.
    public func peaks(limit: Int) -> [TempoCandidate] {
        var result: [TempoCandidate] = []
        for i in 1..<(values.count - 1) where values[i] > values[i - 1] && values[i] >= values[i + 1] && values[i] > 0 {
            // Parabolic refinement of the peak position.
            let a = values[i - 1], b = values[i], c = values[i + 1]
            let denom = a - 2 * b + c
            let delta = denom != 0 ? 0.5 * (a - c) / denom : 0
            result.append(TempoCandidate(bpm: BPM(bpms[i] + delta * TempoSalience.step), score: b))
        }
        return Array(result.sorted { $0.score > $1.score }.prefix(limit))
    }
}
