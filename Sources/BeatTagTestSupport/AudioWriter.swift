import CSndfile
import Foundation

/// Writes float audio through libsndfile: used to make fixtures and test signals, never on user files.
public enum AudioWriter {
    public enum Container: String, CaseIterable, Sendable {
        case wav, flac, ogg, mp3, aiff, opus

        var format: Int32 {
            switch self {
            case .wav: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .ogg: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            case .mp3: return Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
            case .aiff: return Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)
            case .opus: return Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
            }
        }
    }

    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `channels` interleaved samples in -1...1.
    public static func write(_ samples: [Float], channels: Int = 1, sampleRate: Int, to path: String, as container: Container,
                             quality: Double? = nil) throws {
        try write(samples, channels: channels, sampleRate: sampleRate, to: path, format: container.format, quality: quality)
    }

    /// A 32-bit float WAV holding `samples` as they are: values beyond ±1, NaN and infinities
    /// included (what a damaged float file carries).
    public static func writeFloatWAV(_ samples: [Float], channels: Int = 1, sampleRate: Int, to path: String) throws {
        try write(samples, channels: channels, sampleRate: sampleRate, to: path, format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), quality: nil)
    }

    private static func write(_ samples: [Float], channels: Int, sampleRate: Int, to path: String, format: Int32, quality: Double?) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw WriteError(description: "cannot write \(path): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(handle) }
        if var q = quality {  // 0 = best, 1 = smallest (libsndfile's compression level)
            sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &q, Int32(MemoryLayout<Double>.size))
        }
        let frames = samples.count / channels
        let written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        guard written == frames else { throw WriteError(description: "short write to \(path)") }
    }
}
