import CFFmpeg

/// A stereo excerpt to the mix's sample rate, by libswresample (FFmpeg, opened on first use: a
/// source at another rate than the mix needs it).
enum StereoResampler {
    static func resample(left: [Float], right: [Float], from inputRate: Int, to outputRate: Int) throws -> (left: [Float], right: [Float]) {
        guard inputRate != outputRate, !left.isEmpty else { return (left, right) }
        if let reason = OptionalLibrary.ffmpeg.unavailableReason {
            throw OptionalLibrary.Missing(library: .ffmpeg, description: "resampling a \(inputRate) Hz source to the mix's \(outputRate) Hz needs FFmpeg: \(reason)")
        }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, 2)
        defer { av_channel_layout_uninit(&layout) }
        var inputLayout = layout
        var context: OpaquePointer?
        guard swr_alloc_set_opts2(&context, &layout, AV_SAMPLE_FMT_FLTP, Int32(outputRate), &inputLayout, AV_SAMPLE_FMT_FLTP,
                                  Int32(inputRate), 0, nil) >= 0, swr_init(context) >= 0 else {
            swr_free(&context)
            return (left, right)
        }
        defer { swr_free(&context) }
        let capacity = Int(swr_get_out_samples(context, Int32(left.count))) + 256
        var outLeft = [Float](repeating: 0, count: capacity), outRight = outLeft
        var produced = 0
        outLeft.withUnsafeMutableBufferPointer { ol in
            outRight.withUnsafeMutableBufferPointer { orr in
                left.withUnsafeBufferPointer { il in
                    right.withUnsafeBufferPointer { ir in
                        var outs: [UnsafeMutablePointer<UInt8>?] = [UnsafeMutableRawPointer(ol.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                                                    UnsafeMutableRawPointer(orr.baseAddress!).assumingMemoryBound(to: UInt8.self)]
                        var ins: [UnsafePointer<UInt8>?] = [UnsafeRawPointer(il.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                                            UnsafeRawPointer(ir.baseAddress!).assumingMemoryBound(to: UInt8.self)]
                        let first = swr_convert(context, &outs, Int32(capacity), &ins, Int32(left.count))
                        produced = max(0, Int(first))
                        outs = [UnsafeMutableRawPointer(ol.baseAddress! + produced).assumingMemoryBound(to: UInt8.self),
                                UnsafeMutableRawPointer(orr.baseAddress! + produced).assumingMemoryBound(to: UInt8.self)]
                        let tail = swr_convert(context, &outs, Int32(capacity - produced), nil, 0)
                        produced += max(0, Int(tail))
                    }
                }
            }
        }
        return (Array(outLeft[0..<produced]), Array(outRight[0..<produced]))
    }

    static func resampleMono(_ samples: [Float], from inputRate: Int, to outputRate: Int) throws -> [Float] {
        try resample(left: samples, right: samples, from: inputRate, to: outputRate).left
    }
}
