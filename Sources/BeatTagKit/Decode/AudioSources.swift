import Foundation

/// Opens a file with the decoder that takes it. libsndfile first (the design's library: WAV, AIFF,
/// FLAC, Ogg Vorbis, MP3); FFmpeg for what libsndfile refuses (AAC and ALAC in MP4, WMA, …) and for
/// Opus: libsndfile 1.2.0 drops packets of Opus files that FFmpeg and many tools write (their pages
/// stamp packets ahead of the samples), silently or depending on how much is read at a time, where
/// opusdec and FFmpeg decode every sample (docs/decoding.md). Without FFmpeg, libsndfile reads
/// Opus. Both recognise formats by content, so the file name's extension decides nothing.
public enum AudioSources {
    /// `decoder`: the library a track's analysis decoded with (`track.decoder`), so that what is
    /// played or measured later is the audio its beat grid was found on; that library is tried
    /// first, the other after it. Nil: the usual choice above.
    public static func open(path: String, blockFrames: Int = 4096, layout: ChannelLayout = .mono,
                            decoder: DecoderLibrary? = nil) throws -> any AudioSource {
        guard FileManager.default.fileExists(atPath: path) else { throw DecodeError.notFound(path: path) }
        if let what = AudioSniffer.notAudio(path: path) { throw DecodeError.notAudio(path: path, what: what) }
        if decoder == .ffmpeg, DecoderLibrary.ffmpeg.isAvailable, let source = try? FFmpegSource(path: path, blockFrames: blockFrames, layout: layout) {
            return source
        }
        do {
            let source = try SndfileSource(path: path, blockFrames: blockFrames, layout: layout)
            // A chained Ogg Vorbis file too: libsndfile decodes its first stream only. (Opus goes to FFmpeg anyway.)
            let preferred = DecoderLibrary.preferred(forFormat: source.info.format)
            let chained = preferred != .ffmpeg && source.info.format == "ogg" && DecoderLibrary.ffmpeg.isAvailable && OggChain.isChained(path: path)
            guard decoder == nil, preferred == .ffmpeg || chained,
                  let ffmpeg = try? FFmpegSource(path: path, blockFrames: blockFrames, layout: layout) else { return source }
            if !ffmpeg.isChainedOgg { ffmpeg.expectLength(atLeast: source.info.frames, sampleRate: source.info.sampleRate) }
            return ffmpeg
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
