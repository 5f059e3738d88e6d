import Foundation

/// Renders a planned run into one file: excerpts prepared (decoded, stretched, measured) one per
/// core in parallel, mixed in order on the clock with 4-beat equal-power crossfades, the optional
/// click added, a look-ahead limiter on the sum, streamed to the writer. Excerpts wait on disk
/// (`FrameSpill`): memory holds blocks and crossfade tails, not the excerpts or the run.
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

    /// A spoken cue: its words, already synthesized at the mix's rate, and where it starts.
    public struct Cue: Sendable {
        public var text: String
        public var samples: [Float]
        public var startFrame: Int
        public init(text: String, samples: [Float], startFrame: Int) {
            self.text = text
            self.samples = samples
            self.startFrame = startFrame
        }
    }

    /// A quiet track is raised this much at most: more would bring up its noise with it.
    public static let maxGainDB = 12.0

    /// Music under a cue: 10 dB down, with 100 ms ramps.
    static let duckGain: Float = 0.316
    static let duckRampSeconds = 0.1

    public struct Result: Sendable {
        public var timeline: RenderTimeline
        /// Integrated loudness of each excerpt after stretching, before its gain.
        public var loudness: [Double?]
        /// Integrated loudness of the whole file as written (nil for a click alone, or silence).
        public var runLoudness: Double?
    }

    /// The libraries a mix of music needs (stretching and loudness), checked before anything is
    /// written or said about the run: a click alone needs neither.
    public static func requireLibraries(for plans: [RunPlan]) throws {
        guard plans.contains(where: { !$0.entries.isEmpty }) else { return }
        try OptionalLibrary.rubberBand.require()
        try OptionalLibrary.ebur128.require()
    }

    /// One plan (a run at one cadence) or several, one after another (a workout's segments, each on
    /// its own clock starting where the previous one ends).
    public func render(_ plans: [RunPlan], cues: [Cue] = [], to path: String, isCancelled: () -> Bool = { false },
                       progress: (Double) -> Void = { _ in }) throws -> Result {
        try Self.requireLibraries(for: plans)
        let writer = try MixFileWriter(path: path, channels: 2)
        guard let lastPlan = plans.last, plans.allSatisfy({ $0.clock.sampleRate == writer.sampleRate }) else {
            writer.abandon()
            throw MixWriteError(description: "internal: no plan, or a plan's clock is not at the file's \(writer.sampleRate) Hz")
        }
        let rate = writer.sampleRate
        let total = Int(lastPlan.clock.frame(ofBeat: lastPlan.totalBeats).value)
        var limiter = Limiter(ceilingDB: writer.format.truePeakCeilingDB, sampleRate: rate)
        let stretcher = TimeStretcher(quality: options.quality, sampleRate: rate)
        let duckRamp = Int(RunRenderer.duckRampSeconds * Double(rate))
        var tracks: [RenderTimeline.Track] = []
        var loudness: [Double?] = []
        // The mix so far: everything before `written` is in the file; `tail` holds frames from
        // `written` on that a track left fading out.
        var written = 0
        var tailLeft: [Float] = [], tailRight: [Float] = []
        // The limiter's output lags by its look-ahead: its first frames (silence) are not written.
        var delayToDrop = limiter.lookaheadFrames
        // The run as written: what the limiter left of the loudness asked for.
        let meter = plans.contains(where: { !$0.entries.isEmpty }) ? LoudnessMeter.Stream(sampleRate: rate) : nil

        // Preparing (decoding, stretching) is most of the work, and the mix follows it: the share of
        // the run prepared, else written, whichever is further, never going back (a long run's bar
        // stood still at 36% for 40 s while the next tracks were stretched).
        let reportLock = NSLock()
        var reported = 0.0
        func report(_ frames: Int) {
            let fraction = min(1, Double(frames) / Double(max(1, total)))
            reportLock.lock(); defer { reportLock.unlock() }
            guard fraction > reported else { return }
            reported = fraction
            progress(fraction)
        }
        var click = ClickTrack(clock: plans[0].clock, levelDB: options.clickLevelDB)
        func emit(_ left: inout [Float], _ right: inout [Float], clickFrom: Int?) throws {
            if isCancelled() { throw RenderCancelled() }
            let count = left.count
            // Cues: the music ducks under each, then the words are added.
            for cue in cues where cue.startFrame - duckRamp < written + count && cue.startFrame + cue.samples.count + duckRamp > written {
                let start = cue.startFrame, end = cue.startFrame + cue.samples.count
                for i in 0..<count {
                    let frame = written + i
                    let into = Float(frame - (start - duckRamp)) / Float(duckRamp), out = Float(end + duckRamp - frame) / Float(duckRamp)
                    let ramp = max(0, min(1, min(into, out)))
                    let g = 1 - (1 - RunRenderer.duckGain) * ramp
                    left[i] *= g
                    right[i] *= g
                    if frame >= start, frame < end { left[i] += cue.samples[frame - start]; right[i] += cue.samples[frame - start] }
                }
            }
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
            report(written)
        }
        func write(_ left: [Float], _ right: [Float]) throws {
            var interleaved = [Float](repeating: 0, count: 2 * left.count)
            for i in 0..<left.count { interleaved[2 * i] = left[i]; interleaved[2 * i + 1] = right[i] }
            try interleaved.withUnsafeBufferPointer {
                meter?.add(interleaved: $0)
                try writer.write($0)
            }
        }

        do {
          for plan in plans {
            let clock = plan.clock
            click = ClickTrack(clock: clock, levelDB: options.clickLevelDB)
            let clickFromFrame = plan.clickCarriesFrom.map { Int(clock.frame(ofBeat: $0).value) }
            var index = 0
            while index < plan.entries.count {
                // Prepare the next excerpts in parallel, mix them in order.
                let batch = Array(plan.entries[index..<min(plan.entries.count, index + max(1, options.workers))])
                var prepared = [PreparedTrack?](repeating: nil, count: batch.count)
                var failure: Error?
                let lock = NSLock()
                DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                    do {
                        let p = try PreparedTrack.prepare(batch[i], clock: clock, stretcher: stretcher, targetLUFS: options.targetLUFS, output: path)
                        lock.lock(); prepared[i] = p; lock.unlock()
                        report(p.startFrame + p.length)
                    } catch { lock.lock(); failure = failure ?? error; lock.unlock() }
                }
                if let failure { throw failure }
                for case let track? in prepared {
                    if isCancelled() { throw RenderCancelled() }
                    let isFirst = index == 0
                    let fades = Fades(track, clock: clock, fadeIn: !isFirst)
                    // Silence (or the click) up to this track, then the previous track's tail under its start.
                    if written < track.startFrame {
                        var gapLeft = [Float](repeating: 0, count: track.startFrame - written), gapRight = gapLeft
                        try emit(&gapLeft, &gapRight, clickFrom: clickFromFrame)
                    }
                    let previousTail = (left: tailLeft, right: tailRight)
                    var dcBlocker = DCBlocker(sampleRate: clock.sampleRate)
                    // Frames `range` of the track as they sound (read in order): without DC, faded,
                    // gained, over the previous tail.
                    func mixed(_ range: Range<Int>) throws -> (left: [Float], right: [Float]) {
                        var (l, r) = try track.audio.read(from: range.lowerBound, count: range.count)
                        dcBlocker.process(&l, &r)
                        for i in 0..<range.count {
                            let g = fades.gain(at: range.lowerBound + i)
                            l[i] *= g
                            r[i] *= g
                        }
                        for i in range.clamped(to: 0..<previousTail.left.count) {
                            l[i - range.lowerBound] += previousTail.left[i]
                            r[i - range.lowerBound] += previousTail.right[i]
                        }
                        return (l, r)
                    }
                    // Write up to where the next track starts; keep the rest as the new tail.
                    let nextStart = index + 1 < plan.entries.count ? Int(clock.frame(ofBeat: plan.entries[index + 1].mixStartBeat).value) : track.startFrame + track.length
                    let now = max(0, min(track.length, nextStart - track.startFrame))
                    var block = 0
                    while block < now {
                        let end = min(now, block + 65536)
                        var (l, r) = try mixed(block..<end)
                        try emit(&l, &r, clickFrom: clickFromFrame)
                        block = end
                    }
                    (tailLeft, tailRight) = try mixed(now..<track.length)
                    tracks.append(RenderTimeline.Track(
                        path: FileWalker.absolutePath(track.entry.track.path),
                        startSeconds: Double(track.startFrame) / Double(clock.sampleRate),
                        endSeconds: Double(track.startFrame + track.length) / Double(clock.sampleRate),
                        sourceStartSeconds: track.entry.sourceBeats[0], stretch: track.stretch, beatMap: track.beatMap,
                        // An unstretched track plays at its own tempo, whatever the clock's.
                        sourceBPM: track.entry.sourceBPM, targetBPM: track.entry.stretchAllowed ? clock.spm : track.entry.sourceBPM,
                        tempoAdjustAllowed: track.entry.track.tempoAdjustAllowed, segment: plan.segment, fill: track.entry.fill))
                    loudness.append(track.loudness)
                    index += 1
                }
            }
            // A tail past the last track's start (none when the last track ended the plan), then the click to its end.
            let planEnd = Int(clock.frame(ofBeat: plan.totalBeats).value)
            if !tailLeft.isEmpty {
                var l = tailLeft, r = tailRight
                if written + l.count > planEnd { l.removeLast(written + l.count - planEnd); r.removeLast(r.count - l.count) }
                try emit(&l, &r, clickFrom: clickFromFrame)
                tailLeft = []; tailRight = []
            }
            while written < planEnd {
                var l = [Float](repeating: 0, count: min(65536, planEnd - written)), r = l
                try emit(&l, &r, clickFrom: clickFromFrame)
            }
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
        var timeline = RenderTimeline(
            durationSeconds: Double(total) / Double(rate), spm: plans[0].clock.spm, beats: plans.map(\.totalBeats).reduce(0, +),
            sampleRate: rate, click: options.click, tracks: tracks,
            segments: plans.map { p in
                RenderTimeline.Segment(name: p.segment, spm: p.clock.spm, startSeconds: p.clock.origin.value,
                                       endSeconds: p.clock.time(ofBeat: p.totalBeats).value,
                                       clickFromSeconds: p.clickCarriesFrom.map { p.clock.time(ofBeat: $0).value })
            },
            cues: cues.map { RenderTimeline.Cue(text: $0.text, startSeconds: Double($0.startFrame) / Double(rate),
                                                endSeconds: Double($0.startFrame + $0.samples.count) / Double(rate)) })
        timeline.measureShortfall()
        return Result(timeline: timeline, loudness: loudness, runLoudness: meter?.integrated)
    }

    /// Gain, and the fades: equal power over the crossfade's 4 beats at both ends (a 10 ms ramp
    /// where the run starts), so that the two tracks' sum keeps its power.
    private struct Fades {
        let gain: Float, count: Int, inFrames: Int, outFrames: Int

        init(_ track: PreparedTrack, clock: MasterClock, fadeIn: Bool) {
            gain = Float(pow(10, track.gainDB / 20))
            let fadeFrames = clock.frames(forBeats: RunPlan.crossfadeBeats)
            count = track.length
            inFrames = fadeIn ? min(count, fadeFrames) : min(count, clock.sampleRate / 100)
            outFrames = min(count, fadeFrames)
        }

        func gain(at i: Int) -> Float {
            var g = gain
            if i < inFrames { g *= Float(sin(Double.pi / 2 * Double(i) / Double(inFrames))) }
            let fromEnd = count - i
            if fromEnd <= outFrames { g *= Float(sin(Double.pi / 2 * Double(fromEnd) / Double(outFrames))) }
            return g
        }
    }
}
