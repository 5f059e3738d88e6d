/// 64-bit FNV-1a: a fast, stable, non-cryptographic hash (fingerprints of bytes and of decoded audio).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) mutating func mix(_ unit: UInt64) {
        value = (value ^ unit) &* 0x0000_0100_0000_01b3
    }
}
