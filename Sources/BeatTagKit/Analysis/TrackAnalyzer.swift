import Foundation

/// One track's analysis as a stream (Mixxx's initialize → processSamples → storeResults): created
/// for the stream's sample rate, fed blocks of mono samples with `process`, asked for the result with
/// `finish`. Keeps only the onset envelope, never the audio.
public final class TrackAnalyzer {
    private var resampler: AnalysisResampler
    private let onsets: OnsetDetector
    private let chroma: ChromaDetector
    private var resampled: [Float] = []
    private var inputFrames = 0
    private let inputRate: Int

    public init(sampleRate: Int) {
        inputRate = sampleRate
        resampler = AnalysisResampler(inputRate: sampleRate)
        onsets = OnsetDetector(sampleRate: AnalysisResampler.analysisRate, timeOffset: .zero - resampler.delay)
        chroma = ChromaDetector(sampleRate: AnalysisResampler.analysisRate, timeOffset: .zero - resampler.delay)
        resampled.reserveCapacity(8192)
    }

    public func process(_ mono: UnsafeBufferPointer<Float>) {
        inputFrames += mono.count
        resampled.removeAll(keepingCapacity: true)
        resampler.process(mono, into: &resampled)
        onsets.process(resampled)
        chroma.process(resampled)
    }

    /// `inspect` sees the onset curves the tempo was read from (bench uses it to collect training pairs).
    public func finish(inspect: ((OnsetCurves) -> Void)? = nil) throws -> AnalysisResult {
        let duration = Double(inputFrames) / Double(inputRate)
        guard duration >= 4 else { throw AnalysisError.tooShort(seconds: duration) }
        let envelope = onsets.finish()
        // Loudest 46 ms frame below -90 dBFS RMS: nothing to analyse.
        guard (envelope.energy.max() ?? 0) > OnsetDetector.silenceRMS else { throw AnalysisError.silent }
        return try TrackAnalyzer.analyse(envelope: envelope, chroma: chroma.finish(), duration: Seconds(duration), inspect: inspect)
    }

    /// Onset envelope → tempo → beats → grid. Public for tests that build envelopes directly.
    public static func analyse(envelope: OnsetEnvelope, chroma: SpectralFrames? = nil, duration: Seconds,
                               inspect: ((OnsetCurves) -> Void)? = nil) throws -> AnalysisResult {
        let curves = OnsetCurves(envelope, chroma: chroma)
        inspect?(curves)
        guard let (tempo, beatFrames) = TempoEstimator(curves: curves)?.estimate() else {
            throw AnalysisError.noPulse
        }
        let beats = beatFrames.map { curves.time(of: $0) }.filter { $0 >= .zero && $0 <= duration }
        let grid = BeatGrid.fit(beats: beats)
        // The grid's slope is finer than the tempogram's 0.25 BPM steps; use it when it agrees.
        var bpm = tempo.bpm
        if let grid, abs(grid.bpm / tempo.bpm - 1) < 0.04 { bpm = grid.bpm }
        return AnalysisResult(bpm: bpm.roundedToTenth, confidence: tempo.confidence, beats: beats, grid: grid,
                              candidates: tempo.candidates, alternative: tempo.alternative,
                              octaveProbability: tempo.octaveProbability, duration: duration,
                              evidence: tempo.evidence)
    }
}
