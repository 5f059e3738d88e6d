import Foundation

public enum DecodeError: Error, CustomStringConvertible, Equatable {
    /// No decoder takes the file; `reason` says what each one said.
    case cannotOpen(path: String, reason: String)
    /// A container with no audio in it: `found` says what it holds ("video only", "no streams").
    case noAudioStream(path: String, found: String)
    case readFailed(path: String, reason: String)
    case empty(path: String)
    case notFound(path: String)
    /// Not sound at all (a text file): never handed to the decoders, whose libraries would print
    /// their own complaints on the terminal.
    case notAudio(path: String, what: String)
    /// Only a library that is not installed could decode it (FFmpeg: `OptionalLibrary`); `reason`
    /// names the Debian package.
    case decoderMissing(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(_, let reason): return "cannot decode it (\(DecodeError.tidy(reason)))"
        case .noAudioStream(_, let found): return "no audio stream in it (\(found))"
        case .readFailed(_, let reason): return "decoding failed part-way (\(DecodeError.tidy(reason)))"
        case .empty: return "no audio frames"
        case .notFound(let path): return FileWalker.notUTF8(path) ?? "no such file"
        case .notAudio(_, let what): return "not audio: \(what)"
        case .decoderMissing(_, let reason): return reason
        }
    }

    /// A stream that stopped at `decoded` seconds of the `promised` its header gives: cut off, or
    /// damaged part-way (a decoder that skips a damaged stretch without a word ends early by it).
    /// A header promising more than a year is damaged itself (a truncated Ogg claimed
    /// 209,146,758,205,323 s; the longest single-file audiobooks run for days).
    static func endsShort(at decoded: Double, of promised: Double) -> String {
        promised > 366 * 86400
            ? String(format: "the audio ends at %.1f s, and its header's length is damaged", decoded)
            : String(format: "only %.1f s of the %.1f s its header gives decoded (cut off, or damaged part-way)", decoded, promised)
    }

    /// What a track analysed from a decode that stopped part-way says. The words are not those of
    /// builds before lost stretches were put back ("decoding stopped at"), whose analyses the
    /// catalog's v16 marks to be done again.
    static func cutShortWarning(at decoded: Double, reason: String) -> String {
        let said = tidy(reason)
        return said.hasPrefix("the audio ends at") || said.hasPrefix("only ") ? "\(said); analysed what decoded"
            : String(format: "decoding broke off at %.1f s (%@); analysed what decoded", decoded, said)
    }

    /// Decoder messages come as "Error : flac decoder lost sync." : keep the words.
    static func tidy(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["Error :", "System error :"] where text.hasPrefix(prefix) {
            text = String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
