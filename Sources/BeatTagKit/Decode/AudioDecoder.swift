import CSndfile
import Foundation

public enum DecodeError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)
    case empty(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(_, let reason): return "libsndfile cannot decode it (\(AudioDecoder.tidy(reason)))"
        case .readFailed(_, let reason): return "decoding failed part-way (\(AudioDecoder.tidy(reason)))"
        case .empty: return "no audio frames"
        }
    }
}

/// One open libsndfile handle, read in blocks so memory does not grow with the track.
/// Not shared across threads: each file is decoded inside one task.
public final class AudioDecoder {
    public let path: String
    public let info: AudioStreamInfo
    private let handle: OpaquePointer
    private var interleaved: [Float]
    public let blockFrames: Int

    public init(path: String, blockFrames: Int = 4096) throws {
        var sfInfo = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &sfInfo) else {
            // sf_strerror(NULL) is a process-global slot: copy it out at once.
            let reason = String(cString: sf_strerror(nil))
            throw DecodeError.cannotOpen(path: path, reason: reason)
        }
        guard sfInfo.channels > 0, sfInfo.samplerate > 0 else {
            sf_close(handle)
            throw DecodeError.cannotOpen(path: path, reason: "no channels or sample rate")
        }
        self.path = path
        self.handle = handle
        self.blockFrames = blockFrames
        self.info = AudioStreamInfo(sampleRate: Int(sfInfo.samplerate), channels: Int(sfInfo.channels),
                                    frames: sfInfo.frames, format: AudioDecoder.formatName(sfInfo.format))
        self.interleaved = [Float](repeating: 0, count: blockFrames * Int(sfInfo.channels))
        // Normalise integer formats to [-1, 1] and let Vorbis/MP3 clip rather than wrap.
        sf_command(handle, Int32(SFC_SET_NORM_FLOAT), nil, Int32(SF_TRUE))
    }

    deinit { sf_close(handle) }

    /// Reads the next block and hands it over downmixed to mono. Returns false at the end.
    public func readMonoBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws -> Bool {
        let channels = info.channels
        let read = interleaved.withUnsafeMutableBufferPointer { buffer in
            sf_readf_float(handle, buffer.baseAddress, sf_count_t(blockFrames))
        }
        if read <= 0 {
            let code = sf_error(handle)
            if code != 0 {
                throw DecodeError.readFailed(path: path, reason: String(cString: sf_error_number(code)))
            }
            return false
        }
        let frames = Int(read)
        interleaved.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            if channels == 2 {
                // The common case, written so the compiler vectorises it.
                for frame in 0..<frames { p[frame] = (p[2 * frame] + p[2 * frame + 1]) * 0.5 }
            } else if channels > 2 {
                let scale = 1 / Float(channels)
                for frame in 0..<frames {
                    var sum: Float = 0
                    let base = frame * channels
                    for channel in 0..<channels { sum += p[base + channel] }
                    p[frame] = sum * scale
                }
            }
            body(UnsafeBufferPointer(start: p, count: frames))
        }
        return true
    }

    /// libsndfile's messages come as "Error : flac decoder lost sync." : keep the words.
    static func tidy(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("Error :") { text = String(text.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func formatName(_ format: Int32) -> String {
        let major = Int(format) & Int(SF_FORMAT_TYPEMASK)
        let sub = Int(format) & Int(SF_FORMAT_SUBMASK)
        switch major {
        case Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX), Int(SF_FORMAT_RF64): return "wav"
        case Int(SF_FORMAT_AIFF): return "aiff"
        case Int(SF_FORMAT_FLAC): return "flac"
        case Int(SF_FORMAT_OGG):
            return sub == Int(SF_FORMAT_OPUS) ? "opus" : "ogg"
        case Int(SF_FORMAT_MPEG): return "mp3"
        case Int(SF_FORMAT_CAF): return "caf"
        case Int(SF_FORMAT_W64): return "w64"
        default: return String(format: "sndfile-0x%06x", major)
        }
    }
}
