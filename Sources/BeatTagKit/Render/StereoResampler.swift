import CFFmpeg

/// Stereo audio to the mix's sample rate, by libswresample (FFmpeg, opened on first use: a source
/// at another rate than the mix needs it). Fed block by block (`push`, then `finish` for what the
/// filter still holds), so an excerpt is never resampled whole in memory.
final class StereoResampler {
    private var context: OpaquePointer?

    init(from inputRate: Int, to outputRate: Int) throws {
        if let reason = OptionalLibrary.ffmpeg.unavailableReason {
            throw OptionalLibrary.Missing(library: .ffmpeg, description: "resampling a \(inputRate) Hz source to the mix's \(outputRate) Hz needs FFmpeg: \(reason)")
        }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, 2)
        defer { av_channel_layout_uninit(&layout) }
        var inputLayout = layout
        guard swr_alloc_set_opts2(&context, &layout, AV_SAMPLE_FMT_FLTP, Int32(outputRate), &inputLayout, AV_SAMPLE_FMT_FLTP,
                                  Int32(inputRate), 0, nil) >= 0, swr_init(context) >= 0 else {
            swr_free(&context)
            throw PreparedTrack.PrepareError(description: "libswresample cannot convert \(inputRate) Hz to \(outputRate) Hz")
        }
    }

    deinit { swr_free(&context) }

    /// The output for the next input frames (the filter's delay holds some back until `finish`).
    func push(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>, count: Int) -> (left: [Float], right: [Float]) {
        convert(left: left.baseAddress, right: right.baseAddress, count: count)
    }

    /// What the filter still holds, at the end of the input.
    func finish() -> (left: [Float], right: [Float]) {
        var rest: (left: [Float], right: [Float]) = ([], [])
        while true {
            let more = convert(left: nil, right: nil, count: 0)
            if more.left.isEmpty { return rest }
            rest.left += more.left
            rest.right += more.right
        }
    }

    private func convert(left: UnsafePointer<Float>?, right: UnsafePointer<Float>?, count: Int) -> (left: [Float], right: [Float]) {
        let capacity = Int(swr_get_out_samples(context, Int32(count))) + 256
        var outLeft = [Float](repeating: 0, count: capacity), outRight = outLeft
        var produced = 0
        outLeft.withUnsafeMutableBufferPointer { ol in
            outRight.withUnsafeMutableBufferPointer { orr in
                var outs: [UnsafeMutablePointer<UInt8>?] = [UnsafeMutableRawPointer(ol.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                                            UnsafeMutableRawPointer(orr.baseAddress!).assumingMemoryBound(to: UInt8.self)]
                if let left, let right {
                    var ins: [UnsafePointer<UInt8>?] = [UnsafeRawPointer(left).assumingMemoryBound(to: UInt8.self),
                                                        UnsafeRawPointer(right).assumingMemoryBound(to: UInt8.self)]
                    produced = max(0, Int(swr_convert(context, &outs, Int32(capacity), &ins, Int32(count))))
                } else {
                    produced = max(0, Int(swr_convert(context, &outs, Int32(capacity), nil, 0)))
                }
            }
        }
        outLeft.removeLast(capacity - produced)
        outRight.removeLast(capacity - produced)
        return (outLeft, outRight)
    }

    /// A whole signal at once (short ones: a spoken cue).
    static func resampleMono(_ samples: [Float], from inputRate: Int, to outputRate: Int) throws -> [Float] {
        guard inputRate != outputRate, !samples.isEmpty else { return samples }
        let resampler = try StereoResampler(from: inputRate, to: outputRate)
        var out = samples.withUnsafeBufferPointer { resampler.push(left: $0, right: $0, count: samples.count).left }
        out += resampler.finish().left
        return out
    }
}
