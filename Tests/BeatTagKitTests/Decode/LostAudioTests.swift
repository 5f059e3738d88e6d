@testable import BeatTagKit
import BeatTagTestSupport
import Foundation
import XCTest

/// Audio lost mid-stream (a damaged Ogg page, FLAC frame or AAC packet) is put back as silence,
/// so that every beat after it keeps its time and the render, which plays the same decode, puts
/// them on the clock; and Opus is decoded whole (FFmpeg), not as libsndfile 1.2.0 reads it.
final class LostAudioTests: XCTestCase {
    /// 0.37 s a beat (162.2 BPM): a lost page of about a second is no whole number of beats, so
    /// beats after it that moved would show.
    static let period = 0.37, seconds = 40.0, rate = 44100

    /// A decaying 70 Hz kick on every beat, a tick on every "and".
    private func kicks() -> [Float] {
        (0..<Int(Self.seconds * Double(Self.rate))).map { i in
            let t = Double(i) / Double(Self.rate)
            let beat = t.truncatingRemainder(dividingBy: Self.period)
            let and = (t + Self.period / 2).truncatingRemainder(dividingBy: Self.period)
            return Float(0.7 * sin(2 * .pi * 70 * beat) * exp(-40 * beat) + 0.15 * sin(2 * .pi * 3000 * and) * exp(-400 * and))
        }
    }

    /// The kicks encoded by ffmpeg with `codec`'s arguments.
    private func kicksEncoded(_ path: String, _ codec: [String]) throws {
        let ffmpeg = try requiredTool("ffmpeg")
        let wav = path + ".wav"
        try AudioWriter.write(kicks(), sampleRate: Self.rate, to: wav, as: .wav)
        let (status, log) = try runTool(ffmpeg, ["-v", "error", "-i", wav] + codec + [path])
        XCTAssertEqual(status, 0, log)
    }

    /// Flips `count` bytes from `fraction` of the file on: past its headers, inside the audio.
    private func damage(_ path: String, at fractions: [Double], count: Int) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for fraction in fractions {
            let at = Int(Double(bytes.count) * fraction)
            for i in at..<min(bytes.count, at + count) { bytes[i] ^= 0x5A }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The damaged file's analysis: silence where audio was lost, said, and every beat more than
    /// a second from a gap where the whole file has it.
    /// `lengthTolerance`: an MP3 stream's padding after its last frame is trimmed by its length
    /// header, which FFmpeg reads on the stamps, and those do not know of the lost frames.
    /// `said`: what the warning must say.
    private func assertBeatsKeepTheirTime(whole: String, damaged: String, lengthTolerance: Double = 0.01, said: String = "lost to damage",
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let (_, reference) = try AudioFileAnalysis.analyse(path: whole)
        let (info, result) = try AudioFileAnalysis.analyse(path: damaged)
        let warning = try XCTUnwrap(result.decodeWarning, "the loss is said", file: file, line: line)
        XCTAssertTrue(warning.contains(said), warning, file: file, line: line)
        XCTAssertEqual(info.durationSeconds, Self.seconds, accuracy: lengthTolerance, "as long as the whole file: \(warning)", file: file, line: line)
        let referenceBeats = reference.beats.map(\.value)
        XCTAssertGreaterThan(referenceBeats.count, 100, file: file, line: line)
        var compared = 0
        for beat in result.beats.map(\.value) where beat > 5 && beat < Self.seconds - 2 {
            let nearest = referenceBeats.min { abs($0 - beat) < abs($1 - beat) }!
            // Beats beside a gap may move a little: the tracker bridges silence.
            if abs(nearest - beat) > 0.01 { XCTAssertLessThan(abs(nearest - beat), 0.03, "beat at \(beat) s: \(warning)", file: file, line: line) }
            compared += 1
        }
        let far = result.beats.map(\.value).filter { $0 > 25 && $0 < Self.seconds - 2 }
        XCTAssertGreaterThan(far.count, 20, file: file, line: line)
        for beat in far {
            let nearest = referenceBeats.min { abs($0 - beat) < abs($1 - beat) }!
            XCTAssertEqual(beat, nearest, accuracy: 0.01, "a beat after the damage sits where it was: \(warning)", file: file, line: line)
        }
        XCTAssertGreaterThan(compared, 80, file: file, line: line)
    }

    /// libsndfile skips a damaged Ogg page without a word (the stream just ends a second short),
    /// which used to move every beat after it; FFmpeg's timestamps show the hole.
    func testADamagedOggPageIsSilenceAndTheBeatsAfterItKeepTheirTime() throws {
        try OptionalLibrary.ffmpeg.require()
        let dir = try temporaryDirectory(self)
        let whole = (dir as NSString).appendingPathComponent("whole.ogg"), damaged = (dir as NSString).appendingPathComponent("damaged.ogg")
        try AudioWriter.write(kicks(), sampleRate: Self.rate, to: whole, as: .ogg)
        try FileManager.default.copyItem(atPath: whole, toPath: damaged)
        try damage(damaged, at: [0.45], count: 200)
        try assertBeatsKeepTheirTime(whole: whole, damaged: damaged)
    }

    /// A damaged FLAC frame: libsndfile skips it without a word (the stream ends a few frames short
    /// of its header's exact length, which sends it to FFmpeg), and stops at a 4 KB block of zeros.
    /// FFmpeg's FLAC decoder refuses the damaged part only when asked for a frame, which stopped the
    /// decode there; now it is skipped like any refused packet, and the stamps FFmpeg reads from the
    /// next frames' headers show how much was lost.
    func testADamagedFLACFrameIsSilenceAndTheBeatsAfterItKeepTheirTime() throws {
        try OptionalLibrary.ffmpeg.require()
        let dir = try temporaryDirectory(self)
        let whole = (dir as NSString).appendingPathComponent("whole.flac")
        try AudioWriter.write(kicks(), sampleRate: Self.rate, to: whole, as: .flac)
        let flipped = (dir as NSString).appendingPathComponent("flipped.flac"), zeroed = (dir as NSString).appendingPathComponent("zeroed.flac")
        try FileManager.default.copyItem(atPath: whole, toPath: flipped)
        try damage(flipped, at: [0.3, 0.6], count: 300)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        for i in bytes.count / 2..<bytes.count / 2 + 4096 { bytes[i] = 0 }
        try Data(bytes).write(to: URL(fileURLWithPath: zeroed))
        for damaged in [flipped, zeroed] {
            try assertBeatsKeepTheirTime(whole: whole, damaged: damaged)
        }
        // ffmpeg's FLAC (4,608-sample frames), where the decoder refuses damage only when asked for
        // a frame: that stopped the decode at the first damaged frame; and where it lost no audio
        // there, nothing may be put back (it is said as decoded through).
        let ffmpegWhole = (dir as NSString).appendingPathComponent("ffmpeg-whole.flac"), ffmpegFlipped = (dir as NSString).appendingPathComponent("ffmpeg-flipped.flac")
        try kicksEncoded(ffmpegWhole, ["-c:a", "flac", "-sample_fmt", "s16"])
        try FileManager.default.copyItem(atPath: ffmpegWhole, toPath: ffmpegFlipped)
        try damage(ffmpegFlipped, at: [0.3, 0.6], count: 300)
        try assertBeatsKeepTheirTime(whole: ffmpegWhole, damaged: ffmpegFlipped, said: "damage")
    }

    /// AAC packets FFmpeg refuses as damaged are skipped, as players do, and now take their
    /// length of silence with them.
    func testDamagedAACPacketsAreSilence() throws {
        try OptionalLibrary.ffmpeg.require()
        let dir = try temporaryDirectory(self)
        let whole = (dir as NSString).appendingPathComponent("whole.m4a"), damaged = (dir as NSString).appendingPathComponent("damaged.m4a")
        try kicksEncoded(whole, ["-c:a", "aac", "-b:a", "128k"])
        try FileManager.default.copyItem(atPath: whole, toPath: damaged)
        // The index is at the end (ffmpeg's default): half-way is audio.
        try damage(damaged, at: [0.5], count: 300)
        try assertBeatsKeepTheirTime(whole: whole, damaged: damaged)
    }

    /// Flips `count` bytes from the first MP3 frame header after the middle of the file on, so
    /// that the header is gone whatever the encoder's frame sizes: libmpg123 must search past it.
    private func damageMP3FrameHeader(_ path: String, count: Int) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let header = try XCTUnwrap((bytes.count / 2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] & 0xE0 == 0xE0 })
        for i in header..<header + count { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Kicks as a 128 kb/s CBR MP3, as ffmpeg writes it (a LAME header gives its length).
    private func kicksMP3(_ path: String, _ extra: [String] = []) throws {
        try kicksEncoded(path, ["-c:a", "libmp3lame", "-b:a", "128k"] + extra)
        try requireMPG123Settings(path)
    }

    /// libsndfile's libmpg123 must have taken beattag's settings (`MPG123Settings.c`) for what an MP3
    /// test checks; where it cannot, the test is skipped rather than failed for the platform.
    private func requireMPG123Settings(_ mp3: String) throws {
        _ = try? SndfileSource(path: mp3)
        try XCTSkipUnless(SndfileSource.mpg123SettingsTaken, "libmpg123 does not take beattag's settings here")
    }

    /// A damaged MP3 frame: libmpg123 (inside libsndfile) skipped to the next frame it found, and
    /// everything after came a frame or more early, unsaid. It now stops there, and FFmpeg decodes
    /// the file, putting back as silence as many frames as the bytes it refused held: a few flipped
    /// bytes (one frame's header gone, two frames lost), and a 4 KB block of zeros (a bad sector:
    /// ten frames lost, which FFmpeg stamped as one and libsndfile does not decode past at all).
    func testADamagedMP3KeepsItsBeatsWhereTheyWere() throws {
        try OptionalLibrary.ffmpeg.require()
        let dir = try temporaryDirectory(self)
        let whole = (dir as NSString).appendingPathComponent("whole.mp3")
        try kicksMP3(whole)
        let wholeBytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let flipped = (dir as NSString).appendingPathComponent("flipped.mp3"), zeroed = (dir as NSString).appendingPathComponent("zeroed.mp3")
        try FileManager.default.copyItem(atPath: whole, toPath: flipped)
        try damageMP3FrameHeader(flipped, count: 250)
        var bytes = [UInt8](wholeBytes)
        let at = bytes.count / 2
        for i in at..<at + 4096 { bytes[i] = 0 }
        try Data(bytes).write(to: URL(fileURLWithPath: zeroed))
        for damaged in [flipped, zeroed] {
            try assertBeatsKeepTheirTime(whole: whole, damaged: damaged, lengthTolerance: 0.03)
            XCTAssertEqual(try AudioFileAnalysis.analyse(path: damaged).0.decoder, DecoderLibrary.ffmpeg.identity)
        }
    }

    /// Without FFmpeg a damaged MP3 is read past as before (libmpg123's way), and now said.
    func testADamagedMP3WithoutFFmpegIsReadPastAndSaid() throws {
        let dir = try temporaryDirectory(self)
        let damaged = (dir as NSString).appendingPathComponent("damaged.mp3")
        try kicksMP3(damaged)
        try damageMP3FrameHeader(damaged, count: 250)
        let result = try runBinary(["analyze", "--json", damaged], environment: ["BEATTAG_LIBAVFORMAT": "/nonexistent/libavformat.so"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["decoder"] as? String, DecoderLibrary.libsndfile.identity)
        XCTAssertEqual(try XCTUnwrap(json["duration"] as? Double), Self.seconds, accuracy: 0.03, "decoded to the end")
        let warning = try XCTUnwrap(json["warning"] as? String, result.stdout)
        XCTAssertTrue(warning.hasPrefix("damaged at ") && warning.contains(" s and read past it"), warning)
        let at = try XCTUnwrap(Double(warning.dropFirst("damaged at ".count).prefix { $0 != " " }), warning)
        // libsndfile drops the block it was reading when libmpg123 stops (4,096 frames, 93 ms).
        XCTAssertEqual(at, Self.seconds / 2, accuracy: 0.15, warning)
    }

    /// libmpg123 also stops a few frames before a tag or junk after the last frame of an MP3
    /// without a length header: that is no damage inside the music, decoded as before, unsaid.
    func testJunkAfterTheLastFrameOfAnMP3IsNoDamage() throws {
        let dir = try temporaryDirectory(self)
        let clean = (dir as NSString).appendingPathComponent("clean.mp3"), junk = (dir as NSString).appendingPathComponent("junk.mp3")
        try kicksMP3(clean, ["-write_xing", "0"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: clean))
        bytes.append(contentsOf: (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        try bytes.write(to: URL(fileURLWithPath: junk))
        let (cleanInfo, _) = try AudioFileAnalysis.analyse(path: clean)
        let (info, result) = try AudioFileAnalysis.analyse(path: junk)
        XCTAssertNil(result.decodeWarning)
        XCTAssertEqual(info.decoder, DecoderLibrary.libsndfile.identity)
        XCTAssertEqual(info.frames, cleanInfo.frames)
        // libmpg123 did stop at the junk (the setting is in force), and the decode went on past it.
        let source = try SndfileSource(path: junk)
        try source.readToEnd { _ in }
        XCTAssertNotNil(source.stoppedAtDamage, "libmpg123 read past the junk without stopping")
        XCTAssertNil(source.damageSkippedAt)
    }

    /// A raw AAC stream (ADTS, `.aac`) has no length header: FFmpeg guesses one from the bitrate of
    /// its first frames, and a quiet start made an undamaged file "cut off" (40 s said short of 51).
    func testARawAACStreamsGuessedLengthIsNotHeldAgainstIt() throws {
        try OptionalLibrary.ffmpeg.require()
        let ffmpeg = try requiredTool("ffmpeg")
        let dir = try temporaryDirectory(self)
        let wav = (dir as NSString).appendingPathComponent("kicks.wav"), aac = (dir as NSString).appendingPathComponent("quiet-start.aac")
        let quietStart = kicks().enumerated().map { $0.offset < 3 * Self.rate ? $0.element * 0.01 : $0.element }
        try AudioWriter.write(quietStart, sampleRate: Self.rate, to: wav, as: .wav)
        let (status, log) = try runTool(ffmpeg, ["-v", "error", "-i", wav, "-c:a", "aac", "-b:a", "128k", aac])
        XCTAssertEqual(status, 0, log)
        XCTAssertGreaterThan(try FFmpegSource(path: aac).info.durationSeconds, Self.seconds + 5, "FFmpeg's guess is off")
        let (info, result) = try AudioFileAnalysis.analyse(path: aac)
        XCTAssertEqual(info.durationSeconds, Self.seconds, accuracy: 0.05)
        XCTAssertNil(result.decodeWarning)
    }

    /// Undamaged streams whose demuxers stamp frames unevenly (FFmpeg-made Vorbis and Opus pages,
    /// AAC, WMA's steady offset) get no silence: decoded, they are exactly as long as the whole
    /// stream, and the same samples as without gap filling would be. A real song, for its uneven
    /// packets: corpus-dev's clip_021 (282 s), also at 11 and 8 kHz.
    func testUnevenTimestampsOfUndamagedStreamsAreNoGaps() throws {
        try OptionalLibrary.ffmpeg.require()
        let ffmpeg = try requiredTool("ffmpeg")
        let clip = try TestPaths.sharedClip("clip_021.ogg")
        let dir = try temporaryDirectory(self)
        // The stamps' jitter is in samples: at 8 and 11 kHz it is four and five times as long.
        for (name, codec) in [("vorbis.ogg", ["-c:a", "libvorbis", "-q:a", "4"]), ("opus.opus", ["-c:a", "libopus", "-b:a", "96k"]),
                              ("aac.m4a", ["-c:a", "aac", "-b:a", "128k"]), ("wma.wma", ["-c:a", "wmav2", "-b:a", "128k"]),
                              ("vorbis-11k.ogg", ["-ar", "11025", "-c:a", "libvorbis", "-q:a", "2"]),
                              ("aac-8k.m4a", ["-ar", "8000", "-c:a", "aac", "-b:a", "32k"])] {
            let path = (dir as NSString).appendingPathComponent(name)
            let (status, log) = try runTool(ffmpeg, ["-v", "error", "-i", clip, "-map", "0:a"] + codec + [path])
            XCTAssertEqual(status, 0, log)
            let source = try FFmpegSource(path: path, blockFrames: 8192)
            var frames = 0
            while try source.readMonoBlock({ frames += $0.count }) {}
            XCTAssertEqual(source.gaps, [], name)
            XCTAssertEqual(Double(frames) / Double(source.info.sampleRate), 282.6, accuracy: 0.1, name)
        }
    }

    /// libsndfile 1.2.0 drops packets of Opus files FFmpeg writes (their pages stamp packets
    /// ahead of the samples): 1,920 samples of this one, silently. FFmpeg decodes every sample, as
    /// ffmpeg itself (and opusdec) do.
    func testOpusIsDecodedWhole() throws {
        try OptionalLibrary.ffmpeg.require()
        let ffmpeg = try requiredTool("ffmpeg")
        let clip = try TestPaths.sharedClip("clip_027.ogg")
        let dir = try temporaryDirectory(self)
        let opus = (dir as NSString).appendingPathComponent("clip.opus")
        var (status, log) = try runTool(ffmpeg, ["-v", "error", "-i", clip, "-map", "0:a", "-c:a", "libopus", "-b:a", "96k", opus])
        XCTAssertEqual(status, 0, log)
        // What ffmpeg decodes, counted by ffmpeg: 16-bit mono samples.
        let raw = (dir as NSString).appendingPathComponent("clip.raw")
        (status, log) = try runTool(ffmpeg, ["-v", "error", "-i", opus, "-ac", "1", "-f", "s16le", raw])
        XCTAssertEqual(status, 0, log)
        let ffmpegFrames = Int64(try FileManager.default.attributesOfItem(atPath: raw)[.size] as! Int / 2)

        let (info, result) = try AudioFileAnalysis.analyse(path: opus)
        XCTAssertEqual(info.decoder, DecoderLibrary.ffmpeg.identity)
        XCTAssertEqual(info.frames, ffmpegFrames, "every sample")
        XCTAssertNil(result.decodeWarning)
        XCTAssertTrue(try AudioSources.open(path: opus) is FFmpegSource)
        // A track analysed by libsndfile before is played by it too, so that its beats still fit.
        XCTAssertTrue(try AudioSources.open(path: opus, decoder: .libsndfile) is SndfileSource)
    }

    /// The render decodes a track with the library its analysis used: the beats of a damaged Ogg
    /// (analysed through FFmpeg, with the hole put back) fall on the excerpt's kicks after the hole.
    func testTheRenderPlaysTheAudioTheBeatsWereFoundIn() throws {
        try OptionalLibrary.ffmpeg.require()
        let dir = try temporaryDirectory(self)
        let damaged = (dir as NSString).appendingPathComponent("damaged.ogg")
        try AudioWriter.write(kicks(), sampleRate: Self.rate, to: damaged, as: .ogg)
        try damage(damaged, at: [0.45], count: 200)
        let (info, result) = try AudioFileAnalysis.analyse(path: damaged)
        XCTAssertEqual(info.decoder, DecoderLibrary.ffmpeg.identity)
        var track = TrackRecord(path: damaged, fileSize: 1, modifiedAt: 0, now: 0)
        track.decoder = info.decoder
        let spill = try PreparedTrack.decodeExcerpt(track, from: 0, to: Self.seconds, rate: Self.rate,
                                                    into: FrameSpill(beside: (dir as NSString).appendingPathComponent("run.wav")))
        let late = result.beats.map(\.value).filter { $0 > 25 && $0 < Self.seconds - 1 }
        XCTAssertGreaterThan(late.count, 20)
        for beat in late {
            // The kick's first 20 ms against the 20 ms before it.
            let at = Int(beat * Double(Self.rate)), span = Self.rate / 50
            func rms(_ from: Int) throws -> Float {
                let left = try spill.read(from: from, count: span).left
                return (left.reduce(0) { $0 + $1 * $1 } / Float(left.count)).squareRoot()
            }
            XCTAssertGreaterThan(try rms(at), 4 * (try rms(at - span)), "a kick on the beat at \(beat) s")
        }
    }

    /// libmpg123 (inside libsndfile) printed its resync notes on stderr for a damaged MP3, without
    /// a file name, over beattag's one-line report; its quiet flag is set now (`MPG123Settings.c`).
    func testADamagedMP3PrintsNothingButBeattagsLine() throws {
        let dir = try temporaryDirectory(self)
        let damaged = (dir as NSString).appendingPathComponent("damaged.mp3")
        try AudioWriter.write(kicks(), sampleRate: Self.rate, to: damaged, as: .mp3)
        try requireMPG123Settings(damaged)
        try damage(damaged, at: [0.3, 0.6], count: 1500)
        let result = try runBinary(["analyze", damaged])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("damaged.mp3"), result.stdout)
        for noise in ["Note:", "resync", "mpg123"] {
            XCTAssertFalse(result.stderr.contains(noise), "stderr: \(result.stderr)")
        }
    }
}
