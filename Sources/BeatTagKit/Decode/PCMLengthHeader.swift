import Foundation

/// How much of the audio a WAV or AIFF header promises the file still holds. Both state their
/// audio's size in bytes (RIFF's `data` chunk, AIFF's `SSND`), and libsndfile quietly reads what
/// is there: a WAV cut to half its length was catalogued as a whole 10-second track. The bytes a
/// header promises against the bytes after its start give the share (any codec of constant rate).
enum PCMLengthHeader {
    /// The held share (below 1 when cut short); nil when unknown: not RIFF/AIFF, a streamed WAV's
    /// size of 0 or 0xFFFFFFFF, RF64, or no audio chunk found in the first chunks.
    static func heldShare(path: String) -> Double? {
        sizes(path: path).map { $0.promised == 0 ? 1 : min(1, Double($0.held) / Double($0.promised)) }
    }

    /// The audio's bytes the file holds and those its header promises; nil as for `heldShare`.
    static func sizes(path: String) -> (held: UInt64, promised: UInt64)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let fileSize = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil,
              let head = try? handle.read(upToCount: 12), head.count == 12 else { return nil }
        let h = [UInt8](head)
        let tag = String(decoding: h[0..<4], as: UTF8.self), form = String(decoding: h[8..<12], as: UTF8.self)
        let bigEndian: Bool, audioChunk: String
        switch (tag, form) {
        case ("RIFF", "WAVE"): (bigEndian, audioChunk) = (false, "data")
        case ("FORM", "AIFF"), ("FORM", "AIFC"): (bigEndian, audioChunk) = (true, "SSND")
        default: return nil
        }
        var offset: UInt64 = 12
        // Chunks before the audio are few and small (fmt, fact, a LIST or ID3 tag); 64 at most.
        for _ in 0..<64 {
            guard (try? handle.seek(toOffset: offset)) != nil, let chunk = try? handle.read(upToCount: 8), chunk.count == 8 else { return nil }
            let c = [UInt8](chunk)
            let size = bigEndian
                ? UInt64(c[4]) << 24 | UInt64(c[5]) << 16 | UInt64(c[6]) << 8 | UInt64(c[7])
                : UInt64(c[7]) << 24 | UInt64(c[6]) << 16 | UInt64(c[5]) << 8 | UInt64(c[4])
            if String(decoding: c[0..<4], as: UTF8.self) == audioChunk {
                // AIFF's sound data starts after an offset and a block size (8 bytes).
                let skip: UInt64 = bigEndian ? 8 : 0
                guard size > skip, size != 0xFFFF_FFFF else { return nil }
                let start = offset + 8 + skip, promised = size - skip
                return (fileSize > start ? fileSize - start : 0, promised)
            }
            offset += 8 + size + (size & 1)  // chunks are padded to an even size
            guard offset < fileSize else { return nil }
        }
        return nil
    }
}
