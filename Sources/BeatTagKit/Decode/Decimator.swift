import Foundation

/// Brings mono audio down to the analysis rate by an integer factor, with a windowed-sinc
/// low-pass in front so that nothing above the new Nyquist folds back into the onset bands.
/// Streaming: keeps only the filter's history between blocks.
public struct Decimator {
    public let factor: Int
    public let outputRate: Double
    /// Time-reversed taps, zero-padded to a multiple of 8 for SIMD.
    private let taps: [Float]
    private let tapCount: Int
    private var buffer: [Float]
    private var position = 0

    /// Chooses the factor that lands closest to `targetRate` from above.
    public init(inputRate: Int, targetRate: Double = 11025) {
        let factor = max(1, Int((Double(inputRate) / targetRate * 1.0001).rounded(.down)))
        self.factor = factor
        self.outputRate = Double(inputRate) / Double(factor)
        let length = factor == 1 ? 1 : 12 * factor + 1
        var t = [Float](repeating: 0, count: length)
        if factor == 1 {
            t[0] = 1
        } else {
            let cutoff = 0.45 / Double(factor)  // of the input rate: a little below the new Nyquist
            let center = Double(length - 1) / 2
            var sum = 0.0
            for i in 0..<length {
                let x = Double(i) - center
                let sinc = x == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * x) / (Double.pi * x)
                let phase = 2 * Double.pi * Double(i) / Double(length - 1)
                let window = 0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase)  // Blackman
                t[i] = Float(sinc * window)
                sum += sinc * window
            }
            t = t.reversed().map { $0 / Float(sum) }
        }
        tapCount = length
        taps = t + [Float](repeating: 0, count: (8 - length % 8) % 8)
        buffer = [Float](repeating: 0, count: taps.count - 1)
    }

    /// The output is late by this many input samples.
    public var delayInInputSamples: Int { (tapCount - 1) / 2 }

    public mutating func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        if factor == 1 {
            output.append(contentsOf: input)
            return
        }
        buffer.append(contentsOf: input)
        let span = taps.count
        let step = factor
        var start = position
        buffer.withUnsafeBufferPointer { b in
            taps.withUnsafeBufferPointer { t in
                let bRaw = UnsafeRawPointer(b.baseAddress!)
                let tRaw = UnsafeRawPointer(t.baseAddress!)
                // Two outputs at a time, each summed in the same order as one alone: two independent
                // chains of additions keep the processor busy where one waits on each sum.
                while start + step + span <= b.count {
                    var first = SIMD8<Float>(), second = SIMD8<Float>()
                    var k = 0
                    while k < span {
                        let h = tRaw.loadUnaligned(fromByteOffset: k * 4, as: SIMD8<Float>.self)
                        first += bRaw.loadUnaligned(fromByteOffset: (start + k) * 4, as: SIMD8<Float>.self) * h
                        second += bRaw.loadUnaligned(fromByteOffset: (start + step + k) * 4, as: SIMD8<Float>.self) * h
                        k += 8
                    }
                    output.append(first.sum())
                    output.append(second.sum())
                    start += 2 * step
                }
                while start + span <= b.count {
                    var acc = SIMD8<Float>()
                    var k = 0
                    while k < span {
                        let x = bRaw.loadUnaligned(fromByteOffset: (start + k) * 4, as: SIMD8<Float>.self)
                        let h = tRaw.loadUnaligned(fromByteOffset: k * 4, as: SIMD8<Float>.self)
                        acc += x * h
                        k += 8
                    }
                    output.append(acc.sum())
                    start += step
                }
            }
        }
        // Keep what the next outputs still need.
        let consumed = min(start, buffer.count)
        buffer.removeFirst(consumed)
        position = start - consumed
    }
}
