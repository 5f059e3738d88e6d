import CFFTW
import Foundation

/// FFTW's planner is not thread-safe; executing a plan is. All planning goes through this lock.
let fftwPlannerLock = NSLock()

/// A real-to-complex FFT of one size with its own aligned buffers. One instance per analysis task.
public final class RealFFT {
    public let size: Int
    public let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    public init(size: Int) {
        self.size = size
        input = fftwf_alloc_real(size)
        output = fftwf_alloc_complex(size / 2 + 1)
        fftwPlannerLock.lock()
        // ESTIMATE: measuring would cost more than the whole analysis of a short clip.
        plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE))
        fftwPlannerLock.unlock()
    }

    deinit {
        fftwPlannerLock.lock()
        fftwf_destroy_plan(plan)
        fftwPlannerLock.unlock()
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Transforms `input` and writes |X[k]| for k in `bins` (all of 0...size/2 unless a caller
    /// reads fewer) into `magnitudes[k]`.
    public func magnitudes(into magnitudes: UnsafeMutablePointer<Float>, bins: Range<Int>? = nil) {
        let bins = bins ?? 0..<(size / 2 + 1)
        precondition(bins.lowerBound >= 0 && bins.upperBound <= size / 2 + 1, "bins \(bins) of a \(size)-point transform")
        fftwf_execute(plan)
        let raw = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self)
        for k in bins {
            let re = raw[2 * k], im = raw[2 * k + 1]
            magnitudes[k] = (re * re + im * im).squareRoot()
        }
    }
}
