@testable import BeatTagKit
import BeatTagTestSupport
import Foundation
import XCTest

/// An excerpt's stages (decoded, resampled, stretched) are staged on disk beside the output, not
/// held in memory: a run that plays most of an hour-long mix needs no more memory than a short one.
final class PreparedTrackTests: XCTestCase {
    /// A kick every beat at `bpm`, stereo, `seconds` long.
    private func writeKicks(bpm: Double, seconds: Double, sampleRate: Int, to path: String) throws {
        let frames = Int(seconds * Double(sampleRate)), period = 60 / bpm * Double(sampleRate)
        var samples = [Float](repeating: 0, count: 2 * frames)
        for i in 0..<frames {
            let phase = Double(i).truncatingRemainder(dividingBy: period) / Double(sampleRate)
            let x = Float(0.6 * sin(2 * .pi * 60 * phase) * exp(-30 * phase))
            samples[2 * i] = x
            samples[2 * i + 1] = x
        }
        try AudioWriter.write(samples, channels: 2, sampleRate: sampleRate, to: path, as: .wav)
    }

    private func entry(_ path: String, bpm: Double, beats: Int, stretch: Bool) -> RunPlan.Entry {
        var track = TrackRecord(path: path, fileSize: 1, modifiedAt: 0, now: 0)
        track.bpm = bpm
        return RunPlan.Entry(track: track, sourceBeats: (0..<beats).map { Double($0) * 60 / bpm }, mixStartBeat: 0,
                             phrases: beats / 8, tailBeats: 0, stretchAllowed: stretch, sourceBPM: bpm)
    }

    func testAnExcerptOfTenMinutesIsPreparedWithoutHoldingItInMemory() throws {
        let folder = try temporaryDirectory(self)
        let output = (folder as NSString).appendingPathComponent("run.wav")
        // 8 kHz keeps the test quick; each stage of this excerpt is 38 MB (8 bytes a frame).
        let rate = 8000, beats = 8 * 210
        try OptionalLibrary.rubberBand.require()
        try OptionalLibrary.ebur128.require()
        let clock = MasterClock(spm: 170, sampleRate: rate)
        let stage = Double(Int(Double(beats - 1) * 60 / 168 * Double(rate)) * 8)

        for stretch in [true, false] {
            // Stretched from 168 BPM; played as it is at the cadence.
            let bpm = stretch ? 168.0 : 170.0
            let source = (folder as NSString).appendingPathComponent("long-\(Int(bpm)).wav")
            try writeKicks(bpm: bpm, seconds: 606, sampleRate: rate, to: source)
            let entry = entry(source, bpm: bpm, beats: beats, stretch: stretch)
            XCTAssertTrue(ProcessMemory.resetPeak(), "the peak can be reset here (Linux)")
            let before = try XCTUnwrap(ProcessMemory.residentBytes())
            let track = try PreparedTrack.prepare(entry, clock: clock, stretcher: TimeStretcher(quality: .fast, sampleRate: rate),
                                                  targetLUFS: -14, output: output)
            let growth = Double(try XCTUnwrap(ProcessMemory.peakResidentBytes()) - before)
            XCTAssertLessThan(growth, stage / 4, "stretch \(stretch): \(Int(growth / 1e6)) MB at the peak for a \(Int(stage / 1e6)) MB stage")

            XCTAssertEqual(track.length, clock.frames(forBeats: beats - 1), "the excerpt lasts its beats on the clock")
            XCTAssertEqual(Double(track.audio.frameCount), Double(track.length), accuracy: 16)
            let loudness = try XCTUnwrap(track.loudness, "measured")
            XCTAssertEqual(loudness, -17, accuracy: 6)
            // Read back from the stage: a kick on the first beat and on the last, where the clock has them.
            let lastBeat = clock.frames(forBeats: beats - 2)
            for beat in [0, lastBeat] {
                let window = try track.audio.read(from: beat, count: rate / 20).left
                let rms = (window.reduce(0) { $0 + $1 * $1 } / Float(window.count)).squareRoot()
                XCTAssertGreaterThan(rms, 0.05, "stretch \(stretch): a kick at frame \(beat)")
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix("long-") }
        XCTAssertEqual(left, [], "the stages have no name in the folder")
    }

    /// Resampled block by block as the excerpt decodes, the audio is what one call over the whole
    /// signal gives, sample for sample (the render was so before it streamed).
    func testTheResamplerGivesTheSameSamplesInBlocksAsInOneGo() throws {
        try OptionalLibrary.ffmpeg.require()
        let count = 44_100 * 3
        let left = (0..<count).map { Float(sin(Double($0) * 0.031) * 0.5 + sin(Double($0) * 0.0007) * 0.3) }
        let right = (0..<count).map { Float(cos(Double($0) * 0.017) * 0.4) }
        let whole = try StereoResampler(from: 44_100, to: 48_000)
        var one = left.withUnsafeBufferPointer { l in right.withUnsafeBufferPointer { r in whole.push(left: l, right: r, count: count) } }
        let oneRest = whole.finish()
        one.left += oneRest.left
        one.right += oneRest.right

        let blocks = try StereoResampler(from: 44_100, to: 48_000)
        var inBlocks: (left: [Float], right: [Float]) = ([], [])
        var start = 0, size = 1
        while start < count {
            let n = min(size, count - start)
            let out = left.withUnsafeBufferPointer { l in
                right.withUnsafeBufferPointer { r in
                    blocks.push(left: UnsafeBufferPointer(rebasing: l[start..<(start + n)]),
                                right: UnsafeBufferPointer(rebasing: r[start..<(start + n)]), count: n)
                }
            }
            inBlocks.left += out.left
            inBlocks.right += out.right
            start += n
            size = size * 3 + 7  // uneven, growing blocks
        }
        let rest = blocks.finish()
        inBlocks.left += rest.left
        inBlocks.right += rest.right

        XCTAssertEqual(Double(one.left.count), Double(count) * 48_000 / 44_100, accuracy: 2)
        XCTAssertEqual(inBlocks.left.count, one.left.count)
        XCTAssertTrue(inBlocks.left == one.left && inBlocks.right == one.right, "the same samples")
    }
}
