@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

final class SndfileSourceTests: XCTestCase {
    func testDecodesEveryFixtureFormat() throws {
        let expectations: [(String, String, Int)] = [
            ("house-128.wav", "wav", 22050), ("rock-150.flac", "flac", 44100),
            ("dnb-174.ogg", "ogg", 22050), ("hiphop-90.mp3", "mp3", 22050),
            ("metal-168.aiff", "aiff", 11025), ("house-124.opus", "opus", 48000),
        ]
        for (file, format, rate) in expectations {
            let decoder = try SndfileSource(path: TestPaths.fixture(file))
            XCTAssertEqual(decoder.info.format, format, file)
            XCTAssertEqual(decoder.info.sampleRate, rate, file)
            XCTAssertTrue(decoder.info.decoder.hasPrefix("libsndfile 1."), decoder.info.decoder)
            var frames = 0
            var peak: Float = 0
            while try decoder.readMonoBlock({ block in
                XCTAssertLessThanOrEqual(block.count, decoder.blockFrames, "decoding must stream in bounded blocks")
                frames += block.count
                peak = max(peak, block.map(abs).max() ?? 0)
            }) {}
            XCTAssertEqual(Double(frames) / Double(rate), file.hasPrefix("rock") || file.hasPrefix("house-128") || file.hasPrefix("dnb") || file.hasPrefix("hiphop") ? 12 : 10, accuracy: 0.1, file)
            XCTAssertGreaterThan(peak, 0.3, file)
        }
    }

    /// Types without a name of their own are named by libsndfile's extension: an .au clip's codec
    /// read "sndfile-0x030000" in `bench` and `list --json`.
    func testAnAUFileIsNamedAU() throws {
        let au = (try temporaryDirectory(self) as NSString).appendingPathComponent("clip.au")
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-i", TestPaths.fixture("house-128.wav"), "-c:a", "pcm_s16be", au])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(try SndfileSource(path: au).info.format, "au")
    }

    func testRecognisesContentNotExtension() throws {
        let decoder = try AudioSources.open(path: TestPaths.fixture("odd/disguised.mp3"))
        XCTAssertEqual(decoder.info.format, "wav")
        XCTAssertEqual(decoder.info.decoder, DecoderLibrary.libsndfile.identity, "libsndfile first for what it decodes")
    }

    func testDownmixAveragesChannels() throws {
        let dir = try temporaryDirectory(self)
        let path = (dir as NSString).appendingPathComponent("stereo.wav")
        // Left 0.5, right -0.25: mono is 0.125.
        let stereo = (0..<8000).flatMap { _ in [Float(0.5), Float(-0.25)] }
        try AudioWriter.write(stereo, channels: 2, sampleRate: 8000, to: path, as: .wav)
        let decoder = try SndfileSource(path: path)
        XCTAssertEqual(decoder.info.channels, 2)
        var mono: [Float] = []
        while try decoder.readMonoBlock({ mono.append(contentsOf: $0) }) {}
        XCTAssertEqual(mono.count, 8000)
        for s in mono { XCTAssertEqual(s, 0.125, accuracy: 1e-3) }
    }

    func testCorruptAndNonAudioFilesThrow() {
        // Text never reaches a decoder (libmpg123 would print on the terminal).
        XCTAssertThrowsError(try AudioSources.open(path: TestPaths.fixture("odd/notes.mp3"))) { error in
            XCTAssertEqual(error as? DecodeError, .notAudio(path: TestPaths.fixture("odd/notes.mp3"), what: "a text file"))
        }
        XCTAssertThrowsError(try AudioSources.open(path: TestPaths.fixture("odd/no-such-file.flac"))) { error in
            XCTAssertEqual("\(error)", "no such file")
        }
        for file in ["odd/corrupt.flac", "odd/empty.wav", "odd/drm-protected.m4a"] {
            XCTAssertThrowsError(try AudioSources.open(path: TestPaths.fixture(file)), file) { error in
                guard case DecodeError.cannotOpen(_, let reason) = error else { return XCTFail("\(file): \(error)") }
                // Both decoders had their say, in one line.
                XCTAssertTrue(reason.contains("libsndfile: ") && reason.contains("; FFmpeg: "), reason)
                XCTAssertFalse("\(error)".contains("\n"), "\(error)")
            }
        }
    }

    /// A header whose sample rate is near zero made a small file tens of hours long at the analysis
    /// rate (minutes of work, a scan stalled on it): both decoders refuse it.
    func testASampleRateNoMusicHasIsADamagedHeader() throws {
        let path = (try temporaryDirectory(self) as NSString).appendingPathComponent("rate-3.wav")
        try AudioWriter.write([Float](repeating: 0.1, count: 3000), sampleRate: 3, to: path, as: .wav)
        XCTAssertThrowsError(try AudioSources.open(path: path)) { error in
            XCTAssertEqual("\(error)", "cannot decode it (libsndfile: a sample rate of 3 Hz (a damaged header: music has 4000 Hz or more); "
                + "FFmpeg: a sample rate of 3 Hz (a damaged header: music has 4000 Hz or more))")
        }
        let telephone = (try temporaryDirectory(self) as NSString).appendingPathComponent("rate-8000.wav")
        try AudioWriter.write([Float](repeating: 0.1, count: 8000), sampleRate: 8000, to: telephone, as: .wav)
        XCTAssertEqual(try AudioSources.open(path: telephone).info.sampleRate, 8000)
    }

    /// A stream cut short names where it ends; a header whose own length is absurd is called damaged
    /// rather than quoted (a truncated Ogg's header gave 209,146,758,205,323 s).
    func testACutShortStreamSaysWhereItEnds() {
        XCTAssertEqual(DecodeError.endsShort(at: 10.84, of: 12), "only 10.8 s of the 12.0 s its header gives decoded (cut off, or damaged part-way)")
        XCTAssertEqual(DecodeError.endsShort(at: 0, of: 209_146_758_205_323.7), "the audio ends at 0.0 s, and its header's length is damaged")
    }

    /// A named pipe is never opened: reading it waits for a writer that never comes.
    func testANamedPipeIsNotAudio() throws {
        let fifo = (try temporaryDirectory(self) as NSString).appendingPathComponent("pipe.wav")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        XCTAssertThrowsError(try AudioSources.open(path: fifo)) { error in
            XCTAssertEqual(error as? DecodeError, .notAudio(path: fifo, what: "a named pipe"))
        }
        XCTAssertEqual(AudioSniffer.notAudio(path: (fifo as NSString).deletingLastPathComponent), "a folder")
    }

    func testLongFileCutShortIsAnalysedFromWhatDecodes() throws {
        let dir = try temporaryDirectory(self)
        let cut = (dir as NSString).appendingPathComponent("cut.flac")
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("rock-150.flac")))
        try whole.prefix(whole.count * 9 / 10).write(to: URL(fileURLWithPath: cut))
        let (info, result) = try AudioFileAnalysis.analyse(path: cut)
        XCTAssertEqual(result.bpm.value, 150, accuracy: 3)
        XCTAssertGreaterThanOrEqual(info.durationSeconds, AudioFileAnalysis.minimumPartialSeconds)
        XCTAssertLessThan(info.durationSeconds, 12)
        XCTAssertTrue(result.decodeWarning?.hasPrefix("decoding broke off at") ?? false, "\(result.decodeWarning ?? "nil")")
    }

    /// An MP3 whose Xing/Info tag states its frame count, cut off: said (or failed) as a cut-off
    /// FLAC is; it passed as a whole track of the length that decoded (a 5.8 s stub of 30 s).
    func testACutOffMP3WithALengthHeaderIsSaid() throws {
        let dir = try temporaryDirectory(self)
        // 48 s (the fixture four times), encoded by LAME (FFmpeg's libmp3lame writes the Info tag).
        let encoded = (dir as NSString).appendingPathComponent("rock.mp3")
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-stream_loop", "3", "-i", TestPaths.fixture("rock-150.flac"),
                                                                     "-c:a", "libmp3lame", "-b:a", "128k", encoded])
        XCTAssertEqual(status, 0, log)
        let whole = try Data(contentsOf: URL(fileURLWithPath: encoded))
        XCTAssertTrue(MP3LengthHeader.statesFrameCount(path: encoded))
        XCTAssertNil(try AudioFileAnalysis.analyse(path: encoded).1.decodeWarning, "whole: nothing to say")
        let (half, fifth) = ((dir as NSString).appendingPathComponent("half.mp3"), (dir as NSString).appendingPathComponent("sixth.mp3"))
        try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: half))
        try whole.prefix(whole.count / 6).write(to: URL(fileURLWithPath: fifth))
        let (info, result) = try AudioFileAnalysis.analyse(path: half)
        XCTAssertGreaterThanOrEqual(info.durationSeconds, AudioFileAnalysis.minimumPartialSeconds)
        XCTAssertTrue(result.decodeWarning?.contains("its header gives decoded (cut off") ?? false, "\(result.decodeWarning ?? "nil")")
        XCTAssertThrowsError(try AudioFileAnalysis.analyse(path: fifth)) { error in
            guard case DecodeError.readFailed(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("at least 10 s are needed"), reason)
        }
    }

    /// A WAV, RF64, W64, AIFF or CAF cut short: libsndfile reads what is there without a word, and
    /// a WAV cut to half was catalogued as a whole track of half the length (RF64, W64 and CAF until
    /// stop 68). Their headers give the audio's size.
    func testACutOffWAVOrAIFFIsSaid() throws {
        let dir = try temporaryDirectory(self)
        let containers: [(format: String, file: String, codec: [String])] = [
            ("wav", "whole.wav", ["-c:a", "pcm_s16le"]), ("aiff", "whole.aiff", ["-c:a", "pcm_s16be"]),
            ("rf64", "whole-rf64.wav", ["-c:a", "pcm_s16le", "-rf64", "always"]), ("w64", "whole.w64", ["-c:a", "pcm_s16le"]),
            ("caf", "whole.caf", ["-c:a", "pcm_s16be"]),
        ]
        for (format, file, codec) in containers {
            let whole = (dir as NSString).appendingPathComponent(file)
            // 36 s, the fixture three times, 16-bit (FFmpeg writes the header's sizes at the end).
            let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-stream_loop", "2", "-i", TestPaths.fixture("rock-150.flac")]
                                                                        + codec + [whole])
            XCTAssertEqual(status, 0, log)
            XCTAssertEqual(PCMLengthHeader.heldShare(path: whole) ?? 0, 1, accuracy: 1e-9, format)
            XCTAssertNil(try AudioFileAnalysis.analyse(path: whole).1.decodeWarning, "\(format) whole: nothing to say")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            let cut = (dir as NSString).appendingPathComponent("cut-" + file)
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
            XCTAssertEqual(PCMLengthHeader.heldShare(path: cut) ?? 0, 0.5, accuracy: 0.01, format)
            let (info, result) = try AudioFileAnalysis.analyse(path: cut)
            XCTAssertEqual(info.durationSeconds, 18, accuracy: 0.5, format)
            XCTAssertTrue(result.decodeWarning?.contains("of the 36.0 s its header gives") ?? false, "\(format): \(result.decodeWarning ?? "nil")")
        }
        // The fixture's 12-s WAV cut to 7 s: below the 10 s a file cut short needs, refused, where
        // it was analysed as a whole 7-s track.
        let fixture = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("house-128.wav")))
        let cutFixture = (dir as NSString).appendingPathComponent("cut-house.wav")
        try fixture.prefix(fixture.count * 6 / 10).write(to: URL(fileURLWithPath: cutFixture))
        XCTAssertThrowsError(try AudioFileAnalysis.analyse(path: cutFixture)) { error in
            guard case DecodeError.readFailed(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("its header gives") && reason.contains("at least 10 s are needed"), reason)
        }
        // A streamed WAV states no size (0xFFFFFFFF): nothing to compare, nothing said.
        var streamed = try Data(contentsOf: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("whole.wav")))
        let data = try XCTUnwrap(streamed.range(of: Data("data".utf8)))
        streamed.replaceSubrange(data.upperBound..<data.upperBound + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let streamedPath = (dir as NSString).appendingPathComponent("streamed.wav")
        try streamed.write(to: URL(fileURLWithPath: streamedPath))
        XCTAssertNil(PCMLengthHeader.heldShare(path: streamedPath))
        // An RF64 whose ds64 promises 2^64 − 16 bytes (damaged or crafted): not believed (a frame
        // count from that size would not fit in one); both decoders refuse the file, in one line.
        var rf64 = try Data(contentsOf: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("whole-rf64.wav")))
        let ds64 = try XCTUnwrap(rf64.range(of: Data("ds64".utf8)))
        rf64.replaceSubrange(ds64.upperBound + 12..<ds64.upperBound + 20, with: [0xF0] + [UInt8](repeating: 0xFF, count: 7))
        let hugePath = (dir as NSString).appendingPathComponent("huge-rf64.wav")
        try rf64.write(to: URL(fileURLWithPath: hugePath))
        XCTAssertNil(PCMLengthHeader.heldShare(path: hugePath))
        XCTAssertThrowsError(try AudioFileAnalysis.analyse(path: hugePath)) { error in
            guard case DecodeError.cannotOpen = error else { return XCTFail("\(error)") }
        }
        // A CAF of ALAC packets, each of its own size, states no constant rate: nothing to compare.
        let alac = (dir as NSString).appendingPathComponent("alac.caf")
        let (alacStatus, alacLog) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-i", TestPaths.fixture("rock-150.flac"), "-c:a", "alac", alac])
        XCTAssertEqual(alacStatus, 0, alacLog)
        XCTAssertNil(PCMLengthHeader.heldShare(path: alac))
        // Cut too short to analyse, the length its header gives is said right for the formats whose
        // length libsndfile takes from the header (it read "of the 180.0 s" for a 36 s AIFF).
        for (name, codec) in [("short.aiff", "pcm_s16be"), ("float.wav", "pcm_f32le")] {
            let whole = (dir as NSString).appendingPathComponent("whole-" + name)
            let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-stream_loop", "2", "-i", TestPaths.fixture("rock-150.flac"),
                                                                         "-c:a", codec, whole])
            XCTAssertEqual(status, 0, log)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            let cut = (dir as NSString).appendingPathComponent(name)
            try bytes.prefix(bytes.count / 5).write(to: URL(fileURLWithPath: cut))
            XCTAssertThrowsError(try AudioFileAnalysis.analyse(path: cut)) { error in
                guard case DecodeError.readFailed(_, let reason) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("of the 36.0 s its header gives"), "\(name): \(reason)")
            }
        }
    }

    /// A FLAC written through a pipe states no length (total samples 0, as the format allows): it
    /// is whole, and was said to have "its header's length damaged" on every scan.
    func testAFLACOfUnknownLengthIsWhole() throws {
        let dir = try temporaryDirectory(self)
        let flac = (dir as NSString).appendingPathComponent("piped.flac")
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: try requiredTool("ffmpeg"))
        encoder.arguments = ["-v", "error", "-i", TestPaths.fixture("rock-150.flac"), "-c:a", "flac", "-f", "flac", "-"]
        FileManager.default.createFile(atPath: flac, contents: nil)
        encoder.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: flac))
        try encoder.run()
        encoder.waitUntilExit()
        XCTAssertEqual(encoder.terminationStatus, 0)
        XCTAssertFalse(FLACLengthHeader.statesTotalSamples(path: flac), "written to a pipe, the length is unknown")
        XCTAssertTrue(FLACLengthHeader.statesTotalSamples(path: TestPaths.fixture("rock-150.flac")))
        let (info, result) = try AudioFileAnalysis.analyse(path: flac)
        XCTAssertNil(result.decodeWarning)
        XCTAssertEqual(info.durationSeconds, 12, accuracy: 0.1)
    }

    /// The tags that state an MP3's frame count, where they sit in its first frame.
    func testMP3LengthHeaderIsFoundOnlyWhereItStatesTheFrameCount() {
        let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]  // MPEG-1 layer III, 128 kbit/s, 44.1 kHz, stereo, no CRC
        func frame(_ tag: String, at offset: Int, flags: UInt8) -> [UInt8] {
            var bytes = header + [UInt8](repeating: 0, count: 400)
            bytes.replaceSubrange(offset..<offset + 4, with: Array(tag.utf8))
            bytes[offset + 7] = flags
            return bytes
        }
        XCTAssertTrue(MP3LengthHeader.statesFrameCount(afterTags: frame("Xing", at: 36, flags: 0x0F)))
        XCTAssertTrue(MP3LengthHeader.statesFrameCount(afterTags: frame("Info", at: 36, flags: 0x01)))
        XCTAssertFalse(MP3LengthHeader.statesFrameCount(afterTags: frame("Info", at: 36, flags: 0x0E)), "no frame count in it")
        XCTAssertTrue(MP3LengthHeader.statesFrameCount(afterTags: frame("VBRI", at: 36, flags: 0)))
        XCTAssertFalse(MP3LengthHeader.statesFrameCount(afterTags: frame("Xing", at: 60, flags: 0x0F)), "not where a Xing tag goes")
        XCTAssertFalse(MP3LengthHeader.statesFrameCount(afterTags: header + [UInt8](repeating: 0, count: 400)), "plain CBR")
        // Junk before the first frame; a mono MPEG-2 frame (9 bytes of side information).
        XCTAssertTrue(MP3LengthHeader.statesFrameCount(afterTags: [0, 0, 0x12] + frame("Xing", at: 36, flags: 1)))
        var mono = [UInt8](repeating: 0, count: 300)
        mono.replaceSubrange(0..<4, with: [0xFF, 0xF3, 0x80, 0xC4])
        mono.replaceSubrange(13..<17, with: Array("Xing".utf8)); mono[20] = 1
        XCTAssertTrue(MP3LengthHeader.statesFrameCount(afterTags: mono))
    }

    func testTruncatedFileFailsPartWay() throws {
        XCTAssertThrowsError(try AudioFileAnalysis.analyse(path: TestPaths.fixture("odd/truncated.flac"))) { error in
            guard case DecodeError.readFailed = error else { return XCTFail("\(error)") }
        }
    }
}

final class DecimatorTests: XCTestCase {
    func testFactorsLandNearTheAnalysisRate() {
        XCTAssertEqual(Decimator(inputRate: 44100).factor, 4)
        XCTAssertEqual(Decimator(inputRate: 48000).factor, 4)
        XCTAssertEqual(Decimator(inputRate: 96000).factor, 8)
        XCTAssertEqual(Decimator(inputRate: 22050).factor, 2)
        XCTAssertEqual(Decimator(inputRate: 11025).factor, 1)
        XCTAssertEqual(Decimator(inputRate: 8000).factor, 1)
    }

    private func rms(of frequency: Double, inputRate: Int) -> Float {
        var decimator = Decimator(inputRate: inputRate)
        let input = (0..<inputRate).map { Float(sin(2 * Double.pi * frequency * Double($0) / Double(inputRate))) }
        var output: [Float] = []
        input.withUnsafeBufferPointer { decimator.process($0, into: &output) }
        let steady = output.dropFirst(200).dropLast(200)
        return (steady.map { $0 * $0 }.reduce(0, +) / Float(steady.count)).squareRoot()
    }

    func testPassesTheOnsetBandAndRejectsAliases() {
        XCTAssertEqual(rms(of: 1000, inputRate: 44100), Float(0.5).squareRoot(), accuracy: 0.02, "passband")
        XCTAssertLessThan(rms(of: 9000, inputRate: 44100), 0.01, "9 kHz would alias into the 11 kHz analysis band")
    }

    func testBlockSizeDoesNotChangeTheOutput() {
        let input = (0..<20000).map { Float(sin(Double($0) * 0.01) + sin(Double($0) * 0.7)) }
        var whole = Decimator(inputRate: 44100), pieces = Decimator(inputRate: 44100)
        var a: [Float] = [], b: [Float] = []
        input.withUnsafeBufferPointer { whole.process($0, into: &a) }
        var start = 0
        for size in [1, 7, 100, 4096, 333, 15463] where start < input.count {
            let end = min(input.count, start + size)
            input[start..<end].withUnsafeBufferPointer { pieces.process($0, into: &b) }
            start = end
        }
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: 1e-5) }
    }
}

final class AnalysisResamplerTests: XCTestCase {
    /// Every input rate ends at 11025 Hz: one second in, 11025 samples out, and a tone keeps its frequency.
    func testEveryRateLandsOnTheAnalysisRate() {
        for rate in [8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000] {
            var resampler = AnalysisResampler(inputRate: rate)
            let tone = (0..<(rate * 2)).map { Float(sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
            var out: [Float] = []
            // Odd block sizes: streaming must not lose or repeat samples at block edges.
            var start = 0
            while start < tone.count {
                let end = min(tone.count, start + 997)
                tone[start..<end].withUnsafeBufferPointer { resampler.process($0, into: &out) }
                start = end
            }
            XCTAssertEqual(Double(out.count), 2 * AnalysisResampler.analysisRate, accuracy: 40, "\(rate) Hz")
            // Zero crossings upward over the middle second: 440 of them.
            let middle = Array(out[Int(0.5 * 11025)..<Int(1.5 * 11025)])
            let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
            XCTAssertEqual(crossings, 440, accuracy: 2, "\(rate) Hz")
        }
    }
}

