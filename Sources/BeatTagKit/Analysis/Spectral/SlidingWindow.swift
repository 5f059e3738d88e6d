/// Cuts a stream of samples into overlapping windows (`size` samples every `hop`) however the
/// stream arrives in blocks, keeping only the samples the next window still needs.
struct SlidingWindow {
    let size: Int
    let hop: Int
    private var pending: [Float] = []
    /// Samples still to drop before the next window starts (a hop longer than the window).
    private var skip = 0

    init(size: Int, hop: Int) {
        self.size = size
        self.hop = hop
    }

    /// Appends `samples` and calls `body` with each window completed, in order.
    mutating func push(_ samples: [Float], _ body: (UnsafeBufferPointer<Float>) -> Void) {
        let dropped = min(skip, samples.count)
        skip -= dropped
        pending.append(contentsOf: samples[dropped...])
        var offset = 0
        pending.withUnsafeBufferPointer { p in
            while offset + size <= p.count {
                body(UnsafeBufferPointer(rebasing: p[offset..<(offset + size)]))
                offset += hop
            }
        }
        skip += max(0, offset - pending.count)
        if offset > 0 { pending.removeFirst(min(offset, pending.count)) }
    }
}
