import ArgumentParser
import BeatTagKit
import Foundation

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Score tempo and beat tracking on annotated corpora (build with -c release).",
        discussion: """
            A corpus folder holds truth.csv (a header line naming the columns file and bpm, optionally \
            style; comma-, semicolon- or tab-separated, UTF-8) and, per clip, <file>.beats or \
            <name without extension>.beats: one beat a line, its time in seconds first (then anything, \
            such as its place in the bar). A row or beat that cannot be read stops the run with its line. \
            Reports Acc1 (within 4%), strict (2%), Acc2 (4% allowing ×2 ×3 ½ ⅓), octave and 3:2 errors, \
            beat F-measure (±70 ms, beats before 5 s ignored), median phase offset, Acc1 among the 80% \
            most confident, a confidence reliability table (share right per confidence bin, wrong tempi \
            flagged below 0.8), which grids off the beat the review queue lists, match precision at 160/175/190 SPM with the clips weighted to a real \
            library's tempo shape, and single-core speed with decode and analysis apart, decoding by codec. \
            A corpus whose truth.csv has an `original` column (scripts/bench/encode-corpus.py makes one) is \
            also compared with the files it was encoded from: same tempo, beats within 10 ms. \
            --pooled adds one report over the clips of all the corpora given (e.g. the two splits of \
            several generated corpora): a verdict on many songs at once.

            --decode FILE decodes files alone (no analysis) and reports speed and the memory the decoder \
            needed; --analyze FILE decodes and analyses them, as scan does, and reports the same (memory \
            stays flat in track length: scripts/bench/analysis-memory.sh). See docs/benchmark.md.
            """)

    @Option(name: .customLong("corpus"), help: ArgumentHelp("Annotated corpus folder (repeatable).", valueName: "folder"))
    var corpora: [String] = []
    @Option(name: .customLong("decode"), help: ArgumentHelp("Decode this file alone: speed and peak memory (repeatable).", valueName: "file"))
    var decodeFiles: [String] = []
    @Option(name: .customLong("analyze"), help: ArgumentHelp("Decode and analyse this file alone: speed, peak memory and tempo (repeatable).",
                                                             valueName: "file"))
    var analyzeFiles: [String] = []
    @Flag(help: "Print one JSON report per corpus.") var json = false
    @Flag(help: "List every clip.") var clips = false
    @Flag(help: "After the corpora, one report over all their clips together (with --json, one more object).")
    var pooled = false
    @Option(help: ArgumentHelp("Write the tempo and beat models' training samples (family, octave, triple, hemiola, phase, sixteenth; and phaseAnnotated, the phase features on the annotated beats and their half-beats, for scripts/fit/phase_study.py) as JSON lines (for scripts/fit/refit.sh).",
                               valueName: "file"))
    var trainingData: String?
    @Option(help: ArgumentHelp("Write the beat activation's training samples (the frames on and between the annotated beats) as JSON lines (for scripts/fit/tempo_models.py activation).",
                               valueName: "file"))
    var activationData: String?

    func validate() throws {
        if corpora.isEmpty && decodeFiles.isEmpty && analyzeFiles.isEmpty {
            throw ValidationError("give at least one --corpus folder, --decode file or --analyze file")
        }
        if trainingData != nil && corpora.isEmpty { throw ValidationError("--training-data needs a --corpus") }
        if activationData != nil && corpora.isEmpty { throw ValidationError("--activation-data needs a --corpus") }
        if let trainingData, trainingData == activationData { throw ValidationError("--training-data and --activation-data need two files") }
        if pooled && corpora.count < 2 { throw ValidationError("--pooled needs two or more --corpus folders") }
    }

    func run() throws {
        let console = Console.current
        if !decodeFiles.isEmpty { try runFiles(decodeFiles, analyse: false, console) }
        if !analyzeFiles.isEmpty { try runFiles(analyzeFiles, analyse: true, console) }
        var sampleLines: [String] = [], activationLines: [String] = []
        var encodingError: Error?
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var reports: [TempoBenchmark.Report] = []
        // Every corpus is read before any is analysed: a bad one found after an hour of the others is an hour lost.
        let loaded: [Corpus]
        do { loaded = try corpora.map { try Corpus(folder: $0) } } catch { throw CommandFailure("\(error)") }
        for corpus in loaded {
            func encoded(_ sample: TempoBenchmark.TrainingSample) -> String? {
                do { return String(decoding: try encoder.encode(sample), as: UTF8.self) } catch { encodingError = encodingError ?? error; return nil }
            }
            let collect: ((TempoBenchmark.TrainingSample) -> Void)? = trainingData == nil ? nil : { encoded($0).map { sampleLines.append($0) } }
            let collectActivation: ((TempoBenchmark.TrainingSample) -> Void)? = activationData == nil ? nil : { encoded($0).map { activationLines.append($0) } }
            let report = TempoBenchmark.run(corpus: corpus, training: collect,
                                            activation: collectActivation) { i, n in
                if console.stderrIsTerminal && !json { console.writeErr("\r\u{1B}[2K\(i + 1)/\(n) \(corpus.clips[i].file)") }
            }
            if console.stderrIsTerminal && !json { console.writeErr("\r\u{1B}[2K") }
            if pooled { reports.append(report) }
            try printReport(report, unlisted: corpus.unlisted, console)
        }
        if pooled { try printReport(TempoBenchmark.pooled(reports), console) }
        if let encodingError { throw CommandFailure("cannot write the samples: \(encodingError)") }
        for (path, lines) in [(trainingData, sampleLines), (activationData, activationLines)] {
            guard let path else { continue }
            do { try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: path, as: .jsonLines) } catch { throw CommandFailure("\(error)") }
        }
    }

    private func printReport(_ report: TempoBenchmark.Report, unlisted: [String] = [], _ console: Console) throws {
        if json { try console.printJSON(report); return }
        let failed = report.clips.filter { $0.error != nil }, warned = report.clips.filter { $0.warning != nil }
        console.print("corpus \(report.corpus): \(report.clips.count) clip\(report.clips.count == 1 ? "" : "s"), \(report.overall.beatClips) with beats annotated past 5 s"
                      + (failed.isEmpty ? "" : "; \(failed.count) not analysed (they count as wrong, and as beat F 0 where annotated)"))
        if !unlisted.isEmpty {
            console.print("  not in truth.csv, so not scored: \(unlisted.count) audio file\(unlisted.count == 1 ? "" : "s") ("
                          + unlisted.prefix(3).joined(separator: ", ") + (unlisted.count > 3 ? ", …" : "") + ")")
        }
        for (clips, what) in [(failed, "not analysed"), (warned, "scored with a warning")] {
            for c in clips.prefix(Self.clipsNamed) { console.print("  \(what): \(c.file): \(c.error ?? c.warning ?? "")") }
            if clips.count > Self.clipsNamed { console.print("  and \(clips.count - Self.clipsNamed) more \(what)" + (self.clips ? " (listed below)" : " (--clips lists them)")) }
        }
        console.print(render([report.overall] + report.byTempo, title: "tempo"))
        console.print(render(report.byGroup, title: "group"))
        console.print("beat F (n): over n clips where fewer than the row's have beats annotated; F hand beat: after one beat is placed "
                      + "by hand on every clip, where the annotations put it (an upper bound of a review)")
        console.print(renderReliability(report.reliability))
        let b = report.beatReview
        console.print("off the beat (beat F < \(BeatReview.offBeat)): \(b.offBeat) of \(b.clipsAtRightTempo) grids at the right tempo; "
                      + "untagged lists \(b.offBeatListed) of them, \(b.offBeatListedForBeats) for their beats. "
                      + "It lists \(b.listedForBeats) clips for their beats, \(b.listedForBeatsOffBeat) of them off the beat"
                      + (b.fMeasure.map { f in String(format: "; beat F %.3f, %.3f once a person has placed a beat on them", f, b.fMeasureAfterReview ?? f) } ?? ""))
        console.print(report.matchPrecision.rows.map { row in
            String(format: "match at %.0f SPM: library-weighted precision ", row.spm)
                + (row.precision.map { String(format: "%.1f%%", $0 * 100) } ?? "-") + " (\(row.matched) clip\(row.matched == 1 ? "" : "s") matched), library-weighted recall "
                + (row.recall.map { String(format: "%.1f%%", $0 * 100) } ?? "-") + " (\(row.runnable) clip\(row.runnable == 1 ? "" : "s") run there)"
        }.joined(separator: "\n"))
        let s = report.speed
        console.print(String(format: "speed (1 core): %.0f s of audio; decode %.0f×, analysis %.0f×, together %.0f× realtime", s.audioSeconds,
                     s.decodeRealtime, s.analysisRealtime, s.totalRealtime))
        if let o = report.againstOriginals {
            console.print(String(format: "against the originals: %d of %d clips at the same tempo (originals' Acc1 %.0f%%, these %.0f%%); "
                                 + "beats within 10 ms %.1f%%, median offset %.1f ms, worst clip's 95th percentile %.1f ms",
                                 o.sameTempo, o.clips, o.originalAcc1 * 100, (report.overall.acc1 ?? 0) * 100, o.beatsWithin10ms * 100,
                                 o.medianOffsetMs ?? .nan, o.worstClipP95OffsetMs ?? .nan))
        }
        console.print("decode by format: " + s.decodeRealtimeByFormat.sorted { $0.key < $1.key }.map { String(format: "%@ %.0f×", $0.key, $0.value) }.joined(separator: ", "))
        if clips {
            // The note is what gets cut to fit, never the file's name.
            var table = TextTable(columns: ["file", "group", "truth", "estimate", "conf", "alt", "F", "verdict", "note"], flexible: [1, 8])
            for c in report.clips {
                table.add([c.file, c.group, String(format: "%.1f", c.reference), c.estimate.map { String(format: "%.1f", $0) } ?? "-",
                           c.confidence.map { String(format: "%.2f", $0) } ?? "-", c.alternative.map { String(format: "%.1f", $0) } ?? "-",
                           c.fMeasure.map { String(format: "%.2f", $0) } ?? "-", c.verdict?.rawValue ?? "not analysed", c.error ?? c.warning ?? ""])
            }
            console.print(table.render())
        }
    }

    /// Failed and warned clips named above the tables, at most this many of each.
    private static let clipsNamed = 10

    func runFiles(_ paths: [String], analyse: Bool, _ console: Console) throws {
        let rows = DecodeBenchmark.run(paths: paths, analyse: analyse)
        if json { try console.printJSON(rows); return }
        var table = TextTable(columns: ["file", "codec", "decoder", "audio s", "× realtime", "peak MB"] + (analyse ? ["BPM", "beats"] : []))
        for r in rows {
            table.add([(r.path as NSString).lastPathComponent, r.format ?? "-", r.decoder ?? (r.error ?? "-"),
                       String(format: "%.0f", r.audioSeconds), r.error == nil ? String(format: "%.0f", r.realtime) : "-",
                       r.peakGrowthMB.map { String(format: "%.1f", $0) } ?? "-"]
                      + (analyse ? [r.bpm.map { String(format: "%.1f", $0) } ?? "-", r.beats.map(String.init) ?? "-"] : []))
        }
        console.print(table.render())
    }

    func renderReliability(_ r: ConfidenceReliability) -> String {
        var table = TextTable(columns: ["confidence", "n", "right"])
        for bin in r.bins {
            table.add([String(format: "%.1f-%.1f", bin.lower, bin.upper), "\(bin.clips)",
                       bin.right.map { String(format: "%.0f%%", $0 * 100) } ?? "-"])
        }
        let trustedClips = r.bins.filter { $0.lower >= ConfidenceReliability.trusted }.map(\.clips).reduce(0, +)
        let trusted = r.rightAtOrAboveTrusted.map { String(format: "%.1f%% (%.0f of %d)", $0 * 100, ($0 * Double(trustedClips)).rounded(), trustedClips) } ?? "-"
        return table.render() + "\n" + String(format: "right at confidence >= %.1f: %@; of %d wrong tempi, %d flagged in doubt (< %.1f)",
                                              ConfidenceReliability.trusted, trusted, r.wrong, r.wrongBelowTrusted,
                                              ConfidenceReliability.trusted)
            + (r.failed > 0 ? " (among them \(r.failed) not analysed, counted as wrong and flagged)" : "")
            + "\n" + String(format: "untagged lists %d of %d clips for their tempo (%.0f%%), %d of %d wrong tempi", r.untaggedListed,
                             r.bins.map(\.clips).reduce(0, +) + r.failed,
                             100 * Double(r.untaggedListed) / Double(max(1, r.bins.map(\.clips).reduce(0, +) + r.failed)),
                             r.wrongUntaggedListed, r.wrong)
    }

    func render(_ rows: [TempoBenchmark.Summary], title: String) -> String {
        var table = TextTable(columns: [title, "n", "Acc1", "strict", "Acc2", "octave", "3:2", "beat F", "F hand beat", "phase ms", "Acc1@80%conf"])
        for r in rows {
            func pct(_ x: Double?) -> String { x.map { String(format: "%.0f%%", $0 * 100) } ?? "-" }
            table.add([r.name, "\(r.clips)", pct(r.acc1), pct(r.strict), pct(r.acc2), pct(r.octaveErrors), pct(r.threeTwoErrors),
                       r.fMeasure.map { String(format: "%.2f", $0) + (r.beatClips < r.clips ? " (\(r.beatClips))" : "") } ?? "-", r.fMeasureHandBeat.map { String(format: "%.2f", $0) } ?? "-",
                       r.medianPhaseOffsetMs.map { String(format: "%+.0f", $0) } ?? "-",
                       pct(r.acc1Confident80)])
        }
        return table.render()
    }
}
