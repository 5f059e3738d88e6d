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
            let offline = Int32(RubberBandOptionProcessOffline.rawValue)
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

    /// `channels`: left and right. `anchors`: (input frame, output frame) pairs, increasing, from
    /// (0, 0) to the ends of both. Returns exactly `anchors.last.output` frames per channel.
    public func stretch(_ channels: [[Float]], anchors: [(input: Int, output: Int)]) -> [[Float]] {
        let inputLength = channels[0].count
        guard let last = anchors.last, inputLength > 0, last.output > 0 else { return channels.map { _ in [] } }
        let outputLength = last.output
        let ratio = Double(outputLength) / Double(inputLength)
        if abs(ratio - 1) < 1e-9, anchors.allSatisfy({ $0.input == $0.output }) { return channels }
        let state = rubberband_new(UInt32(sampleRate), 2, quality.options, ratio, 1.0)!
        defer { rubberband_delete(state) }
        rubberband_set_expected_input_duration(state, UInt32(inputLength))
        rubberband_set_max_process_size(state, UInt32(TimeStretcher.block))
        // Inner anchors only: the ends are given by the ratio.
        var from = anchors.dropFirst().dropLast().map { UInt32($0.input) }
        var to = anchors.dropFirst().dropLast().map { UInt32($0.output) }
        if !from.isEmpty { rubberband_set_key_frame_map(state, UInt32(from.count), &from, &to) }

        var left = [Float](), right = [Float]()
        left.reserveCapacity(outputLength + 4096)
        right.reserveCapacity(outputLength + 4096)
        var scratchLeft = [Float](repeating: 0, count: 8192), scratchRight = [Float](repeating: 0, count: 8192)
        func drain() {
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
                left.append(contentsOf: scratchLeft[0..<Int(got)])
                right.append(contentsOf: scratchRight[0..<Int(got)])
            }
        }
        for pass in 0..<2 {
            var start = 0
            while start < inputLength {
                let count = min(TimeStretcher.block, inputLength - start)
                let final: Int32 = start + count >= inputLength ? 1 : 0
                withInput(channels, start: start) { pointers in
                    if pass == 0 { rubberband_study(state, pointers, UInt32(count), final) }
                    else { rubberband_process(state, pointers, UInt32(count), final) }
                }
                if pass == 1 { drain() }
                start += count
            }
        }
        drain()  // what the final block released; then available() is −1
        let output = [left, right]
        // Offline Rubber Band returns the stretched length to within a few frames: make it exact.
        return output.map { channel in
            channel.count >= outputLength ? Array(channel[0..<outputLength])
                : channel + [Float](repeating: 0, count: outputLength - channel.count)
        }
    }

    private func withInput(_ channels: [[Float]], start: Int, _ body: (UnsafePointer<UnsafePointer<Float>?>) -> Void) {
        channels[0].withUnsafeBufferPointer { left in
            channels[channels.count > 1 ? 1 : 0].withUnsafeBufferPointer { right in
                let pointers: [UnsafePointer<Float>?] = [left.baseAddress! + start, right.baseAddress! + start]
                pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
            }
        }
    }
}
