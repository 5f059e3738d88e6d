import Foundation
import CSndfile

/// The output file's format, chosen by its extension; written through libsndfile.
public enum MixFormat: String, CaseIterable, Sendable {
    case flac, ogg, opus, wav

    public init?(path: String) {
        let ext = (path as NSString).pathExtension.lowercased()
        self.init(rawValue: ext == "oga" ? "ogg" : ext)
    }

    var sndfileFormat: Int32 {
        switch self {
        case .flac: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .ogg: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        case .opus: return Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
        case .wav: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        }
    }

    /// The limiter's ceiling, dBTP. A lossy encoder adds peaks of its own (measured with ffmpeg's
    /// ebur128 on broadband songs limited at −1.5: Vorbis −0.6, Opus −0.1 dBTP), so those two keep
    /// that much more headroom to stay under the −1 dBTP target.
    public var truePeakCeilingDB: Double {
        switch self {
        case .flac, .wav: return Limiter.defaultCeilingDB
        case .ogg: return -2.5
        case .opus: return -3.0
        }
    }

    /// Opus is always 48 kHz; the others take the music's usual rate.
    public var sampleRate: Int { self == .opus ? 48000 : 44100 }

    public static let supportedList = "flac, ogg, opus, wav"
}
