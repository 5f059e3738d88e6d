import CEbur128

/// Integrated loudness (EBU R 128, LUFS) of a stereo signal, by libebur128. Measured after
/// stretching: a stretch changes loudness by up to 2 LU.
enum LoudnessMeter {
    /// The first `frames` frames of `audio`; nil for silence (loudness below the gate).
    static func integratedLoudness(of audio: FrameSpill, frames: Int, sampleRate: Int) throws -> Double? {
        let meter = Stream(sampleRate: sampleRate)
        let block = 16384
        var interleaved = [Float](repeating: 0, count: 2 * block)
        var start = 0
        while start < frames {
            let count = min(block, frames - start)
            try interleaved.withUnsafeMutableBufferPointer { try audio.readInterleaved(from: start, count: count, into: $0) }
            interleaved.withUnsafeBufferPointer { meter.add(interleaved: UnsafeBufferPointer(rebasing: $0[..<(2 * count)])) }
            start += count
        }
        return meter.integrated
    }

    /// Integrated loudness of a stereo stream fed block by block (the mix as it is written).
    final class Stream {
        private var handle: UnsafeMutablePointer<ebur128_state>?

        init(sampleRate: Int) { handle = ebur128_init(2, UInt(sampleRate), Int32(EBUR128_MODE_I.rawValue)) }
        deinit { ebur128_destroy(&handle) }

        func add(interleaved: UnsafeBufferPointer<Float>) {
            guard let handle, interleaved.count >= 2 else { return }
            _ = ebur128_add_frames_float(handle, interleaved.baseAddress, interleaved.count / 2)
        }

        /// Nil for silence (below the gate) or without the library.
        var integrated: Double? {
            var loudness = 0.0
            guard let handle, ebur128_loudness_global(handle, &loudness) == Int32(EBUR128_SUCCESS.rawValue), loudness.isFinite,
                  loudness > -70 else { return nil }
            return loudness
        }
    }
}
