import CRubberBand
import Foundation

/// Rubber Band (offline) over one excerpt: a stereo signal stretched so that given input frames
/// (the source's beats) land on given output frames (the clock's beats). A key-frame map makes the
/// ratio follow a drifting tempo, so every beat lands, not only the first.
///
/// Engines: `.fast` R2; `.standard` R3 with its short window (the default: R3's quality at R2's
/// speed here); `.fine` full R3. Fed in small blocks: 3.1.2's R3 loses output given a whole track
/// in one `process` call.
public struct TimeStretcher: Sendable {
    public enum Quality: String, CaseIterable, Sendable {
        case fast, standard, fine
        var options: Int32 {
            // One thread per excerpt: R2 splits stereo over two threads otherwise, and then does not
            // give the same output twice (the render already prepares one excerpt per core).
            let offline = Int32(RubberBandOptionProcessOffline.rawValue) | Int32(RubberBandOptionThreadingNever.rawValue)
            switch self {
            case .fast: return offline
            case .standard: return offline | Int32(bitPattern: RubberBandOptionEngineFiner.rawValue) | Int32(RubberBandOptionWindowShort.rawValue)
            case .fine: return offline | Int32(bitPattern: RubberBandOptionEngineFiner.rawValue)
            }
        }
    }

    public var quality: Quality
    public var sampleRate: Int
    static let block = 1024

    public init(quality: Quality = .standard, sampleRate: Int) {
        self.quality = quality
        self.sampleRate = sampleRate
    }

    /// `input`: the excerpt, stereo. `anchors`: (input frame, output frame) pairs, increasing, from
    /// (0, 0) to the ends of both. Writes the stretched excerpt into `output` (within a few frames of
    /// `anchors.last.output`: offline Rubber Band's precision; the reader cuts or pads it) and
    /// returns it; returns `input` itself when the anchors ask for no change, and `output` empty
    /// when there is no input or no output length.
    func stretch(_ input: FrameSpill, anchors: [(input: Int, output: Int)], into output: @autoclosure () throws -> FrameSpill) throws -> FrameSpill {
        let inputLength = input.frameCount
        guard let last = anchors.last, inputLength > 0, last.output > 0 else { return try output() }
        let outputLength = last.output
        let ratio = Double(outputLength) / Double(inputLength)
        if abs(ratio - 1) < 1e-9, anchors.allSatisfy({ $0.input == $0.output }) { return input }
        let output = try output()
        let state = rubberband_new(UInt32(sampleRate), 2, quality.options, ratio, 1.0)!
        defer { rubberband_delete(state) }
        rubberband_set_expected_input_duration(state, UInt32(inputLength))
        rubberband_set_max_process_size(state, UInt32(TimeStretcher.block))
        // Inner anchors only: the ends are given by the ratio.
        var from = anchors.dropFirst().dropLast().map { UInt32($0.input) }
        var to = anchors.dropFirst().dropLast().map { UInt32($0.output) }
        if !from.isEmpty { rubberband_set_key_frame_map(state, UInt32(from.count), &from, &to) }

        var scratchLeft = [Float](repeating: 0, count: 8192), scratchRight = [Float](repeating: 0, count: 8192)
        func drain() throws {
            while true {
                let available = Int(rubberband_available(state))
                guard available > 0 else { return }
                let count = min(available, scratchLeft.count)
                let got = scratchLeft.withUnsafeMutableBufferPointer { l in
                    scratchRight.withUnsafeMutableBufferPointer { r in
                        let pointers: [UnsafeMutablePointer<Float>?] = [l.baseAddress!, r.baseAddress!]
                        return pointers.withUnsafeBufferPointer { rubberband_retrieve(state, $0.baseAddress!, UInt32(count)) }
                    }
                }
                try scratchLeft.withUnsafeBufferPointer { l in
                    try scratchRight.withUnsafeBufferPointer { r in try output.append(left: l, right: r, count: Int(got)) }
                }
            }
        }
        // Read back in chunks, fed in blocks.
        let chunk = 64 * TimeStretcher.block
        for pass in 0..<2 {
            var chunkStart = 0
            while chunkStart < inputLength {
                let (left, right) = try input.read(from: chunkStart, count: min(chunk, inputLength - chunkStart))
                var start = 0
                while start < left.count {
                    let count = min(TimeStretcher.block, left.count - start)
                    let final: Int32 = chunkStart + start + count >= inputLength ? 1 : 0
                    left.withUnsafeBufferPointer { l in
                        right.withUnsafeBufferPointer { r in
                            let pointers: [UnsafePointer<Float>?] = [l.baseAddress! + start, r.baseAddress! + start]
                            pointers.withUnsafeBufferPointer {
                                if pass == 0 { rubberband_study(state, $0.baseAddress!, UInt32(count), final) }
                                else { rubberband_process(state, $0.baseAddress!, UInt32(count), final) }
                            }
                        }
                    }
                    if pass == 1 { try drain() }
                    start += count
                }
                chunkStart += left.count
            }
        }
        try drain()  // what the final block released; then available() is −1
        return output
    }
}
