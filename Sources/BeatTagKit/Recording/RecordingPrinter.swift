import CLibraryLoader
import Foundation

/// Feeds decoded audio to Chromaprint and gives the `RecordingPrint` of its first two minutes.
/// Chromaprint is opened on first use (`OptionalLibrary.chromaprint`); without it there is no printer.
public final class RecordingPrinter {
    private let context: UnsafeMutableRawPointer
    private var framesLeft: Int
    private var buffer: [Int16] = []

    /// nil when Chromaprint is not installed (`OptionalLibrary.chromaprint.unavailableReason` says so) or refuses the rate.
    public init?(sampleRate: Int) {
        guard OptionalLibrary.chromaprint.isAvailable, let context = bt_chromaprint_new() else { return nil }
        guard bt_chromaprint_start(context, Int32(sampleRate), 1) == 1 else {
            bt_chromaprint_free(context)
            return nil
        }
        self.context = context
        framesLeft = Int(RecordingPrint.seconds * Double(sampleRate))
    }

    deinit { bt_chromaprint_free(context) }

    /// Mono samples in −1…1, in order; anything past the first two minutes is ignored.
    public func add(_ block: UnsafeBufferPointer<Float>) {
        guard framesLeft > 0 else { return }
        let count = min(block.count, framesLeft)
        framesLeft -= count
        buffer.removeAll(keepingCapacity: true)
        for i in 0..<count { buffer.append(Int16(max(-32768, min(32767, (block[i] * 32768).rounded())))) }
        _ = buffer.withUnsafeBufferPointer { bt_chromaprint_feed(context, $0.baseAddress, Int32(count)) }
    }

    public func finish() -> RecordingPrint? {
        guard bt_chromaprint_finish(context) == 1 else { return nil }
        var raw: UnsafeMutablePointer<UInt32>?
        var size: Int32 = 0
        guard bt_chromaprint_get_raw(context, &raw, &size) == 1, let raw, size > 0 else { return nil }
        defer { bt_chromaprint_dealloc(raw) }
        var hash: UInt32 = 0
        _ = bt_chromaprint_hash(raw, size, &hash)
        return RecordingPrint(items: Array(UnsafeBufferPointer(start: raw, count: Int(size))), hash: hash)
    }
}
