import CEbur128

/// Integrated loudness (EBU R 128, LUFS) of a stereo signal, by libebur128. Measured after
/// stretching: a stretch changes loudness by up to 2 LU.
public enum LoudnessMeter {
    /// nil for silence (loudness below the gate).
    public static func integratedLoudness(left: [Float], right: [Float], sampleRate: Int) -> Double? {
        guard let state = ebur128_init(2, UInt(sampleRate), Int32(EBUR128_MODE_I.rawValue)) else { return nil }
        var handle: UnsafeMutablePointer<ebur128_state>? = state
        defer { ebur128_destroy(&handle) }
        let block = 16384
        var interleaved = [Float](repeating: 0, count: 2 * block)
        var start = 0
        while start < left.count {
            let count = min(block, left.count - start)
            for i in 0..<count { interleaved[2 * i] = left[start + i]; interleaved[2 * i + 1] = right[start + i] }
            _ = interleaved.withUnsafeBufferPointer { ebur128_add_frames_float(state, $0.baseAddress, count) }
            start += count
        }
        var loudness = 0.0
        guard ebur128_loudness_global(state, &loudness) == Int32(EBUR128_SUCCESS.rawValue), loudness.isFinite, loudness > -70 else { return nil }
        return loudness
    }
}
