import Foundation

/// How likely each onset frame is to be a beat, learned from annotated beats (version 47).
///
/// The tracker used to place beats on the strongest onsets below 2 kHz (`OnsetCurves.body`); in a
/// played recording those may as well be a sung syllable, a strummed "and" or a bass note pushed
/// ahead of the bar. A logistic regression reads, at every frame, the onsets of the four band
/// groups in a window of ±3 frames, the onsets of all of them a little before and after, and how
/// the sound (the band levels, in eight groups) changes across the frame, and gives the
/// probability that a beat falls there. It is fitted on generated songs and on the real
/// recordings' fit splits together (`tempo_models.py activation`), each source weighted the same,
/// so that no one source's conventions decide where the beat is. The final grid is tracked on the
/// mean of this curve and the body curve, both scaled to unit spread (`OnsetCurves.beat`).
public enum BeatActivation {
    /// Onsets of each band group, read this many frames either side of the frame.
    static let near = 3
    /// Onsets of all groups together, read this far before and after.
    static let around = [-8, -6, -4, 4, 6, 8]
    /// Band levels grouped (the ~¼-octave bands split into this many runs, lowest first).
    static let levelGroups = 8
    /// Spectrum frames averaged on each side of the frame (3 at 25 a second: 120 ms).
    static let changeFrames = 3

    static let groupNames = ["low", "snare", "mid", "high"]

    public static let featureNames: [String] = {
        var names: [String] = []
        for k in -near...near {
            for g in groupNames { names.append("\(g)\(k < 0 ? "" : "+")\(k)") }
        }
        for k in around { names.append("sum\(k < 0 ? "" : "+")\(k)") }
        for g in 0..<levelGroups { names.append("change\(g)") }
        return names + ["changeSize", "level"]
    }()

    static let model = FittedModel.load(fitted, reads: featureNames, as: "BeatActivation")

    /// The features of every frame, in `featureNames`' order; nil without the band levels (curves
    /// given directly).
    public static func features(_ curves: OnsetCurves) -> [[Double]]? {
        var rows: [[Double]] = []
        let read = eachFrame(curves) { x in rows.append(x) }
        return read ? rows : nil
    }

    /// The probability of a beat at every frame; nil without the band levels.
    public static func probabilities(_ curves: OnsetCurves) -> [Float]? {
        var p: [Float] = []
        p.reserveCapacity(curves.body.count)
        let read = eachFrame(curves) { x in p.append(Float(model.probability(x))) }
        return read ? p : nil
    }

    /// Calls `visit` with every frame's features in order (one buffer, refilled: a frame costs no
    /// allocation); false, without a call, when the curves have no band levels.
    static func eachFrame(_ curves: OnsetCurves, _ visit: ([Double]) -> Void) -> Bool {
        guard let spectrum = curves.spectrum, spectrum.count > 0 else { return false }
        let groups = [curves.low, curves.snare, curves.mid, curves.high]
        let n = curves.body.count
        var sum = [Float](repeating: 0, count: n)
        for g in groups { for i in 0..<min(n, g.count) { sum[i] += g[i] } }
        func at(_ x: [Float], _ i: Int) -> Double { i >= 0 && i < x.count ? Double(x[i]) : 0 }
        let levels = groupedLevels(spectrum)
        let m = spectrum.count
        // The level of a spectrum frame (mean over groups), against the window's median.
        let level = (0..<m).map { j in levels[j].reduce(0, +) / Double(levelGroups) }
        let medianLevel = level.sorted()[m / 2]
        // How the sound changes across each spectrum frame: the mean of the frames after it less the
        // mean of those before, per group (a frame's features take their spectrum frame's).
        // None at the first and last spectrum frames, where one side is empty (a side of zeros would
        // read the whole level as a change).
        let changes = (0..<m).map { j -> [Double] in
            guard let after = mean(levels, from: j + 1, to: min(m, j + 1 + changeFrames)),
                  let before = mean(levels, from: max(0, j - changeFrames), to: j) else { return [Double](repeating: 0, count: levelGroups) }
            return (0..<levelGroups).map { after[$0] - before[$0] }
        }
        var x = [Double](repeating: 0, count: featureNames.count)
        for i in 0..<n {
            var k = 0
            func put(_ v: Double) { x[k] = v; k += 1 }
            for d in -near...near {
                for g in groups { put(at(g, i + d)) }
            }
            for d in around { put(at(sum, i + d)) }
            let time = curves.time(of: FramePosition(Double(i)))
            let j = min(m - 1, max(0, Int(((time - spectrum.startTime).value * spectrum.frameRate).rounded())))
            var size = 0.0
            for change in changes[j] {
                put(change)
                size += abs(change)
            }
            put(size)
            put(level[j] - medianLevel)
            precondition(k == x.count, "BeatActivation: \(k) features for \(x.count) names")
            visit(x)
        }
        return true
    }

    /// The curve the final grid is tracked on: the learned probability made a novelty like the
    /// onset curves, averaged with the body curve; the body curve alone without the band levels.
    /// Nothing before `soundStart` (the first frame whose window holds sound, as for the onsets):
    /// in leading silence the probability is flat until the sound's approach lowers it, and the
    /// detrending turns that into small bumps the tracker would place beats on.
    static func trackingCurve(_ curves: OnsetCurves, soundStart: Int? = nil) -> [Float] {
        guard let p = probabilities(curves) else { return curves.body }
        var activation = Novelty.detrended(p, frameRate: curves.frameRate)
        for i in 0..<min(soundStart ?? 0, activation.count) { activation[i] = 0 }
        activation = Novelty.normalized(activation)
        return Novelty.normalized(zip(curves.body, activation).map { $0 + $1 })
    }

    /// Each spectrum frame's band levels averaged in `levelGroups` runs of adjacent bands (the
    /// first runs one band longer where the bands do not divide evenly).
    static func groupedLevels(_ spectrum: SpectralFrames) -> [[Double]] {
        let d = spectrum.dimension
        var starts = [0]
        for g in 0..<levelGroups { starts.append(starts[g] + d / levelGroups + (g < d % levelGroups ? 1 : 0)) }
        return (0..<spectrum.count).map { j in
            (0..<levelGroups).map { g in
                let lo = starts[g], hi = starts[g + 1]
                guard hi > lo else { return 0 }
                var s = 0.0
                for k in lo..<hi { s += Double(spectrum.values[j * d + k]) }
                return s / Double(hi - lo)
            }
        }
    }

    /// Mean of rows `from..<to`; nil where the range is empty (the ends of the window).
    static func mean(_ rows: [[Double]], from: Int, to: Int) -> [Double]? {
        guard to > from else { return nil }
        var out = [Double](repeating: 0, count: levelGroups)
        for j in from..<to { for g in 0..<levelGroups { out[g] += rows[j][g] } }
        return out.map { $0 / Double(to - from) }
    }
}
