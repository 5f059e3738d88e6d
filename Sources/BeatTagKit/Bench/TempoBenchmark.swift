import Foundation

/// Runs the analysis over annotated corpora, one clip at a time on one core, and scores it.
public enum TempoBenchmark {
    public struct ClipResult: Codable, Sendable {
        public var file: String
        public var group: String
        public var reference: Double
        public var estimate: Double?
        /// The estimate against `reference`; nil when the clip failed.
        public var verdict: TempoVerdict?
        public var confidence: Double?
        public var alternative: Double?
        /// Probability of the alternative octave.
        public var alternativeProbability: Double?
        public var evidence: ConfidenceEvidence?
        /// `evidence` as the confidence model reads it (`Report.confidenceFeatureNames`), for its fit.
        public var confidenceFeatures: [Double]?
        public var fMeasure: Double?
        /// Beat F after one beat placed by hand (`TempoMetrics.withOneHandBeat`): what a reviewed grid scores.
        public var fMeasureHandBeat: Double?
        public var phaseOffset: Double?
        /// What the analysis's phase decisions did to the tracker's beats.
        public var phaseDecision: PhaseDecision?
        public var audioSeconds: Double
        public var decodeSeconds: Double
        public var analysisSeconds: Double
        public var error: String?
        /// Scored, but not on all it should be: the audio decoded only in part, or the annotated
        /// beats run past its end.
        public var warning: String?
        /// The codec as decoded ("mp3", "aac", "alac", "wmav2", …) and the decoder that read it.
        public var format: String?
        public var decoder: String?
        public var original: OriginalComparison?

        /// Why `untagged` would list this clip, read as an analysed track (`UntaggedQueue.reason`);
        /// `beats: false` asks about its tempo only.
        public func queueReason(beats: Bool) -> UntaggedQueue.Reason? {
            UntaggedQueue.reason(analysedConfidence: confidence, alternative: alternative, alternativeScore: alternativeProbability,
                                 phaseMoved: beats ? phaseDecision?.halfBeat : nil)
        }

        /// Read at the annotated tempo (Acc1).
        public var isRightTempo: Bool { estimate.map { TempoMetrics.acc1($0, reference) } ?? false }
    }

    /// A clip against the file it was encoded from: same tempo? beats in the same places?
    public struct OriginalComparison: Codable, Sendable {
        public var originalEstimate: Double?
        public var sameTempo: Bool
        public var beats: BeatComparison?
    }

    public struct OriginalsSummary: Codable, Sendable {
        public var clips: Int
        /// Estimates within 4% of the original file's estimate.
        public var sameTempo: Int
        /// Acc1 of the originals, to set beside this corpus's.
        public var originalAcc1: Double
        /// Beats (of the originals) with a beat of this file within 10 ms, over all clips with the same tempo.
        public var beatsWithin10ms: Double
        public var medianOffsetMs: Double?
        public var worstClipP95OffsetMs: Double?
    }

    public struct Summary: Codable, Sendable {
        public var name: String
        public var clips: Int
        /// The rates are nil for a group with no clips (an empty tempo bucket): no rate, not 0.
        public var acc1: Double?
        public var strict: Double?
        public var acc2: Double?
        public var octaveErrors: Double?
        public var threeTwoErrors: Double?
        /// Mean beat F-measure over the clips with beat annotations past 5 s (`beatClips`; a clip
        /// that failed scores 0); nil when none has them.
        public var fMeasure: Double?
        public var beatClips: Int
        /// The same after one beat placed by hand on each clip (`ClipResult.fMeasureHandBeat`).
        public var fMeasureHandBeat: Double?
        public var medianPhaseOffsetMs: Double?
        /// Acc1 among the 80% most confident estimates.
        public var acc1Confident80: Double?
    }

    public struct Speed: Codable, Sendable {
        public var audioSeconds: Double
        public var decodeSeconds: Double
        public var analysisSeconds: Double
        /// Audio seconds per wall second on one core.
        public var decodeRealtime: Double
        public var analysisRealtime: Double
        public var totalRealtime: Double
        public var decodeRealtimeByFormat: [String: Double]
    }

    public struct Report: Codable, Sendable {
        public var corpus: String
        public var overall: Summary
        public var byGroup: [Summary]
        public var byTempo: [Summary]
        public var speed: Speed
        public var reliability: ConfidenceReliability
        public var beatReview: BeatReview
        public var matchPrecision: MatchPrecision
        public var againstOriginals: OriginalsSummary?
        public var clips: [ClipResult]
        /// What the fit script needs beside the clips: the names of `ClipResult.confidenceFeatures`
        /// and the library shape the models are weighted to (`TempoPrior.library`, the one definition).
        public var confidenceFeatureNames = ConfidenceEvidence.featureNames
        public var libraryShape = TempoPrior.library.shape
    }

    /// A labelled sample for fitting the small models (scripts/fit/tempo_models.py): `octave`, an
    /// octave pair around the annotated tempo (label: the faster level is the beat); `family`, a
    /// family candidate (label: it holds the annotated tempo up to a power of two); `phase`, the
    /// tracked beats of a clip read at the right tempo, half-beat slides aligned (label: the
    /// half-beats match the annotated beats better; only clips where the two phases differ by more
    /// than 0.2 in F); `sixteenth`, a move of the phase-decided beats a sixteenth later or
    /// earlier (`SixteenthShift.candidateMoves`; label: the moved beats match better; only where F differs by more than 0.2).
    public struct TrainingSample: Codable, Sendable {
        public enum Kind: String, Codable, Sendable {
            case family, octave, triple, hemiola, phase, sixteenth
            /// The phase model's features read on the annotated beats (label false) and on their
            /// half-beats (label true), whatever the tracker did: what the beat and the "and" look
            /// like in music the tracker never sat on the "and" of.
            case phaseAnnotated
            /// `BeatActivation`'s features at single frames: the frames within one of an annotated
            /// beat (label true) and every eighth frame of the rest, from half a second before the
            /// first beat to half a second after the last.
            case activation

            /// The names of the features the analysis computes for this model.
            public var featureNames: [String] {
                switch self {
                case .family: FamilyDecision.featureNames
                case .octave: OctaveDecision.featureNames
                case .triple: TripleDecision.featureNames
                case .hemiola: HemiolaDecision.featureNames
                case .phase, .phaseAnnotated: BeatPhase.featureNames
                case .sixteenth: SixteenthShift.featureNames
                case .activation: BeatActivation.featureNames
                }
            }
        }
        public var kind: Kind
        public var file: String
        public var group: String
        public var reference: Double
        public var label: Bool
        public var features: [Double]
        /// The names of `features`, in order: the fit writes them into the model, and the analysis
        /// checks them against its own on first use (`FittedModel`).
        public var featureNames: [String]
        public var libraryShape = TempoPrior.library.shape

        public init(kind: Kind, file: String, group: String, reference: Double, label: Bool, features: [Double]) {
            self.kind = kind
            self.file = file
            self.group = group
            self.reference = reference
            self.label = label
            self.features = features
            featureNames = kind.featureNames
            precondition(features.count == featureNames.count, "\(kind): \(features.count) features for \(featureNames.count) names")
        }
    }

    public static let tempoBuckets: [(String, ClosedRange<Double>)] = [
        // Each bound belongs to the bucket above it: a clip at exactly 170 was counted in two.
        ("60-100", 60...100.0.nextDown), ("100-140", 100...140.0.nextDown), ("140-170", 140...170.0.nextDown), ("170-200", 170...200),
        // Where most of a real library lives: slow songs read double land in the running range.
        ("below 140", 0...140.0.nextDown),
        // The range a library's tempo shape covers (60–200); the development corpora also hold songs
        // below and above it, where the prior and the ceiling (`TempoRanges.reported`) give way.
        ("60-200", 60...200),
        // The running range, where issue 9 counts octave errors (a fast song halved drops out of `match`).
        ("140-200", 140...200),
    ]

    /// `training`, when given, receives samples for fitting the tempo and beat models (not the
    /// activation's); `activation`, `BeatActivation`'s (a few hundred a clip: asked for apart).
    public static func run(corpus: Corpus, training: ((TrainingSample) -> Void)? = nil, activation: ((TrainingSample) -> Void)? = nil,
                           progress: ((Int, Int) -> Void)? = nil) -> Report {
        report(corpus.folder, analyse(corpus: corpus, training: training, activation: activation, progress: progress))
    }

    /// One report over the clips of several corpora: a verdict on many songs at once, with the match
    /// precision weighted over all of them together (a few matches a corpus say little alone).
    /// Each clip is named by its corpus folder and file (generated corpora share file names).
    public static func pooled(_ reports: [Report]) -> Report {
        let clips = reports.flatMap { report in
            report.clips.map { clip in
                var named = clip
                named.file = (report.corpus as NSString).appendingPathComponent(clip.file)
                return named
            }
        }
        return report("\(reports.count) corpora pooled", clips)
    }

    /// Every clip of `corpus` analysed and scored, one after another.
    static func analyse(corpus: Corpus, training: ((TrainingSample) -> Void)?, activation: ((TrainingSample) -> Void)? = nil,
                        progress: ((Int, Int) -> Void)?) -> [ClipResult] {
        var results: [ClipResult] = []
        for (i, clip) in corpus.clips.enumerated() {
            progress?(i, corpus.clips.count)
            var timing = AudioFileAnalysis.Timing()
            do {
                var curves: OnsetCurves?
                let (info, analysis) = try AudioFileAnalysis.analyse(path: clip.path, timing: &timing,
                                                                     inspect: training == nil && activation == nil ? nil : { curves = $0 })
                if let training, let curves {
                    samples(clip: clip, curves: curves).forEach(training)
                }
                if let activation, let curves {
                    activationSamples(clip: clip, curves: curves).forEach(activation)
                }
                let scored = TempoMetrics.scores(reference: clip.beats)
                var warnings = analysis.decodeWarning.map { [$0] } ?? []
                if let last = clip.beats.last, last > info.durationSeconds + 1 {
                    warnings.append(String(format: "its annotated beats run to %.1f s, past the end of its %.1f s of audio", last, info.durationSeconds)
                                    + (last > 100 * info.durationSeconds ? " (beat times go in seconds: are these milliseconds?)" : ""))
                }
                results.append(ClipResult(
                    file: clip.file, group: clip.group, reference: clip.bpm, estimate: analysis.bpm.value,
                    verdict: TempoVerdict(estimate: analysis.bpm.value, reference: clip.bpm),
                    confidence: analysis.confidence, alternative: analysis.alternative?.bpm.value,
                    alternativeProbability: analysis.alternative?.score, evidence: analysis.evidence,
                    confidenceFeatures: analysis.evidence?.features,
                    fMeasure: scored ? TempoMetrics.fMeasure(estimated: analysis.beats.map(\.value), reference: clip.beats) : nil,
                    fMeasureHandBeat: !scored ? nil : TempoMetrics.fMeasure(
                        estimated: TempoMetrics.withOneHandBeat(estimated: analysis.beats.map(\.value), reference: clip.beats,
                                                                duration: info.durationSeconds),
                        reference: clip.beats),
                    phaseOffset: TempoMetrics.medianPhaseOffset(estimated: analysis.beats.map(\.value), reference: clip.beats),
                    phaseDecision: analysis.phase,
                    audioSeconds: info.durationSeconds, decodeSeconds: timing.decodeSeconds,
                    analysisSeconds: timing.analysisSeconds, warning: warnings.isEmpty ? nil : warnings.joined(separator: "; "),
                    format: info.format, decoder: info.decoder,
                    original: clip.original.map { compare(analysis, toOriginal: $0) }))
            } catch {
                // No beats found scores 0 where beats were annotated, as in mir_eval: a clip that
                // fails does not leave the beat F of the rest looking like the whole corpus's.
                let lost: Double? = TempoMetrics.scores(reference: clip.beats) ? 0 : nil
                results.append(ClipResult(file: clip.file, group: clip.group, reference: clip.bpm, fMeasure: lost, fMeasureHandBeat: lost,
                                          audioSeconds: 0,
                                          decodeSeconds: timing.decodeSeconds, analysisSeconds: timing.analysisSeconds,
                                          error: "\(error)"))
            }
        }
        return results
    }

    static func report(_ name: String, _ results: [ClipResult]) -> Report {
        let groups = Array(Set(results.map(\.group))).sorted()
        var byFormat: [String: (Double, Double)] = [:]
        for r in results where r.error == nil {
            let format = r.format ?? (r.file as NSString).pathExtension.lowercased()
            byFormat[format, default: (0, 0)].0 += r.audioSeconds
            byFormat[format, default: (0, 0)].1 += r.decodeSeconds
        }
        let audio = results.map(\.audioSeconds).reduce(0, +)
        let decode = results.map(\.decodeSeconds).reduce(0, +)
        let analysis = results.map(\.analysisSeconds).reduce(0, +)
        let speed = Speed(audioSeconds: audio, decodeSeconds: decode, analysisSeconds: analysis,
                          decodeRealtime: audio / max(decode, 1e-9), analysisRealtime: audio / max(analysis, 1e-9),
                          totalRealtime: audio / max(decode + analysis, 1e-9),
                          decodeRealtimeByFormat: byFormat.mapValues { $0.0 / max($0.1, 1e-9) })
        return Report(
            corpus: name,
            overall: summarize("all", results),
            byGroup: groups.map { g in summarize(g, results.filter { $0.group == g }) },
            byTempo: tempoBuckets.map { name, range in summarize(name, results.filter { range.contains($0.reference) }) },
            speed: speed, reliability: ConfidenceReliability(results), beatReview: BeatReview(results), matchPrecision: MatchPrecision(results),
            againstOriginals: summarizeOriginals(results), clips: results)
    }

    static func compare(_ analysis: AnalysisResult, toOriginal path: String) -> OriginalComparison {
        guard let (_, original) = try? AudioFileAnalysis.analyse(path: path) else {
            return OriginalComparison(originalEstimate: nil, sameTempo: false, beats: nil)
        }
        let same = TempoMetrics.acc1(analysis.bpm.value, original.bpm.value)
        return OriginalComparison(originalEstimate: original.bpm.value, sameTempo: same,
                                  beats: same ? BeatComparison(beats: analysis.beats.map(\.value), reference: original.beats.map(\.value)) : nil)
    }

    static func summarizeOriginals(_ results: [ClipResult]) -> OriginalsSummary? {
        let compared = results.filter { $0.original != nil }
        guard !compared.isEmpty else { return nil }
        let beats = compared.compactMap { $0.original?.beats }
        let medians = beats.compactMap(\.medianOffsetMs).sorted()
        let originalRight = compared.filter { r in r.original?.originalEstimate.map { TempoMetrics.acc1($0, r.reference) } ?? false }.count
        return OriginalsSummary(
            clips: compared.count, sameTempo: compared.filter { $0.original?.sameTempo ?? false }.count,
            originalAcc1: Double(originalRight) / Double(compared.count),
            beatsWithin10ms: Double(beats.map(\.within10ms).reduce(0, +)) / Double(max(1, beats.map(\.compared).reduce(0, +))),
            medianOffsetMs: medians.isEmpty ? nil : medians[medians.count / 2],
            worstClipP95OffsetMs: beats.compactMap(\.p95OffsetMs).max())
    }

    static func samples(clip: Corpus.Clip, curves: OnsetCurves) -> [TrainingSample] {
        var out: [TrainingSample] = []
        guard let estimator = TempoEstimator(curves: curves) else { return out }
        for family in estimator.trainingFamilies(truthBPM: clip.bpm) {
            out.append(TrainingSample(kind: .family, file: clip.file, group: clip.group, reference: clip.bpm,
                                      label: family.inFamily, features: family.features))
        }
        let pairSets: [(TrainingSample.Kind, (Double) -> [(features: [Double], fasterIsBeat: Bool)])] = [
            (.octave, estimator.trainingPairs), (.triple, estimator.trainingTriples), (.hemiola, estimator.trainingHemiolas),
        ]
        for (kind, pairs) in pairSets {
            for pair in pairs(clip.bpm) {
                out.append(TrainingSample(kind: kind, file: clip.file, group: clip.group, reference: clip.bpm,
                                          label: pair.fasterIsBeat, features: pair.features))
            }
        }
        let annotated = annotatedFrames(clip, curves)
        if annotated.count >= 8 {
            for (beats, label) in [(annotated, false), (BeatPhase.shifted(annotated), true)] {
                out.append(TrainingSample(kind: .phaseAnnotated, file: clip.file, group: clip.group, reference: clip.bpm,
                                          label: label, features: BeatPhase.features(beats: beats, curves: curves)))
            }
        }
        guard !clip.beats.isEmpty, let (tempo, tracked) = estimator.estimate(decidePhase: false),
              TempoMetrics.acc1(tempo.bpm.value, clip.bpm) else { return out }
        func times(_ frames: [FramePosition]) -> [Double] { frames.map { curves.time(of: $0).value } }
        // The phase is decided on the tracked beats with half-beat slides aligned, as in the analysis.
        let aligned = BeatPhase.aligned(tracked, curves: curves)
        let f = TempoMetrics.fMeasure(estimated: times(aligned), reference: clip.beats)
        let fShifted = TempoMetrics.fMeasure(estimated: times(BeatPhase.shifted(aligned)), reference: clip.beats)
        if abs(f - fShifted) > 0.2 {
            out.append(TrainingSample(kind: .phase, file: clip.file, group: clip.group, reference: clip.bpm,
                                      label: fShifted > f, features: BeatPhase.features(beats: aligned, curves: curves)))
        }
        // A sixteenth is decided on the beats the phase decision gives.
        let frames = BeatPhase.decided(aligned: aligned, curves: curves).beats
        if frames.count >= 8 {
            let fDecided = TempoMetrics.fMeasure(estimated: times(frames), reference: clip.beats)
            for fraction in SixteenthShift.candidateMoves(beats: frames, curves: curves) {
                let moved = SixteenthShift.moved(frames, by: fraction)
                let fMoved = TempoMetrics.fMeasure(estimated: times(moved), reference: clip.beats)
                if abs(fDecided - fMoved) > 0.2 {
                    out.append(TrainingSample(kind: .sixteenth, file: clip.file, group: clip.group, reference: clip.bpm, label: fMoved > fDecided,
                                              features: SixteenthShift.features(beats: frames, curves: curves, fraction: fraction)))
                }
            }
        }
        return out
    }

    /// The clip's annotated beats as frames of its curves (those inside them).
    static func annotatedFrames(_ clip: Corpus.Clip, _ curves: OnsetCurves) -> [FramePosition] {
        clip.beats.map { curves.frame(at: Seconds($0)) }.filter { $0.value >= 0 && $0.value < Double(curves.all.count) }
    }

    /// `BeatActivation`'s samples of a clip with at least eight annotated beats (`activationFrames`).
    static func activationSamples(clip: Corpus.Clip, curves: OnsetCurves) -> [TrainingSample] {
        let annotated = annotatedFrames(clip, curves)
        guard annotated.count >= 8, let rows = BeatActivation.features(curves) else { return [] }
        return activationFrames(annotated, count: rows.count, frameRate: curves.frameRate).map { frame, label in
            TrainingSample(kind: .activation, file: clip.file, group: clip.group, reference: clip.bpm, label: label, features: rows[frame])
        }
    }

    /// The frames `BeatActivation` learns from: those within one frame of an annotated beat (true),
    /// and every eighth of the others from half a second before the first beat to half a second
    /// after the last (false; outside, the annotation may not have started).
    static func activationFrames(_ beats: [FramePosition], count: Int, frameRate: Double) -> [(Int, Bool)] {
        guard let firstBeat = beats.first, let lastBeat = beats.last, count > 0 else { return [] }
        var onBeat = [Bool](repeating: false, count: count)
        for b in beats {
            let c = min(count - 1, Int(b.value.rounded()))
            for i in max(0, c - 1)...min(count - 1, c + 1) { onBeat[i] = true }
        }
        let halfSecond = frameRate / 2
        let first = max(0, Int(firstBeat.value - halfSecond)), last = min(count - 1, Int(lastBeat.value + halfSecond))
        guard first <= last else { return [] }
        return (first...last).compactMap { i in onBeat[i] ? (i, true) : (i % 8 == 0 ? (i, false) : nil) }
    }

    static func summarize(_ name: String, _ results: [ClipResult]) -> Summary {
        func rate(_ test: (Double, Double) -> Bool) -> Double? {
            results.isEmpty ? nil : Double(results.filter { r in r.estimate.map { test($0, r.reference) } ?? false }.count) / Double(results.count)
        }
        let fs = results.compactMap(\.fMeasure), handFs = results.compactMap(\.fMeasureHandBeat)
        let offsets = results.compactMap(\.phaseOffset).sorted()
        let ranked = results.sorted { ($0.confidence ?? -1) > ($1.confidence ?? -1) }
        let top = Array(ranked.prefix(Int((Double(results.count) * 0.8).rounded(.up))))
        let topAcc1 = top.isEmpty ? nil : Double(top.filter(\.isRightTempo).count) / Double(top.count)
        return Summary(name: name, clips: results.count, acc1: rate(TempoMetrics.acc1), strict: rate(TempoMetrics.strict),
                       acc2: rate(TempoMetrics.acc2), octaveErrors: rate(TempoMetrics.octaveError),
                       threeTwoErrors: rate(TempoMetrics.threeTwoError),
                       fMeasure: fs.isEmpty ? nil : fs.reduce(0, +) / Double(fs.count), beatClips: fs.count,
                       fMeasureHandBeat: handFs.isEmpty ? nil : handFs.reduce(0, +) / Double(handFs.count),
                       medianPhaseOffsetMs: offsets.isEmpty ? nil : offsets[offsets.count / 2] * 1000,
                       acc1Confident80: topAcc1)
    }
}
