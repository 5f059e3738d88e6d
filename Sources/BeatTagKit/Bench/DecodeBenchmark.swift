import Foundation

/// Decoding alone, one file at a time on one core: speed and the memory the decoder needs while it
/// streams a file (peak resident size during the decode above the size before it).
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
    }

    public static func run(paths: [String]) -> [Row] {
        paths.map { path in
            let reset = ProcessMemory.resetPeak()
            let before = ProcessMemory.residentBytes() ?? 0
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let source = try AudioSources.open(path: path)
                var frames = 0
                var sink: Float = 0
                while try source.readMonoBlock({ block in
                    frames += block.count
                    sink += block.first ?? 0  // touch the samples
                }) {}
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let audio = Double(frames) / Double(source.info.sampleRate)
                let peak = reset ? ProcessMemory.peakResidentBytes().map { Double(max(0, $0 - before)) / 1_048_576 } : nil
                _ = sink
                return Row(path: path, format: source.info.format, decoder: source.info.decoder, audioSeconds: audio,
                           decodeSeconds: seconds, realtime: audio / max(seconds, 1e-9), peakGrowthMB: peak)
            } catch {
                return Row(path: path, audioSeconds: 0, decodeSeconds: 0, realtime: 0, error: "\(error)")
            }
        }
    }
}
