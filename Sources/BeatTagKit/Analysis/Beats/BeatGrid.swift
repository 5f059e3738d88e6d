import Foundation

/// A straight-line fit to the beats: beat k is at `offset + k * period`. `steadiness` and the local
/// tempo range tell how far the music strays from that line (live drummers, rubato, tempo changes).
public struct BeatGrid: Codable, Equatable, Sendable {
    /// Time of the first fitted beat.
    public var offset: Seconds
    public var period: Seconds
    /// 1 = metronomic; falls with the spread of the beats around the line, relative to the period.
    public var steadiness: Double
    public var tempoMin: BPM
    public var tempoMax: BPM
    public var variableTempo: Bool

    public var bpm: BPM { BPM(period: period) }

    /// Beyond ±3% of local tempo swing the grid is called variable: a runner would feel it drift.
    public static let variableThreshold = 0.03

    public static func fit(beats times: [Seconds]) -> BeatGrid? {
        guard times.count >= 4 else { return nil }
        let beats = times.map(\.value)
        let intervals = zip(beats.dropFirst(), beats).map { $0 - $1 }
        let medianInterval = intervals.sorted()[intervals.count / 2]
        guard medianInterval > 0 else { return nil }
        // Beat numbers: a gap of about two periods means a missed beat, not a slower tempo.
        var index = [Double](repeating: 0, count: beats.count)
        for i in 1..<beats.count {
            index[i] = index[i - 1] + max(1, ((beats[i] - beats[i - 1]) / medianInterval).rounded())
        }
        let n = Double(beats.count)
        let meanK = index.reduce(0, +) / n, meanT = beats.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for i in 0..<beats.count {
            sxy += (index[i] - meanK) * (beats[i] - meanT)
            sxx += (index[i] - meanK) * (index[i] - meanK)
        }
        guard sxx > 0 else { return nil }
        let period = sxy / sxx
        let intercept = meanT - period * meanK
        let residuals = (0..<beats.count).map { abs(beats[$0] - (intercept + period * index[$0])) }
        let mad = residuals.sorted()[residuals.count / 2]
        // Local tempo over 8-beat windows: the range a listener would feel.
        var local: [Double] = []
        let span = 8
        if beats.count > span {
            for i in 0..<(beats.count - span) {
                let beatsSpanned = index[i + span] - index[i]
                local.append(60 * beatsSpanned / (beats[i + span] - beats[i]))
            }
        } else {
            local = [60 / period]
        }
        local.sort()
        let lo = local[Int(Double(local.count - 1) * 0.1)]
        let hi = local[Int(Double(local.count - 1) * 0.9)]
        let bpm = 60 / period
        return BeatGrid(offset: Seconds(intercept), period: Seconds(period), steadiness: max(0, 1 - 4 * mad / period),
                        tempoMin: BPM(lo), tempoMax: BPM(hi),
                        variableTempo: (hi - lo) / bpm > 2 * variableThreshold
                            || max(abs(hi - bpm), abs(bpm - lo)) / bpm > variableThreshold)
    }
}
