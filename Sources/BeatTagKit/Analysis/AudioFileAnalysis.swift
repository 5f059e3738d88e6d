import Foundation

/// Decode + analyse one file, streaming. Used by scan, analyze and bench.
public enum AudioFileAnalysis {
    public struct Timing: Sendable {
        public var decodeSeconds = 0.0
        public var analysisSeconds = 0.0
        public init(decodeSeconds: Double = 0, analysisSeconds: Double = 0) {
            self.decodeSeconds = decodeSeconds
            self.analysisSeconds = analysisSeconds
        }
    }

    public static func analyse(path: String, timing: UnsafeMutablePointer<Timing>? = nil) throws -> (AudioStreamInfo, AnalysisResult) {
        let decoder = try AudioDecoder(path: path)
        let analyzer = TrackAnalyzer(sampleRate: decoder.info.sampleRate)
        var decodeTime = 0.0, analysisTime = 0.0
        var frames = 0
        while true {
            let t0 = DispatchTime.now().uptimeNanoseconds
            var t1 = t0
            let more = try decoder.readMonoBlock { block in
                t1 = DispatchTime.now().uptimeNanoseconds
                frames += block.count
                analyzer.process(block)
            }
            let t2 = DispatchTime.now().uptimeNanoseconds
            if !more { decodeTime += Double(t2 - t0) / 1e9; break }
            decodeTime += Double(t1 - t0) / 1e9
            analysisTime += Double(t2 - t1) / 1e9
        }
        guard frames > 0 else { throw DecodeError.empty(path: path) }
        let t3 = DispatchTime.now().uptimeNanoseconds
        let result = try analyzer.finish()
        analysisTime += Double(DispatchTime.now().uptimeNanoseconds - t3) / 1e9
        timing?.pointee = Timing(decodeSeconds: decodeTime, analysisSeconds: analysisTime)
        var info = decoder.info
        info.frames = Int64(frames)
        return (info, result)
    }
}
