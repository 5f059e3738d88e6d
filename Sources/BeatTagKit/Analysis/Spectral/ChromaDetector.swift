import Foundation

/// Streaming chromagram: the energy of the spectral peaks per pitch class (55 Hz – 2 kHz folded
/// onto 12 semitones) in 186 ms windows every 40 ms, each frame scaled to its own total and
/// log-compressed, so a frame says which notes sound, not how loud. Chords and bass notes change on beats far more often than between
/// them, whatever the drums do: `BeatPhase` reads where the chromagram changes.
///
/// From the same transform, the **pitch flux**: the rise of the log magnitude per semitone (55 Hz –
/// 2 kHz, not folded), summed. Where nothing is struck (legato strings, pads, a sustained piano)
/// a new note lights new semitones while the quarter-octave bands of `OnsetDetector` hardly
/// move, and its 46 ms window misses an attack spread over 100 ms; this one hears the note
/// change. `TempoEstimator` reads its periodicity beside the onsets'.
public final class ChromaDetector {
    public static let windowSize = 2048
    public let sampleRate: Double
    public let hop: Int
    private let fft: RealFFT
    private let window: [Float]
    private var windows: SlidingWindow
    /// Pitch class (0..<12) of each FFT bin, −1 outside 55 Hz – 2 kHz.
    private let pitchClass: [Int]
    private var magnitude: [Float]
    private var frames: SpectralFrames
    /// Semitone (0 at 55 Hz) of each FFT bin, −1 outside 55 Hz – 2 kHz, and the bins inside.
    private let semitone: [Int]
    private let semitoneBins: Range<Int>
    private var semitoneLevel: [Float]
    private var previousLevel: [Float]
    /// Whether the window's first hop has held sound yet. Until then no pitch flux: the window
    /// filling with the first sound after leading silence is the start of the recording, not a
    /// note (as in `OnsetDetector`).
    private var heardSound = false
    private var pitchFlux: SpectralFrames

    /// `timeOffset`: added to sample positions (the resampler's delay, negative).
    public init(sampleRate: Double, timeOffset: Seconds = .zero) {
        self.sampleRate = sampleRate
        let n = ChromaDetector.windowSize
        hop = max(1, Int((sampleRate / 25).rounded()))
        windows = SlidingWindow(size: n, hop: hop)
        fft = RealFFT(size: n)
        window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        magnitude = [Float](repeating: 0, count: n / 2 + 1)
        let binHz = sampleRate / Double(n)
        pitchClass = (0...(n / 2)).map { k in
            let hz = Double(k) * binHz
            guard hz >= 55, hz <= 2000 else { return -1 }
            let semitones = Int((12 * log2(hz / 440)).rounded())
            return ((semitones % 12) + 12) % 12
        }
        let lowest = Int((12 * log2(55.0 / 440)).rounded())
        semitone = (0...(n / 2)).map { k in
            let hz = Double(k) * binHz
            guard hz >= 55, hz <= 2000 else { return -1 }
            return Int((12 * log2(hz / 440)).rounded()) - lowest
        }
        semitoneBins = (semitone.firstIndex { $0 >= 0 } ?? 0)..<((semitone.lastIndex { $0 >= 0 } ?? -1) + 1)
        semitoneLevel = [Float](repeating: 0, count: (semitone.max() ?? 0) + 1)
        previousLevel = semitoneLevel
        frames = SpectralFrames(frameRate: sampleRate / Double(hop), startTime: timeOffset + Seconds(Double(n / 2) / sampleRate),
                                dimension: 12)
        pitchFlux = SpectralFrames(frameRate: frames.frameRate, startTime: frames.startTime, dimension: 1)
    }

    public func process(_ samples: [Float]) {
        windows.push(samples) { analyseFrame($0) }
    }

    private func analyseFrame(_ p: UnsafeBufferPointer<Float>) {
        let input = fft.input
        var sumSquares: Float = 0
        window.withUnsafeBufferPointer { w in
            for i in 0..<ChromaDetector.windowSize {
                sumSquares += p[i] * p[i]
                input[i] = p[i] * w[i]
            }
        }
        var chroma = [Float](repeating: 0, count: 12)
        // Digital silence, dithered or not (below the onset detector's −90 dBFS), has no notes: its
        // peaks are noise, and scaled to their total they would read as a random chord.
        let sound = (sumSquares / Float(ChromaDetector.windowSize)).squareRoot() >= OnsetDetector.silenceRMS
        if !heardSound { heardSound = OnsetDetector.holdsSound(p, first: hop) }
        // The loops below run on buffers, not on this class's arrays: an access to a `var` array of a
        // class is checked for exclusivity at run time, and every array access for bounds.
        var flux: Float = 0
        let heardSound = self.heardSound, bins = semitoneBins
        magnitude.withUnsafeMutableBufferPointer { mag in
            semitoneLevel.withUnsafeMutableBufferPointer { level in
                previousLevel.withUnsafeMutableBufferPointer { previous in
                    pitchClass.withUnsafeBufferPointer { pitchClass in
                        semitone.withUnsafeBufferPointer { semitone in
                            for j in level.indices { level[j] = 0 }
                            if sound, !bins.isEmpty {
                                // Only the bins from 55 Hz to 2 kHz are read, and their neighbours.
                                fft.magnitudes(into: mag.baseAddress!, bins: max(0, bins.lowerBound - 1)..<min(mag.count, bins.upperBound + 1))
                                // Spectral peaks only, by energy: a note is a peak that stands out, noise (hats, claps,
                                // hiss) spreads its energy over every bin and adds little to any class.
                                for k in max(1, bins.lowerBound)..<min(mag.count - 1, bins.upperBound) where mag[k] > mag[k - 1] && mag[k] >= mag[k + 1] {
                                    chroma[pitchClass[k]] += mag[k] * mag[k]
                                }
                                for k in bins { level[semitone[k]] += mag[k] }
                            }
                            // log(1 + γ·x) as the onset bands, γ a quarter of theirs: a 2048-point transform gives four
                            // times the magnitude of their 512 points.
                            for j in level.indices {
                                level[j] = log1pf(25 * level[j])
                                if heardSound, level[j] > previous[j] { flux += level[j] - previous[j] }
                                previous[j] = level[j]
                            }
                        }
                    }
                }
            }
        }
        withUnsafePointer(to: flux) { pitchFlux.append(UnsafeBufferPointer(start: $0, count: 1)) }
        let total = chroma.reduce(0, +)
        // No peaks (silence, or nothing from 55 Hz to 2 kHz): all zero, not twelve equal classes of noise.
        let scale: Float = total > 1e-6 ? 12 / total : 0
        for k in 0..<12 { chroma[k] = log1pf(10 * chroma[k] * scale) }
        chroma.withUnsafeBufferPointer { frames.append($0) }
    }

    /// The frames held so far (all of them, unless some were dropped).
    public var held: SpectralFrames { frames }
    /// The pitch flux of the same frames, one value each.
    public var heldPitchFlux: SpectralFrames { pitchFlux }

    /// Forgets the frames centred before `time`.
    public func drop(before time: Seconds) {
        frames.dropFrames(before: time)
        pitchFlux.dropFrames(before: time)
    }
}
