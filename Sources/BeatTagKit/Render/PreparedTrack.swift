import Foundation

/// One planned excerpt, ready to mix: decoded in stereo, at the mix's rate, stretched so that its
/// beats sit on the clock's, measured for the run's loudness. Each stage is staged on disk beside
/// the output (`FrameSpill`), so memory does not grow with how long the excerpt plays.
struct PreparedTrack {
    var entry: RunPlan.Entry
    /// The excerpt as it plays: its first `length` frames (silence past the stretcher's output).
    var audio: FrameSpill
    var length: Int
    /// Mix frame of the excerpt's first frame (its first beat).
    var startFrame: Int
    var gainDB: Double
    var loudness: Double?
    /// Mix seconds per source second over the whole excerpt.
    var stretch: Double
    /// [source seconds, mix seconds] of every beat used.
    var beatMap: [[Double]]

    struct PrepareError: Error, CustomStringConvertible {
        var description: String
    }

    /// `output`: the run's file, beside which the stages are staged.
    static func prepare(_ entry: RunPlan.Entry, clock: MasterClock, stretcher: TimeStretcher, targetLUFS: Double, output: String) throws -> PreparedTrack {
        let rate = clock.sampleRate
        let source = try decodeExcerpt(entry.track, from: entry.sourceBeats.first!, to: entry.sourceBeats.last!, rate: rate,
                                       into: FrameSpill(beside: output))
        let start = entry.sourceBeats[0]
        let startFrame = Int(clock.frame(ofBeat: entry.mixStartBeat).value)
        let anchors = entry.sourceBeats.enumerated().map { j, beat in
            (input: min(source.frameCount, Int(((beat - start) * Double(rate)).rounded())),
             output: Int(clock.frame(ofBeat: entry.mixStartBeat + j).value) - startFrame)
        }
        // Never changed when its rights say so: cut or padded to the clock's length (its drift was bounded by the plan).
        let audio = entry.stretchAllowed ? try stretcher.stretch(source, anchors: anchors, into: try FrameSpill(beside: output)) : source
        let length = anchors.last!.output
        let loudness = try LoudnessMeter.integratedLoudness(of: audio, frames: length, sampleRate: rate)
        // A gain beyond +12 dB would only lift noise: such a track stays quieter.
        let gainDB = loudness.map { max(-24, min(RunRenderer.maxGainDB, targetLUFS - $0)) } ?? 0
        let sourceSpan = entry.sourceBeats.last! - start
        let mixSpan = Double(length) / Double(rate)
        // Where each beat plays: on the clock when stretched; an unstretched track plays at its own
        // pace from its first beat (the map said the clock, up to 32 ms off the audio).
        let startSeconds = Double(startFrame) / Double(rate)
        let beatMap = entry.sourceBeats.enumerated().map { j, beat in
            [beat, entry.stretchAllowed ? clock.time(ofBeat: entry.mixStartBeat + j).value : startSeconds + (beat - start)]
        }
        return PreparedTrack(entry: entry, audio: audio, length: length, startFrame: startFrame, gainDB: gainDB,
                             loudness: loudness, stretch: entry.stretchAllowed ? mixSpan / max(sourceSpan, 1e-9) : 1, beatMap: beatMap)
    }

    /// Stereo frames from `from` to `to` seconds of the decoded file, resampled to `rate`, into `spill`.
    /// A file that cannot be read any more is named, with what to do: the catalog describes it as
    /// it was at the last scan (moved, deleted or changed since).
    static func decodeExcerpt(_ track: TrackRecord, from: Double, to: Double, rate: Int, into spill: FrameSpill) throws -> FrameSpill {
        let path = track.path
        do {
            try decodeExcerptOrThrow(path, decoder: track.decoderLibrary, from: from, to: to, rate: rate, into: spill)
            return spill
        } catch let error as DecodeError {
            switch error {
            case .decoderMissing, .notAudio, .noAudioStream:
                throw PrepareError(description: "\(path): \(error)")
            case .notFound, .cannotOpen, .readFailed, .empty:
                throw PrepareError(description: "\(path): \(error) (changed or gone since the last scan? scan it again)")
            }
        }
    }

    /// `decoder`: the one the track's beats were found with, so that they fall where it put them.
    private static func decodeExcerptOrThrow(_ path: String, decoder: DecoderLibrary?, from: Double, to: Double, rate: Int, into spill: FrameSpill) throws {
        let source = try AudioSources.open(path: path, blockFrames: 8192, layout: .stereo, decoder: decoder)
        let sourceRate = source.info.sampleRate
        let resampler = sourceRate == rate ? nil : try StereoResampler(from: sourceRate, to: rate)
        let first = Int((from * Double(sourceRate)).rounded()), last = Int((to * Double(sourceRate)).rounded())
        // The frames of each block inside the excerpt, interleaved as decoded; split into channels
        // only for the resampler.
        var inside: [Float] = [], left: [Float] = [], right: [Float] = []
        var position = 0, decoded = 0
        while position < last {
            inside.removeAll(keepingCapacity: true)
            let more = try source.readBlock { block in
                let frames = block.count / 2
                let start = max(0, first - position), end = min(frames, last - position)
                if end > start { inside.append(contentsOf: block[(2 * start)..<(2 * end)]) }
                position += frames
            }
            let count = inside.count / 2
            decoded += count
            if count > 0, let resampler {
                if left.count < count { left = [Float](repeating: 0, count: count); right = left }
                for i in 0..<count {
                    left[i] = inside[2 * i]
                    right[i] = inside[2 * i + 1]
                }
                let out = left.withUnsafeBufferPointer { l in right.withUnsafeBufferPointer { r in resampler.push(left: l, right: r, count: count) } }
                try spill.append(left: out.left, right: out.right)
            } else {
                try inside.withUnsafeBufferPointer { try spill.append(interleaved: $0) }
            }
            if !more { break }
        }
        guard decoded > 0 else { throw PrepareError(description: "\(path): nothing decoded between \(from) and \(to) s") }
        if let resampler {
            let rest = resampler.finish()
            try spill.append(left: rest.left, right: rest.right)
        }
    }
}

/// The level of each beat of a track (dB, RMS of the mono signal from the beat to the next), to
/// tell quiet intros and outros from the music.
enum BeatLevels {
    static func measure(_ track: TrackRecord, beats: [Double]) -> [Double]? {
        guard beats.count > 1, let source = try? AudioSources.open(path: track.path, blockFrames: 8192, decoder: track.decoderLibrary) else { return nil }
        let rate = Double(source.info.sampleRate)
        var sums = [Double](repeating: 0, count: beats.count), counts = [Int](repeating: 0, count: beats.count)
        var position = 0, beat = 0
        let edges = beats.map { Int($0 * rate) }
        do {
            // A file that stops decoding part-way is measured as far as it decodes (beats past it are silent).
            try source.readToEnd { block in
                for (i, x) in block.enumerated() {
                    let frame = position + i
                    while beat + 1 < edges.count, frame >= edges[beat + 1] { beat += 1 }
                    guard frame >= edges[0] else { continue }
                    sums[beat] += Double(x * x)
                    counts[beat] += 1
                }
                position += block.count
            }
        } catch { return nil }
        return zip(sums, counts).map { 10 * log10(max($0 / Double(max($1, 1)), 1e-12)) }
    }
}
