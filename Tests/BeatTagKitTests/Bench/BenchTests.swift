@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

final class TempoMetricsTests: XCTestCase {
    /// The four tempo buckets split 60–200 without overlap: a clip at exactly 100, 140 or 170 BPM
    /// was counted in two (corpus-dev's 36 clips summed to 37).
    func testTheTempoBucketsSplitTheRangeOnce() {
        let four = TempoBenchmark.tempoBuckets.prefix(4).map(\.1)
        for bpm in stride(from: 60.0, through: 200.0, by: 0.5) + [99.999_999, 139.999_999, 169.999_999] {
            XCTAssertEqual(four.filter { $0.contains(bpm) }.count, 1, "\(bpm)")
        }
        XCTAssertTrue(TempoBenchmark.tempoBuckets[3].1.contains(170) && TempoBenchmark.tempoBuckets[2].1.contains(169.99))
    }

    func testAccuracyMeasures() {
        XCTAssertTrue(TempoMetrics.acc1(181, 175))
        XCTAssertFalse(TempoMetrics.acc1(183, 175))
        XCTAssertTrue(TempoMetrics.strict(178, 175))
        XCTAssertFalse(TempoMetrics.strict(179, 175))
        XCTAssertTrue(TempoMetrics.acc2(87.5, 175))
        XCTAssertTrue(TempoMetrics.octaveError(87.5, 175))
        XCTAssertFalse(TempoMetrics.octaveError(175, 175))
        XCTAssertTrue(TempoMetrics.threeTwoError(93.3, 140))
        XCTAssertTrue(TempoMetrics.acc2(58.3, 175))
    }

    func testVerdictNamesTheKindOfError() {
        XCTAssertEqual(TempoVerdict(estimate: 176, reference: 175), .ok)
        XCTAssertEqual(TempoVerdict(estimate: 181, reference: 175), .within4)
        XCTAssertEqual(TempoVerdict(estimate: 87.5, reference: 175), .octave)
        XCTAssertEqual(TempoVerdict(estimate: 350, reference: 175), .octave)
        XCTAssertEqual(TempoVerdict(estimate: 93.3, reference: 140), .threeTwo)
        XCTAssertEqual(TempoVerdict(estimate: 150, reference: 175), .wrong)
    }

    /// `bench --json` carries each clip's verdict, the word the text table prints.
    func testBenchJSONCarriesEachClipsVerdict() throws {
        let folder = try benchCorpus("corpus", in: try temporaryDirectory(self),
                                     copies: ["right.wav", "halved-truth.wav"].map { ($0, "house-128.wav") },
                                     truth: "file,bpm\nright.wav,128\nhalved-truth.wav,64\n")
        let result = try runBeattag(["bench", "--json", "--corpus", folder])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONDecoder().decode(TempoBenchmark.Report.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: report.clips.map { ($0.file, $0.verdict) }), ["right.wav": .ok, "halved-truth.wav": .octave])
        XCTAssertTrue(result.stdout.contains("\"verdict\":\"OCTAVE\""))
        // A bucket with no clips has no rates (it said 0%, read as "all wrong").
        let buckets = Dictionary(uniqueKeysWithValues: report.byTempo.map { ($0.name, $0) })
        XCTAssertEqual(buckets["100-140"]?.acc1, 1)
        XCTAssertEqual(buckets["170-200"]?.clips, 0)
        XCTAssertNil(buckets["170-200"]?.acc1)
        XCTAssertNil(buckets["170-200"]?.acc1Confident80)
    }

    /// `--pooled` adds one report over every clip of the corpora given, each clip named by its corpus.
    func testPooledReportCoversEveryCorpusClip() throws {
        let dir = try temporaryDirectory(self)
        var folders: [String] = []
        for (name, truth) in [("a", "right.wav,128\n"), ("b", "right.wav,128\nhalved-truth.wav,64\n")] {
            let files = truth.split(separator: "\n").map { String($0.split(separator: ",")[0]) }
            folders.append(try benchCorpus(name, in: dir, copies: files.map { ($0, "house-128.wav") }, truth: "file,bpm\n" + truth))
        }
        let result = try runBeattag(["bench", "--json", "--pooled", "--corpus", folders[0], "--corpus", folders[1]])
        XCTAssertEqual(result.status, 0, result.stderr)
        let reports = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(TempoBenchmark.Report.self, from: Data($0.utf8)) }
        XCTAssertEqual(reports.count, 3)
        let pooled = try XCTUnwrap(reports.last)
        XCTAssertEqual(pooled.overall.clips, 3)
        XCTAssertEqual(try XCTUnwrap(pooled.overall.acc1), 2.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(Set(pooled.clips.map(\.file)), Set([folders[0] + "/right.wav", folders[1] + "/right.wav", folders[1] + "/halved-truth.wav"]))
        // Matched at 128 BPM's ±10% window by none of these SPMs; the rows are still there.
        XCTAssertEqual(pooled.matchPrecision.rows.map(\.spm), [160, 175, 190])

        let alone = try runBeattag(["bench", "--pooled", "--corpus", folders[0]])
        XCTAssertEqual(alone.status, 64)
        XCTAssertTrue(alone.stderr.contains("--pooled needs two or more --corpus folders"), alone.stderr)
    }

    /// The review queue's beats reason, scored: a skank whose grid the analysis moved half a beat is
    /// listed for its beats. Annotated on its kicks the move was right; annotated on its "and"s (as
    /// a grid the analysis wrongly moved would be) it is off the beat, listed, and a beat placed by
    /// hand puts it right.
    func testTheBeatReviewScoresGridsTheAnalysisMoved() throws {
        let folder = (try temporaryDirectory(self) as NSString).appendingPathComponent("skanks")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var synth = DrumSynth(sampleRate: 22050, bpm: 150, pattern: .skank, seconds: 20)
        let audio = synth.render(), period = 60 / synth.bpm
        for (name, beats) in [("kicks", synth.beatTimes), ("ands", synth.beatTimes.map { $0 + period / 2 })] {
            try AudioWriter.write(audio, sampleRate: 22050, to: (folder as NSString).appendingPathComponent(name + ".wav"), as: .wav)
            try (beats.map { String(format: "%.6f", $0) }.joined(separator: "\n") + "\n")
                .write(toFile: (folder as NSString).appendingPathComponent(name + ".wav.beats"), atomically: true, encoding: .utf8)
        }
        try "file,bpm\nkicks.wav,150\nands.wav,150\n".write(toFile: (folder as NSString).appendingPathComponent("truth.csv"),
                                                              atomically: true, encoding: .utf8)
        let result = try runBeattag(["bench", "--json", "--corpus", folder])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONDecoder().decode(TempoBenchmark.Report.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(report.clips.map { $0.phaseDecision?.halfBeat }, [true, true])
        let review = report.beatReview
        XCTAssertEqual(review.clipsAtRightTempo, 2)
        XCTAssertEqual(review.offBeat, 1, "the clip annotated on its \"and\"s")
        XCTAssertEqual(review.offBeatListedForBeats, 1)
        XCTAssertEqual(review.listedForBeats, 2)
        XCTAssertEqual(review.listedForBeatsOffBeat, 1)
        let f = try XCTUnwrap(review.fMeasure), reviewed = try XCTUnwrap(review.fMeasureAfterReview)
        XCTAssertGreaterThan(reviewed, f + 0.3, "the hand beat puts the off-beat grid right")
        let table = try runBeattag(["bench", "--corpus", folder])
        XCTAssertTrue(table.stdout.contains("off the beat (beat F < 0.5): 1 of 2 grids at the right tempo"), table.stdout)
    }

    func testFMeasure() {
        let reference = (0..<40).map { 5 + Double($0) * 0.5 }
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: reference, reference: reference), 1)
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: reference.map { $0 + 0.06 }, reference: reference), 1)
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: reference.map { $0 + 0.1 }, reference: reference), 0)
        // Double-time estimate: all reference beats found, half the estimates wrong.
        let double = (0..<80).map { 5 + Double($0) * 0.25 }
        XCTAssertEqual(TempoMetrics.fMeasure(estimated: double, reference: reference), 2 * 0.5 * 1 / 1.5, accuracy: 0.02)
        XCTAssertEqual(TempoMetrics.medianPhaseOffset(estimated: reference.map { $0 + 0.02 }, reference: reference) ?? 0, 0.02, accuracy: 1e-9)
    }

    func testCSVWithQuotedFields() {
        let rows = CSV.parse("file,bpm,notes\na.ogg,140,\"8/4, \"\"ambiguous\"\"\"\nb.ogg,87,plain\n")
        XCTAssertEqual(rows, [["file", "bpm", "notes"], ["a.ogg", "140", "8/4, \"ambiguous\""], ["b.ogg", "87", "plain"]])
    }

    /// `--training-data` also writes the phase features read on the annotated beats (stay) and on
    /// their half-beats (shift), whatever the tracker did: on a four-on-the-floor the kicks are on
    /// the annotated beats, and the phase model keeps that grid and moves the other.
    func testTrainingDataHoldsThePhaseOfTheAnnotatedGrid() throws {
        let dir = try temporaryDirectory(self)
        let folder = try benchCorpus("corpus", in: dir, copies: ["house-128.wav", "house-128.wav.beats"].map { ($0, $0) },
                                     truth: "file,bpm\nhouse-128.wav,128\n")
        let samples = (dir as NSString).appendingPathComponent("samples.jsonl")
        let activationSamples = (dir as NSString).appendingPathComponent("activation.jsonl")
        let result = try runBeattag(["bench", "--corpus", folder, "--training-data", samples, "--activation-data", activationSamples])
        XCTAssertEqual(result.status, 0, result.stderr)
        func decoded(_ path: String) throws -> [TempoBenchmark.TrainingSample] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                .map { try JSONDecoder().decode(TempoBenchmark.TrainingSample.self, from: Data($0.utf8)) }
        }
        let annotated = try decoded(samples).filter { $0.kind == .phaseAnnotated }
        XCTAssertEqual(annotated.map(\.label), [false, true], "the annotated grid, then its half-beats")
        let activation = try decoded(activationSamples)
        XCTAssertTrue(activation.allSatisfy { $0.kind == .activation }, "the activation's samples apart")
        XCTAssertFalse(try String(contentsOfFile: samples, encoding: .utf8).contains("\"activation\""), "and only there")
        XCTAssertGreaterThan(activation.filter(\.label).count, 20, "frames on the annotated beats")
        XCTAssertGreaterThan(activation.filter { !$0.label }.count, 20, "frames between them")
        XCTAssertTrue(activation.allSatisfy { $0.featureNames == BeatActivation.featureNames })
        guard annotated.count == 2 else { return }
        let low = try XCTUnwrap(BeatPhase.featureNames.firstIndex(of: "lowRatio"))
        XCTAssertGreaterThan(annotated[0].features[low], 0.5, "kicks on the annotated beats")
        XCTAssertLessThan(annotated[1].features[low], -0.5, "and not between them")
        XCTAssertLessThan(BeatPhase.model.probability(annotated[0].features), 0.5)
        XCTAssertGreaterThan(BeatPhase.model.probability(annotated[1].features), 0.5)
    }

    /// The activation learns from the frames within one of an annotated beat, and from every eighth
    /// other frame from half a second before the first beat to half a second after the last.
    func testTheActivationLearnsFromFramesNearAndBetweenTheBeats() {
        let frames = TempoBenchmark.activationFrames([80, 130, 180.4].map { FramePosition($0) }, count: 300, frameRate: 100)
        XCTAssertEqual(frames.filter(\.1).map(\.0), [79, 80, 81, 129, 130, 131, 179, 180, 181])
        XCTAssertEqual(frames.filter { !$0.1 }.map(\.0), Array(stride(from: 32, through: 224, by: 8)).filter { $0 != 80 })
        XCTAssertTrue(TempoBenchmark.activationFrames([], count: 300, frameRate: 100).isEmpty)
        // A beat on the last frame labels only the frames that exist.
        let end = TempoBenchmark.activationFrames([FramePosition(99.6)], count: 100, frameRate: 100)
        XCTAssertEqual(end.filter(\.1).map(\.0), [98, 99])
    }

    func testFixtureCorpusLoads() throws {
        let corpus = try Corpus(folder: TestPaths.fixtures)
        XCTAssertEqual(corpus.clips.count, 14)
        XCTAssertTrue(corpus.clips.allSatisfy { !$0.beats.isEmpty })
    }
}

final class DecodeBenchmarkTests: XCTestCase {
    func testDecodeOnlyReportsCodecSpeedAndMemory() throws {
        let files = ["encoded/house-128-alac.m4a", "encoded/trance-140.wma", "house-128.wav"].map(TestPaths.fixture)
        let result = try runBeattag(["bench", "--json"] + files.flatMap { ["--decode", $0] })
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try JSONDecoder().decode([DecodeBenchmark.Row].self, from: Data(result.stdout.utf8))
        XCTAssertEqual(rows.map(\.format), ["alac", "wmav2", "wav"])
        XCTAssertEqual(rows.map { $0.decoder?.split(separator: " ").first.map(String.init) }, ["ffmpeg", "ffmpeg", "libsndfile"])
        for row in rows {
            XCTAssertEqual(row.audioSeconds, 12, accuracy: 0.1, row.path)
            XCTAssertGreaterThan(row.realtime, 1, row.path)
            XCTAssertNotNil(row.peakGrowthMB, "Linux resets and reads the peak")
        }
    }

    func testAnalyzeReportsTempoSpeedAndMemory() throws {
        let files = ["house-128.wav", "encoded/trance-140.wma"].map(TestPaths.fixture)
        let result = try runBeattag(["bench", "--json"] + files.flatMap { ["--analyze", $0] })
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try JSONDecoder().decode([DecodeBenchmark.Row].self, from: Data(result.stdout.utf8))
        XCTAssertEqual(rows.map(\.format), ["wav", "wmav2"])
        for (row, bpm) in zip(rows, [128.0, 140]) {
            XCTAssertNil(row.error, row.path)
            XCTAssertEqual(row.bpm ?? 0, bpm, accuracy: 1, row.path)
            XCTAssertGreaterThan(row.beats ?? 0, 20, row.path)
            XCTAssertNotNil(row.analysisSeconds, row.path)
            XCTAssertNotNil(row.peakGrowthMB, "Linux resets and reads the peak")
        }
    }

    /// A corpus made by re-encoding names its originals: bench compares each clip with its original.
    func testCorpusWithOriginalsIsComparedWithThem() throws {
        let folder = try benchCorpus("copies", in: try temporaryDirectory(self),
                                     copies: ["house-128-alac.m4a", "trance-140.wma"].map { ($0, "encoded/" + $0) },
                                     truth: "file,bpm,original\nhouse-128-alac.m4a,128,\(TestPaths.fixture("house-128.wav"))\ntrance-140.wma,140,\(TestPaths.fixture("trance-140.flac"))\n")
        let report = TempoBenchmark.run(corpus: try Corpus(folder: folder))
        let originals = try XCTUnwrap(report.againstOriginals)
        XCTAssertEqual(originals.clips, 2)
        XCTAssertEqual(originals.sameTempo, 2)
        XCTAssertGreaterThan(originals.beatsWithin10ms, 0.9)
        XCTAssertEqual(report.speed.decodeRealtimeByFormat.keys.sorted(), ["alac", "wmav2"])
    }
}

/// A bench corpus: folder `name` in `dir` holding each fixture under its name there, and `truth`
/// as its truth.csv.
func benchCorpus(_ name: String, in dir: String, copies: [(file: String, fixture: String)], truth: String) throws -> String {
    let folder = (dir as NSString).appendingPathComponent(name)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for copy in copies {
        try FileManager.default.copyItem(atPath: TestPaths.fixture(copy.fixture), toPath: (folder as NSString).appendingPathComponent(copy.file))
    }
    try truth.write(toFile: (folder as NSString).appendingPathComponent("truth.csv"), atomically: true, encoding: .utf8)
    return folder
}
