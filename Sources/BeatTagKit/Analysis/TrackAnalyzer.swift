import Foundation

/// One track's analysis as a stream (Mixxx's initialize → processSamples → storeResults): created
/// for the stream's sample rate, fed blocks of mono samples with `process`, asked for the result with
/// `finish`. Keeps the per-frame features, never the audio, and of those at most one `window`: a
/// longer track (a DJ mix, a live set) is analysed window by window, each window's beats kept where
/// it has `overlap` of music on both sides, so memory stays flat in track length.
public final class TrackAnalyzer {
    /// Longest stretch analysed at once. Every song shorter than this is analysed whole, as one.
    public static let defaultWindow = Seconds(480)
    /// Music a window reads beyond the beats it keeps, on each inner side: the tracker and the
    /// moving averages need context, and the next window starts tracking that far back.
    public static let overlap = Seconds(20)

    private var resampler: AnalysisResampler
    private let onsets: OnsetDetector
    private let chroma: ChromaDetector
    private var resampled: [Float] = []
    private var inputFrames = 0
    private let inputRate: Int
    private let window: Seconds
    /// Where the beats of the next window begin (the end of what earlier windows kept).
    private var keptUntil = Seconds.zero
    private var windows: [WindowResult] = []
    /// The window just analysed: its tempo, and its beats from `overlap` before where it stopped
    /// keeping them to its end, which the next window also tracks (nil after a window without pulse).
    private var seam: (tempo: TempoEstimate, beats: [Seconds])?
    /// Most onset frames held at once (tests check the bound).
    public private(set) var peakHeldFrames = 0
    /// Sees the audio at the analysis rate (11,025 Hz) as it goes by: Chromaprint works at that rate
    /// too, so the recording's fingerprint is made without a second resampling.
    public var onResampled: ((UnsafeBufferPointer<Float>) -> Void)?

    private struct WindowResult {
        var tempo: TempoEstimate
        var beats: [Seconds]
        /// Seconds of the track whose beats this window gave.
        var span: Double
    }

    /// `window`: see `defaultWindow` (tests pass shorter ones).
    public init(sampleRate: Int, window: Seconds = TrackAnalyzer.defaultWindow) {
        inputRate = sampleRate
        self.window = Seconds(max(window.value, 4 * Self.overlap.value))
        resampler = AnalysisResampler(inputRate: sampleRate)
        onsets = OnsetDetector(sampleRate: AnalysisResampler.analysisRate, timeOffset: .zero - resampler.delay)
        chroma = ChromaDetector(sampleRate: AnalysisResampler.analysisRate, timeOffset: .zero - resampler.delay)
        resampled.reserveCapacity(8192)
    }

    public func process(_ mono: UnsafeBufferPointer<Float>) {
        inputFrames += mono.count
        resampled.removeAll(keepingCapacity: true)
        resampler.process(mono, into: &resampled)
        if let onResampled { resampled.withUnsafeBufferPointer(onResampled) }
        onsets.process(resampled)
        chroma.process(resampled)
        peakHeldFrames = max(peakHeldFrames, onsets.heldFrames)
        if Double(onsets.heldFrames) / onsets.frameRate >= window.value {
            analyseHeldWindow()
        }
    }

    /// Analyses what is held, keeps the beats up to `overlap` before its end, and forgets the frames
    /// the next window does not need.
    private func analyseHeldWindow() {
        let envelope = onsets.envelope()
        let end = envelope.startTime + Seconds(Double(envelope.count) / envelope.frameRate)
        analyseWindow(envelope, keepUntil: end - Self.overlap, end: end)
        onsets.drop(before: keptUntil - Self.overlap)
        chroma.drop(before: keptUntil - Self.overlap)
    }

    /// One window of a long track: its tempo and beats, joined to the window before so that the
    /// beats run on at one level and one phase. The same music read an octave or a third apart in
    /// two windows (a coin-toss octave, a drumless stretch) is tracked at the earlier window's level;
    /// where the earlier window's beats sit at one phase between this window's (half a beat on, or a
    /// sixteenth: each window decides its phase alone), this window's beats move there when that
    /// makes more of them agree. A tempo that is no metrical relative (a mix moving from 128
    /// to 140) is followed as read.
    private func analyseWindow(_ envelope: OnsetEnvelope, keepUntil: Seconds, end: Seconds,
                               inspect: ((OnsetCurves) -> Void)? = nil) {
        let curves = OnsetCurves(envelope, chroma: chroma.held, pitchFlux: chroma.heldPitchFlux, startsTrack: beforeFirstWindow)
        inspect?(curves)
        defer { keptUntil = keepUntil }
        guard let estimator = TempoEstimator(curves: curves), var (tempo, frames) = estimator.estimate() else {
            seam = nil
            return
        }
        if let seam, Self.isMetricalRelative(tempo.bpm, of: seam.tempo.bpm), let level = estimator.beats(atBPM: seam.tempo.bpm.value) {
            (tempo, frames) = (seam.tempo, level.beats)
            tempo.phase = level.decision
        }
        var beats = frames.map { curves.time(of: $0) }
        if let seam, TempoMetrics.acc1(tempo.bpm.value, seam.tempo.bpm.value),
           let fraction = Self.phase(of: seam.beats.map { curves.frame(at: $0) }, within: frames) {
            let moved = BeatPhase.moved(frames, by: fraction).map { curves.time(of: $0) }
            if Self.agreement(moved, seam.beats) > Self.agreement(beats, seam.beats) {
                beats = moved
                // Half a beat back to the window before: this window's own move is undone (or made).
                if abs(fraction - 0.5) < 0.15 { tempo.phase.halfBeat.toggle() }
            }
        }
        // Spliced after the last beat kept, half a period on at least: the same beat tracked by both
        // windows, a few milliseconds apart across `keptUntil`, is kept once and never lost.
        let period = 60 / tempo.bpm.value
        let from = windows.last?.beats.last.map { $0 + Seconds(period / 2) } ?? keptUntil
        let kept = beats.filter { $0 >= max(from, keptUntil - Seconds(period / 2)) && $0 < keepUntil && $0 <= end }
        windows.append(WindowResult(tempo: tempo, beats: kept, span: (min(keepUntil, end) - keptUntil).value))
        seam = (tempo, beats.filter { $0 >= keepUntil - Self.overlap })
    }

    /// No window analysed yet: the track so far is held whole (each window moves `keptUntil` on).
    private var beforeFirstWindow: Bool { keptUntil == .zero }

    /// The same beat level read at another octave or a third apart (a factor 2, 3 or 3/2).
    static func isMetricalRelative(_ a: BPM, of b: BPM) -> Bool {
        let ratio = a.value / b.value
        let relatives: [Double] = [2, 0.5, 3, 1.0 / 3, 1.5, 2.0 / 3]
        return relatives.contains { abs(ratio / $0 - 1) < 0.04 }
    }

    /// Where `reference` sits on the grid of `beats` (`BeatPhase.phase` of each), as the fraction of
    /// the interval (0 ≤ f < 1) of their circular mean; nil when they agree with `beats` (within a
    /// tenth of a beat), scatter (resultant below 0.5) or are fewer than four.
    static func phase(of reference: [FramePosition], within beats: [FramePosition]) -> Double? {
        let phases = reference.compactMap { BeatPhase.phase(of: $0, on: beats) }
        let mean = BeatPhase.circularMean(of: phases.map { 2 * .pi * $0 })
        guard phases.count >= 4, mean.length / Double(phases.count) >= 0.5 else { return nil }
        let f = (mean.direction / (2 * .pi) + 1).truncatingRemainder(dividingBy: 1)
        return min(f, 1 - f) > 0.1 ? f : nil
    }

    /// Beats of `beats` within 70 ms of one of `reference`, over the span `reference` covers.
    static func agreement(_ beats: [Seconds], _ reference: [Seconds]) -> Int {
        guard let first = reference.first, let last = reference.last else { return 0 }
        return beats.filter { b in b >= first && b <= last && reference.contains { abs(($0 - b).value) <= 0.07 } }.count
    }

    /// `inspect` sees the onset curves the tempo was read from (bench uses it to collect training
    /// pairs; for a track longer than `window`, only its last window's).
    public func finish(inspect: ((OnsetCurves) -> Void)? = nil) throws -> AnalysisResult {
        let duration = Seconds(Double(inputFrames) / Double(inputRate))
        guard duration.value >= 4 else { throw AnalysisError.tooShort(seconds: duration.value) }
        // Loudest 46 ms frame below -90 dBFS RMS: nothing to analyse.
        guard onsets.loudest > OnsetDetector.silenceRMS else { throw AnalysisError.silent }
        let envelope = onsets.envelope()
        if beforeFirstWindow {
            return try TrackAnalyzer.analyse(envelope: envelope, chroma: chroma.held, pitchFlux: chroma.heldPitchFlux,
                                             duration: duration, inspect: inspect)
        }
        // The last window: what is held, its beats from where the others stopped to the end.
        analyseWindow(envelope, keepUntil: Seconds(.infinity), end: duration, inspect: inspect)
        // The tempo the track holds longest: windows within 4% of each other count together, and the
        // longest window of the winning group (the earliest of equals) speaks for it. Not the most
        // confident: the best of many calibrated confidences is not calibrated.
        func span(near bpm: BPM) -> Double {
            windows.filter { TempoMetrics.acc1($0.tempo.bpm.value, bpm.value) }.map(\.span).reduce(0, +)
        }
        guard let held = windows.map({ span(near: $0.tempo.bpm) }).max(),
              let chosen = windows.filter({ span(near: $0.tempo.bpm) == held }).max(by: { $0.span < $1.span })
        else { throw AnalysisError.noPulse }
        var tempo = chosen.tempo
        // One phase decision for the track: the half-beat move that holds for most of its span (each
        // window decided its own; the probability was one window's, so none is given).
        let movedSpan = windows.filter(\.tempo.phase.halfBeat).map(\.span).reduce(0, +)
        tempo.phase.halfBeat = movedSpan > windows.map(\.span).reduce(0, +) / 2
        tempo.phase.halfBeatProbability = nil
        return Self.result(tempo: tempo, beats: windows.flatMap(\.beats), duration: duration)
    }

    /// Onset envelope → tempo → beats → grid. Public for tests that build envelopes directly.
    public static func analyse(envelope: OnsetEnvelope, chroma: SpectralFrames? = nil, pitchFlux: SpectralFrames? = nil,
                               duration: Seconds, inspect: ((OnsetCurves) -> Void)? = nil) throws -> AnalysisResult {
        let curves = OnsetCurves(envelope, chroma: chroma, pitchFlux: pitchFlux)
        inspect?(curves)
        guard let (tempo, beatFrames) = TempoEstimator(curves: curves)?.estimate() else { throw AnalysisError.noPulse }
        let beats = beatFrames.map { curves.time(of: $0) }.filter { $0 >= .zero && $0 <= duration }
        return result(tempo: tempo, beats: beats, duration: duration)
    }

    private static func result(tempo: TempoEstimate, beats: [Seconds], duration: Seconds) -> AnalysisResult {
        let grid = BeatGrid.fit(beats: beats)
        // The grid's slope is finer than the tempogram's 0.25 BPM steps; use it when it agrees (and
        // stays under the ceiling where the estimate kept to it).
        var bpm = tempo.bpm
        if let grid, abs(grid.bpm / tempo.bpm - 1) < 0.04,
           grid.bpm.value <= TempoEstimator.ceiling || tempo.bpm.value > TempoEstimator.ceiling { bpm = grid.bpm }
        return AnalysisResult(bpm: bpm.roundedToTenth, confidence: tempo.confidence, beats: beats, grid: grid,
                              candidates: tempo.candidates, alternative: tempo.alternative,
                              octaveProbability: tempo.octaveProbability, duration: duration,
                              evidence: tempo.evidence, phase: tempo.phase)
    }
}
