/// One open audio stream, decoded in blocks of at most `blockFrames` and handed over as mono
/// (analysis) or stereo (rendering) float at the stream's own sample rate, so memory does not grow
/// with the track. Backends, one file each: `SndfileSource` (libsndfile, the first choice) and
/// `FFmpegSource` (what libsndfile refuses, and Opus); `AudioSources.open` chooses by content. Not
/// shared across threads: each file is decoded inside one task.
public protocol AudioSource: AnyObject {
    var path: String { get }
    var info: AudioStreamInfo { get }
    var blockFrames: Int { get }
    /// What `readBlock` hands over.
    var layout: ChannelLayout { get }
    /// Reads the next block, interleaved in `layout`. Returns false at the end.
    func readBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws -> Bool
    /// Samples decoded so far that were not numbers, infinite or far beyond full scale, and were
    /// made silence (`SampleRepair`; FFmpeg's count includes priming frames it then drops): a
    /// damaged file, which the caller can name.
    var repairedSamples: Int { get }
    /// Stretches lost from the stream (a damaged page or packet) that were put back as silence,
    /// so that the audio after each keeps its time.
    var gaps: [DecodeGap] { get }
    /// Where the decoder read past damaged audio without keeping time, in seconds of the decoded
    /// audio: what follows comes early by what was lost, an unknown amount (libsndfile's MP3 reader,
    /// `SndfileSource`). Known once the stream has been read to its end.
    var damageSkippedAt: Double? { get }
    /// Where the decoder met damage and went on without skipping ahead, in seconds of the decoded
    /// audio (FFmpeg's FLAC decoder): the audio there may be wrong, its time is not; audio lost
    /// there shows in `gaps`.
    var decodedThroughDamage: [Double] { get }
}

extension AudioSource {
    public var damageSkippedAt: Double? { nil }
    public var decodedThroughDamage: [Double] { [] }

    /// The next block as mono (a source opened with the `.mono` layout, the default, or `.side`).
    public func readMonoBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws -> Bool {
        precondition(layout.width == 1, "readMonoBlock on a source opened for \(layout)")
        return try readBlock(body)
    }

    /// Every block to the end of the stream. A decode that breaks off after some audio ends there
    /// and returns why: a track analysed from what decoded is played, shown and measured from it
    /// too. Throws when nothing decoded.
    @discardableResult
    public func readToEnd(_ body: (UnsafeBufferPointer<Float>) -> Void) throws -> Error? {
        var handedOver = false
        do {
            while try readBlock({ block in
                handedOver = handedOver || !block.isEmpty
                body(block)
            }) {}
        } catch {
            guard handedOver else { throw error }
            return error
        }
        return nil
    }
}

/// The channels a source hands over: mono for the analysis (the mean of the channels), stereo for
/// the mix (mono doubled; of more channels, the front pair).
public enum ChannelLayout: Sendable {
    case mono, stereo
    /// Half the difference of the front pair, one channel: what is left to analyse of a file whose
    /// channels cancel out in `mono` (one of them inverted).
    case side

    /// Values per frame handed over.
    var width: Int { self == .stereo ? 2 : 1 }

    /// Folds `frames` interleaved frames of `channels` channels in `p` to this layout, in place, and
    /// repairs what no recording holds (`SampleRepair`); `p` must hold `frames × max(channels, 2)`
    /// values. Returns how many samples of the result were repaired.
    func fold(_ p: UnsafeMutablePointer<Float>, frames: Int, channels: Int) -> Int {
        switch self {
        case .mono:
            MonoDownmix.inPlace(p, frames: frames, channels: channels)
        case .side:
            for frame in 0..<frames {
                p[frame] = channels < 2 ? 0 : (p[channels * frame] - p[channels * frame + 1]) * 0.5
            }
        case .stereo:
            if channels == 1 {
                for frame in stride(from: frames - 1, through: 0, by: -1) { p[2 * frame + 1] = p[frame]; p[2 * frame] = p[frame] }
            } else if channels > 2 {
                for frame in 0..<frames { p[2 * frame] = p[channels * frame]; p[2 * frame + 1] = p[channels * frame + 1] }
            }
        }
        return SampleRepair.inPlace(p, count: frames * width)
    }
}
