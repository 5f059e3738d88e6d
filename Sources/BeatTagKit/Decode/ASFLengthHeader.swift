import Foundation

/// The play length an ASF (WMA) file's header states. FFmpeg estimates a WMA's length from the
/// bytes there are, so a download cut at a third looked whole to it: 11.7 s of a 33.5 s file were
/// catalogued as a whole track with "38 ms lost to damage". The File Properties Object states it.
enum ASFLengthHeader {
    static let headerObject: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    static let filePropertiesObject: [UInt8] = [0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65]

    /// Seconds of audio, nil when unknown (not ASF, a broadcast stream, no such object).
    static func statedSeconds(path: String) -> Double? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 30), head.count == 30, Array(head.prefix(16)) == headerObject else { return nil }
        let objects = Int(littleEndian(Array(head), at: 24, bytes: 4))
        var offset: UInt64 = 30
        for _ in 0..<min(objects, 64) {
            guard (try? handle.seek(toOffset: offset)) != nil, let box = try? handle.read(upToCount: 104), box.count >= 24 else { return nil }
            let b = Array(box), size = littleEndian(b, at: 16, bytes: 8)
            if Array(b.prefix(16)) == filePropertiesObject, b.count >= 92 {
                let playDuration = littleEndian(b, at: 64, bytes: 8), preroll = littleEndian(b, at: 80, bytes: 8)
                let flags = littleEndian(b, at: 88, bytes: 4)
                guard flags & 1 == 0, playDuration > 0 else { return nil }  // broadcast: the length is not known
                let seconds = Double(playDuration) / 1e7 - Double(preroll) / 1000
                return seconds > 0 ? seconds : nil
            }
            guard size >= 24 else { return nil }
            offset += size
        }
        return nil
    }

    private static func littleEndian(_ b: [UInt8], at offset: Int, bytes: Int) -> UInt64 {
        (0..<bytes).reduce(UInt64(0)) { $0 | UInt64(b[offset + $1]) << (8 * UInt64($1)) }
    }
}
