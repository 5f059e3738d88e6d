/// Identifies a recording by its decoded audio, not its bytes: a retagged or renamed file hashes
/// the same, so hand-entered data can follow it. FNV-1a over the first minute of mono samples,
/// quantised to 16 bits (decoders are deterministic for the same stream).
struct AudioHash {
    private var hash = FNV1a()
    private var remaining: Int

    init(sampleRate: Int, seconds: Int = 60) { remaining = sampleRate * seconds }

    /// `block` holds finite samples (the decoders repair the rest: `SampleRepair`).
    mutating func add(_ block: UnsafeBufferPointer<Float>) {
        let count = min(block.count, remaining)
        guard count > 0, let base = block.baseAddress else { return }
        // The quantising, eight samples at once, was most of the hash's cost (a libm call per
        // sample); FNV-1a itself is one chain and stays sample by sample, so the value is unchanged.
        var h = hash, i = 0
        while i + 8 <= count {
            let q = Self.quantised(UnsafeRawPointer(base + i).loadUnaligned(as: SIMD8<Float>.self))
            for lane in 0..<8 { h.mix(UInt64(UInt16(truncatingIfNeeded: q[lane]))) }
            i += 8
        }
        while i < count {
            h.mix(UInt64(UInt16(bitPattern: Self.quantised(base[i]))))
            i += 1
        }
        hash = h
        remaining -= count
    }

    var value: String { String(hash.value, radix: 16) }

    /// The sample at 16 bits: × 32767, rounded half away from zero, clamped.
    static func quantised(_ sample: Float) -> Int16 { Int16(clamping: Int((sample * 32767).rounded())) }

    /// `quantised` of eight samples, bit for bit (as Int32), in vector operations only (x86-64's
    /// baseline has no vector rounding, and Swift converts a float vector to integers lane by lane):
    /// clamped first (the same result, as the bounds are whole numbers), then rounded by adding
    /// 1.5 · 2^23, which leaves the whole number, ties to even, in the low bits of the sum's pattern;
    /// a tie rounded toward zero is then moved away from it.
    static func quantised(_ samples: SIMD8<Float>) -> SIMD8<Int32> {
        var scaled = samples * 32767
        scaled.replace(with: 32767, where: scaled .> 32767)
        scaled.replace(with: -32768, where: scaled .< -32768)
        let shifted = scaled + 12_582_912
        let cut = scaled - (shifted - 12_582_912)  // exact: ±0.5 at a tie
        var whole = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
        whole.replace(with: whole &+ 1, where: (cut .== 0.5) .& (scaled .> 0))
        whole.replace(with: whole &- 1, where: (cut .== -0.5) .& (scaled .< 0))
        return whole
    }
}
