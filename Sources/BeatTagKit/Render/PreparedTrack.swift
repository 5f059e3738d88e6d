import Foundation

/// One planned excerpt, ready to mix: decoded in stereo, at the mix's rate, stretched so that its
/// beats sit on the clock's, gained to the run's loudness.
struct PreparedTrack {
    var entry: RunPlan.Entry
    var left: [Float]
    var right: [Float]
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

    static func prepare(_ entry: RunPlan.Entry, clock: MasterClock, stretcher: TimeStretcher, targetLUFS: Double) throws -> PreparedTrack {
        let rate = clock.sampleRate
        let (sourceLeft, sourceRight, sourceRate) = try decodeExcerpt(entry.track.path, from: entry.sourceBeats.first!, to: entry.sourceBeats.last!)
        let (left, right) = try StereoResampler.resample(left: sourceLeft, right: sourceRight, from: sourceRate, to: rate)
        let start = entry.sourceBeats[0]
        let startFrame = Int(clock.frame(ofBeat: entry.mixStartBeat).value)
        let anchors = entry.sourceBeats.enumerated().map { j, beat in
            (input: min(left.count, Int(((beat - start) * Double(rate)).rounded())),
             output: Int(clock.frame(ofBeat: entry.mixStartBeat + j).value) - startFrame)
        }
        var stretched: [[Float]]
        if entry.stretchAllowed {
            stretched = stretcher.stretch([left, right], anchors: anchors)
        } else {
            // Never changed: cut or padded to the clock's length (its drift was bounded by the plan).
            let length = anchors.last!.output
            stretched = [left, right].map { ch in ch.count >= length ? Array(ch[0..<length]) : ch + [Float](repeating: 0, count: length - ch.count) }
        }
        let loudness = LoudnessMeter.integratedLoudness(left: stretched[0], right: stretched[1], sampleRate: rate)
        // A gain beyond +12 dB would only lift noise: such a track stays quieter.
        let gainDB = loudness.map { max(-24, min(12, targetLUFS - $0)) } ?? 0
        let sourceSpan = entry.sourceBeats.last! - start
        let mixSpan = Double(anchors.last!.output) / Double(rate)
        let beatMap = entry.sourceBeats.enumerated().map { j, beat in [beat, clock.time(ofBeat: entry.mixStartBeat + j).value] }
        return PreparedTrack(entry: entry, left: stretched[0], right: stretched[1], startFrame: startFrame, gainDB: gainDB,
                             loudness: loudness, stretch: entry.stretchAllowed ? mixSpan / max(sourceSpan, 1e-9) : 1, beatMap: beatMap)
    }

    /// Stereo frames from `from` to `to` seconds of the decoded file, at its own rate.
    /// A file that cannot be read any more is named, with what to do: the catalog describes it as
    /// it was at the last scan (moved, deleted or changed since).
    static func decodeExcerpt(_ path: String, from: Double, to: Double) throws -> ([Float], [Float], Int) {
        do {
            return try decodeExcerptOrThrow(path, from: from, to: to)
        } catch let error as DecodeError {
            switch error {
            case .decoderMissing, .notAudio, .noAudioStream:
                throw PrepareError(description: "\(path): \(error)")
            case .notFound, .cannotOpen, .readFailed, .empty:
                throw PrepareError(description: "\(path): \(error) (changed or gone since the last scan? scan it again)")
            }
        }
    }

    private static func decodeExcerptOrThrow(_ path: String, from: Double, to: Double) throws -> ([Float], [Float], Int) {
        let source = try AudioSources.open(path: path, blockFrames: 8192, layout: .stereo)
        let rate = source.info.sampleRate
        let first = Int((from * Double(rate)).rounded()), last = Int((to * Double(rate)).rounded())
        var left: [Float] = [], right: [Float] = []
        left.reserveCapacity(last - first)
        right.reserveCapacity(last - first)
        var position = 0
        while position < last, try source.readBlock({ block in
            let frames = block.count / 2
            for i in 0..<frames where position + i >= first && position + i < last {
                left.append(block[2 * i])
                right.append(block[2 * i + 1])
            }
            position += frames
        }) {}
        guard !left.isEmpty else { throw PrepareError(description: "\(path): nothing decoded between \(from) and \(to) s") }
        return (left, right, rate)
    }
}

/// The level of each beat of a track (dB, RMS of the mono signal from the beat to the next), to
/// tell quiet intros and outros from the music.
enum BeatLevels {
    static func measure(path: String, beats: [Double]) -> [Double]? {
        guard beats.count > 1, let source = try? AudioSources.open(path: path, blockFrames: 8192) else { return nil }
        let rate = Double(source.info.sampleRate)
        var sums = [Double](repeating: 0, count: beats.count), counts = [Int](repeating: 0, count: beats.count)
        var position = 0, beat = 0
        let edges = beats.map { Int($0 * rate) }
        do {
            while try source.readMonoBlock({ block in
                for (i, x) in block.enumerated() {
                    let frame = position + i
                    while beat + 1 < edges.count, frame >= edges[beat + 1] { beat += 1 }
                    guard frame >= edges[0] else { continue }
                    sums[beat] += Double(x * x)
                    counts[beat] += 1
                }
                position += block.count
            }) {}
        } catch { return nil }
        return zip(sums, counts).map { 10 * log10(max($0 / Double(max($1, 1)), 1e-12)) }
    }
}
