import Foundation

/// Decode + analyse one file, streaming. Used by scan, analyze and bench.
public enum AudioFileAnalysis {
    /// A file that breaks off after at least this much audio is analysed from what decoded.
    public static let minimumPartialSeconds = 10.0

    public struct Timing: Sendable {
        public var decodeSeconds = 0.0
        public var analysisSeconds = 0.0
        /// Fingerprinting the recording (Chromaprint), when asked.
        public var printSeconds = 0.0
        public init(decodeSeconds: Double = 0, analysisSeconds: Double = 0, printSeconds: Double = 0) {
            self.decodeSeconds = decodeSeconds
            self.analysisSeconds = analysisSeconds
            self.printSeconds = printSeconds
        }
    }

    /// `recordingPrint`: also fingerprint the recording (`RecordingPrinter`, when Chromaprint is
    /// installed) from the same decoded audio, into `info.recordingPrint`.
    /// A file libsndfile stops decoding part-way, or that ends short of its header's exact length (a
    /// damaged Ogg page or FLAC frame skipped), is decoded again by FFmpeg, whose whole decode wins
    /// when it gets further (it puts lost stretches back as silence); an Opus file FFmpeg stops on
    /// is decoded again by libsndfile, likewise. An MP3 that libsndfile read past damage in
    /// (`AudioSource.damageSkippedAt`) is decoded again by FFmpeg, whose decode wins when whole.
    /// A file whose two channels cancel out (one inverted: a wiring or export fault) is silent as
    /// mono; its music is in their difference, which is analysed instead, with a warning.
    public static func analyse(path: String, timing: UnsafeMutablePointer<Timing>? = nil, recordingPrint: Bool = false,
                               inspect: ((OnsetCurves) -> Void)? = nil) throws -> (AudioStreamInfo, AnalysisResult) {
        do {
            return try analyse(path: path, layout: .mono, timing: timing, recordingPrint: recordingPrint, inspect: inspect)
        } catch AnalysisError.silent {
            guard var side = try? analyse(path: path, layout: .side, timing: timing, recordingPrint: recordingPrint, inspect: inspect)
            else { throw AnalysisError.silent }
            let note = "its channels cancel out (one is inverted): analysed their difference"
            side.1.decodeWarning = side.1.decodeWarning.map { "\(note); \($0)" } ?? note
            return side
        }
    }

    private static func analyse(path: String, layout: ChannelLayout, timing: UnsafeMutablePointer<Timing>?, recordingPrint: Bool,
                                inspect: ((OnsetCurves) -> Void)?) throws -> (AudioStreamInfo, AnalysisResult) {
        let decoder = try AudioSources.open(path: path, layout: layout)
        // The other library, for a decode that stops part-way: FFmpeg after libsndfile, and
        // libsndfile after FFmpeg where FFmpeg was chosen over it (Opus). Not for what only FFmpeg reads.
        let other: () -> (any AudioSource)? = decoder is SndfileSource
            ? { try? FFmpegSource(path: path, layout: layout) }
            : { DecoderLibrary.preferred(forFormat: decoder.info.format) == .ffmpeg ? try? SndfileSource(path: path, layout: layout) : nil }
        let first: (info: AudioStreamInfo, result: AnalysisResult, cutShort: Bool)
        do {
            first = try analyse(decoder, path: path, timing: timing, recordingPrint: recordingPrint, inspect: inspect)
            guard first.cutShort || decoder.damageSkippedAt != nil else { return (first.info, first.result) }
        } catch DecodeError.readFailed(let failedPath, let reason) {
            guard let second = other() else { throw DecodeError.readFailed(path: failedPath, reason: reason) }
            let decoded = try analyse(second, path: path, timing: timing, recordingPrint: recordingPrint, inspect: inspect)
            return (decoded.info, decoded.result)
        }
        // Cut short: the decode that gets further wins. Read past damage without keeping time
        // (libsndfile's MP3): FFmpeg's decode wins when it is whole and put the lost audio back.
        guard let source = other(),
              let second = try? analyse(source, path: path, timing: timing, recordingPrint: recordingPrint, inspect: inspect)
        else { return (first.info, first.result) }
        let secondSeconds = second.info.durationSeconds, firstSeconds = first.info.durationSeconds
        let secondWins = first.cutShort ? secondSeconds > firstSeconds
            : !second.cutShort && !source.gaps.isEmpty && secondSeconds >= firstSeconds - 0.1
        guard secondWins else { return (first.info, first.result) }
        return (second.info, second.result)
    }

    /// `cutShort`: decoding stopped part-way and the analysis is of what decoded.
    private static func analyse(_ decoder: any AudioSource, path: String, timing: UnsafeMutablePointer<Timing>?, recordingPrint: Bool,
                                inspect: ((OnsetCurves) -> Void)?) throws -> (info: AudioStreamInfo, result: AnalysisResult, cutShort: Bool) {
        let printer = recordingPrint ? RecordingPrinter(sampleRate: Int(AnalysisResampler.analysisRate)) : nil
        var printFeedTime = 0.0, printFinishTime = 0.0
        let analyzer = TrackAnalyzer(sampleRate: decoder.info.sampleRate)
        if let printer {
            analyzer.onResampled = { block in
                let p0 = DispatchTime.now().uptimeNanoseconds
                printer.add(block)
                printFeedTime += Double(DispatchTime.now().uptimeNanoseconds - p0) / 1e9
            }
        }
        var hash = AudioHash(sampleRate: decoder.info.sampleRate)
        var decodeTime = 0.0, analysisTime = 0.0
        var frames = 0
        var warning: String?
        while true {
            let t0 = DispatchTime.now().uptimeNanoseconds
            var t1 = t0
            let more: Bool
            do {
                more = try decoder.readMonoBlock { block in
                    t1 = DispatchTime.now().uptimeNanoseconds
                    frames += block.count
                    hash.add(block)
                    analyzer.process(block)
                }
            } catch let error as DecodeError {
                // A damaged tail (an interrupted download): keep what decoded if there is enough of it.
                let decoded = Double(frames) / Double(decoder.info.sampleRate)
                guard case .readFailed(_, let reason) = error else { throw error }
                guard decoded >= minimumPartialSeconds else {
                    throw DecodeError.readFailed(path: path, reason: String(
                        format: "%@; %.1f s decoded, at least %.0f s are needed to analyse a file cut short",
                        DecodeError.tidy(reason), decoded, minimumPartialSeconds))
                }
                warning = DecodeError.cutShortWarning(at: decoded, reason: reason)
                break
            }
            let t2 = DispatchTime.now().uptimeNanoseconds
            if !more { decodeTime += Double(t2 - t0) / 1e9; break }
            decodeTime += Double(t1 - t0) / 1e9
            analysisTime += Double(t2 - t1) / 1e9
        }
        guard frames > 0 else { throw DecodeError.empty(path: path) }
        let t3 = DispatchTime.now().uptimeNanoseconds
        var result = try analyzer.finish(inspect: inspect)
        let cutShort = warning != nil
        var said = warning.map { [$0] } ?? []
        if let lost = DecodeGap.describe(decoder.gaps) { said.append(lost) }
        // Damage where audio was lost is said as lost (its gap starts within a second after it).
        let decodedThrough = decoder.decodedThroughDamage.filter { place in !decoder.gaps.contains { (0...1).contains($0.atSeconds - place) } }
        if !decodedThrough.isEmpty {
            said.append("damaged \(DecodeGap.places(decodedThrough)), decoded as well as it could be")
        }
        if let skipped = decoder.damageSkippedAt {
            said.append(String(format: "damaged at %.1f s and read past it: what follows comes early by the audio lost there", skipped))
        }
        if decoder.repairedSamples > 0 {
            said.append("\(decoder.repairedSamples) damaged sample\(decoder.repairedSamples == 1 ? "" : "s") "
                        + "(not numbers, or far beyond full scale) read as silence")
        }
        result.decodeWarning = said.isEmpty ? nil : said.joined(separator: "; ")
        analysisTime += Double(DispatchTime.now().uptimeNanoseconds - t3) / 1e9
        var info = decoder.info
        if let printer {
            let p0 = DispatchTime.now().uptimeNanoseconds
            info.recordingPrint = printer.finish()
            printFinishTime = Double(DispatchTime.now().uptimeNanoseconds - p0) / 1e9
        }
        // Feeding the printer happened inside the analysis's share of each block.
        timing?.pointee = Timing(decodeSeconds: decodeTime, analysisSeconds: analysisTime - printFeedTime,
                                 printSeconds: printFeedTime + printFinishTime)
        info.frames = Int64(frames)
        info.audioHash = hash.value
        return (info, result, cutShort)
    }
}
