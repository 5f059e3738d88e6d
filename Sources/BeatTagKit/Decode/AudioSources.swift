import Foundation

/// Opens a file with the decoder that takes it. libsndfile first (the design's library: WAV, AIFF,
/// FLAC, Ogg Vorbis, Opus, MP3); FFmpeg for what libsndfile refuses (AAC and ALAC in MP4, WMA, …).
/// Both recognise formats by content, so the file name's extension decides nothing.
public enum AudioSources {
    public static func open(path: String, blockFrames: Int = 4096, layout: ChannelLayout = .mono) throws -> any AudioSource {
        guard FileManager.default.fileExists(atPath: path) else { throw DecodeError.notFound(path: path) }
        if let what = AudioSniffer.notAudio(path: path) { throw DecodeError.notAudio(path: path, what: what) }
        do {
            return try SndfileSource(path: path, blockFrames: blockFrames, layout: layout)
        } catch DecodeError.cannotOpen(_, let sndfileReason) {
            do {
                return try FFmpegSource(path: path, blockFrames: blockFrames, layout: layout)
            } catch DecodeError.cannotOpen(_, let ffmpegReason) {
                // libsndfile's MP3 reader says this of any file whose frames it cannot find; the file is there.
                let sndfile = sndfileReason.contains("File does not exist or is not a regular file")
                    ? "no format it reads" : DecodeError.tidy(sndfileReason)
                throw DecodeError.cannotOpen(path: path, reason: "libsndfile: \(sndfile); FFmpeg: \(DecodeError.tidy(ffmpegReason))")
            } catch DecodeError.decoderMissing(_, let reason) {
                throw DecodeError.decoderMissing(path: path, reason: "libsndfile cannot read it, and \(reason)")
            }
        }
    }
}
