import Foundation

/// Streaming builder of an `OnsetEnvelope` (aubio-style: new / do / get).
/// Bins are summed into ~¼-octave bands before the log: less noise in the flux than per-bin, and
/// a tenth of the logarithms.
public final class OnsetDetector {
    public static let windowSize = 512
    public let sampleRate: Double
    public let hop: Int
    private let fft: RealFFT
    private let window: [Float]
    private var windows: SlidingWindow
    /// First bin of each filter band (last entry: one past the end).
    private let bandStarts: [Int]
    /// Which onset group (`OnsetEnvelope.Band`) each filter band belongs to.
    private let bandGroup: [Int]
    private var previous: [Float]
    private var magnitude: [Float]
    private var strength: [Float] = []
    private var bands = [[Float]](repeating: [], count: OnsetEnvelope.Band.allCases.count)
    private var energy: [Float] = []
    /// Log level per filter band, the mean of every `spectrumFrames` frames (`OnsetEnvelope.spectrum`):
    /// 25 a second are plenty for changes read over half a beat, and keep its memory near the
    /// onset curves'.
    private var spectrum: SpectralFrames
    private static let spectrumFrames = 4
    private var spectrumSum: [Float]
    private var spectrumCount = 0
    /// Time of the first frame held (it moves on when old frames are dropped).
    private var startTime: Seconds
    /// Frames dropped from the start of the track so far.
    private var droppedFrames = 0
    /// Loudest frame RMS of the whole track, dropped frames included.
    public private(set) var loudest: Float = 0
    /// RMS below which samples are digital silence (−90 dBFS).
    public static let silenceRMS: Float = 3e-5
    /// The first frame whose window starts with sound (`OnsetEnvelope.soundStart`); nil until a hop
    /// of sound has reached the start of the window.
    private var soundStart: Int?

    /// `timeOffset`: added to sample positions (the resampler's delay, negative).
    public init(sampleRate: Double, timeOffset: Seconds = .zero) {
        self.sampleRate = sampleRate
        hop = max(1, Int((sampleRate / 100).rounded()))  // ~100 frames per second at any analysis rate
        let n = OnsetDetector.windowSize
        windows = SlidingWindow(size: n, hop: hop)
        fft = RealFFT(size: n)
        window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        magnitude = [Float](repeating: 0, count: n / 2 + 1)
        let binHz = sampleRate / Double(n)
        // Band edges: every bin up to 100 Hz is too coarse already; from there ~¼ octave apart.
        var starts = [1]
        var edgeHz = 100.0
        while true {
            let bin = Int((edgeHz / binHz).rounded())
            if bin >= n / 2 { break }
            if bin > starts.last! { starts.append(bin) }
            edgeHz *= pow(2, 0.25)
        }
        starts.append(n / 2 + 1)
        bandStarts = starts
        bandGroup = (0..<(starts.count - 1)).map { OnsetEnvelope.Band.containing(Double(starts[$0]) * binHz).rawValue }
        previous = [Float](repeating: 0, count: starts.count - 1)
        startTime = timeOffset + Seconds(Double(n / 2) / sampleRate)
        let framesPerSecond = sampleRate / Double(hop), group = Double(OnsetDetector.spectrumFrames)
        spectrum = SpectralFrames(frameRate: framesPerSecond / group, startTime: startTime + Seconds((group - 1) / 2 / framesPerSecond),
                                  dimension: starts.count - 1)
        spectrumSum = [Float](repeating: 0, count: starts.count - 1)
    }

    /// Whether the first `count` samples of a window (its first hop) hold sound: RMS at or above
    /// `silenceRMS`. Until a window's first hop does, the window is still filling with the first
    /// sound after leading silence, and no flux is read from it (here and in `ChromaDetector`).
    static func holdsSound(_ p: UnsafeBufferPointer<Float>, first count: Int) -> Bool {
        let first = min(count, p.count)
        guard first > 0 else { return false }
        var head: Float = 0
        for i in 0..<first { head += p[i] * p[i] }
        return (head / Float(first)).squareRoot() >= silenceRMS
    }

    public func process(_ samples: [Float]) {
        windows.push(samples) { analyseFrame($0) }
    }

    private func analyseFrame(_ p: UnsafeBufferPointer<Float>) {
        let n = OnsetDetector.windowSize
        let input = fft.input
        var sumSquares: Float = 0
        window.withUnsafeBufferPointer { w in
            for i in 0..<n {
                let s = p[i]
                sumSquares += s * s
                input[i] = s * w[i]
            }
        }
        // Where the audio starts after leading digital silence (a lead-in, the zeros a decoder puts
        // where a codec's first frame is lost) is the start of the recording, not an accent of the
        // music: against silence the log spectrum jumps in every band at once, often several times
        // any drum hit and by an amount that depends on where the cut falls in the window, and that
        // one spike swayed the octave of whole tracks. No flux until the window's first hop holds
        // sound. Only the start: a hit after a gap of silence later on is an onset like any other.
        if soundStart == nil, Self.holdsSound(p, first: hop) { soundStart = droppedFrames + strength.count }
        var flux = SIMD4<Float>()
        // On buffers, not on this class's arrays: an access to a `var` array of a class is checked for
        // exclusivity at run time, and every array access for bounds.
        magnitude.withUnsafeMutableBufferPointer { mag in
            fft.magnitudes(into: mag.baseAddress!)
            previous.withUnsafeMutableBufferPointer { prev in
                bandStarts.withUnsafeBufferPointer { starts in
                    bandGroup.withUnsafeBufferPointer { group in
                        for band in 0..<prev.count {
                            var sum: Float = 0
                            for k in starts[band]..<starts[band + 1] { sum += mag[k] }
                            // log(1 + γ·x): compresses level differences between tracks and layers.
                            let value = log1pf(100 * sum)
                            let diff = value - prev[band]
                            if diff > 0 { flux[group[band]] += diff }
                            prev[band] = value
                        }
                    }
                }
            }
        }
        if soundStart == nil { flux = .zero }
        spectrumCount += 1
        let average = spectrumCount == OnsetDetector.spectrumFrames
        spectrumSum.withUnsafeMutableBufferPointer { sum in
            previous.withUnsafeBufferPointer { level in
                for band in sum.indices { sum[band] += level[band] }
            }
            if average {
                for band in sum.indices { sum[band] /= Float(OnsetDetector.spectrumFrames) }
                spectrum.append(UnsafeBufferPointer(sum))
                for band in sum.indices { sum[band] = 0 }
            }
        }
        if average { spectrumCount = 0 }
        for g in bands.indices { bands[g].append(flux[g]) }
        strength.append(flux[0] + flux[1] + flux[2] + flux[3])
        let rms = (sumSquares / Float(n)).squareRoot()
        energy.append(rms)
        loudest = max(loudest, rms)
    }

    /// Frames held, and how many seconds they cover.
    public var heldFrames: Int { strength.count }
    public var frameRate: Double { sampleRate / Double(hop) }

    /// The envelope of the frames held: the whole track, unless `drop(before:)` was called.
    public func envelope() -> OnsetEnvelope {
        var envelope = OnsetEnvelope(frameRate: frameRate, startTime: startTime, strength: strength,
                                     bands: bands, energy: energy, spectrum: spectrum)
        if droppedFrames == 0 {
            envelope.soundStart = soundStart
            if !strength.isEmpty {
                // The track's first frame's flux is measured against silence: not an onset.
                envelope.strength[0] = 0
                for g in bands.indices { envelope.bands[g][0] = 0 }
            }
        }
        return envelope
    }

    /// Forgets the frames centred before `time` (a long track is analysed in windows).
    public func drop(before time: Seconds) {
        let k = min(strength.count, max(0, SpectralFrames.firstFrame(atOrAfter: time, startTime: startTime, frameRate: frameRate)))
        guard k > 0 else { return }
        strength.removeFirst(k)
        for g in bands.indices { bands[g].removeFirst(k) }
        energy.removeFirst(k)
        spectrum.dropFrames(before: time)
        startTime = startTime + Seconds(Double(k) / frameRate)
        droppedFrames += k
    }
}
