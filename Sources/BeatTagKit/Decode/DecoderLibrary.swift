import CFFmpeg
import CSndfile

/// The library whose samples an analysis saw. Stored per track with its version: a beat grid is
/// only valid for audio decoded the same way (decoders differ in how many leading samples they
/// drop), so a new version of a track's decoder means analysing the track again.
public enum DecoderLibrary: String, Sendable, CaseIterable {
    case libsndfile, ffmpeg

    /// "libsndfile 1.2.0", "ffmpeg 59.37.100" (libavcodec's version: the decoders live there).
    public var identity: String {
        switch self {
        case .libsndfile: return DecoderLibrary.sndfileIdentity
        case .ffmpeg: return DecoderLibrary.ffmpegIdentity
        }
    }

    /// The library that decodes a format better than the usual order (libsndfile first) would,
    /// when it is installed: Opus (`AudioSources`). Nil: the usual order.
    public static func preferred(forFormat format: String) -> DecoderLibrary? {
        format == "opus" && DecoderLibrary.ffmpeg.isAvailable ? .ffmpeg : nil
    }

    /// The library named by a stored identity, if it is one of ours.
    public init?(identity: String) {
        guard let name = identity.split(separator: " ").first, let library = DecoderLibrary(rawValue: String(name)) else { return nil }
        self = library
    }

    private static let sndfileIdentity: String = {
        let text = String(cString: sf_version_string())  // "libsndfile-1.2.0"
        return "libsndfile " + (text.split(separator: "-").last.map(String.init) ?? text)
    }()

    /// Whether this process can decode with the library (FFmpeg is opened on first use and may be
    /// missing: `OptionalLibrary`). A track decoded by a library that is not here keeps its analysis.
    public var isAvailable: Bool {
        switch self {
        case .libsndfile: return true
        case .ffmpeg: return OptionalLibrary.ffmpeg.isAvailable
        }
    }

    private static let ffmpegIdentity: String = {
        guard OptionalLibrary.ffmpeg.isAvailable else { return "ffmpeg (not installed)" }
        let v = avcodec_version()
        return "ffmpeg \(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)"
    }()
}
