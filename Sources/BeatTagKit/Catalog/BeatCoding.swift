import Foundation

/// Beat times as packed little-endian Float32: 4 bytes a beat, a 4-minute track in under 3 KB.
public enum BeatCoding {
    public static func encode(_ beats: [Double]) -> Data {
        var data = Data(capacity: beats.count * 4)
        for beat in beats {
            var bits = Float(beat).bitPattern.littleEndian
            withUnsafeBytes(of: &bits) { data.append(contentsOf: $0) }
        }
        return data
    }

    public static func decode(_ data: Data) -> [Double] {
        var beats: [Double] = []
        beats.reserveCapacity(data.count / 4)
        var index = data.startIndex
        while index + 4 <= data.endIndex {
            var bits: UInt32 = 0
            withUnsafeMutableBytes(of: &bits) { $0.copyBytes(from: data[index..<index + 4]) }
            beats.append(Double(Float(bitPattern: UInt32(littleEndian: bits))))
            index += 4
        }
        return beats
    }
}
