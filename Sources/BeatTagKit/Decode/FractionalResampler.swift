/// Linear interpolation from the decimated rate to exactly the analysis rate. The decimator's
/// low-pass already removed what could alias, so linear is enough for onset analysis.
public struct FractionalResampler {
    public let ratio: Double  // input samples per output sample
    private var position = 0.0  // of the next output, in input samples, relative to `previous`
    private var previous: Float = 0
    private var started = false

    public init(inputRate: Double, outputRate: Double) {
        ratio = inputRate / outputRate
    }

    public mutating func process(_ input: [Float], into output: inout [Float]) {
        if abs(ratio - 1) < 1e-12 {
            output.append(contentsOf: input)
            return
        }
        guard !input.isEmpty else { return }
        if !started {
            previous = input[0]
            started = true
        }
        // Sample k of this block sits at k + 1 relative to `previous`.
        let count = Double(input.count)
        while position <= count {
            let i = Int(position)
            let frac = Float(position - Double(i))
            let a = i == 0 ? previous : input[i - 1]
            let b = i < input.count ? input[i] : a
            if i >= input.count && frac > 0 { break }
            output.append(a + (b - a) * frac)
            position += ratio
        }
        position -= count
        previous = input[input.count - 1]
    }
}
