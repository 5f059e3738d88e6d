import CLibraryLoader
import CSndfile
import Foundation

/// libsndfile: WAV, AIFF, FLAC, Ogg Vorbis, Opus, MP3 (encoder delay and padding trimmed by
/// libsndfile itself), recognised by content.
public final class SndfileSource: AudioSource {
    public let path: String
    public let info: AudioStreamInfo
    public let blockFrames: Int
    public let layout: ChannelLayout
    private var handle: OpaquePointer
    private var interleaved: [Float]
    private var decodedFrames: Int64 = 0
    public private(set) var repairedSamples = 0
    /// libsndfile does not say where it skipped audio: a file whose stream ends short is decoded
    /// by FFmpeg again (`AudioFileAnalysis`), which puts the gaps back.
    public let gaps: [DecodeGap] = []
    /// Where libmpg123 stopped at a damaged MP3 frame, and the stream was opened again to read past
    /// it (`readPastDamage`), frames into the decoded audio; nil while it has not.
    private(set) var stoppedAtDamage: Int64?
    public private(set) var damageSkippedAt: Double?

    public init(path: String, blockFrames: Int = 4096, layout: ChannelLayout = .mono) throws {
        var sfInfo = SF_INFO()
        guard let handle = SndfileSource.open(path, &sfInfo, readingPastDamage: false) else {
            // sf_strerror(NULL) is a process-global slot: copy it out at once.
            let reason = String(cString: sf_strerror(nil))
            throw DecodeError.cannotOpen(path: path, reason: reason)
        }
        if let reason = AudioStreamInfo.implausible(sampleRate: Int(sfInfo.samplerate), channels: Int(sfInfo.channels)) {
            sf_close(handle)
            throw DecodeError.cannotOpen(path: path, reason: reason)
        }
        self.path = path
        self.handle = handle
        self.blockFrames = blockFrames
        self.layout = layout
        self.info = AudioStreamInfo(sampleRate: Int(sfInfo.samplerate), channels: Int(sfInfo.channels),
                                    frames: sfInfo.frames, format: SndfileSource.formatName(sfInfo.format),
                                    decoder: DecoderLibrary.libsndfile.identity)
        self.interleaved = [Float](repeating: 0, count: blockFrames * max(Int(sfInfo.channels), 2))
    }

    deinit { sf_close(handle) }

    /// Whether libmpg123 has taken beattag's settings (`MPG123Settings.c`) in this process: known
    /// once an MP3 was opened; never where the linker does not let beattag answer libsndfile's
    /// call (only Linux is built and tested) or libmpg123 refuses them, and it then skips damage
    /// unsaid, as before.
    static var mpg123SettingsTaken: Bool { bt_mpg123_handles_set_up() > 0 }

    /// libmpg123 (MP3, inside libsndfile) stops at a damaged frame unless this thread asked it to
    /// read past damage (`MPG123Settings.c`); other formats do not use it.
    private static func open(_ path: String, _ sfInfo: inout SF_INFO, readingPastDamage: Bool) -> OpaquePointer? {
        bt_mpg123_read_past_damage(readingPastDamage ? 1 : 0)
        defer { bt_mpg123_read_past_damage(0) }
        let handle = sf_open(path, Int32(SFM_READ), &sfInfo)
        // Normalise integer formats to [-1, 1] and let Vorbis/MP3 clip rather than wrap.
        if let handle { sf_command(handle, Int32(SFC_SET_NORM_FLOAT), nil, Int32(SF_TRUE)) }
        return handle
    }

    public func readBlock(_ body: (UnsafeBufferPointer<Float>) -> Void) throws -> Bool {
        let channels = info.channels
        let read = interleaved.withUnsafeMutableBufferPointer { buffer in
            sf_readf_float(handle, buffer.baseAddress, sf_count_t(blockFrames))
        }
        if read <= 0 {
            let code = sf_error(handle)
            if code != 0 {
                if info.format == "mp3", stoppedAtDamage == nil, readPastDamage() { return try readBlock(body) }
                noteDamageSkipped()
                throw DecodeError.readFailed(path: path, reason: String(cString: sf_error_number(code)))
            }
            noteDamageSkipped()
            try checkComplete()
            return false
        }
        let frames = Int(read)
        decodedFrames += Int64(frames)
        let layout = self.layout
        interleaved.withUnsafeMutableBufferPointer { buffer in
            repairedSamples += layout.fold(buffer.baseAddress!, frames: frames, channels: channels)
            body(UnsafeBufferPointer(start: buffer.baseAddress!, count: frames * layout.width))
        }
        return true
    }

    /// An MP3 stopped at a damaged frame: opens it again reading past damage, as libmpg123 does by
    /// default, and decodes again to where it stopped (the same samples: nothing was skipped before
    /// it), so that what follows is what libsndfile always gave. Where it went on for more than
    /// `trailingDamageSeconds`, the damage was inside the music and `damageSkippedAt` says where.
    /// Returns false when the file cannot be opened again.
    private func readPastDamage() -> Bool {
        var sfInfo = SF_INFO()
        guard let again = SndfileSource.open(path, &sfInfo, readingPastDamage: true) else { return false }
        // The file may have been replaced meanwhile (tag writing renames a copy over it).
        guard Int(sfInfo.samplerate) == info.sampleRate, Int(sfInfo.channels) == info.channels,
              SndfileSource.formatName(sfInfo.format) == info.format else { sf_close(again); return false }
        var skipped: Int64 = 0
        while skipped < decodedFrames {
            let want = min(Int64(blockFrames), decodedFrames - skipped)
            let read = interleaved.withUnsafeMutableBufferPointer { sf_readf_float(again, $0.baseAddress, sf_count_t(want)) }
            guard read > 0 else { sf_close(again); return false }
            skipped += Int64(read)
        }
        sf_close(handle)
        handle = again
        stoppedAtDamage = decodedFrames
        return true
    }

    /// Where the stream was opened again to read past damage, once it has gone on far enough
    /// after it to be damage inside the music.
    private func noteDamageSkipped() {
        guard let stopped = stoppedAtDamage,
              decodedFrames - stopped > Int64(SndfileSource.trailingDamageSeconds * Double(info.sampleRate)) else { return }
        damageSkippedAt = Double(stopped) / Double(info.sampleRate)
    }

    /// Damage this close to the end moves nothing that follows: libmpg123 also stops at junk or a
    /// tag after the last frame of a file without a length header (and libsndfile drops the block
    /// it was reading, so the stop shows up to 4,096 frames before it).
    static let trailingDamageSeconds = 0.5

    /// A stream that ends short of the length its header states was cut off or damaged: libsndfile
    /// ends some damaged FLAC streams early without an error, and skips a damaged FLAC frame or Ogg
    /// page without a word, so that all after it comes early. The caller decodes such a file with
    /// FFmpeg again, which puts lost stretches back as silence. FLAC's and Ogg's header lengths are
    /// exact (every undamaged file measured decodes to them to the frame), so a shortfall beyond
    /// `exactLengthSlackSeconds` counts. Other formats skip nothing but may round their length to
    /// whole blocks (ADPCM WAV), so only a gross shortfall counts (2%, at least 1 s). So does MP3's
    /// where a Xing/Info or VBRI tag states its frame count (`MP3LengthHeader`); without one it is
    /// an estimate from the file's size, not checked (a 5.8 s stub of a 30 s download passed unsaid).
    /// A WAV's, W64's, AIFF's or CAF's length is what the file holds; the bytes its header gives say
    /// what it should hold (`PCMLengthHeader`).
    private func checkComplete() throws {
        guard info.frames > 0, info.format != "mp3" || MP3LengthHeader.statesFrameCount(path: path),
              info.format != "flac" || FLACLengthHeader.statesTotalSamples(path: path) else { return }
        var promised = info.frames
        let rate = Double(info.sampleRate)
        // libsndfile gives the frames a cut-off integer WAV holds, but those its header promises for
        // AIFF, float WAV and others: the share is divided out only where the decode reached its length (it
        // was divided out twice: "3.3 s of the 334.8 s its header gives" for a 33.5 s file).
        if PCMLengthHeader.formats.contains(info.format), let share = PCMLengthHeader.heldShare(path: path), share > 0, share < 1,
           decodedFrames >= info.frames - Int64(0.1 * rate) {
            promised = Int64((Double(info.frames) / share).rounded())
        }
        let slack = ["flac", "ogg", "opus"].contains(info.format) ? SndfileSource.exactLengthSlackSeconds : max(1.0, 0.02 * Double(promised) / rate)
        guard decodedFrames < promised - Int64(slack * rate) else { return }
        throw DecodeError.readFailed(path: path, reason: DecodeError.endsShort(at: Double(decodedFrames) / rate, of: Double(promised) / rate))
    }

    /// Shortfall of a stream whose header states its length exactly that is not yet lost audio.
    static let exactLengthSlackSeconds = 0.01

    static func formatName(_ format: Int32) -> String {
        let major = Int(format) & Int(SF_FORMAT_TYPEMASK)
        let sub = Int(format) & Int(SF_FORMAT_SUBMASK)
        switch major {
        case Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX), Int(SF_FORMAT_RF64): return "wav"
        case Int(SF_FORMAT_AIFF): return "aiff"
        case Int(SF_FORMAT_FLAC): return "flac"
        case Int(SF_FORMAT_OGG):
            return sub == Int(SF_FORMAT_OPUS) ? "opus" : "ogg"
        case Int(SF_FORMAT_MPEG): return "mp3"
        case Int(SF_FORMAT_CAF): return "caf"
        case Int(SF_FORMAT_W64): return "w64"
        default:
            // The rest by libsndfile's own extension for the type (.au read "sndfile-0x030000").
            var info = SF_FORMAT_INFO(format: Int32(major), name: nil, extension: nil)
            guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
                  let ext = info.extension else { return String(format: "sndfile-0x%06x", major) }
            return String(cString: ext)
        }
    }
}
