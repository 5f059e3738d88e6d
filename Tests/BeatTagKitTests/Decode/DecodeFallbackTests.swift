@testable import BeatTagKit
import BeatTagTestSupport
import Foundation
import XCTest

/// Where libsndfile stops part-way, FFmpeg decodes the file again; a stream that ends well short
/// of its header's length is never taken for a short file.
final class DecodeFallbackTests: XCTestCase {
    /// A damaged FLAC that libsndfile ends early without an error: said, not analysed as 5 s of music.
    func testAStreamEndingShortOfItsHeaderIsNotASilentlyShortFile() throws {
        let dir = try temporaryDirectory(self)
        let path = (dir as NSString).appendingPathComponent("damaged.flac")
        var rng = SplitMix64(seed: 1)
        let tone = (0..<(20 * 44100)).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 44100)) }
        try AudioWriter.write(tone, sampleRate: 44100, to: path, as: .flac)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for fraction in [0.3, 0.6] {
            let at = Int(Double(bytes.count) * fraction)
            for i in at..<(at + 2000) { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            let (info, result) = try AudioFileAnalysis.analyse(path: path)
            // Either decoder getting further is fine, as long as a short decode is said.
            XCTAssertTrue(info.durationSeconds > 19 || result.decodeWarning != nil, "\(info.durationSeconds) s, no warning")
        } catch let error as DecodeError {
            XCTAssertTrue("\(error)".contains("decoding failed part-way"), "\(error)")
        }
    }

    /// libsndfile 1.2.0 calls this FFmpeg-made Opus file (corpus-dev's clip_021 at 96 kb/s) malformed
    /// after 47 s; FFmpeg decodes all 282 s.
    func testFFmpegDecodesWhatLibsndfileStopsOnPartWay() throws {
        let clip = try TestPaths.sharedClip("clip_021.ogg")
        let opus = (try temporaryDirectory(self) as NSString).appendingPathComponent("clip.opus")
        let (status, log) = try runTool(try requiredTool("ffmpeg"), ["-v", "error", "-i", clip, "-map", "0:a", "-c:a", "libopus", "-b:a", "96k", opus])
        XCTAssertEqual(status, 0, log)
        let (info, result) = try AudioFileAnalysis.analyse(path: opus)
        XCTAssertEqual(info.durationSeconds, 282.6, accuracy: 0.5)
        XCTAssertNil(result.decodeWarning)
    }
}
