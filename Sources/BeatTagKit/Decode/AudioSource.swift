/// One open audio stream, decoded in blocks of at most `blockFrames` and handed over as mono
/// float at the stream's own sample rate, so memory does not grow with the track.
/// Backends, one file each: `SndfileSource` (libsndfile, the first choice) and `FFmpegSource`
/// (what libsndfile refuses); `AudioSources.open` chooses by content. Not shared across threads:
/// each file is decoded inside one task.
public protocol AudioSource: AnyObject {
    var path: String { get }
    var info: AudioStreamInfo { get }
    var blockFrames: Int { get }
    /// Reads the next block and hands it over downmixed to mono. Returns false at the end.
    func readMonoBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws -> Bool
}
