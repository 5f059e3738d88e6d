import Foundation

/// Whether an Ogg file is a chain: streams one after another (a radio recording, files joined
/// with `cat`). libsndfile decodes the first stream only, and its length is that stream's, so the
/// rest was left out without a word; FFmpeg decodes them all. Every stream opens with a page
/// flagged "beginning of stream"; those of streams played together (grouped) all come first, so
/// such a page after any other page starts a stream that follows. The pages are walked by their
/// headers (a mapped file; a few thousand pages for a song); where they stop making sense, the
/// last page's serial number against the first's decides (another serial there is another stream).
enum OggChain {
    static func isChained(path: String) -> Bool {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped), data.count >= 27 else { return false }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            func isPage(at offset: Int) -> Bool {
                offset + 27 <= bytes.count && bytes[offset] == 0x4F && bytes[offset + 1] == 0x67 && bytes[offset + 2] == 0x67
                    && bytes[offset + 3] == 0x53 && bytes[offset + 4] == 0
            }
            guard isPage(at: 0) else { return false }
            var offset = 0, sawData = false
            while isPage(at: offset) {
                let beginsStream = bytes[offset + 5] & 0x02 != 0
                if beginsStream && sawData { return true }
                if !beginsStream { sawData = true }
                let segments = Int(bytes[offset + 26])
                guard offset + 27 + segments <= bytes.count else { return false }
                var body = 0
                for i in 0..<segments { body += Int(bytes[offset + 27 + i]) }
                offset += 27 + segments + body
                if offset == bytes.count { return false }  // walked to the end: one stream (or streams played together)
            }
            // Damaged or cut: the last page in the tail against the first.
            var at = bytes.count - 27
            while at >= max(0, bytes.count - 65_536) {
                if isPage(at: at) { return (14..<18).contains { bytes[at + $0] != bytes[$0] } }
                at -= 1
            }
            return false
        }
    }
}
