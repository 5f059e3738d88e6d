import CFFmpeg
import Foundation

/// FFmpeg 5.1 (libavformat, libavcodec, libswresample): AAC and ALAC in MP4/M4A, WMA in ASF, Opus,
/// and whatever else libsndfile refuses. Streams: one packet, one frame at a time, so memory stays
/// flat in track length. Audio lost to damage is put back as silence (`gaps`). Decodes on one
/// thread; a scan runs files in parallel instead.
///
/// Start of the audio: libavcodec already drops the encoder priming an MP4 declares (edit list,
/// or iTunes' iTunSMPB tag: 2112 samples). The first decoded frame is then placed where its
/// timestamp says, less the one-frame priming WMA encoders cannot declare in ASF; see
/// docs/decoding.md.
public final class FFmpegSource: AudioSource {
    public let path: String
    public private(set) var info: AudioStreamInfo
    public let blockFrames: Int
    public let layout: ChannelLayout

    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var resamplerInput: FrameShape?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let streamIndex: Int32
    private let stream: UnsafeMutablePointer<AVStream>

    /// Converted frames (in `layout`) waiting to be handed out: `pending[pendingStart...]`.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var interleaved: [Float] = []
    private var pendingSilence = 0
    private var framesToDrop = 0
    /// The first frame, kept back while the silence before it goes out.
    private var holdingFrame = false
    private var sawFirstFrame = false
    private var draining = false
    private var finished = false
    private var decodedFrames: Int64 = 0
    public private(set) var repairedSamples = 0
    private var damagedPackets = 0
    private var readError: String?
    /// Stream frames handed on so far, silence put in included, counted from the stream's start:
    /// where the next decoded frame belongs if nothing was lost.
    private var timelineFrames: Int64 = 0
    /// Frames of silence put in for gaps.
    private var filledFrames: Int64 = 0
    /// Stretches the stream's timestamps skip (a damaged page or packet lost), filled with silence.
    public private(set) var gaps: [DecodeGap] = []
    public private(set) var decodedThroughDamage: [Double] = []
    /// How far the stamps usually sit from `timelineFrames` (a demuxer's steady offset), followed in
    /// steps under `gapThreshold`.
    private var stampDeviation: Int64?
    /// A jump in the timestamps of the last stamped frames (the smallest, and on how many frames in
    /// a row), waiting for `gapConfirmations` of them.
    private var suspectedGap: (frames: Int64, seen: Int)?
    /// Stream frames in damaged packets the decoder refused since the last decoded frame.
    private var refusedFrames: Int64 = 0
    /// Of a raw MP3 stream, what its refused packets held; nil for other streams.
    private var rawPackets: RawStreamPackets?
    /// The length FFmpeg gives is a guess from the bitrate (raw AAC, MP3 without a length header):
    /// not checked (a raw AAC clip of 30 s was given 238 s).
    private var lengthIsGuessed: Bool
    /// Ogg streams one after another (`OggChain`): no one reader's length is the whole.
    let isChainedOgg: Bool
    /// `smallestGapSeconds` (at least `smallestGapFrames`) and `largestGapSeconds` in frames.
    private let gapThreshold: Int64, largestGap: Int64

    /// A file with more damaged packets than this is not decoding, it is guessing.
    static let damagedPacketLimit = 16
    /// Timestamps that put the first frame further from the start than this are not believed.
    static let largestStartOffsetSeconds = 10.0
    /// A jump in the timestamps this long or longer (and at least `smallestGapFrames`) is audio
    /// lost. Shorter ones are how demuxers stamp: Vorbis, Opus and AAC frames jump by up to 896
    /// samples (20 ms at 44.1 kHz), several frames in a row by 448 (measured, docs/decoding.md).
    static let smallestGapSeconds = 0.03, smallestGapFrames: Int64 = 1536
    /// Stamped frames in a row that must show a jump before it is taken for a gap.
    static let gapConfirmations = 3
    /// Nor is a jump longer than this believed: a damaged timestamp, not a minute of lost audio.
    static let largestGapSeconds = 60.0

    public init(path: String, blockFrames: Int = 4096, layout: ChannelLayout = .mono) throws {
        if let reason = OptionalLibrary.ffmpeg.unavailableReason { throw DecodeError.decoderMissing(path: path, reason: reason) }
        _ = FFmpegSource.silenceLibraryLog
        self.path = path
        self.blockFrames = blockFrames
        self.layout = layout
        var context: UnsafeMutablePointer<AVFormatContext>?
        var codecContext: UnsafeMutablePointer<AVCodecContext>?
        var rc = avformat_open_input(&context, path, nil, nil)
        guard rc >= 0, let context else { throw DecodeError.cannotOpen(path: path, reason: FFmpegSource.message(rc)) }
        // No `deinit` runs for an init that throws: what was made so far is freed here.
        func fail(_ error: DecodeError) -> DecodeError {
            avcodec_free_context(&codecContext)
            var open: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&open)
            return error
        }

        rc = avformat_find_stream_info(context, nil)
        guard rc >= 0 else { throw fail(.cannotOpen(path: path, reason: FFmpegSource.message(rc))) }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        if index == beattag_averror_stream_not_found() { throw fail(.noAudioStream(path: path, found: Self.streamKinds(context))) }
        guard index >= 0, let chosen = context.pointee.streams[Int(index)] else {
            throw fail(.cannotOpen(path: path, reason: FFmpegSource.message(index)))
        }
        // FairPlay (`drms`, `drmi`) and CENC (`enca`) sample entries hold encrypted audio: it would
        // "decode" to noise. TagLib reports these files as encrypted too.
        let tag = chosen.pointee.codecpar.pointee.codec_tag
        if ["drms", "drmi", "enca"].contains(where: { FFmpegSource.fourCC($0) == tag }) {
            throw fail(.cannotOpen(path: path, reason: "DRM-protected (encrypted) audio"))
        }
        guard let decoder else {
            let codecName = String(cString: avcodec_get_name(chosen.pointee.codecpar.pointee.codec_id))
            throw fail(.cannotOpen(path: path, reason: "no decoder for its \(codecName) audio"))
        }
        // Only the audio stream is demuxed: video frames of an MP4 are skipped unread.
        for i in 0..<Int(context.pointee.nb_streams) where i != Int(index) {
            context.pointee.streams[i]?.pointee.discard = AVDISCARD_ALL
        }

        codecContext = avcodec_alloc_context3(decoder)
        guard let codec = codecContext else { throw fail(.cannotOpen(path: path, reason: "out of memory")) }
        rc = avcodec_parameters_to_context(codec, chosen.pointee.codecpar)
        if rc >= 0 {
            codec.pointee.thread_count = 1
            // Without it libavcodec trims priming but leaves the trimmed frame's timestamp where it was.
            codec.pointee.pkt_timebase = chosen.pointee.time_base
            rc = avcodec_open2(codec, decoder, nil)
        }
        guard rc >= 0 else { throw fail(.cannotOpen(path: path, reason: FFmpegSource.message(rc))) }
        let rate = Int(codec.pointee.sample_rate), channels = Int(codec.pointee.ch_layout.nb_channels)
        if let reason = AudioStreamInfo.implausible(sampleRate: rate, channels: channels) { throw fail(.cannotOpen(path: path, reason: reason)) }
        guard let packet = av_packet_alloc() else { throw fail(.cannotOpen(path: path, reason: "out of memory")) }
        guard let frame = av_frame_alloc() else {
            var unused: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&unused)
            throw fail(.cannotOpen(path: path, reason: "out of memory"))
        }

        container = context
        self.codec = codec
        self.packet = packet
        self.frame = frame
        streamIndex = index
        stream = chosen
        gapThreshold = max(FFmpegSource.smallestGapFrames, Int64(FFmpegSource.smallestGapSeconds * Double(rate)))
        largestGap = Int64(FFmpegSource.largestGapSeconds * Double(rate))
        if let name = context.pointee.iformat?.pointee.name, RawStreamPackets.isRaw(formatName: String(cString: name)) {
            rawPackets = RawStreamPackets()
        }
        // A chained Ogg file's streams each count from their own start: no length holds for the whole
        // (it read "its header's length is damaged").
        isChainedOgg = context.pointee.iformat.map { String(cString: $0.pointee.name) } == "ogg" && OggChain.isChained(path: path)
        lengthIsGuessed = context.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE || isChainedOgg
        info = AudioStreamInfo(sampleRate: rate, channels: channels,
                               frames: FFmpegSource.headerFrames(stream: chosen, container: context, rate: rate),
                               format: String(cString: avcodec_get_name(codec.pointee.codec_id)),
                               decoder: DecoderLibrary.ffmpeg.identity)
        if let name = context.pointee.iformat?.pointee.name, String(cString: name) == "asf", let stated = ASFLengthHeader.statedSeconds(path: path) {
            expectLength(atLeast: Int64((stated * Double(rate)).rounded()), sampleRate: rate)
        }
        // A WAV, W64, AIFF or CAF cut short: the header promises more bytes than the file holds. FFmpeg's
        // length is the held one for some codecs and the promised one for others (AIFF, float WAV),
        // so the promised length is taken from the bytes at the stream's constant bit rate (the held
        // share divided out of a promised length made a 36 s AIFF "180 s").
        let bitRate = chosen.pointee.codecpar.pointee.bit_rate
        if let name = context.pointee.iformat?.pointee.name, PCMLengthHeader.formats.contains(String(cString: name)), bitRate > 0,
           let sizes = PCMLengthHeader.sizes(path: path), sizes.held < sizes.promised {
            expectLength(atLeast: Int64((Double(sizes.promised) * 8 / Double(bitRate) * Double(rate)).rounded()), sampleRate: rate)
        }
    }

    /// Another reader's length for the same stream, when longer (or FFmpeg's was a guess): FFmpeg
    /// takes an Ogg stream's length from its last page, so a file cut off in the middle looks whole
    /// to it, where libsndfile sees the missing end. The stream is then said to end short.
    func expectLength(atLeast frames: Int64, sampleRate: Int) {
        guard sampleRate == info.sampleRate, frames > 0, frames > info.frames || lengthIsGuessed else { return }
        info.frames = frames
        lengthIsGuessed = false
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        swr_free(&resampler)
        avcodec_free_context(&codec)
        if container != nil { avformat_close_input(&container) }
    }

    public func readBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws -> Bool {
        while pending.count == pendingStart {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            if finished { return false }
            try decodeMore()
        }
        let count = min(blockFrames * layout.width, pending.count - pendingStart)
        pending.withUnsafeBufferPointer { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[pendingStart..<(pendingStart + count)]))
        }
        pendingStart += count
        return true
    }

    /// One step: silence before the audio, the held first frame, or the next decoded frame.
    private func decodeMore() throws {
        if pendingSilence > 0 {
            let count = min(pendingSilence, blockFrames)
            pending.append(contentsOf: repeatElement(0, count: count * layout.width))
            pendingSilence -= count
            return
        }
        guard let codec, let frame else { return }
        if holdingFrame {
            holdingFrame = false
            try convert(frame)
            av_frame_unref(frame)
            return
        }
        let rc = avcodec_receive_frame(codec, frame)
        if rc == 0 {
            if !sawFirstFrame {
                sawFirstFrame = true
                let offset = startOffset(of: frame)
                info.startOffsetFrames = offset
                timelineFrames = Int64(offset)
                if offset > 0 {
                    pendingSilence = offset
                    holdingFrame = true
                    return
                }
                framesToDrop = -offset
            } else if let missing = missingFrames(before: frame) {
                gaps.append(DecodeGap(atSeconds: Double(timelineFrames) / Double(info.sampleRate),
                                      seconds: Double(missing) / Double(info.sampleRate)))
                timelineFrames += Int64(missing)
                filledFrames += Int64(missing)
                pendingSilence = missing
                holdingFrame = true
                return
            }
            try convert(frame)
            av_frame_unref(frame)
        } else if rc == beattag_averror_eagain() {
            try feedPacket()
        } else if rc == beattag_averror_eof() {
            try flushResampler()
            finished = true
            try checkComplete()
        } else if rc == beattag_averror_invaliddata(), damagedPackets < FFmpegSource.damagedPacketLimit {
            // FFmpeg's FLAC decoder refuses damage only when asked for a frame, having decoded what
            // it could of the packet (its parser merges damaged frames into one): how much was lost
            // is not the packet's, so nothing is put back here; the next frames' stamps show it.
            damagedPackets += 1
            decodedThroughDamage.append(Double(timelineFrames) / Double(info.sampleRate))
        } else {
            throw DecodeError.readFailed(path: path, reason: FFmpegSource.message(rc))
        }
    }

    /// Sends the next packet of our stream to the decoder; at the end of the file, the drain signal.
    private func feedPacket() throws {
        guard let container, let codec, let packet else { return }
        if draining { return }
        while true {
            let rc = av_read_frame(container, packet)
            if rc < 0 {
                // The end, or a file cut short: decode what came, then say so if it is short.
                if rc != beattag_averror_eof() { readError = FFmpegSource.message(rc) }
                draining = true
                avcodec_send_packet(codec, nil)
                return
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent >= 0 {
                rawPackets?.accepted(size: packet.pointee.size)
                return
            }
            // A damaged packet is skipped, as players do, up to a limit.
            guard sent == beattag_averror_invaliddata(), damagedPackets < FFmpegSource.damagedPacketLimit else {
                throw DecodeError.readFailed(path: path, reason: FFmpegSource.message(sent))
            }
            refused(duration: packet.pointee.duration, size: packet.pointee.size)
        }
    }

    /// A damaged packet, skipped. Before the first frame its timestamp places it; after, the lost
    /// packet is silence, as long as the frames it held (`rawPackets`). A packet without a duration
    /// (FFmpeg's FLAC parser merges damaged frames into one) adds nothing here: the next frames'
    /// stamps show the hole.
    private func refused(duration: Int64, size: Int32) {
        damagedPackets += 1
        guard sawFirstFrame, duration > 0 else { return }
        let frames = rawPackets?.frames(inRefused: size) ?? 1
        let lost = av_rescale_q(duration * frames, stream.pointee.time_base, AVRational(num: 1, den: Int32(info.sampleRate)))
        if lost > 0, lost <= largestGap { refusedFrames += lost }
    }

    /// Where the first frame belongs, in frames from the start of the stream.
    private func startOffset(of frame: UnsafeMutablePointer<AVFrame>) -> Int {
        guard let stamped = streamFrame(of: frame) else { return 0 }
        var offset = Int(stamped)
        // ASF has no field for encoder priming: WMA encoders delay by one frame (the MDCT overlap)
        // and shift their timestamps by it; FFmpeg's WMA decoder drops the frame before its first output.
        let id = codec?.pointee.codec_id
        if id == AV_CODEC_ID_WMAV1 || id == AV_CODEC_ID_WMAV2 { offset -= Int(frame.pointee.nb_samples) }
        let limit = Int(FFmpegSource.largestStartOffsetSeconds * Double(info.sampleRate))
        return abs(offset) > limit ? 0 : offset
    }

    /// Frames lost just before `frame`, or nil: damaged packets the decoder refused (their
    /// durations, exact), or a jump in the timestamps (a damaged Ogg page: its packets never reach
    /// the decoder). Demuxers stamp frames off the count by a steady amount (WMA 47 ms), and single
    /// frames or a few in a row further, either way (Vorbis up to 896 samples, AAC 448, Opus 488).
    /// So the stamps' usual offset moves only by small steps; a jump of `gapThreshold` or more, either
    /// way, counts only once `gapConfirmations` stamped frames in a row show it: ahead, it is a gap
    /// (the smallest of the jumps seen, in silence before the last of those frames; the ones before
    /// it play before the silence); behind, the new usual offset.
    private func missingFrames(before frame: UnsafeMutablePointer<AVFrame>) -> Int? {
        if refusedFrames > 0 {
            defer { refusedFrames = 0 }
            return Int(refusedFrames)
        }
        guard let stamped = streamFrame(of: frame) else { return nil }
        let deviation = stamped - timelineFrames
        guard let usual = stampDeviation else {
            stampDeviation = deviation
            return nil
        }
        let jump = deviation - usual
        guard abs(jump) >= gapThreshold, jump <= largestGap else {
            suspectedGap = nil
            stampDeviation = deviation
            return nil
        }
        guard let suspected = suspectedGap, abs(jump - suspected.frames) < gapThreshold / 2 else {
            suspectedGap = (jump, 1)
            return nil
        }
        let smallest = jump.signum() * min(abs(jump), abs(suspected.frames))
        guard suspected.seen + 1 >= FFmpegSource.gapConfirmations else {
            suspectedGap = (smallest, suspected.seen + 1)
            return nil
        }
        suspectedGap = nil
        guard smallest > 0 else {
            stampDeviation = deviation
            return nil
        }
        // After the silence the stamps sit where they usually do.
        return Int(smallest)
    }

    /// Where a frame's timestamp puts it, in frames at the stream's rate from the stream's start.
    private func streamFrame(of frame: UnsafeMutablePointer<AVFrame>) -> Int64? {
        let nopts = beattag_av_nopts_value()
        let timestamp = frame.pointee.best_effort_timestamp
        guard timestamp != nopts else { return nil }
        let start = stream.pointee.start_time == nopts ? 0 : stream.pointee.start_time
        return av_rescale_q(timestamp - start, stream.pointee.time_base, AVRational(num: 1, den: Int32(info.sampleRate)))
    }

    /// Planar or integer samples of any layout to interleaved float at the stream's rate (a frame
    /// at another rate, such as HE-AAC's doubled rate, is resampled), then to the source's layout.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        timelineFrames += av_rescale(Int64(frame.pointee.nb_samples), Int64(info.sampleRate), Int64(max(1, frame.pointee.sample_rate)))
        if resampler != nil, resamplerInput != FrameShape(frame) {
            try flushResampler()
            swr_free(&resampler)
        }
        if resampler == nil { try makeResampler(for: frame) }
        let capacity = Int(swr_get_out_samples(resampler, frame.pointee.nb_samples))
        guard capacity > 0 else { return }
        let planes = Int(max(1, frame.pointee.ch_layout.nb_channels))
        let produced = try runResampler(capacity: capacity) { out in
            frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: planes) { input in
                swr_convert(resampler, out, Int32(capacity), input, frame.pointee.nb_samples)
            }
        }
        appendFrames(produced)
    }

    private func flushResampler() throws {
        guard resampler != nil else { return }
        let capacity = Int(swr_get_out_samples(resampler, 0))
        guard capacity > 0 else { return }
        appendFrames(try runResampler(capacity: capacity) { out in swr_convert(resampler, out, Int32(capacity), nil, 0) })
    }

    private func runResampler(capacity: Int, _ call: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32) throws -> Int {
        let needed = capacity * max(info.channels, 2)
        if interleaved.count < needed { interleaved = [Float](repeating: 0, count: needed) }
        let produced = interleaved.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self)
            return call(&out)
        }
        guard produced >= 0 else { throw DecodeError.readFailed(path: path, reason: FFmpegSource.message(produced)) }
        return Int(produced)
    }

    private func appendFrames(_ frames: Int) {
        guard frames > 0 else { return }
        let channels = info.channels, width = layout.width
        interleaved.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            repairedSamples += layout.fold(p, frames: frames, channels: channels)
            let skip = min(framesToDrop, frames)
            framesToDrop -= skip
            pending.append(contentsOf: UnsafeBufferPointer(start: p + skip * width, count: (frames - skip) * width))
            decodedFrames += Int64(frames - skip)
        }
    }

    /// Output keeps the input's channels (no remixing: `ChannelLayout.fold` makes mono or stereo of
    /// them, as for libsndfile), as float, interleaved, at the stream's rate. A frame with other
    /// channels or another rate than the stream began with (a chained Ogg file: stereo, then a mono
    /// jingle at 22 kHz) is remixed and resampled to the stream's: its planes were read as the
    /// first's (a crash) and its samples at the first's rate (its beats in the wrong places).
    private func makeResampler(for frame: UnsafeMutablePointer<AVFrame>) throws {
        var input = AVChannelLayout(), output = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels <= 0 {
            av_channel_layout_default(&input, frame.pointee.ch_layout.nb_channels > 0 ? frame.pointee.ch_layout.nb_channels : Int32(info.channels))
        } else {
            av_channel_layout_copy(&input, &frame.pointee.ch_layout)
        }
        if Int(input.nb_channels) == info.channels { av_channel_layout_copy(&output, &input) } else { av_channel_layout_default(&output, Int32(info.channels)) }
        defer { av_channel_layout_uninit(&input); av_channel_layout_uninit(&output) }
        var rc = swr_alloc_set_opts2(&resampler, &output, AV_SAMPLE_FMT_FLT, Int32(info.sampleRate),
                                     &input, AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        if rc >= 0 { rc = swr_init(resampler) }
        guard rc >= 0 else { throw DecodeError.readFailed(path: path, reason: FFmpegSource.message(rc)) }
        resamplerInput = FrameShape(frame)
    }

    /// What a resampler was made for: a frame of another shape needs another.
    struct FrameShape: Equatable {
        var channels: Int32, rate: Int32, format: Int32
        init(_ frame: UnsafeMutablePointer<AVFrame>) {
            (channels, rate, format) = (frame.pointee.ch_layout.nb_channels, frame.pointee.sample_rate, frame.pointee.format)
        }
    }

    /// A stream that stops well short of the length its header gives was cut off (an interrupted
    /// download): the caller analyses what decoded, with a warning.
    private func checkComplete() throws {
        let decoded = decodedFrames + filledFrames + Int64(max(0, info.startOffsetFrames))
        let slack = Int64(max(1.0, 0.02 * Double(info.frames) / Double(info.sampleRate)) * Double(info.sampleRate))
        if lengthIsGuessed, let readError {
            throw DecodeError.readFailed(path: path, reason: readError)
        }
        if info.frames > 0, !lengthIsGuessed, decoded < info.frames - slack {
            let at = Double(decoded) / Double(info.sampleRate), promised = info.durationSeconds
            let why = readError.map { " (\($0))" } ?? ""
            throw DecodeError.readFailed(path: path, reason: DecodeError.endsShort(at: at, of: promised) + why)
        }
        if decoded == 0, damagedPackets > 0 {
            throw DecodeError.readFailed(path: path, reason: "every packet is damaged")
        }
    }

    /// Frames the header promises: the stream's duration, else the container's.
    private static func headerFrames(stream: UnsafeMutablePointer<AVStream>, container: UnsafeMutablePointer<AVFormatContext>, rate: Int) -> Int64 {
        let nopts = beattag_av_nopts_value()
        if stream.pointee.duration != nopts, stream.pointee.duration > 0 {
            return av_rescale_q(stream.pointee.duration, stream.pointee.time_base, AVRational(num: 1, den: Int32(rate)))
        }
        if container.pointee.duration != nopts, container.pointee.duration > 0 {
            return av_rescale(container.pointee.duration, Int64(rate), Int64(AV_TIME_BASE))
        }
        return 0
    }

    /// What a container without audio holds, for the reason given: random bytes FFmpeg took for
    /// some format and an MP4 whose track is gone read "video or data only" and "a video".
    static func streamKinds(_ context: UnsafeMutablePointer<AVFormatContext>) -> String {
        let types = (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0]?.pointee.codecpar.pointee.codec_type }
        if types.isEmpty { return "no streams at all: not audio, or damaged" }
        return types.contains(AVMEDIA_TYPE_VIDEO) ? "video only" : "data only"
    }

    /// FFmpeg's codec tags are little-endian four-character codes.
    static func fourCC(_ text: String) -> UInt32 {
        text.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "an FFmpeg error without a description (\(code))" }
        return String(cString: buffer)
    }

    /// FFmpeg logs to stderr by default ("[matroska,webm @ 0x…] …"); beattag reports each file's
    /// problem in one line itself. Touched before any FFmpeg call (`ContainerTags` too).
    static let silenceLibraryLog: Void = { av_log_set_level(AV_LOG_QUIET) }()
}
