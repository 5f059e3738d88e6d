/// Any input rate to the one analysis rate: integer decimation (with its anti-alias filter), then
/// a small fractional step.
public struct AnalysisResampler {
    public static let analysisRate = 11025.0
    private var decimator: Decimator
    private var fractional: FractionalResampler
    private var scratch: [Float] = []
    public let inputRate: Int

    public init(inputRate: Int) {
        self.inputRate = inputRate
        decimator = Decimator(inputRate: inputRate, targetRate: AnalysisResampler.analysisRate)
        fractional = FractionalResampler(inputRate: decimator.outputRate, outputRate: AnalysisResampler.analysisRate)
    }

    /// How late the output is (the anti-alias filter's group delay).
    public var delay: Seconds { Seconds(Double(decimator.delayInInputSamples) / Double(inputRate)) }

    public mutating func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        scratch.removeAll(keepingCapacity: true)
        decimator.process(input, into: &scratch)
        fractional.process(scratch, into: &output)
    }
}
