import Foundation

/// Whether an Ogg file is a chain: streams one after another (a radio recording, files joined
/// with `cat`), each with its own serial number. libsndfile decodes the first stream only, and its
/// length is that stream's, so the rest was left out without a word; FFmpeg decodes them all.
/// The first page's serial against the last page's: another serial at the end is another stream.
enum OggChain {
    static func isChained(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 27), head.count == 27, head.starts(with: Array("OggS".utf8)),
              let size = try? handle.seekToEnd() else { return false }
        let first = Array(head[head.startIndex + 14..<head.startIndex + 18])
        let window = min(size, 65_536)
        guard (try? handle.seek(toOffset: size - window)) != nil, let tail = try? handle.read(upToCount: Int(window)) else { return false }
        let bytes = [UInt8](tail), capture = Array("OggS".utf8)
        // The last page header in the tail (version 0, with its serial inside the tail).
        var at = bytes.count - 27
        while at >= 0 {
            if bytes[at] == capture[0], Array(bytes[at..<at + 4]) == capture, bytes[at + 4] == 0 {
                return Array(bytes[at + 14..<at + 18]) != first
            }
            at -= 1
        }
        return false
    }
}
