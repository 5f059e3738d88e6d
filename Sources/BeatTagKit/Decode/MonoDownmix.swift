/// Interleaved frames to mono by averaging the channels, in place: the first `frames` values of
/// the buffer become the mono signal. Both decoders use it, so a file decodes to the same mono
/// whichever library reads it.
enum MonoDownmix {
    static func inPlace(_ p: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
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
    }
}
