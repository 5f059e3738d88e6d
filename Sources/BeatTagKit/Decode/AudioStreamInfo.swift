public struct AudioStreamInfo: Equatable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    /// Frame count as the header states it; may be unknown (0) or wrong for truncated files.
    public var frames: Int64
    public var format: String
    /// The decoded audio's identity (`AudioHash`), once `AudioFileAnalysis` has decoded it.
    public var audioHash: String?

    public var durationSeconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}
