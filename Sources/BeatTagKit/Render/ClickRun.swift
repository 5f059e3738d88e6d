import Foundation

/// A run with no music: the click alone on the master clock (the fallback when nothing fits the
/// cadence). Streamed in blocks to the output file; ends on a whole phrase.
public enum ClickRun {
    static let blockFrames = 8192

    /// `isCancelled` is asked between blocks; `progress` gets the share done.
    public static func render(spm: Double, seconds: Double, levelDB: Double, to path: String,
                              isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in }) throws -> RenderTimeline {
        let writer = try MixFileWriter(path: path, channels: 2)
        let clock = MasterClock(spm: spm, sampleRate: writer.sampleRate)
        let beats = clock.phrases(closestTo: seconds) * MasterClock.beatsPerPhrase
        let total = Int(clock.frame(ofBeat: beats).value)
        let click = ClickTrack(clock: clock, levelDB: levelDB)
        var mono = [Float](repeating: 0, count: blockFrames)
        var stereo = [Float](repeating: 0, count: blockFrames * 2)
        var done = 0
        while done < total {
            if isCancelled() {
                writer.abandon()
                throw RenderCancelled()
            }
            let count = min(blockFrames, total - done)
            mono.withUnsafeMutableBufferPointer { buffer in
                let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
                block.update(repeating: 0)
                click.add(into: block, startFrame: done)
            }
            for i in 0..<count { stereo[2 * i] = mono[i]; stereo[2 * i + 1] = mono[i] }
            try stereo.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<(2 * count)])) }
            done += count
            progress(Double(done) / Double(total))
        }
        try writer.commit()
        return RenderTimeline(durationSeconds: Double(total) / Double(clock.sampleRate), spm: spm, beats: beats,
                              sampleRate: clock.sampleRate, click: true, tracks: [])
    }
}
