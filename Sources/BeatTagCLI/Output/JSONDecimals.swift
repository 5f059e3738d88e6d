/// A JSON array of numbers rounded to a few decimals, written digit by digit: `list --json` writes
/// some 50 million beat times for a large catalog, and `JSONEncoder` took 20 s over them. The text
/// is the one `JSONEncoder` writes for the rounded values (`Rounding.decimals`): no trailing zeros,
/// no point for a whole number.
enum JSONDecimals {
    static func array(_ values: [Double], decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(values.count * 9 + 2)
        var digits = [UInt8](repeating: 0, count: 24)
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            let scaled = (value * Double(scale)).rounded()
            // Beyond exact integers: Swift's own text (valid JSON); no number: null.
            guard scaled.isFinite else { bytes += Array("null".utf8); continue }
            guard abs(scaled) < 9e15 else { bytes += Array("\(value)".utf8); continue }
            var units = Int64(scaled)
            if units < 0 { bytes.append(UInt8(ascii: "-")); units = -units }
            var whole = units / scale, fraction = units % scale
            var n = 0
            repeat { digits[n] = UInt8(ascii: "0") + UInt8(whole % 10); whole /= 10; n += 1 } while whole > 0
            while n > 0 { n -= 1; bytes.append(digits[n]) }
            guard fraction > 0 else { continue }
            bytes.append(UInt8(ascii: "."))
            var place = scale / 10
            while fraction > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / place))
                fraction %= place
                place /= 10
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
