/// Samples no recording holds: values that are not numbers (NaN) or are infinite, as a damaged
/// float file or a broken export can carry, and finite ones far beyond full scale. One NaN stopped
/// the analysis (it cannot be quantised for `AudioHash`), and any of them runs through every filter
/// of the analysis and of a mix, or stands 96 dB above the music as a click the tempo locks onto.
/// Both decoders hand every sample over through this (after folding to mono or stereo: a NaN in
/// one channel silences that frame): a damaged one becomes silence, which for a single sample
/// nobody hears. Hot float files (beyond ±1) and files written at 16-bit or 24-bit integer scale
/// (±32768, ±8388608: a known broken export) pass unchanged, as does every sample of an intact
/// recording; every stage of the analysis and the mix stays finite up to the ceiling.
enum SampleRepair {
    /// Beyond this a sample is damaged: twice the largest sample of a float file at 24-bit integer scale.
    static let ceiling: Float = 16_777_216

    /// Repairs the `count` values at `p` in place; returns how many it changed. Eight at a time:
    /// every sample of every file passes through here.
    static func inPlace(_ p: UnsafeMutablePointer<Float>, count: Int) -> Int {
        var repaired = 0, i = 0
        while i + 8 <= count {
            let eight = UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
            if !all((eight .<= ceiling) .& (eight .>= -ceiling)) {  // false for NaN too
                repaired += repair(p + i, count: 8)
            }
            i += 8
        }
        return repaired + repair(p + i, count: count - i)
    }

    private static func repair(_ p: UnsafeMutablePointer<Float>, count: Int) -> Int {
        var repaired = 0
        for i in 0..<count where !(abs(p[i]) <= ceiling) {
            p[i] = 0
            repaired += 1
        }
        return repaired
    }
}
