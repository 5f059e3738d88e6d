import Foundation

/// Novelty folded by phase within tracked beats and averaged over the track: the rhythm pattern
/// as a histogram, `binsPerBeat` positions a beat over `span` consecutive beats. Local phase
/// comes from the tracked beats, so tempo drift does not smear it.
public struct MetricalProfile: Sendable {
    public let binsPerBeat: Int
    public let span: Int
    /// Mean novelty (peak within half a bin) per phase position, `binsPerBeat * span` values.
    public let values: [Double]

    /// `beats` in frames of `novelty`.
    public init(novelty: [Float], beats: [Double], binsPerBeat: Int = 8, span: Int = 2) {
        self.binsPerBeat = binsPerBeat
        self.span = span
        let count = binsPerBeat * span
        var sums = [Double](repeating: 0, count: count)
        var weights = [Double](repeating: 0, count: count)
        if beats.count > span, !novelty.isEmpty {
            for i in 0..<(beats.count - 1) {
                let start = beats[i], length = beats[i + 1] - beats[i]
                let radius = max(1, Int(length / Double(binsPerBeat) / 2))
                for b in 0..<binsPerBeat {
                    let position = start + length * Double(b) / Double(binsPerBeat)
                    guard let value = Novelty.peak(novelty, around: position, radius: radius) else { continue }
                    let bin = (i % span) * binsPerBeat + b
                    sums[bin] += value
                    weights[bin] += 1
                }
            }
        }
        values = zip(sums, weights).map { $1 > 0 ? $0 / $1 : 0 }
    }
}
