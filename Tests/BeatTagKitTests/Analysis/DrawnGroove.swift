@testable import BeatTagKit

/// A groove drawn by hand as onset curves: hit positions in beats within a bar, band by band. The
/// tempo decisions' tests state each case this way, with the tempo a listener taps.
struct DrawnGroove {
    var bpm: Double
    var beatsPerBar = 4.0
    var kick: [Double]
    var snare: [Double]
    var hats: [Double]

    static let frameRate = 100.0

    /// Kick, snare and hats at fixed levels, each scaled like the onset detector's curves; the body
    /// is kick and snare.
    func curves(seconds: Double = 30) -> OnsetCurves {
        let rate = Self.frameRate
        let n = Int(seconds * rate)
        let beat = 60 * rate / bpm
        func draw(_ positions: [Double], _ level: Float) -> [Float] {
            var x = [Float](repeating: 0, count: n)
            var bar = 0.0
            while bar < Double(n) {
                for p in positions {
                    let i = Int((bar + p * beat).rounded())
                    if i < n { x[i] = level; if i + 1 < n { x[i + 1] = level / 2 } }
                }
                bar += beatsPerBar * beat
            }
            return Novelty.normalized(x)
        }
        let low = draw(kick, 5), snare = draw(snare, 4), high = draw(hats, 2)
        let drums = Novelty.normalized(zip(low, snare).map { $0 + $1 })
        let all = Novelty.normalized((0..<n).map { low[$0] + snare[$0] + 0.5 * high[$0] })
        return OnsetCurves(frameRate: rate, all: all, body: drums, drums: drums, low: low, snare: snare, high: high)
    }
}

extension OnsetCurves {
    /// A drawn level's beats: every `period` frames from the first frame to the last.
    func grid(every period: Double) -> [FramePosition] {
        stride(from: 0.0, to: Double(all.count), by: period).map { FramePosition($0) }
    }

    /// A drawn level's beats at `bpm`.
    func grid(bpm: Double) -> [FramePosition] { grid(every: 60 * frameRate / bpm) }
}
