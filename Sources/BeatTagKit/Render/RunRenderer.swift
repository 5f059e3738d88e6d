import Foundation

/// Renders a planned run into one file: excerpts prepared (decoded, stretched, measured) two at a
/// time in parallel, mixed in order on the clock with 4-beat equal-power crossfades, the optional
/// click added, a look-ahead limiter on the sum, streamed to the writer. Memory holds the excerpts
/// being mixed, not the run.
public struct RunRenderer {
    public struct Options: Sendable {
        public var targetLUFS = -14.0
        public var click = false
        public var clickLevelDB = -12.0
        public var quality = TimeStretcher.Quality.standard
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    public var options: Options
    public init(options: Options) { self.options = options }

    public struct Result: Sendable {
        public var timeline: RenderTimeline
        /// Integrated loudness of each excerpt after stretching, before its gain.
        public var loudness: [Double?]
    }

    public func render(_ plan: RunPlan, to path: String, isCancelled: () -> Bool = { false },
                       progress: (Double) -> Void = { _ in }) throws -> Result {
        let writer = try MixFileWriter(path: path, channels: 2)
        guard writer.sampleRate == plan.clock.sampleRate else {
            writer.abandon()
            throw MixWriteError(description: "internal: the plan's clock runs at \(plan.clock.sampleRate) Hz, the file at \(writer.sampleRate)")
        }
        let clock = plan.clock
        let total = Int(clock.frame(ofBeat: plan.totalBeats).value)
        let click = ClickTrack(clock: clock, levelDB: options.clickLevelDB)
        var limiter = Limiter(sampleRate: clock.sampleRate)
        let stretcher = TimeStretcher(quality: options.quality, sampleRate: clock.sampleRate)
        var tracks: [RenderTimeline.Track] = []
        var loudness: [Double?] = []
        // The mix so far: everything before `written` is in the file; `tail` holds frames from
        // `written` on that a track left fading out.
        var written = 0
        var tailLeft: [Float] = [], tailRight: [Float] = []
        // The limiter's output lags by its look-ahead: its first frames (silence) are not written.
        var delayToDrop = limiter.lookaheadFrames

        func emit(_ left: inout [Float], _ right: inout [Float], clickFrom: Int?) throws {
            if isCancelled() { throw RenderCancelled() }
            let count = left.count
            if options.click || clickFrom != nil {
                var mono = [Float](repeating: 0, count: count)
                mono.withUnsafeMutableBufferPointer { click.add(into: $0, startFrame: written) }
                for i in 0..<count where options.click || written + i >= (clickFrom ?? .max) {
                    left[i] += mono[i]; right[i] += mono[i]
                }
            }
            limiter.process(left: &left, right: &right)
            let drop = min(delayToDrop, count)
            delayToDrop -= drop
            try write(Array(left[drop...]), Array(right[drop...]))
            written += count
            progress(Double(written) / Double(total))
        }
        func write(_ left: [Float], _ right: [Float]) throws {
            var interleaved = [Float](repeating: 0, count: 2 * left.count)
            for i in 0..<left.count { interleaved[2 * i] = left[i]; interleaved[2 * i + 1] = right[i] }
            try interleaved.withUnsafeBufferPointer { try writer.write($0) }
        }
        let clickFromFrame = plan.clickCarriesFrom.map { Int(clock.frame(ofBeat: $0).value) }

        do {
            var index = 0
            while index < plan.entries.count {
                // Prepare the next excerpts in parallel, mix them in order.
                let batch = Array(plan.entries[index..<min(plan.entries.count, index + max(1, options.workers))])
                var prepared = [PreparedTrack?](repeating: nil, count: batch.count)
                var failure: Error?
                let lock = NSLock()
                DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                    do {
                        let p = try PreparedTrack.prepare(batch[i], clock: clock, stretcher: stretcher, targetLUFS: options.targetLUFS)
                        lock.lock(); prepared[i] = p; lock.unlock()
                    } catch { lock.lock(); failure = failure ?? error; lock.unlock() }
                }
                if let failure { throw failure }
                for case var track? in prepared {
                    if isCancelled() { throw RenderCancelled() }
                    let isFirst = index == 0
                    shape(&track, clock: clock, fadeIn: !isFirst)
                    // Silence (or the click) up to this track, then the previous track's tail under its start.
                    if written < track.startFrame {
                        var gapLeft = [Float](repeating: 0, count: track.startFrame - written), gapRight = gapLeft
                        try emit(&gapLeft, &gapRight, clickFrom: clickFromFrame)
                    }
                    for i in 0..<min(tailLeft.count, track.left.count) {
                        track.left[i] += tailLeft[i]
                        track.right[i] += tailRight[i]
                    }
                    // Write up to where the next track starts; keep the rest as the new tail.
                    let nextStart = index + 1 < plan.entries.count ? Int(clock.frame(ofBeat: plan.entries[index + 1].mixStartBeat).value) : track.startFrame + track.left.count
                    let now = max(0, min(track.left.count, nextStart - track.startFrame))
                    var block = 0
                    while block < now {
                        let end = min(now, block + 65536)
                        var l = Array(track.left[block..<end]), r = Array(track.right[block..<end])
                        try emit(&l, &r, clickFrom: clickFromFrame)
                        block = end
                    }
                    tailLeft = Array(track.left[now...])
                    tailRight = Array(track.right[now...])
                    tracks.append(RenderTimeline.Track(
                        path: FileWalker.absolutePath(track.entry.track.path),
                        startSeconds: Double(track.startFrame) / Double(clock.sampleRate),
                        endSeconds: Double(track.startFrame + track.left.count) / Double(clock.sampleRate),
                        sourceStartSeconds: track.entry.sourceBeats[0], stretch: track.stretch, beatMap: track.beatMap,
                        sourceBPM: track.entry.track.bpm ?? 0, targetBPM: clock.spm,
                        tempoAdjustAllowed: track.entry.track.tempoAdjustAllowed, segment: nil))
                    loudness.append(track.loudness)
                    index += 1
                }
            }
            // A tail past the last track's start (none when the last track ended the run), then the click to the end.
            if !tailLeft.isEmpty {
                var l = tailLeft, r = tailRight
                if written + l.count > total { l.removeLast(written + l.count - total); r.removeLast(r.count - l.count) }
                try emit(&l, &r, clickFrom: clickFromFrame)
            }
            while written < total {
                var l = [Float](repeating: 0, count: min(65536, total - written)), r = l
                try emit(&l, &r, clickFrom: clickFromFrame)
            }
            // The last look-ahead of the mix is still in the limiter: the file ends exactly at `total`.
            let rest = limiter.flush()
            let keep = limiter.lookaheadFrames - delayToDrop
            try write(Array(rest.left.prefix(keep)), Array(rest.right.prefix(keep)))
            try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
        let timeline = RenderTimeline(durationSeconds: Double(total) / Double(clock.sampleRate), spm: clock.spm, beats: plan.totalBeats,
                                      sampleRate: clock.sampleRate, click: options.click, tracks: tracks)
        return Result(timeline: timeline, loudness: loudness)
    }

    /// Gain, and the fades: equal power over the crossfade's 4 beats at both ends (a 10 ms ramp
    /// where the run starts), so that the two tracks' sum keeps its power.
    private func shape(_ track: inout PreparedTrack, clock: MasterClock, fadeIn: Bool) {
        let gain = Float(pow(10, track.gainDB / 20))
        let fadeFrames = Int(clock.frame(ofBeat: RunPlan.crossfadeBeats).value)
        let count = track.left.count
        let inFrames = fadeIn ? min(count, fadeFrames) : min(count, clock.sampleRate / 100)
        let outFrames = min(count, fadeFrames)
        for i in 0..<count {
            var g = gain
            if i < inFrames { g *= Float(sin(Double.pi / 2 * Double(i) / Double(inFrames))) }
            let fromEnd = count - i
            if fromEnd <= outFrames { g *= Float(sin(Double.pi / 2 * Double(fromEnd) / Double(outFrames))) }
            track.left[i] *= g
            track.right[i] *= g
        }
    }
}
