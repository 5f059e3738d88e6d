@testable import BeatTagKit
import BeatTagTestSupport
import XCTest

/// The FFmpeg decoder, checked against libsndfile's decode of the lossless file each fixture was
/// encoded from (Fixtures/README.md): same tempo, same beats, audio at the same place.
final class FFmpegSourceTests: XCTestCase {
    struct Pair {
        var encoded: String
        var source: String
        var codec: String
        /// Largest allowed offset from the source, in samples (WMA's timestamps are whole milliseconds).
        var lagTolerance: Int
    }

    let pairs = [
        Pair(encoded: "encoded/trance-140-aac.m4a", source: "trance-140.flac", codec: "aac", lagTolerance: 2),
        Pair(encoded: "encoded/house-128-alac.m4a", source: "house-128.wav", codec: "alac", lagTolerance: 0),
        Pair(encoded: "encoded/house-128-aac.mp4", source: "house-128.wav", codec: "aac", lagTolerance: 2),
        Pair(encoded: "encoded/trance-140.wma", source: "trance-140.flac", codec: "wmav2", lagTolerance: 30),
        // 2112 samples of priming declared only by iTunSMPB, as iTunes writes it.
        Pair(encoded: "odd/itunes-priming.m4a", source: "house-128.wav", codec: "aac", lagTolerance: 2),
    ]

    func testFFmpegTakesWhatLibsndfileRefuses() throws {
        for pair in pairs {
            let path = TestPaths.fixture(pair.encoded)
            XCTAssertThrowsError(try SndfileSource(path: path), pair.encoded)
            let source = try AudioSources.open(path: path)
            XCTAssertTrue(source is FFmpegSource, pair.encoded)
            XCTAssertEqual(source.info.decoder, DecoderLibrary.ffmpeg.identity)
            XCTAssertTrue(source.info.decoder.hasPrefix("ffmpeg 59."), source.info.decoder)
            XCTAssertEqual(source.info.format, pair.codec, pair.encoded)
            XCTAssertEqual(source.info.durationSeconds, 12, accuracy: 0.1, pair.encoded)
        }
    }

    /// Where the decoded audio sits against its source, found by cross-correlation (libsndfile
    /// decodes the source: an independent decoder).
    func testDecodedAudioLinesUpWithItsSource() throws {
        for pair in pairs {
            let source = try decodeAll(TestPaths.fixture(pair.source))
            let decoded = try decodeAll(TestPaths.fixture(pair.encoded))
            let sourceRate = try SndfileSource(path: TestPaths.fixture(pair.source)).info.sampleRate
            XCTAssertEqual(try AudioSources.open(path: TestPaths.fixture(pair.encoded)).info.sampleRate, sourceRate, pair.encoded)
            let lag = bestLag(of: decoded, against: source, maxLag: 3000)
            XCTAssertLessThanOrEqual(abs(lag), pair.lagTolerance, "\(pair.encoded) is \(lag) samples off its source")
            // AAC and WMA end on a whole frame; nothing is lost at the start.
            XCTAssertEqual(Double(decoded.count), Double(source.count), accuracy: 2048, pair.encoded)
            if pair.codec == "alac" {
                XCTAssertEqual(decoded.count, source.count)
                XCTAssertLessThan(zip(decoded, source).map { abs($0 - $1) }.max() ?? 1, 1e-4, "ALAC is lossless")
            }
        }
    }

    /// Without its iTunSMPB tag the same file plays 2112 samples late: the tag is what lines it up.
    func testITunesPrimingIsWhatTheTagDeclares() throws {
        let dir = try temporaryDirectory(self)
        let copy = (dir as NSString).appendingPathComponent("no-smpb.m4a")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("odd/itunes-priming.m4a"))))
        let name = Array("iTunSMPB".utf8)
        let at = try XCTUnwrap((0..<(bytes.count - name.count)).first { Array(bytes[$0..<($0 + name.count)]) == name })
        bytes[at + 7] = UInt8(ascii: "X")
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        let source = try decodeAll(TestPaths.fixture("house-128.wav"))
        XCTAssertEqual(bestLag(of: try decodeAll(copy), against: source, maxLag: 3000), 2112, accuracy: 2)
    }

    func testAnalysisMatchesTheSource() throws {
        for pair in pairs {
            let (_, original) = try AudioFileAnalysis.analyse(path: TestPaths.fixture(pair.source))
            let (info, encoded) = try AudioFileAnalysis.analyse(path: TestPaths.fixture(pair.encoded))
            XCTAssertEqual(info.decoder, DecoderLibrary.ffmpeg.identity)
            XCTAssertTrue(TempoMetrics.acc1(encoded.bpm.value, original.bpm.value), "\(pair.encoded): \(encoded.bpm) vs \(original.bpm)")
            let comparison = BeatComparison(beats: encoded.beats.map(\.value), reference: original.beats.map(\.value))
            XCTAssertGreaterThanOrEqual(comparison.shareWithin10ms, 0.9, "\(pair.encoded): \(comparison)")
            XCTAssertLessThan(comparison.medianOffsetMs ?? 99, 5, "\(pair.encoded): \(comparison)")
        }
    }

    func testDecodesInBoundedBlocks() throws {
        let source = try FFmpegSource(path: TestPaths.fixture("encoded/house-128-alac.m4a"), blockFrames: 1000)
        var blocks = 0
        while try source.readMonoBlock({ block in
            XCTAssertLessThanOrEqual(block.count, 1000)
            blocks += 1
        }) {}
        XCTAssertGreaterThan(blocks, 12 * 22050 / 1000)
    }

    /// FFmpeg takes a WMA's length from the bytes there are: a download cut in half looked whole
    /// ("38 ms lost to damage"). The ASF header's play length is the one to reach.
    func testACutOffWMAIsSaidAgainstItsHeader() throws {
        let dir = try temporaryDirectory(self)
        let whole = (dir as NSString).appendingPathComponent("whole.wma")
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-stream_loop", "2", "-i", TestPaths.fixture("rock-150.flac"),
                                                                     "-c:a", "wmav2", "-b:a", "128k", whole])
        XCTAssertEqual(status, 0, log)
        XCTAssertEqual(try XCTUnwrap(ASFLengthHeader.statedSeconds(path: whole)), 36, accuracy: 0.1)
        XCTAssertNil(ASFLengthHeader.statedSeconds(path: TestPaths.fixture("rock-150.flac")))
        XCTAssertNil(try AudioFileAnalysis.analyse(path: whole).1.decodeWarning, "whole: nothing to say")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = (dir as NSString).appendingPathComponent("cut.wma")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let warning = try AudioFileAnalysis.analyse(path: cut).1.decodeWarning ?? "nil"
        XCTAssertTrue(warning.contains("of the 36.0 s its header gives"), warning)
    }

    /// Two Ogg streams one after the other (a chain): libsndfile decoded the first only, and the
    /// track was catalogued at half its length without a word (decode hunt M3).
    func testAChainedOggFileIsDecodedWhole() throws {
        let dir = try temporaryDirectory(self)
        var chain = Data()
        // The last stream mono at another rate: its planes were read as the first's (a crash), its
        // samples at the first's rate (recheck N3, N4).
        for (serial, fixture, channels, rate) in [(7, "rock-150.flac", 2, 44100), (99, "house-128.wav", 2, 44100), (123, "rock-150.flac", 1, 22050)] {
            let link = (dir as NSString).appendingPathComponent("\(serial).ogg")
            let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-y", "-i", TestPaths.fixture(fixture), "-ar", "\(rate)", "-ac", "\(channels)",
                                                                         "-c:a", "libvorbis", "-serial_offset", "\(serial)", link])
            XCTAssertEqual(status, 0, log)
            XCTAssertFalse(OggChain.isChained(path: link))
            chain += try Data(contentsOf: URL(fileURLWithPath: link))
        }
        let chained = (dir as NSString).appendingPathComponent("chained.ogg")
        try chain.write(to: URL(fileURLWithPath: chained))
        XCTAssertTrue(OggChain.isChained(path: chained))
        // One file twice (`cat a.ogg a.ogg`): one serial for both streams, and A-B-A, whose last
        // page has the first's serial (both read as one stream).
        let first = (dir as NSString).appendingPathComponent("7.ogg"), twice = (dir as NSString).appendingPathComponent("twice.ogg")
        let once = try Data(contentsOf: URL(fileURLWithPath: first))
        try (once + once).write(to: URL(fileURLWithPath: twice))
        XCTAssertTrue(OggChain.isChained(path: twice))
        XCTAssertEqual(try AudioFileAnalysis.analyse(path: twice).0.durationSeconds, 24, accuracy: 0.1)
        let aba = (dir as NSString).appendingPathComponent("aba.ogg")
        try (once + (try Data(contentsOf: URL(fileURLWithPath: (dir as NSString).appendingPathComponent("99.ogg")))) + once).write(to: URL(fileURLWithPath: aba))
        XCTAssertTrue(OggChain.isChained(path: aba))
        XCTAssertFalse(OggChain.isChained(path: TestPaths.fixture("dnb-174.ogg")))
        let (info, result) = try AudioFileAnalysis.analyse(path: chained)
        XCTAssertEqual(info.durationSeconds, 36, accuracy: 0.2, "every stream, at the first one's rate")
        XCTAssertNil(result.decodeWarning)
        // The mono stream at 22 kHz is the rock again: its beats come 150 to the minute, as the first's.
        let beats = result.beats.map(\.value).filter { $0 > 25 && $0 < 35 }
        XCTAssertGreaterThan(beats.count, 20)
        let intervals = zip(beats.dropFirst(), beats).map { $0 - $1 }.sorted()
        XCTAssertEqual(intervals[intervals.count / 2], 0.4, accuracy: 0.01, "150 BPM")
    }

    func testBrokenFilesGiveOneLineReasons() throws {
        XCTAssertThrowsError(try AudioSources.open(path: TestPaths.fixture("odd/video-only.mp4"))) { error in
            XCTAssertEqual(error as? DecodeError, .noAudioStream(path: TestPaths.fixture("odd/video-only.mp4"), found: "video only"))
        }
        // Random bytes FFmpeg takes for some format hold no streams: not "video or data only".
        let random = (try temporaryDirectory(self) as NSString).appendingPathComponent("random.mp3")
        var generator = SplitMix64(seed: 7)
        try Data((0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(to: URL(fileURLWithPath: random))
        XCTAssertThrowsError(try AudioSources.open(path: random)) { error in
            XCTAssertFalse("\(error)".contains("video"), "\(error)")
        }
        XCTAssertThrowsError(try AudioSources.open(path: TestPaths.fixture("odd/drm-protected.m4a"))) { error in
            XCTAssertTrue("\(error)".contains("DRM-protected"), "\(error)")
        }
        // Cut off at 90%: analysed from what decoded, with the reason.
        let (info, result) = try AudioFileAnalysis.analyse(path: TestPaths.fixture("odd/truncated.m4a"))
        XCTAssertEqual(info.durationSeconds, 10.8, accuracy: 0.3)
        XCTAssertEqual(result.bpm.value, 150, accuracy: 3)
        let warning = try XCTUnwrap(result.decodeWarning)
        XCTAssertTrue(warning.contains("of the 12.0 s its header gives"), warning)

        // Cut before its index (moov at the end, as FFmpeg and most encoders write it): nothing to decode.
        let dir = try temporaryDirectory(self)
        let cut = (dir as NSString).appendingPathComponent("cut.m4a")
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("encoded/trance-140-aac.m4a")))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        XCTAssertThrowsError(try AudioFileAnalysis.analyse(path: cut)) { error in
            let text = "\(error)"
            XCTAssertFalse(text.contains("\n"))
            XCTAssertTrue(text.contains("FFmpeg: "), text)
        }
    }

    /// The lag (in samples) at which `signal` best matches `reference`: positive when `signal` is late.
    private func bestLag(of signal: [Float], against reference: [Float], maxLag: Int) -> Int {
        let start = maxLag + 11025, length = 8192
        precondition(signal.count > start + length + maxLag && reference.count > start + length)
        var best = (lag: 0, score: -Float.infinity)
        signal.withUnsafeBufferPointer { s in
            reference.withUnsafeBufferPointer { r in
                for lag in -maxLag...maxLag {
                    var sum: Float = 0
                    for i in start..<(start + length) { sum += r[i] * s[i + lag] }
                    if sum > best.score { best = (lag, sum) }
                }
            }
        }
        return best.lag
    }
}
