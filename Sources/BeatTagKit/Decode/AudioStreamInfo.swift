public struct AudioStreamInfo: Equatable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    /// Frame count as the header states it; may be unknown (0) or wrong for truncated files.
    public var frames: Int64
    /// The codec or file format: "flac", "mp3", "aac", "alac", "wmav2", …
    public var format: String
    /// The decoding library and its version (`DecoderLibrary.identity`).
    public var decoder: String
    /// Frames of silence put before the first decoded frame (negative: frames dropped) so that it
    /// sits where the stream's timestamps place it; see docs/decoding.md.
    public var startOffsetFrames: Int = 0
    /// The decoded audio's identity (`AudioHash`), once `AudioFileAnalysis` has decoded it.
    public var audioHash: String?
    /// The recording's acoustic fingerprint, when `AudioFileAnalysis` was asked for it.
    public var recordingPrint: RecordingPrint?

    public var durationSeconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// Below this no file holds music (telephone audio is 8,000 Hz). A header that says less is
    /// damaged, and believing it would make each sample thousands at the analysis rate: a 352 KB
    /// file "at 0 Hz" was analysed for three minutes as tens of hours.
    public static let lowestSampleRate = 4000

    /// Why a decoder's reading of the header is not believed, or nil.
    static func implausible(sampleRate: Int, channels: Int) -> String? {
        guard sampleRate > 0, channels > 0 else { return "no channels or sample rate" }
        guard sampleRate >= lowestSampleRate else {
            return "a sample rate of \(sampleRate) Hz (a damaged header: music has \(lowestSampleRate) Hz or more)"
        }
        return nil
    }
}
