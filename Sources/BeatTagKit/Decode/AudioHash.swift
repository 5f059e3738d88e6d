/// Identifies a recording by its decoded audio, not its bytes: a retagged or renamed file hashes
/// the same, so hand-entered data can follow it. FNV-1a over the first minute of mono samples,
/// quantised to 16 bits (decoders are deterministic for the same stream).
struct AudioHash {
    private var hash = FNV1a()
    private var remaining: Int

    init(sampleRate: Int, seconds: Int = 60) { remaining = sampleRate * seconds }

    mutating func add(_ block: UnsafeBufferPointer<Float>) {
        let count = min(block.count, remaining)
        guard count > 0 else { return }
        for i in 0..<count {
            let quantised = Int16(clamping: Int((block[i] * 32767).rounded()))
            hash.mix(UInt64(UInt16(bitPattern: quantised)))
        }
        remaining -= count
    }

    var value: String { String(hash.value, radix: 16) }
}
