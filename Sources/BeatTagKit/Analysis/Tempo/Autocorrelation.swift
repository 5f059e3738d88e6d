import CFFTW

/// Unbiased autocorrelation of a novelty curve up to `maxLag`, with fractional-lag lookup.
/// Computed through FFTW (the power spectrum of the zero-padded curve, transformed back): the
/// direct sum costs n·maxLag, some two million products for a 30 s track, and the tempo stage
/// takes the autocorrelation of two curves.
public struct Autocorrelation: Sendable {
    public let values: [Float]

    public init(_ x: [Float], maxLag: Int) {
        let n = x.count
        let lags = min(maxLag, max(0, n - 1))
        guard n > 1 else {
            values = [n == 1 ? x[0] * x[0] : 0]
            return
        }
        // Padded past n + lags, the circular correlation holds no wrapped-around products.
        var size = 64
        while size < n + lags + 1 { size <<= 1 }
        let signal = fftwf_alloc_real(size)!, spectrum = fftwf_alloc_complex(size / 2 + 1)!
        defer {
            fftwf_free(signal)
            fftwf_free(spectrum)
        }
        fftwPlannerLock.lock()
        let forward = fftwf_plan_dft_r2c_1d(Int32(size), signal, spectrum, UInt32(FFTW_ESTIMATE))
        let inverse = fftwf_plan_dft_c2r_1d(Int32(size), spectrum, signal, UInt32(FFTW_ESTIMATE))
        fftwPlannerLock.unlock()
        defer {
            fftwPlannerLock.lock()
            fftwf_destroy_plan(forward)
            fftwf_destroy_plan(inverse)
            fftwPlannerLock.unlock()
        }
        x.withUnsafeBufferPointer { p in
            for i in 0..<n { signal[i] = p[i] }
        }
        for i in n..<size { signal[i] = 0 }
        fftwf_execute(forward)
        let bins = UnsafeMutableRawPointer(spectrum).assumingMemoryBound(to: Float.self)
        for k in 0...(size / 2) {
            let re = bins[2 * k], im = bins[2 * k + 1]
            bins[2 * k] = re * re + im * im
            bins[2 * k + 1] = 0
        }
        fftwf_execute(inverse)
        // FFTW's inverse is unnormalised: a factor of `size`.
        let scale = 1 / Float(size)
        values = (0...lags).map { lag in signal[lag] * scale / Float(n - lag) }
    }

    /// Linear interpolation between integer lags; 0 outside the computed range.
    public func at(_ lag: Double) -> Float {
        guard lag >= 0 else { return 0 }
        let i = Int(lag)
        guard i + 1 < values.count else { return 0 }
        let f = Float(lag - Double(i))
        return values[i] * (1 - f) + values[i + 1] * f
    }
}
