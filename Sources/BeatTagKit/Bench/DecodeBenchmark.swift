import Foundation

/// One file at a time on one core, decoded alone or decoded and analysed: speed and the memory the
/// work needs while it streams the file (peak resident size during it above the size before it), so
/// that memory against track length can be read from `bench` (`--decode`, `--analyze`).
public enum DecodeBenchmark {
    public struct Row: Codable, Sendable {
        public var path: String
        public var format: String?
        public var decoder: String?
        public var audioSeconds: Double
        public var decodeSeconds: Double
        /// Audio seconds per wall second.
        public var realtime: Double
        /// Peak resident growth while decoding, in MB; nil where the peak cannot be reset (not Linux).
        public var peakGrowthMB: Double?
        public var error: String?
        /// With analysis: its share of the time, and what it found.
        public var analysisSeconds: Double?
        public var bpm: Double?
        public var beats: Int?
    }

    /// `analyse`: decode and analyse (`AudioFileAnalysis`, as scan does), else decode only.
    public static func run(paths: [String], analyse: Bool = false) -> [Row] {
        paths.map { path in
            let reset = ProcessMemory.resetPeak()
            let before = ProcessMemory.residentBytes() ?? 0
            let start = DispatchTime.now().uptimeNanoseconds
            func peak() -> Double? { reset ? ProcessMemory.peakResidentBytes().map { Double(max(0, $0 - before)) / 1_048_576 } : nil }
            do {
                if analyse {
                    var timing = AudioFileAnalysis.Timing()
                    let (info, result) = try AudioFileAnalysis.analyse(path: path, timing: &timing)
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    return Row(path: path, format: info.format, decoder: info.decoder, audioSeconds: result.duration.value,
                               decodeSeconds: timing.decodeSeconds, realtime: result.duration.value / max(seconds, 1e-9),
                               peakGrowthMB: peak(), analysisSeconds: timing.analysisSeconds, bpm: result.bpm.value,
                               beats: result.beats.count)
                }
                let source = try AudioSources.open(path: path)
                var frames = 0
                var sink: Float = 0
                while try source.readMonoBlock({ block in
                    frames += block.count
                    sink += block.first ?? 0  // touch the samples
                }) {}
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let audio = Double(frames) / Double(source.info.sampleRate)
                _ = sink
                return Row(path: path, format: source.info.format, decoder: source.info.decoder, audioSeconds: audio,
                           decodeSeconds: seconds, realtime: audio / max(seconds, 1e-9), peakGrowthMB: peak())
            } catch {
                return Row(path: path, audioSeconds: 0, decodeSeconds: 0, realtime: 0, error: "\(error)")
            }
        }
    }
}
