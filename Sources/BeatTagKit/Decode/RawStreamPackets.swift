/// How many frames a damaged packet of a raw MPEG audio stream (`.mp3`, `.mp2`) held. Such a
/// stream has no index: FFmpeg's parser cuts it at frame headers, so where damage wipes headers,
/// every frame up to the next intact header arrives as one packet, stamped with one frame's
/// duration. (Measured on a 128 kb/s MP3 with 4 KB zeroed: one 4,180-byte packet where frames are
/// 418, refused; counted as one frame, all that followed came ten frames, 261 ms, early.) Its size
/// against the usual packet's says how many frames it held; a container with an index (MP4, ASF,
/// Ogg) cuts packets itself, and its damaged packets are one frame each.
struct RawStreamPackets {
    /// Sizes of the last packets the decoder took, in a ring, and their sum.
    private var recent: [Int32] = []
    private var next = 0
    private var sum: Int64 = 0
    /// The mean of the last 64 packets: bytes are conserved, so a mean (not a median) turns a
    /// packet's bytes into frames, and a VBR stream's frame sizes follow the music, so only recent
    /// ones (docs/decoding.md has the simulation that chose it). Exact for CBR.
    static let remembered = 64

    /// Whether a container format (FFmpeg's demuxer name) is a raw stream cut this way. Not ADTS:
    /// its demuxer skips what it cannot parse and stamps the next frame as if nothing was lost
    /// (measured: 3 KB zeroed, seven frames gone, no packet refused for them); not put right here.
    static func isRaw(formatName: String) -> Bool { formatName == "mp3" }

    mutating func accepted(size: Int32) {
        guard size > 0 else { return }
        if recent.count < RawStreamPackets.remembered {
            recent.append(size)
        } else {
            sum -= Int64(recent[next])
            recent[next] = size
            next = (next + 1) % RawStreamPackets.remembered
        }
        sum += Int64(size)
    }

    /// Frames a refused packet of `size` bytes stood for: at least one.
    func frames(inRefused size: Int32) -> Int64 {
        guard sum > 0 else { return 1 }
        let usual = Double(sum) / Double(recent.count)
        return max(1, Int64((Double(size) / usual).rounded()))
    }
}
