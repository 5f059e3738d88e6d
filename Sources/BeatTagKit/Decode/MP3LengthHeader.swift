import Foundation

/// Whether an MP3 states its length: a Xing/Info (LAME) or VBRI tag in its first frame carrying
/// the frame count. Then libmpg123's length is that count, and a stream ending well short of it was
/// cut off (an interrupted download). Without one the length is an estimate from the file's size
/// and bitrate, which a cut-off file shrinks with it: nothing to compare.
enum MP3LengthHeader {
    /// How far past the ID3v2 tag the first frame is looked for (padding, junk a tagger left).
    static let searchBytes = 65_536

    static func statesFrameCount(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        var offset: UInt64 = 0
        // ID3v2 tags, possibly more than one: "ID3", version, flags, a syncsafe size (+ a footer).
        while let head = try? handle.read(upToCount: 10), head.count == 10, head.starts(with: Array("ID3".utf8)) {
            let b = [UInt8](head)
            let size = UInt64(b[6] & 0x7F) << 21 | UInt64(b[7] & 0x7F) << 14 | UInt64(b[8] & 0x7F) << 7 | UInt64(b[9] & 0x7F)
            offset += 10 + size + (b[5] & 0x10 != 0 ? 10 : 0)
            try? handle.seek(toOffset: offset)
        }
        try? handle.seek(toOffset: offset)
        guard let data = try? handle.read(upToCount: searchBytes) else { return false }
        return statesFrameCount(afterTags: [UInt8](data))
    }

    /// The same for the bytes from the end of the ID3v2 tags on.
    static func statesFrameCount(afterTags bytes: [UInt8]) -> Bool {
        guard let start = firstFrame(in: bytes) else { return false }
        let version = (bytes[start + 1] >> 3) & 3  // 3: MPEG-1; 2: MPEG-2; 0: MPEG-2.5
        let mono = (bytes[start + 3] >> 6) & 3 == 3
        let sideInfo = version == 3 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        func tag(_ text: String, at position: Int) -> Bool {
            let t = Array(text.utf8)
            return position + t.count <= bytes.count && Array(bytes[position..<position + t.count]) == t
        }
        // Xing/Info follow the side information (and a CRC, where the frame has one); flag 1: frames.
        let crc = bytes[start + 1] & 1 == 0 ? 2 : 0
        for at in Set([start + 4 + sideInfo, start + 4 + sideInfo + crc]) where tag("Xing", at: at) || tag("Info", at: at) {
            if at + 8 <= bytes.count, bytes[at + 7] & 1 != 0 { return true }
        }
        // VBRI (Fraunhofer) sits 32 bytes after the header and always holds the frame count.
        return tag("VBRI", at: start + 36)
    }

    /// The first MPEG audio layer III frame header: sync, a known version, layer III, a bitrate and
    /// sample rate that exist.
    private static func firstFrame(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0..<(bytes.count - 3) where bytes[i] == 0xFF && bytes[i + 1] & 0xE0 == 0xE0 {
            let version = (bytes[i + 1] >> 3) & 3, layer = (bytes[i + 1] >> 1) & 3
            let bitrate = bytes[i + 2] >> 4, rate = (bytes[i + 2] >> 2) & 3
            if version != 1, layer == 1, bitrate != 0, bitrate != 15, rate != 3 { return i }
        }
        return nil
    }
}
