import Foundation

/// Everything the analysis says about one track.
public struct AnalysisResult: Equatable, Sendable {
    /// Bumped whenever a change to the analysis would change stored results: decides re-analysis.
    public static let currentVersion = 12

    public var bpm: Double
    public var confidence: Double
    public var beats: [Double]
    public var grid: BeatGrid?
    public var candidates: [TempoCandidate]
    public var alternative: TempoCandidate?
    /// Probability that `bpm` is the right octave; `alternative.score` is the other one's.
    public var octaveProbability: Double
    public var durationSeconds: Double
    /// Set when the file broke off part-way and only its beginning was analysed.
    public var decodeWarning: String?
    /// What the confidence was computed from (not stored in the catalog).
    public var evidence: ConfidenceEvidence?
    public var version: Int = AnalysisResult.currentVersion
}

public enum AnalysisError: Error, CustomStringConvertible, Equatable {
    case tooShort(seconds: Double)
    case silent
    case noPulse
    public var description: String {
        switch self {
        case .tooShort(let s): return String(format: "too short to analyse (%.1f s; at least 4 s needed)", s)
        case .silent: return "silent: no signal to analyse"
        case .noPulse: return "no periodic pulse found"
        }
    }
}

/// Mixxx-style analyzer: `initialize` with the stream's rate, `process` blocks of mono samples,
/// `finish` for the result. Keeps only the onset envelope, never the audio.
public final class TrackAnalyzer {
    private var resampler: AnalysisResampler
    private let onsets: OnsetDetector
    private var resampled: [Float] = []
    private var inputFrames = 0
    private let inputRate: Int

    public init(sampleRate: Int) {
        inputRate = sampleRate
        resampler = AnalysisResampler(inputRate: sampleRate)
        onsets = OnsetDetector(sampleRate: AnalysisResampler.analysisRate, timeOffset: -resampler.delaySeconds)
        resampled.reserveCapacity(8192)
    }

    public func process(_ mono: UnsafeBufferPointer<Float>) {
        inputFrames += mono.count
        resampled.removeAll(keepingCapacity: true)
        resampler.process(mono, into: &resampled)
        onsets.process(resampled)
    }

    /// `inspect` sees the onset curves the tempo was read from (bench uses it to collect training pairs).
    public func finish(inspect: ((OnsetCurves) -> Void)? = nil) throws -> AnalysisResult {
        let duration = Double(inputFrames) / Double(inputRate)
        guard duration >= 4 else { throw AnalysisError.tooShort(seconds: duration) }
        let envelope = onsets.finish()
        // Loudest 46 ms frame below -90 dBFS RMS: nothing to analyse.
        guard (envelope.energy.max() ?? 0) > 3e-5 else { throw AnalysisError.silent }
        return try TrackAnalyzer.analyse(envelope: envelope, duration: duration, inspect: inspect)
    }

    /// Onset envelope → tempo → beats → grid. Public for tests that build envelopes directly.
    public static func analyse(envelope: OnsetEnvelope, duration: Double,
                               inspect: ((OnsetCurves) -> Void)? = nil) throws -> AnalysisResult {
        let curves = OnsetCurves(envelope)
        inspect?(curves)
        guard let (tempo, beatFrames) = TempoEstimator(curves: curves)?.estimate() else {
            throw AnalysisError.noPulse
        }
        let beats = beatFrames.map { envelope.time(ofFrame: $0) }.filter { $0 >= 0 && $0 <= duration }
        let grid = BeatGrid.fit(beats: beats)
        // The grid's slope is finer than the tempogram's 0.25 BPM steps; use it when it agrees.
        var bpm = tempo.bpm
        if let grid, abs(grid.bpm / tempo.bpm - 1) < 0.04 { bpm = grid.bpm }
        return AnalysisResult(bpm: (bpm * 10).rounded() / 10, confidence: tempo.confidence, beats: beats, grid: grid,
                              candidates: tempo.candidates, alternative: tempo.alternative,
                              octaveProbability: tempo.octaveProbability, durationSeconds: duration,
                              evidence: tempo.evidence)
    }
}
